"""The simulated tables: their games, and what each editor, phone and probe requests.

An editor posts what the table screen posts for each line of a simulated game (the
engine's mapping, engine.line_fields, with the csrf_token, version, last and
a fresh key of the screen's forms), then fetches the fragment the 303 points to, as
htmx does: that fragment is where the screen reads the table's new version and last
line. A phone polls the URL of the table it last saw, as htmx does.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import random
import re
import secrets
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlsplit

from bench.load.client import Reply, Session
from engine import MAX_PLAYERS, REVEAL_FIELDS, HouseRules, line_fields, parse_line, rule_fields
from engine.tools import NAMES, Simulation

PLAYERS = 4
HEADER = ("players:", "dealer:", "rules:")  # the match's header: set by the new-match form
HX = {"HX-Request": "true"}  # what htmx sends: the table answers with its fragment
FRAGMENT = "fragment after a play"  # the latency label of the GET that follows a 303
POLLED = {204: "poll unchanged (204)", 200: "poll changed (200)"}  # a poll's labels
POLLER = re.compile(rb'class="live" hx-get="([^"]+)"')  # the URL the page's htmx polls
SHOWN = re.compile(rb'name="shown" value="([^"]+)"')  # the stamp each table form carries
CSRF = (
    re.compile(r'name="csrf_token"[^>]*value="([^"]+)"'),
    re.compile(r'"X-CSRFToken": "([^"]+)"'),
)


class Post(NamedTuple):
    """What the table screen posts for one record line: under /m/<id>/, its fields."""

    endpoint: str
    fields: dict[str, str]


# ---------------------------------------------------------------- games


def simulated_game(seed: int, rules: HouseRules, needed: int) -> list[Post]:
    """The posts of one simulated match (4 players), at least `needed` if it lasts that
    long. Parsed and mapped here, before any load: the clients share the server's CPU."""
    sim = Simulation(PLAYERS, rules=rules, seed=seed)
    game = sim.game
    while True:
        sim.play_hand()
        if sim.game is not game or game.state.status == "match_over":
            break  # the match is over (or a hand never ended and the simulator moved on)
        if len(game) >= needed + 4:
            break
    posts = []
    for text in game.record().splitlines():
        line = parse_line(text, NAMES[:PLAYERS])
        if line is not None and not text.startswith(HEADER):
            fields = line_fields(line)
            posts.append(Post("reveal" if REVEAL_FIELDS & fields.keys() else "line", fields))
    return posts


def new_match_form(token: str, rules: HouseRules) -> dict[str, str]:
    players = {f"players-{i}": NAMES[i] if i < PLAYERS else "" for i in range(MAX_PLAYERS)}
    # The dealer as the simulator deals: the last player listed.
    fields = {"csrf_token": token, "dealer": "last", "mode": "referee", **players}
    # A box left unticked (None) posts nothing.
    return fields | {k: v for k, v in rule_fields(rules).items() if v is not None}


def csrf_token(page: str) -> str:
    for pattern in CSRF:
        found = pattern.search(page)
        if found:
            return found.group(1)
    raise RuntimeError("no CSRF token on the page")


def poller(page: bytes) -> str | None:
    """The URL the page's live poller asks: /m/<id>/live?v=<version>&last=<line id>..."""
    found = POLLER.search(page)
    return html.unescape(found.group(1).decode()) if found else None


# ---------------------------------------------------------------- measuring


@dataclass
class Recorder:
    """Latencies by kind of request while `active` (the load window), and every error."""

    active: bool = False
    requests: int = 0  # started during the window, answered or failed
    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)  # requests that went wrong
    notes: Counter[str] = field(default_factory=Counter)  # what that led to (not counted)

    async def call(
        self,
        client: Session,
        kind: str,
        method: str,
        url: str,
        expect: dict[int, str],
        **kwargs: Any,
    ) -> Reply | None:
        """One timed request. `expect` maps the expected statuses to latency labels."""
        counted = self.active
        start = time.perf_counter()
        try:
            reply = await client.request(method, url, **kwargs)
        except Exception as exc:  # timeouts, refused or reset connections
            self.errors[f"{kind}: {type(exc).__name__}"] += 1
            self.requests += counted
            return None
        ms = (time.perf_counter() - start) * 1000
        self.requests += counted
        label = expect.get(reply.status)
        if label is None:
            self.errors[f"{kind}: HTTP {reply.status}"] += 1
        elif counted:
            self.latency[label].append(ms)
        return reply


