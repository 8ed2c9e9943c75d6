"""names an earlier version stored that the name rules refuse, repaired

A match stored before the engine's name rules, with a name they refuse (a control or an
invisible character, a header word, a name over 40 characters, one player twice as
"Ann" and "ANN"), no longer replays: its pages answer with a page of their own
(companion/views/unreplayable.py). This repairs each such match that its names alone
keep from replaying, as its editor's "Repair the names" does (companion/repairs.py):
each refused name made one the rules take (`engine.repaired_record`: the characters a
reader can't see left out, cut to 40, a header word or a second name of one player told
apart by a number), in its header and in every line that names it, every other line
as stored. It is written only if the repaired record replays; any other match is left
as it was (its page offers its record, and its removal). Each repair goes to the audit
log with the record as it was stored. The log is written as new rows, so a worker of
the version before still running finds the match moved and reads it again.

The rule is the engine's as it is when the migration runs (names normalised by the
engine's rule is the point); the app's look-alike rule (Unicode's confusables) is not
applied here: such names replay, and a match that replays is never touched.

Revision ID: a1c0ffee0013
Revises: a1c0ffee0012
Create Date: 2026-11-27 15:00:00

Down: nothing to undo (the code before replays the repaired names too).
"""

import logging
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "a1c0ffee0013"
down_revision = "a1c0ffee0012"
branch_labels = None
depends_on = None


def upgrade():
    from companion.audit import audit

    # The stored record of each match repaired goes to the audit log (companion.audit, at
    # INFO): said even where the migration's logging says warnings only (alembic.ini).
    audit_log = logging.getLogger("companion.audit")
    level = audit_log.level
    audit_log.setLevel(min(level or logging.INFO, logging.INFO))
    try:
        bind = op.get_bind()
        matches = bind.execute(sa.text("SELECT id, players, dealer, rules FROM match"))
        for match in matches.mappings().all():
            logged = _repair(bind, match)
            if logged is not None:
                audit("repaired names", match["id"], "server", **logged)
    finally:
        audit_log.setLevel(level)


def _repair(bind, match):
    """Repair one match's names if they alone keep it from replaying; what the audit log
    says of it, or None (left as it was)."""
    from engine import (
        SOURCE_LANGUAGE,
        EngineError,
        language,
        repaired_names,
        repaired_record,
        replay,
        summary,
        tidy_name,
        visible_name,
        written_record,
    )

    stored = tuple(tidy_name(name) for name in match["players"].split(","))
    if repaired_names(stored) == stored:
        return None  # its names pass (a match that fails otherwise is left as it is)
    logged = (
        bind.execute(
            sa.text(
                "SELECT seq, text, created_at, form_key, phone FROM match_line "
                "WHERE match_id = :id ORDER BY seq"
            ),
            {"id": match["id"]},
        )
        .mappings()
        .all()
    )
    lines = [row["text"] for row in logged]
    try:  # the engine's judgement: any refusal (or surprise) leaves the match as it was
        repaired = repaired_record(match["players"], match["dealer"], lines)
        if repaired is None:
            return None
        header = (", ".join(repaired.players), repaired.dealer, match["rules"])
        result = replay(written_record(*header, list(repaired.lines)))
        if result.error is not None or result.game is None:
            return None
        state = result.game.state
        with language(SOURCE_LANGUAGE):
            said = summary(state)[:200]
    except EngineError:  # a line it no longer reads, say: its page offers its record
        return None
    except Exception:  # one match never stops the upgrade
        logging.getLogger("alembic").exception("match %s: names not repaired", match["id"])
        return None
    # The log as new rows (each line's recording kept): a worker of the version before
    # that still holds this match's game finds its last line gone, and reads it again.
    bind.execute(sa.text("DELETE FROM match_line WHERE match_id = :id"), {"id": match["id"]})
    if logged:
        bind.execute(
            sa.text(
                "INSERT INTO match_line (match_id, seq, text, created_at, form_key, phone) "
                "VALUES (:match_id, :seq, :text, :created_at, :form_key, :phone)"
            ),
            [
                dict(row, match_id=match["id"], text=text)
                for row, text in zip(logged, repaired.lines, strict=True)
            ],
        )
    bind.execute(
        sa.text(
            "UPDATE match SET players = :players, dealer = :dealer, names = :names, "
            "status = :status, summary = :summary, updated_at = :now, last_line_id = "
            "COALESCE((SELECT id FROM match_line WHERE match_id = :id AND seq = :last), 0) "
            "WHERE id = :id"
        ).bindparams(sa.bindparam("now", type_=sa.DateTime())),
        {
            "id": match["id"],
            "players": header[0],
            "dealer": repaired.dealer,
            "names": ", ".join(state.players),
            "status": state.status,
            "summary": said,
            "now": datetime.now(UTC).replace(tzinfo=None),
            "last": len(lines),
        },
    )
    names = "; ".join(f"{visible_name(old)} -> {new}" for old, new in repaired.changed)
    record = written_record(match["players"], match["dealer"], match["rules"], lines)
    return {"names": names, "record": record}


def downgrade():
    pass
