"""PostgreSQL: the news of a line added carries the line (LISTEN/NOTIFY)

Revision ID: a1c0ffee0005
Revises: a1c0ffee0004
Create Date: 2026-11-22 04:50:00

A match moved one line on is announced as "<id> <version> <last line id> <previous
last line id> <the line's text>": every process keeps its cached game of that match
current without reading the line (companion/store.py), so the next play on it, on
whichever process, is judged and written in one round trip. The previous last line
names the log the line follows: a process applies it only to a game that ends there.
Any other change is announced as before ("<id> <version> <last line id>", "<id> gone").
Nothing on SQLite, which has no notifications.
"""

from alembic import op

revision = "a1c0ffee0005"
down_revision = "a1c0ffee0004"
branch_labels = None
depends_on = None

# A notification's payload must stay under 8000 bytes: a longer line is announced
# without its text (the processes then read it, as for any other change).
FUNCTION = """
CREATE OR REPLACE FUNCTION companion_match_changed() RETURNS trigger AS $$
DECLARE
    news text;
    added text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('companion_match', OLD.id || ' gone');
    ELSIF NEW.editor_token IS DISTINCT FROM OLD.editor_token
            OR NEW.viewer_token IS DISTINCT FROM OLD.viewer_token THEN
        PERFORM pg_notify('companion_match', NEW.id || ' gone');
    ELSIF NEW.version IS DISTINCT FROM OLD.version
            OR NEW.last_line_id IS DISTINCT FROM OLD.last_line_id THEN
        news := NEW.id || ' ' || NEW.version || ' ' || NEW.last_line_id;
        IF NEW.version = OLD.version + 1 THEN
            -- A row-level AFTER trigger sees what its statement wrote: the new line too.
            SELECT text INTO added FROM match_line
                WHERE id = NEW.last_line_id AND match_id = NEW.id AND seq = NEW.version;
            IF added IS NOT NULL AND octet_length(added) < 7000 THEN
                news := news || ' ' || COALESCE(OLD.last_line_id, 0) || ' ' || added;
            END IF;
        END IF;
        PERFORM pg_notify('companion_match', news);
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql
"""

# As migration a1c0ffee0004 left it.
PREVIOUS = """
CREATE OR REPLACE FUNCTION companion_match_changed() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('companion_match', OLD.id || ' gone');
    ELSIF NEW.editor_token IS DISTINCT FROM OLD.editor_token
            OR NEW.viewer_token IS DISTINCT FROM OLD.viewer_token THEN
        PERFORM pg_notify('companion_match', NEW.id || ' gone');
    ELSIF NEW.version IS DISTINCT FROM OLD.version
            OR NEW.last_line_id IS DISTINCT FROM OLD.last_line_id THEN
        PERFORM pg_notify(
            'companion_match', NEW.id || ' ' || NEW.version || ' ' || NEW.last_line_id
        );
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql
"""


def upgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute(FUNCTION)


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute(PREVIOUS)