class Clock:
    """The load window: who may still send, and pauses that end with it."""

    def __init__(self) -> None:
        self.deadline = float("inf")

    def running(self) -> bool:
        return time.monotonic() < self.deadline

    async def pause(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, min(seconds, self.deadline - time.monotonic())))

    async def until(self, event: asyncio.Event) -> None:
        """Wait for `event`, or for the window's end."""
        left = self.deadline - time.monotonic()
        if left > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=left)


# ---------------------------------------------------------------- the tables


@dataclass
class Table:
    """One match and its editor's screen: the version and last line it shows."""

    index: int
    posts: list[Post]  # the game to record, in order: posts[version] comes next
    editor: Session
    match_id: str
    token: str = ""
    version: int = 0
    last: int = 0
    shown: str = ""  # the screen's stamp, which its forms carry (companion/taps.py)
    live: str = ""  # the URL its screen's live poller asks
    phones: list[Session] = field(default_factory=list)
    # Set when the editor's screen has shown a new line (--updates pushed: its phones
    # are told at no cost to the server), then replaced for the next one.
    moved: asyncio.Event = field(default_factory=asyncio.Event)

    def tell_phones(self) -> None:
        self.moved.set()
        self.moved = asyncio.Event()

    def see(self, page: bytes) -> bool:
        """Read the version and last line a table page shows (from its poller's URL), and
        its forms' stamp."""
        url = poller(page)
        if url is None:
            return False
        query = parse_qs(urlsplit(url).query)
        self.live, self.version, self.last = url, int(query["v"][0]), int(query["last"][0])
        stamp = SHOWN.search(page)
        self.shown = stamp.group(1).decode() if stamp else ""
        return True


