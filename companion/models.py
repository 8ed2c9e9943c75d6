"""A match is its header plus an append-only log of table-record lines."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from companion.extensions import db

MODES = {"referee": "Referee turn by turn", "quick": "Quick score (results only)"}


def new_match_id() -> str:
    """Unguessable, but not a key: only the share links' tokens give access."""
    return secrets.token_urlsafe(12)


def new_token() -> str:
    return secrets.token_urlsafe(16)


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Match(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "match"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_match_id)
    players: Mapped[str] = mapped_column(String(300))  # "Ann, Bob, Cy", seating order
    dealer: Mapped[str] = mapped_column(String(60))
    rules: Mapped[str] = mapped_column(String(200), default="official")
    mode: Mapped[str] = mapped_column(String(10), default="referee")
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)
    # A summary for the home page, rewritten after every line.
    status: Mapped[str] = mapped_column(String(20), default="playing")
    summary: Mapped[str] = mapped_column(String(200), default="")
    # The last line's sequence number: what live pages poll, cheaply.
    version: Mapped[int] = mapped_column(Integer, default=0)
    # The last line's row id (0 with no lines): with the version, it names the whole
    # log, so a process can trust its cached game without reading the lines.
    last_line_id: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Share links: an editor link records plays, a viewer link only watches.
    editor_token: Mapped[str] = mapped_column(String(40), default=new_token)
    viewer_token: Mapped[str] = mapped_column(String(40), default=new_token)

    lines: Mapped[list[MatchLine]] = relationship(
        back_populates="match", order_by="MatchLine.seq", cascade="all, delete-orphan"
    )

    @property
    def player_names(self) -> list[str]:
        return [name.strip() for name in self.players.split(",")]

    def header(self) -> list[str]:
        """The record's header lines."""
        lines = [f"players: {self.players}", f"dealer: {self.dealer}"]
        if self.rules != "official":
            lines.append(f"rules: {self.rules}")
        return lines


class MatchLine(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "match_line"
    __table_args__ = (
        UniqueConstraint("match_id", "seq", name="uq_match_line_seq"),
        {"sqlite_autoincrement": True},  # ids are never reused: they key the game cache
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    # Looked up through the unique (match_id, seq) index: no index of its own.
    match_id: Mapped[str] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)  # 1, 2, 3, ... per match
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=now)
    # The key of the rendered form that recorded it: a resubmission does nothing.
    form_key: Mapped[str | None] = mapped_column(String(40), nullable=True)

    match: Mapped[Match] = relationship(back_populates="lines")


class UsedKey(db.Model):  # type: ignore[name-defined,misc]
    """Form keys acted on that no line carries: undo forms, and the lines undone."""

    __tablename__ = "used_key"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("match.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
