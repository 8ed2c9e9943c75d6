"""The migrations: they build the models' tables, and they go down and up again keeping
every match (a1c0ffee0006 drops the match notifications a1c0ffee0005 left)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import downgrade, upgrade

from companion.extensions import db
from tests.app.conftest import make_app
from tests.app.helpers import Tabletop
from tests.databases import postgres_url

on_postgres = pytest.mark.skipif(
    postgres_url() is None, reason="PostgreSQL pass only (COMPANION_TEST_POSTGRES=1)"
)


def test_the_migration_fills_in_the_last_line_of_existing_matches(tmp_path: Path) -> None:
    app = make_app(tmp_path, AUTO_MIGRATE=False)
    try:
        with app.app_context():
            upgrade(revision="a1c0ffee0002")  # before the match knew its last line
            with db.engine.begin() as conn:
                for match_id, lines in (("m-two", 2), ("m-none", 0)):
                    conn.execute(
                        sa.text(
                            "INSERT INTO match (id, players, dealer, rules, mode, created_at, "
                            "updated_at, status, summary, version, editor_token, viewer_token) "
                            "VALUES (:id, 'Ann, Bob', 'Bob', 'official', 'referee', "
                            "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'playing', '', :v, 'e', 'v')"
                        ),
                        {"id": match_id, "v": lines},
                    )
                    for seq, text in enumerate(["start: R5", "Ann: R3"][:lines], 1):
                        conn.execute(
                            sa.text(
                                "INSERT INTO match_line (match_id, seq, text, created_at) "
                                "VALUES (:m, :s, :t, CURRENT_TIMESTAMP)"
                            ),
                            {"m": match_id, "s": seq, "t": text},
                        )
                last = conn.execute(
                    sa.text("SELECT id FROM match_line WHERE match_id = 'm-two' AND seq = 2")
                ).scalar()
            upgrade()
            with db.engine.connect() as conn:
                filled = dict(conn.execute(sa.text("SELECT id, last_line_id FROM match")).all())
            assert filled == {"m-two": last, "m-none": 0}
    finally:
        with app.app_context():
            db.engine.dispose()


def test_the_migrations_make_the_models_tables(app: Flask) -> None:
    """What the migrations build is what the models say: no column or index missing."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with app.app_context(), db.engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert differences == []


