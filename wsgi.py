"""The WSGI entry point: `gunicorn wsgi:app`, `flask --app wsgi run`."""

from companion import create_app

app = create_app()
