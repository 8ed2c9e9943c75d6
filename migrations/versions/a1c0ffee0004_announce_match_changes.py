"""PostgreSQL: announce every change of a match's log or links (LISTEN/NOTIFY)

Revision ID: a1c0ffee0004
Revises: a1c0ffee0003
Create Date: 2026-11-22 02:40:00

See companion/versions.py: the processes answer unchanged polls from what they hear.
Nothing on SQLite, which has no notifications.
"""

from alembic import op

revision = "a1c0ffee0004"
down_revision = "a1c0ffee0003"
branch_labels = None
depends_on = None

FUNCTION = """
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

TRIGGER = """
CREATE TRIGGER match_changed AFTER UPDATE OR DELETE ON match
FOR EACH ROW EXECUTE FUNCTION companion_match_changed()
"""


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FUNCTION)
    op.execute(TRIGGER)


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS match_changed ON match")
    op.execute("DROP FUNCTION IF EXISTS companion_match_changed()")
