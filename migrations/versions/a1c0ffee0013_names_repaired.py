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
log with the record as it was stored.

Revision ID: a1c0ffee0013
Revises: a1c0ffee0012
Create Date: 2026-11-27 15:00:00

Down: nothing to undo (the code before replays the repaired names too).
"""

import sqlalchemy as sa
from alembic import op

revision = "a1c0ffee0013"
down_revision = "a1c0ffee0012"
branch_labels = None
depends_on = None


def upgrade():
    from companion.audit import audit
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

    bind = op.get_bind()
    matches = bind.execute(sa.text("SELECT id, players, dealer, rules FROM match")).mappings()
    for match in matches.all():
        stored = tuple(tidy_name(name) for name in match["players"].split(","))
        if repaired_names(stored) == stored:
            continue  # its names pass (a match that fails otherwise is left as it is)
        logged = bind.execute(
            sa.text("SELECT seq, text FROM match_line WHERE match_id = :id ORDER BY seq"),
            {"id": match["id"]},
        ).all()
        lines = [text for _, text in logged]
        try:
            repaired = repaired_record(match["players"], match["dealer"], lines)
        except EngineError:
            continue
        header = (", ".join(repaired.players), repaired.dealer, match["rules"])
        result = replay(written_record(*header, list(repaired.lines)))
        if result.error is not None or result.game is None:
            continue
        state = result.game.state
        with language(SOURCE_LANGUAGE):
            said = summary(state)[:200]
        bind.execute(
            sa.text(
                "UPDATE match SET players = :players, dealer = :dealer, names = :names, "
                "status = :status, summary = :summary WHERE id = :id"
            ),
            {
                "id": match["id"],
                "players": header[0],
                "dealer": repaired.dealer,
                "names": ", ".join(state.players),
                "status": state.status,
                "summary": said,
            },
        )
        for (seq, before), after in zip(logged, repaired.lines, strict=True):
            if after != before:
                bind.execute(
                    sa.text("UPDATE match_line SET text = :text WHERE match_id = :id AND seq = :seq"),
                    {"text": after, "id": match["id"], "seq": seq},
                )
        names = "; ".join(f"{visible_name(old)} -> {new}" for old, new in repaired.changed)
        record = written_record(match["players"], match["dealer"], match["rules"], lines)
        audit("repaired names", match["id"], "server", names=names, record=record)


def downgrade():
    pass
