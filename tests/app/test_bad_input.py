"""Garbage to every endpoint: never a 500, and a match changes only by a legal line.

A seeded generator (reproducible: the failure names the seed and the request
number) sends random strings, huge and negative numbers, unicode, missing
fields, repeated fields and wrong methods to every route, mixed with legal
lines so the match moves through its screens (stacks, roulette, reveals, the
next hand, the end of the match). After each request the database is checked:
the match's log changed only by one legal line (a 303 from /line or /reveal),
one line less (a 303 from /undo), or not at all; a match was created only by a
303 from /new or /import.
"""

from __future__ import annotations

import io
import random
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask

from engine import ALL_CARDS, Game
from engine.tools.cli import check_text
from tests.app.helpers import Page, Tabletop

NAMES = ("Ann", "Bob", "Cy")
WORDS = (
    "take", "uno", "wins", "out", "draw", "swap", "discard", "roulette", "catch", "has",
    "reveals", "start:", "hand:", "dealer:", "rules:", "players:", "R", "Y", "G", "B", "W",
)  # fmt: skip
NASTY = (
    "", " ", "\t\n", "\x00", "\r\n\r\n", "0", "-1", "-999999", "1e9", "NaN", "inf", "1.5",
    "9" * 30, "9" * 5000, "<script>alert(1)</script>", "' OR 1=1 --", "%00", "../../etc",
    "🃏🃏🃏", "Ａｎｎ", "ann", "ANN", "Ann ", "Ａ", "\u202eAnn", "e\u0301", "名前", "Ann: R5",
    "Ann\nBob: take", "#", "Ann # comment", ":", ",", "R5\x00", "x" * 10_000,
)  # fmt: skip


def random_text(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(40)))
    if kind == 1:
        return "".join(chr(rng.randrange(0x20, 0x2FFF)) for _ in range(rng.randrange(1, 20)))
    if kind == 2:
        return str(rng.choice([-1, 1]) * rng.randrange(10 ** rng.randrange(1, 40)))
    if kind == 3:
        return " ".join(rng.choice(WORDS + NAMES) for _ in range(rng.randrange(1, 5)))
    if kind == 4:
        return " ".join(str(rng.choice(ALL_CARDS)) for _ in range(rng.randrange(1, 4)))
    return rng.choice(NASTY)


def value(rng: random.Random, *plausible: str) -> Any:
    """A field's value: plausible, garbage, several values, or (None) missing."""
    roll = rng.random()
    if roll < 0.1:
        return None
    if roll < 0.15:
        return [random_text(rng), random_text(rng)]
    if plausible and roll < 0.6:
        return rng.choice(plausible)
    return random_text(rng)