def test_down_to_the_line_news_and_up_again_keeps_every_match(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    tabletop.play_lines(started, "Ann: R3")
    before = tabletop.export(started)
    with app.app_context():
        downgrade(revision="a1c0ffee0005")
        upgrade()
    assert tabletop.export(started) == before
    assert tabletop.line(started, "Bob", "R4").status == 303


@contextmanager
def listening() -> Iterator[psycopg.Connection]:
    """A connection of its own listening on the channel the old triggers announced on."""
    url = postgres_url()
    assert url is not None
    with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as conn:
        conn.execute("LISTEN companion_match")
        yield conn


def write_line(app: Flask, match_id: str, text: str) -> None:
    """A line written as the app of an older schema wrote it (the row, then the match's
    version and last line): today's app writes columns an older schema lacks."""
    with app.app_context(), db.engine.begin() as conn:
        version = conn.execute(
            sa.text("SELECT version FROM match WHERE id = :m"), {"m": match_id}
        ).scalar_one()
        conn.execute(
            sa.text(
                "INSERT INTO match_line (match_id, seq, text, created_at) "
                "VALUES (:m, :s, :t, CURRENT_TIMESTAMP)"
            ),
            {"m": match_id, "s": version + 1, "t": text},
        )
        row_id = conn.execute(
            sa.text("SELECT id FROM match_line WHERE match_id = :m AND seq = :s"),
            {"m": match_id, "s": version + 1},
        ).scalar_one()
        conn.execute(
            sa.text("UPDATE match SET version = :s, last_line_id = :r WHERE id = :m"),
            {"m": match_id, "s": version + 1, "r": row_id},
        )


def heard(conn: psycopg.Connection) -> list[str]:
    return [note.payload for note in conn.notifies(timeout=0.5)]


@on_postgres
def test_nothing_is_announced_once_upgraded_and_the_line_news_comes_back_downgraded(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    with listening() as conn:
        assert tabletop.line(started, "Ann", "R3").status == 303
        assert heard(conn) == []
        with app.app_context():
            downgrade(revision="a1c0ffee0005")
        write_line(app, started, "Bob: R4")
        (news,) = heard(conn)
        assert news.startswith(f"{started} 3 ") and news.endswith(" Bob: R4")
        with app.app_context():
            upgrade()
        tabletop.table(started)  # the table as it is now, from a fresh screen
        assert tabletop.line(started, "Cy", "R6").status == 303
        assert heard(conn) == []


def test_groups_come_with_an_upgrade_that_leaves_every_match_outside_them_and_go_down(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """a1c0ffee0007 adds the groups' tables: matches from before stay where they were
    (outside any group) and play on; down again drops only the groups."""
    tabletop.play_lines(started, "Ann: R3")
    before = tabletop.export(started)
    with app.app_context():
        downgrade(revision="a1c0ffee0006")
        with db.engine.connect() as conn:
            tables = set(sa.inspect(conn).get_table_names())
        assert not {"player_group", "roster_player", "group_match", "match_seat"} & tables
        upgrade()
        with db.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM group_match")).scalar() == 0
    assert tabletop.export(started) == before
    assert tabletop.line(started, "Bob", "R4").status == 303
    # A group made after the upgrade, and down again: its tables go, the match stays.
    (form,) = tabletop.get("/groups/new").forms("/groups/new")
    assert (
        tabletop.client.post(form.action, data=form.values() | {"name": "Crew"}).status_code == 303
    )
    with app.app_context():
        downgrade(revision="a1c0ffee0006")
    write_line(app, started, "Cy: R6")
    with app.app_context():
        upgrade()
    assert tabletop.logged(started)[-1] == "Cy: R6"
    tabletop.table(started)  # the table as it is now, from a fresh screen
    assert tabletop.line(started, "Ann", "R2").status == 303


def test_the_phone_of_each_line_comes_with_an_upgrade_and_goes_down(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """a1c0ffee0009 adds which phone recorded a line: lines from before have none and
    read as "Last: ..."; down again drops only the column."""
    with app.app_context():
        downgrade(revision="a1c0ffee0008")
    write_line(app, started, "Ann: R3")
    with app.app_context():
        upgrade()
    page = tabletop.table(started)
    assert page.recorded.startswith("Last:"), page.recorded
    assert tabletop.line(started, "Bob", "R4").status == 303
    assert tabletop.table(started).recorded.startswith("Recorded:")
    before = tabletop.export(started)
    with app.app_context():
        downgrade(revision="a1c0ffee0008")
        with db.engine.connect() as conn:
            columns = {c["name"] for c in sa.inspect(conn).get_columns("match_line")}
        assert "phone" not in columns
        upgrade()
    assert tabletop.export(started) == before


def test_the_names_as_called_now_come_with_an_upgrade_and_go_down_unless_a_rename_needs_them(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """a1c0ffee0010 adds the players' names as called now: a match from before is called
    what its header says; down again drops only the column, refused while a rename line
    in some log needs it (the code before can't replay it)."""
    tabletop.play_lines(started, "Ann: R3")
    with app.app_context():
        downgrade(revision="a1c0ffee0009")
    write_line(app, started, "Bob: R4")
    with app.app_context():
        upgrade()
    assert tabletop.match(started).current_names == tabletop.match(started).player_names
    before = tabletop.export(started)
    write_line(app, started, "rename: Bob, Robert")
    with app.app_context(), pytest.raises(SystemExit):  # flask-migrate says why, exits 1
        downgrade(revision="a1c0ffee0009")
    with app.app_context(), db.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM match_line WHERE text LIKE 'rename:%'"))
        conn.execute(
            sa.text("UPDATE match SET version = version - 1 WHERE id = :m"), {"m": started}
        )
    with app.app_context():
        downgrade(revision="a1c0ffee0009")
        with db.engine.connect() as conn:
            columns = {c["name"] for c in sa.inspect(conn).get_columns("match")}
        assert "names" not in columns
        upgrade()
    assert tabletop.export(started) == before
