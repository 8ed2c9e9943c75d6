"""Production server settings: `gunicorn -c gunicorn.conf.py wsgi:app`.

Everything can be set from the environment; see docs/OPERATIONS.md.
"""

import multiprocessing
import os

bind = os.environ.get("BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
# One sync worker per core by default, and at least two (one slow request must not hold
# up every phone): a request here is CPU work with at most a sub-millisecond wait for
# the database, and every idle sync worker wakes for each new connection, so more
# workers than cores cost latency (docs/PERFORMANCE.md measures it).
workers = int(os.environ.get("WEB_CONCURRENCY", max(2, multiprocessing.cpu_count())))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
# Create the app (and apply the migrations) once, before the workers fork.
preload_app = True
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
accesslog = os.environ.get("ACCESS_LOG", "-") or None
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
