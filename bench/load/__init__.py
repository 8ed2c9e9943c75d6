"""Load benchmark of the real server: `python -m bench.load --help` (see __main__.py)."""
