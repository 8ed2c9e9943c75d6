"""Fixtures shared by every kind of test: the production server (`gunicorn`)."""

pytest_plugins = ["tests.servers"]
