"""Production server settings: `gunicorn -c gunicorn.conf.py wsgi:app`.

Everything can be set from the environment; see docs/OPERATIONS.md.
"""

import multiprocessing
import os

bind = os.environ.get("BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
# Create the app (and apply the migrations) once, before the workers fork.
preload_app = True
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
accesslog = os.environ.get("ACCESS_LOG", "-") or None
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
