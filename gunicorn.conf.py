"""Production server settings: `gunicorn -c gunicorn.conf.py wsgi:app`.

Everything can be set from the environment; see docs/OPERATIONS.md.
"""

import gc
import logging
import multiprocessing
import os
import re

from gunicorn.glogging import Logger

from companion.settings import worker_threads

bind = os.environ.get("BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
# One worker per core by default, and at least two (one slow request must not hold up
# every phone): a request here is CPU work with at most a sub-millisecond wait for the
# database, so more processes than cores cost latency (docs/PERFORMANCE.md measures it).
workers = int(os.environ.get("WEB_CONCURRENCY", max(2, multiprocessing.cpu_count())))
# Threaded workers: a client that sends its request slowly holds one thread while it
# dribbles, not a whole worker (with sync workers, four such clients stopped the server:
# docs/OPERATIONS.md, "Slow clients"). It takes workers x threads of them to starve the
# server now; behind a buffering proxy (deploy/) none reach it at all. That safety has a
# price under load: threads that have work take turns at the GIL, which stretches every
# request (at 130 tables on 2 cores, recording a play's p99 about 10x that of one
# thread a worker: docs/PERFORMANCE.md, "Server shapes"). Behind a proxy that reads each
# answer whole too (deploy/'s both), two are enough: make serve-https runs two.
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
# GUNICORN_THREADS (32), read where the database pools are sized from it too.
threads = worker_threads()
# Create the app (and apply the migrations) once, before the workers fork.
preload_app = True
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
# Access log: standard output by default, a file path, or "" for none. Error log
# (gunicorn's own lines and the app's audit trail, companion.audit): standard error.
accesslog = os.environ.get("ACCESS_LOG", "-") or None
errorlog = os.environ.get("ERROR_LOG", "-")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def when_ready(server):  # type: ignore[no-untyped-def]
    """The server's shape as gunicorn settled it (the environment, then the command
    line): the load benchmark reports it from this line."""
    workers, threads = server.num_workers, server.cfg.threads
    server.log.info(
        "Serving: %d worker%s x %d thread%s (%s)",
        workers,
        "s" * (workers != 1),
        threads,
        "s" * (threads != 1),
        server.cfg.worker_class_str,
    )
    limits = getattr(server.app.callable, "extensions", {}).get("rate_limits")
    if workers > 1 and limits is not None and limits.per_process:
        server.log.warning(
            "Rate limits count in each worker's memory: a client may reach each limit once "
            "per worker (%d times). To count them once, in Redis: "
            "COMPANION_RATELIMIT_STORAGE_URI=redis://host:6379/0 (make serve starts one; "
            "docs/OPERATIONS.md, Limits on work).",
            workers,
        )
    # What the server has loaded before its workers fork (the app, its templates, the
    # engine's tables: about 130,000 objects) lives as long as it does. Frozen, a full
    # collection in a worker walks only what its requests made; it walked them all, a
    # 70-80 ms pause every few seconds under load (docs/PERFORMANCE.md). Collected
    # first, so no garbage of the start is kept for good (the holes it leaves in memory
    # pages cost a little copy-on-write in the workers; the pauses were the point).
    gc.collect()
    gc.freeze()


def on_reload(server):  # type: ignore[no-untyped-def]
    """A reload (SIGHUP) loads the app anew in the master: the old one let go of, the new
    one frozen as at start (when_ready runs only once)."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


class ToErrorLog(logging.Handler):
    """Hands the app's log records to gunicorn's error log, wherever that is set to go
    (and still after gunicorn reopens or replaces its handlers)."""

    def emit(self, record: logging.LogRecord) -> None:
        error_log = logging.getLogger("gunicorn.error")
        if error_log.isEnabledFor(record.levelno):  # gunicorn's --log-level
            error_log.handle(record)


# The app's own lines (logger "companion": errors, and the audit trail companion.audit,
# one line per change to a match) go to gunicorn's error log, from INFO up. Set here,
# before gunicorn loads the app, so Flask adds no handler of its own.
_app_log = logging.getLogger("companion")
_app_log.setLevel(logging.INFO)
_app_log.addHandler(ToErrorLog())
_app_log.propagate = False


# A share link's token (/j/<token>, /v/<token>) opens the match as an editor or a
# viewer: it must not be in the access log, which more people read than the database.
SHARE_LINK = re.compile(r"/([jv])/[^/?#\s\"]+")


class LinksHidden(Logger):
    """gunicorn's logger, with share links' tokens cut out of every access log field
    (the request line, the path, the referrer, ...)."""

    def atoms(self, resp, req, environ, request_time):  # type: ignore[no-untyped-def]
        atoms = super().atoms(resp, req, environ, request_time)
        return {
            key: SHARE_LINK.sub(r"/\1/(token)", value) if isinstance(value, str) else value
            for key, value in atoms.items()
        }


logger_class = LinksHidden
