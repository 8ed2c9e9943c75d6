"""PostgreSQL: no more notifications of match changes (LISTEN/NOTIFY)

Revision ID: a1c0ffee0006
Revises: a1c0ffee0005
Create Date: 2026-11-22 21:00:00

The processes no longer listen: a cached game is brought up to date by reading the lines
after its last one, and an unchanged poll is one read of the match row (measured in
docs/PERFORMANCE.md). This drops the trigger and function of a1c0ffee0004, as
a1c0ffee0005 left them; the downgrade puts them back as they were. Nothing on SQLite.
"""

from alembic import op

revision = "a1c0ffee0006"
down_revision = "a1c0ffee0005"
branch_labels = None
depends_on = None

# As migration a1c0ffee0005 left them (migrations are history: copied, not imported).
PREVIOUS_FUNCTION = """
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

PREVIOUS_TRIGGER = """
CREATE TRIGGER match_changed AFTER UPDATE OR DELETE ON match
FOR EACH ROW EXECUTE FUNCTION companion_match_changed()
"""


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS match_changed ON match")
    op.execute("DROP FUNCTION IF EXISTS companion_match_changed()")


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(PREVIOUS_FUNCTION)
    op.execute(PREVIOUS_TRIGGER)