def form(rng: random.Random, **fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


@dataclass
class Request:
    method: str
    url: str
    data: dict[str, Any] | None = None
    query: dict[str, Any] | None = None
    headers: dict[str, str] | None = None

    def __str__(self) -> str:
        shown = {
            k: (v if len(str(v)) < 80 else f"{str(v)[:77]}...")
            for k, v in (self.data or {}).items()
        }
        return f"{self.method} {self.url[:120]} query={self.query} data={shown}"


class Fuzzer:
    def __init__(self, app: Flask, seed: int) -> None:
        self.rng = random.Random(seed)
        self.table = Tabletop(app, app.test_client())
        self.match_id = self.table.create(list(NAMES), target="40")
        self.token = self.table.page(self.match_id).token

    # -- what the table holds now

    def game(self) -> Game:
        text = self.table.export(self.match_id)
        return Game.from_record(text)

    def legal_line(self) -> str | None:
        game = self.game()
        state = game.state
        options = [str(line) for line in game.legal_actions().actions()]
        turn = game.legal_actions().turn
        if state.started and turn and state.hands[state.turn] > 1 and self.rng.random() < 0.3:
            return f"{turn}: has 1"  # hurry the hand to its end: reveals, next hand, match end
        reveals = [line for line in options if ": reveals" in line]
        if reveals and self.rng.random() < 0.7:
            return self.rng.choice(reveals)
        if state.status == "playing" and not state.started:
            options.append(
                f"start: {self.rng.choice([c for c in ALL_CARDS if c.number is not None])}"
            )
        if state.status == "hand_over":
            options.append(f"hand: {state.hand + 1}")
        return self.rng.choice(options) if options else None

    # -- requests

    def token_value(self) -> Any:
        roll = self.rng.random()
        if roll < 0.9:
            return self.token
        return None if roll < 0.95 else random_text(self.rng)

    def stamp(self) -> str:
        """The screen stamp (companion/taps.py) the table's forms carry now."""
        self.table.table(self.match_id)
        return self.table.hidden(self.match_id)["shown"]

    def stamp_value(self) -> Any:
        return value(self.rng, self.stamp(), "0.0.0", "fff.-1.abc")

    def version_value(self, current: int) -> Any:
        return value(self.rng, str(current), str(current), str(current - 1), str(current + 1))

    def request(self, current: int) -> Request:
        rng = self.rng
        mid = self.match_id
        unknown = ["nope", "x" * 33, "x" * 3000, "ü", "%2e%2e", mid.upper(), mid[:-1]]
        ident = mid if rng.random() < 0.8 else rng.choice(unknown)
        makers: list[Callable[[], Request]] = [
            lambda: self.line_request(ident, current),
            lambda: self.line_request(ident, current),
            lambda: self.line_request(ident, current),
            lambda: Request(
                "POST",
                f"/m/{ident}/reveal",
                form(
                    rng,
                    csrf_token=self.token_value(),
                    version=self.version_value(current),
                    shown=self.stamp_value(),
                    player=value(rng, *NAMES),
                    cards=value(rng, "R5 W+6", "G3, B+2", ""),
                    points=value(rng, "10", "0", "50", "10000"),
                ),
            ),
            lambda: Request(
                "POST",
                f"/m/{ident}/undo",
                form(
                    rng,
                    csrf_token=self.token_value(),
                    version=self.version_value(current),
                    shown=self.stamp_value(),
                ),
            ),
            lambda: self.new_request(),
            lambda: self.import_request(),
            lambda: Request(
                "GET",
                f"/m/{ident}",
                query=form(
                    rng,
                    card=value(rng, "W+6", "R7", "RDA", "WCR", "B7"),
                    tab=value(rng, "R", "Y", "G", "B", "W"),
                    drawn=value(rng, "1", "3", "168", "169"),
                    fix=value(rng, *NAMES),
                ),
                headers=rng.choice([None, {"HX-Request": "true"}]),
            ),
            lambda: Request("GET", f"/m/{ident}/scores"),
            lambda: Request("GET", f"/m/{ident}/record.txt"),
            lambda: Request("GET", "/", query=form(rng, page=value(rng))),
            lambda: Request("GET", "/new", query=form(rng, players=value(rng, "Ann, Bob"))),
            lambda: Request("GET", "/import"),
            lambda: Request(
                "GET",
                "/rules",
                query=form(
                    rng,
                    top=value(rng, "R5", "R+2", "W+6", "WCR"),
                    color=value(rng, "", "R", "G"),
                    stack=value(rng, "", "2", "10", "0"),
                    stack_rule=value(rng, "last", "sum"),
                    card=value(rng, "G3", "R+4", "W+10", "WR+4"),
                ),
            ),
            lambda: Request(
                rng.choice(["GET", "PUT", "DELETE", "PATCH"]),
                rng.choice([f"/m/{ident}/line", f"/m/{ident}/undo", f"/m/{ident}/reveal"]),
            ),
            lambda: Request(
                "POST",
                rng.choice(
                    [f"/m/{ident}", f"/m/{ident}/scores", f"/m/{ident}/record.txt", "/rules", "/"]
                ),
                form(rng, csrf_token=self.token_value(), x=value(rng)),
            ),
        ]
        return rng.choice(makers)()

    def line_request(self, ident: str, current: int) -> Request:
        rng = self.rng
        legal = self.legal_line() if rng.random() < 0.6 else None
        if legal is not None:  # a legal line, as the screen sends it
            who, _, action = legal.partition(": ")
            header = who in ("start", "hand")
            data = {"player": "" if header else who, "action": legal if header else action}
            self.table.table(self.match_id)  # the screen as it is now
            return Request(
                "POST",
                f"/m/{ident}/line",
                self.table.hidden(self.match_id) | {"version": str(current)} | data,
            )
        data = form(
            rng,
            player=value(rng, *NAMES, ""),
            action=value(rng, "R5", "take", "uno", "W+6 G", "draw 2, R3", "has 8", "hand: 2"),
            drawn=value(rng, "0", "1", "2"),
            count=value(rng, "0", "1", "3"),
        )
        return Request(
            "POST",
            f"/m/{ident}/line",
            form(
                rng,
                csrf_token=self.token_value(),
                version=self.version_value(current),
                shown=self.stamp_value(),
            )
            | data,
        )

    def new_request(self) -> Request:
        rng = self.rng
        fields = {f"players-{i}": value(rng, *NAMES, "Dee", "") for i in range(rng.randrange(8))}
        fields |= {
            "dealer": value(rng, "last", "1", "2", "6"),
            "mode": value(rng, "referee", "quick"),
            "stack": value(rng, "last", "sum"),
            "draw": value(rng, "until", "one"),
            "mercy_on": value(rng, "y"),
            "mercy": value(rng, "25", "8", "100"),
            "final_draw": value(rng, "y"),
            "seven": value(rng, "y"),
            "zero": value(rng, "y"),
            "target": value(rng, "1000", "1", "100000"),
            "scoring": value(rng, "high", "low"),
        }
        return Request("POST", "/new", form(rng, csrf_token=self.token_value(), **fields))

    def import_request(self) -> Request:
        rng = self.rng
        text = rng.choice(
            [
                random_text(rng),
                "players: Ann, Bob\n" + "\n".join(random_text(rng) for _ in range(3)),
                "players: Ann, Bob\nstart: R5\nAnn: R3\n",
                self.table.export(self.match_id),
            ]
        )
        data = form(rng, csrf_token=self.token_value(), text=value(rng, text))
        if rng.random() < 0.3:
            raw = rng.choice([text.encode(), bytes(rng.randrange(256) for _ in range(64))])
            data["record"] = (io.BytesIO(raw), rng.choice(["r.rec", "", "x" * 300]))
        return Request("POST", "/import", data)

    def send(self, request: Request) -> Page:
        client = self.table.client
        if request.method == "GET":
            response = client.get(request.url, query_string=request.query, headers=request.headers)
        else:
            response = client.open(
                request.url,
                method=request.method,
                data=request.data,
                headers=request.headers,
                content_type="multipart/form-data" if request.data else None,
            )
        return Page(response)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_garbage_never_breaks_the_app_or_the_record(app: Flask, seed: int) -> None:
    fuzz = Fuzzer(app, seed)
    table, mid = fuzz.table, fuzz.match_id
    failures: list[str] = []
    recorded = 0
    for number in range(400):
        before = table.logged(mid)
        matches = table.match_count()
        request = fuzz.request(len(before))
        try:
            page = fuzz.send(request)
        except Exception as error:  # the test client raises what would be a 500
            failures.append(f"#{number} {request}: raised {error!r}")
            continue
        if page.status >= 500:
            failures.append(f"#{number} {request}: {page.status}")
            continue
        after = table.logged(mid)
        ours = request.method == "POST" and request.url.startswith(f"/m/{mid}/")
        changed = ours and page.status == 303
        if changed and request.url.endswith("/undo"):
            ok = after == before[:-1]
        elif changed:
            ok = after[:-1] == before and len(after) == len(before) + 1
            recorded += 1
        else:
            ok = after == before
        if not ok:
            failures.append(
                f"#{number} {request}: {page.status}, log {before[-2:]} -> {after[-2:]}"
            )
        created = request.method == "POST" and request.url in ("/new", "/import")
        created = created and page.status == 303
        if table.match_count() != matches + (1 if created else 0):
            failures.append(f"#{number} {request}: {page.status}, a match appeared or vanished")
        if changed:
            code, state = check_text(table.export(mid))
            if code != 0 or state != table.state(mid):
                failures.append(f"#{number} {request}: the record no longer replays: {state}")
        if len(failures) > 10:
            break
    assert not failures, f"seed {seed}:\n" + "\n".join(failures)
    assert recorded > 15, recorded  # the match did move on


def test_unknown_ids_everywhere(tabletop: Tabletop) -> None:
    token = tabletop.get("/new").token
    for ident in ("nope", "x" * 32, "x" * 33, "y" * 10_000, "%F0%9F%83%8F", "null", "0", "-1"):
        for suffix in ("", "/scores", "/record.txt"):
            page = tabletop.get(f"/m/{ident}{suffix}")
            assert page.status == 404, (ident, suffix)
            assert "Nothing here" in page.text
        for suffix in ("/line", "/undo", "/reveal"):
            data = {"csrf_token": token, "version": "0", "player": "Ann", "action": "R5"}
            page = tabletop.post(f"/m/{ident}{suffix}", data)
            assert page.status == 404, (ident, suffix)
            assert "Nothing here" in page.text
    assert tabletop.match_count() == 0


def test_wrong_methods_are_405_pages(tabletop: Tabletop, started: str) -> None:
    for url in (f"/m/{started}/line", f"/m/{started}/undo", f"/m/{started}/reveal"):
        page = tabletop.get(url)
        assert page.status == 405
        assert page.doc.find("h1") is not None
    token = tabletop.page(started).token
    for url in (f"/m/{started}", f"/m/{started}/scores", "/rules", "/"):
        assert tabletop.post(url, {"csrf_token": token}).status == 405
    assert tabletop.logged(started) == ["start: R5"]


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"version": "1"},
        {"action": "R3"},
        {"version": "1", "player": "Ann"},
        {"version": "-1", "player": "Ann", "action": "R3"},
        {"version": "one", "player": "Ann", "action": "R3"},
        {"version": "1.0", "player": "Ann", "action": "R3"},
        {"version": "9" * 40, "player": "Ann", "action": "R3"},
        {"version": "1", "player": "Ann", "action": ""},
        {"version": "1", "player": "Ann", "action": "R3", "drawn": "-2"},
        {"version": "1", "player": "Ann", "action": "R3", "drawn": "1000"},
        {"version": "1", "player": "Ann", "action": "roulette G", "count": "x"},
        {"version": "1", "player": "Ann", "action": "x" * 401},
        {"version": "1", "player": "A" * 61, "action": "R3"},
        {"version": "1", "player": "Nobody", "action": "R3"},
        {"version": "1", "player": "ann", "action": "r3 # ok"},
        {"version": "1", "player": "Ann", "action": "has 9999999"},
        {"version": "1", "player": "Ann", "action": "has 100000"},
        {"version": "1", "player": "Ann", "action": "draw 999999, R3"},
        {"version": "1", "player": "Ann", "action": "R3\nBob: R4"},
        {"version": "1", "player": "Ann\nstart", "action": "R3"},
        {"version": "1", "player": "", "action": "players: Ann, Bob"},
        {"version": "1", "player": "", "action": "rules: stack=sum"},
        {"version": "1", "player": "", "action": "dealer: Ann"},
        {"version": "1", "player": "", "action": "hand: 2"},
    ],
)
def test_bad_lines_are_refused_and_change_nothing(
    tabletop: Tabletop, started: str, data: dict[str, str]
) -> None:
    token = tabletop.page(started).token
    response = tabletop.client.post(f"/m/{started}/line", data={"csrf_token": token} | data)
    assert response.status_code in (303, 409, 422), response.status_code
    logged = tabletop.logged(started)
    if response.status_code == 303:  # a legal line, written another way
        assert len(logged) == 2
        assert check_text(tabletop.export(started))[0] == 0
        assert "\n" not in logged[-1]
    else:
        assert logged == ["start: R5"]
        page = Page(response)
        assert page.version == 1 and (page.refusal is not None or page.notices)