class Clients:
    """The clients of one run: one session (cookie jar) per editor and per phone."""

    def __init__(self, host: str, port: int, args: Any) -> None:
        self.host, self.port = host, port
        self.args = args
        self.rec = Recorder()
        self.clock = Clock()

    def session(self) -> Session:
        keep_alive = self.args.connections == "keep-alive"
        return Session(self.host, self.port, self.args.timeout, keep_alive)

    async def new_match(self, kind: str, rules: HouseRules, posts: list[Post], index: int) -> Table:
        """A match made with the new-match form, its table page open in the editor's session."""
        editor = self.session()
        page = await self.rec.call(editor, kind, "GET", "/new", {200: "setup"})
        if page is None or page.status != 200:
            raise RuntimeError("GET /new failed")
        form = new_match_form(csrf_token(page.text), rules)
        made = await self.rec.call(editor, kind, "POST", "/new", {303: "setup"}, data=form)
        if made is None or made.status != 303:
            raise RuntimeError("POST /new failed")
        match_id = made.headers["location"].rstrip("/").rsplit("/", 1)[-1]
        table = Table(index, posts, editor, match_id)
        shown = await self.rec.call(editor, kind, "GET", f"/m/{match_id}", {200: "setup"})
        if shown is None or shown.status != 200 or not table.see(shown.content):
            raise RuntimeError("the new match's table page did not show")
        table.token = csrf_token(shown.text)
        return table

    async def post(self, table: Table, kind: str) -> Reply | None:
        """The next line, as the screen's form posts it; a 409 shows the table as it is."""
        endpoint, fields = table.posts[table.version]
        data = {
            "csrf_token": table.token,
            "version": str(table.version),
            "last": str(table.last),
            "shown": table.shown,
            "key": secrets.token_urlsafe(12),  # as the page renders one per form
            **fields,
        }
        url = f"/m/{table.match_id}/{endpoint}"
        reply = await self.rec.call(
            table.editor, kind, "POST", url, {303: kind}, data=data, headers=HX
        )
        if reply is not None and reply.status == 409:
            table.see(reply.content)
        return reply

    async def follow(self, table: Table, kind: str) -> bool:
        """After a 303, the fragment htmx fetches: the table's new version and last line."""
        url = f"/m/{table.match_id}"
        page = await self.rec.call(table.editor, kind, "GET", url, {200: FRAGMENT}, headers=HX)
        if page is None or page.status != 200:
            return False
        if not table.see(page.content):
            self.rec.notes[f"{kind}: a table fragment without its live poller"] += 1
            return False
        return True

    # -------------------------------------------------------- load phase

    async def setup(self, index: int, posts: list[Post]) -> Table | None:
        """A table: its match, and its phones joined through the viewer link."""
        try:
            table = await self.new_match("setup", HouseRules(), posts, index)
            share = await self.rec.call(
                table.editor, "setup", "GET", f"/m/{table.match_id}/share", {200: "setup"}
            )
            found = re.search(r"/v/([\w-]+)", share.text) if share is not None else None
            if found is None:
                raise RuntimeError("no viewer link on the share page")
            for _ in range(self.args.phones):
                phone = self.session()
                joined = await self.rec.call(
                    phone, "setup", "GET", f"/v/{found.group(1)}", {303: "setup"}
                )
                if joined is None or joined.status != 303:
                    raise RuntimeError("the viewer link did not work")
                table.phones.append(phone)
        except (RuntimeError, KeyError) as exc:
            self.rec.notes[f"a table was not set up: {exc}"] += 1
            return None
        return table

    async def edit(self, table: Table) -> None:
        """The editor: records the simulated game line by line, pausing like a table."""
        rng = random.Random(table.index)
        low, high = self.args.pause
        await self.clock.pause(rng.uniform(0, high))
        failures = 0
        while self.clock.running() and table.version < len(table.posts):
            reply = await self.post(table, "record")
            if reply is not None and reply.status == 303 and await self.follow(table, "record"):
                failures = 0
                table.tell_phones()
            else:
                failures += 1  # after a 409 (or a lost fragment) it posts what comes next
                if failures >= 3:
                    self.rec.notes["an editor gave up after 3 failures in a row"] += 1
                    return
            await self.think(table, rng.uniform(low, high))

    async def think(self, table: Table, seconds: float) -> None:
        """The editor's screen until its next play: its live poller asks every --poll
        seconds from the start of the pause (the table a play brought), as every
        phone's does (a 204: it saw its own line). A told screen (--updates pushed)
        asks nothing: it made the change."""
        now = asyncio.get_running_loop().time
        asking = now()
        until = asking + seconds
        while self.args.updates == "polled":
            # A period after it last asked, or as an answer later than that comes (htmx
            # then sends the one it queued): never two at once, never after the pause.
            asking = max(asking + self.args.poll, now())
            if asking >= until:
                break
            await self.clock.pause(asking - now())
            if not self.clock.running():
                return
            reply = await self.rec.call(table.editor, "poll", "GET", table.live, POLLED, headers=HX)
            if reply is not None and reply.status == 200:
                table.see(reply.content)
                asking = now()  # a new table: a new poller, its period from now
        await self.clock.pause(until - now())

    async def watch(self, table: Table, phone: Session, seed: int) -> None:
        """A phone: polls the URL of the table it last saw (its version and last line),
        as htmx does every 1.5 s. With --updates pushed, it asks only when told the
        table moved (the best any push could do: telling costs the server nothing)."""
        rng = random.Random(seed)
        url = f"/m/{table.match_id}/live?v=0"  # until it has seen the table
        pushed = self.args.updates == "pushed"
        await self.clock.pause(rng.uniform(0, self.args.poll))
        seen = False
        now = asyncio.get_running_loop().time
        while self.clock.running():
            if pushed and seen:
                told = table.moved
                await self.clock.until(told)
                if not told.is_set():
                    break
            asked = now()
            reply = await self.rec.call(
                phone,
                "poll",
                "GET",
                url,
                POLLED,
                headers=HX,
            )
            changed = reply is not None and reply.status == 200
            if changed:
                url = poller(reply.content) or url
                seen = True
            if not pushed or not seen:
                # On htmx's clock (`every 1500ms`): a table that came (200) brings a new
                # poller, whose period starts as it is swapped in; after a 204 or an error
                # the same poller asks again a period after it last asked, or as the answer
                # comes if it took longer (so a slow moment does not line the phones up).
                await self.clock.pause(self.args.poll - (0.0 if changed else now() - asked))

    async def bare(self) -> None:
        client = self.session()
        while self.clock.running():
            await self.rec.call(client, "bare", "GET", "/bench/bare", {200: "bare"})
            await self.clock.pause(self.args.bare_interval)

    async def lag(self, lags: list[float]) -> None:
        """How late the client's event loop wakes up: a busy client inflates latencies."""
        loop = asyncio.get_running_loop()
        while self.clock.running():
            start = loop.time()
            await asyncio.sleep(0.1)
            lags.append((loop.time() - start - 0.1) * 1000)
