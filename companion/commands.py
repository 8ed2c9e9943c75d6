"""Commands for whoever runs the server (none in the app in the phone: it has no command
line). `flask matches check` lists the matches this version of the engine no longer
replays, each of which its pages answer with a page of its own (companion/views/
unreplayable.py): exit status 1 when there is any."""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import AppGroup

from companion.store import current_store

matches = AppGroup("matches", help="The matches in the database.")


@matches.command("check")
def check() -> None:
    """List the matches this version of the engine no longer replays, and why."""
    found = 0
    for match, error in current_store().unreplayable():
        where = "players, dealer or rules" if error.play == 0 else f"play {error.play}"
        click.echo(f"{match.id}  {match.names}  {where}: {error.message}")
        found += 1
    click.echo(f"{found} match(es) no longer replay." if found else "Every match replays.")
    if found:
        raise SystemExit(1)


def init_commands(app: Flask) -> None:
    if app.config.get("DB_COMMANDS", True):
        app.cli.add_command(matches)
