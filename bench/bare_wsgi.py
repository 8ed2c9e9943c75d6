"""The app as `wsgi:app` serves it, plus one bare endpoint for the load benchmark's floor.

`gunicorn -c gunicorn.conf.py bench.bare_wsgi:app` (from the project root): the same
app, the same server and the same workers, with GET /bench/bare answering "ok" without
touching the database or a template. The load benchmark (`python -m bench.load`)
measures it under load as the least any request can cost there. The app's own code is
unchanged.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine, ExceptionContext

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root

from companion import create_app

app = create_app()


@app.get("/bench/bare")
def bare() -> str:
    return "ok"


# Diagnostics only: the app answers a database error with a 503 page and logs nothing;
# the benchmark wants the cause in the server log (the app's behaviour is unchanged).
@event.listens_for(Engine, "handle_error")
def log_database_error(context: ExceptionContext) -> None:
    print(
        f"[bench] database error in pid {os.getpid()}: "
        f"{type(context.original_exception).__name__}: {context.original_exception}",
        file=sys.stderr,
        flush=True,
    )
