"""The WSGI entry point: `gunicorn wsgi:app`, `flask --app wsgi run`."""

from companion import create_app, load_what_loads_on_first_use

app = create_app()
# gunicorn forks its workers from this process (preload_app): what the app loads on first
# use is loaded here once, shared by the workers and frozen (gunicorn.conf.py).
load_what_loads_on_first_use()
