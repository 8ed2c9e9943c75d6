"""How many taps a hand takes on a phone: a typical simulated hand played through the screen.

The issue's targets: at most 1.35 taps per line overall (it was 1.85), a wild 2 taps (on
the Playable tab it is one), a one-card roulette 2, a correction 3 or fewer, "draw N then
play" N+1 or fewer for N up to 5 (a plain card after the draw; a card that asks a question
after it is reported as its own kind). The hand is chosen by rule (the one whose kinds of
line come as often as in 300 simulated hands), then a few scripted lines measure what the
simulator never says. The report (print, and artifacts/taps.txt) gives taps per line
overall and by kind of line; `pytest -s` shows it. How taps are counted, and the person's
habits (the Playable tab, +5 when it saves taps, a reveal colour by colour):
tests/browser/tapping.py.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, Page

from engine import parse_line
from engine.core.notation import (
    ActionLine,
    DealerLine,
    Draw,
    HandLine,
    Line,
    PlayersLine,
    Reveal,
    RulesLine,
)
from engine.tools.simulator import NAMES, Simulation

from .conftest import ROOT
from .tapping import Tapper, kind

PLAYERS = 4
HANDS = 300  # the first hands of matches 0 to 299 (4 players, official rules)
# The hand played: of those first hands with at least MIN_LINES lines, the one whose mix
# of kinds of line is nearest the mix of all of them (a typical hand, chosen by rule, not
# by its taps). It is played on to the second hand's start card, so "Next hand" and a
# second start count too.
MIN_LINES = 60
TARGET = 1.35  # taps per line, overall (it was 1.85)
REPORT = ROOT / "artifacts" / "taps.txt"

# What the simulator never says, scripted in a small second match so that each target
# is measured: corrections one card off each way (a miscounted draw), and draws of 4
# and 5 cards before a play (the hand has draws of 1 to 3).
EXTRA_PLAYERS = ["Ann", "Bob", "Cy"]
EXTRA = [
    "start: R5",
    "Ann: draw 4, R1",
    "Bob: has 8",
    "Bob: draw 5, R3",
    "Cy: has 6",
    "Cy: R6",
]


@dataclass(frozen=True)
class Tapped:
    part: str  # "hand" (the simulated hand) or "scripted"
    line: Line
    taps: int

    @property
    def kind(self) -> str:
        return kind(self.line)


def played_lines(record: str) -> list[Line]:
    """A simulated match's lines of play (its headers left out)."""
    lines = [parse_line(text, NAMES[:PLAYERS]) for text in record.splitlines()]
    return [
        line
        for line in lines
        if line is not None and not isinstance(line, PlayersLine | DealerLine | RulesLine)
    ]


@dataclass(frozen=True)
class FirstHands:
    """The kinds of line of the first hand of each of `HANDS` simulated matches."""

    mixes: dict[int, Counter[str]]

    @classmethod
    def simulate(cls) -> FirstHands:
        mixes = {}
        for seed in range(HANDS):
            sim = Simulation(PLAYERS, seed=seed)
            sim.play_hand()
            mixes[seed] = Counter(kind(line) for line in played_lines(sim.game.record()))
        return cls(mixes)

    @property
    def total(self) -> Counter[str]:
        return sum(self.mixes.values(), Counter())

    def distance(self, seed: int) -> float:
        """How far a hand's mix of kinds is from all the hands' (total variation)."""
        mix, total = self.mixes[seed], self.total
        n, all_ = mix.total(), total.total()
        return sum(abs(mix[k] / n - total[k] / all_) for k in total) / 2

    def typical_seed(self) -> int:
        long_enough = [s for s, mix in self.mixes.items() if mix.total() >= MIN_LINES]
        return min(long_enough, key=lambda s: (self.distance(s), s))


def simulated_hand(seed: int) -> tuple[str, list[Line]]:
    """The dealer, and the simulator's lines from the first start card to the second."""
    sim = Simulation(PLAYERS, seed=seed)
    dealer = sim.game.state.players[sim.game.state.dealer]
    sim.play_hand()
    sim.play_hand()
    played = played_lines(sim.game.record())
    second = played.index(HandLine(2))
    return dealer, played[: second + 2]


def drawn(line: Line) -> int:
    """The cards a "draw N" line drew."""
    assert isinstance(line, ActionLine) and isinstance(line.action, Draw)
    return line.action.count


def same_record(line: Line) -> str:
    """A line as the record is compared: a reveal's cards are tapped colour by colour,
    so their order is the one thing that may differ."""
    if isinstance(line, ActionLine) and isinstance(line.action, Reveal) and line.action.cards:
        cards = sorted(map(str, line.action.cards))
        return f"{line.player}: reveals {' '.join(cards)}"
    return str(line)


@pytest.fixture
def phone(browser: Browser, server: str) -> Iterator[Page]:
    """A 360x640 touch phone."""
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()


def new_match(page: Page, server: str, names: list[str], dealer: str) -> str:
    """The new-match page: the names in their rows, the dealer's "deals" ticked."""
    page.goto(server + "/new")
    for i, name in enumerate(names):
        page.fill(f"#players-{i}", name)
    page.check(f"#dealer-{names.index(dealer) + 1}")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(f"{server}/m/*")
    return page.url.rsplit("/", 1)[1]


def play(page: Page, part: str, lines: list[Line]) -> list[Tapped]:
    tapper = Tapper(page)
    done = []
    for line in lines:
        try:
            done.append(Tapped(part, line, tapper.line(line)))
        except AssertionError as exc:
            raise AssertionError(f"recording '{line}' by tapping: {exc}") from exc
    return done


def exported(page: Page, server: str, match_id: str, players: list[str]) -> list[str]:
    """The app's record of the match (its download), headers left out."""
    text = page.request.get(f"{server}/m/{match_id}/record.txt").text()
    lines = [parse_line(t, players) for t in text.splitlines()]
    return [
        same_record(line)
        for line in lines
        if line is not None and not isinstance(line, PlayersLine | DealerLine | RulesLine)
    ]


def typical(tapped: list[Tapped], hands: FirstHands) -> tuple[float, list[str]]:
    """Taps per line expected over all the first hands: each kind of line at its mean
    cost measured here, weighed by how often it comes. Kinds this run did not measure
    are left out (and named)."""
    cost: dict[str, list[int]] = defaultdict(list)
    for t in tapped:
        cost[t.kind].append(t.taps)
    counts = hands.total
    known = {k: n for k, n in counts.items() if k in cost}
    taps = sum(n * sum(cost[k]) / len(cost[k]) for k, n in known.items())
    return taps / sum(known.values()), sorted(set(counts) - set(known))


def report(tapped: list[Tapped], hands: FirstHands, seed: int) -> str:
    """Taps per line overall (the simulated hand) and by kind; "over 1" is what a kind
    adds to the overall figure beyond one tap per line. The scripted lines one by one."""
    hand = [t for t in tapped if t.part == "hand"]
    expected, missing = typical(tapped, hands)
    by_kind: dict[str, list[Tapped]] = defaultdict(list)
    for t in hand:
        by_kind[t.kind].append(t)
    width = max(map(len, by_kind)) + 2

    def costliest(item: tuple[str, list[Tapped]]) -> tuple[int, str]:
        name, rows = item
        return -sum(t.taps - 1 for t in rows), name

    def row(name: str, rows: list[Tapped]) -> str:
        taps = sum(t.taps for t in rows)
        over = taps - len(rows)
        return f"{name:<{width}}{len(rows):>6}{taps:>6}{taps / len(rows):>10.2f}{over:>8}"

    out = [
        f"Taps per line on a 360x640 phone: the first hand of seed {seed} (4 players, official",
        f"rules) and the second hand's start; target {TARGET} overall. Of the first hands of",
        f"matches 0-{HANDS - 1} with at least {MIN_LINES} lines, the one whose mix of kinds of "
        f"line is nearest",
        f"the mix of them all (total variation distance {hands.distance(seed):.3f}).",
        f"{'':<{width}}{'lines':>6}{'taps':>6}{'taps/line':>10}{'over 1':>8}",
        row("overall", hand),
        row("  its one-tap lines", [t for t in hand if t.taps == 1]),
        row("  the others", [t for t in hand if t.taps > 1]),
        "",
        "by kind, what adds most first:",
        *(row(name, rows) for name, rows in sorted(by_kind.items(), key=costliest)),
        "",
        "the hand's costliest lines:",
        *(f"  {t.taps:>3}  {t.line}" for t in sorted(hand, key=lambda t: -t.taps)[:10]),
        "",
        "scripted (what the simulator never says):",
        *(f"  {t.taps:>3}  {t.line}  ({t.kind})" for t in tapped if t.part == "scripted"),
        "",
        f"all {HANDS} first hands, estimated: {expected:.2f} taps per line (each kind at its mean",
        "cost measured above, weighed by how often it comes in them)"
        + (f"; not measured, left out: {', '.join(missing)}" if missing else ""),
    ]
    return "\n".join(out) + "\n"


def test_taps_per_line(phone: Page, server: str) -> None:
    hands = FirstHands.simulate()
    seed = hands.typical_seed()
    dealer, hand = simulated_hand(seed)
    assert len(hand) >= MIN_LINES
    names = list(NAMES[:PLAYERS])
    match_id = new_match(phone, server, names, dealer)
    tapped = play(phone, "hand", hand)
    assert exported(phone, server, match_id, names) == [same_record(line) for line in hand]

    extra = [parse_line(text, EXTRA_PLAYERS) for text in EXTRA]
    extra_lines = [line for line in extra if line is not None]
    extra_id = new_match(phone, server, EXTRA_PLAYERS, EXTRA_PLAYERS[-1])
    tapped += play(phone, "scripted", extra_lines)
    assert exported(phone, server, extra_id, EXTRA_PLAYERS) == list(map(str, extra_lines))
    assert phone.js_errors == []  # type: ignore[attr-defined]

    text = report(tapped, hands, seed)
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(text)
    print("\n" + text)

    # Each kind's target, line by line (a failure names the line).
    for t in tapped:
        if t.kind == "wild":  # on the Playable tab: one tap (the target: 2)
            assert t.taps == 1, f"a wild took {t.taps} taps: {t.line}"
        elif t.kind == "roulette, one card":
            assert t.taps <= 2, f"a one-card roulette took {t.taps} taps: {t.line}"
        elif t.kind == "correction":
            assert t.taps <= 3, f"a correction took {t.taps} taps: {t.line}"
        elif t.kind == "draw N then play" and (n := drawn(t.line)) <= 5:
            assert t.taps <= n + 1, f"draw {n} then play took {t.taps} taps: {t.line}"
    measured = {t.kind for t in tapped}
    assert {"wild", "roulette, one card", "correction", "draw N then play"} <= measured
    draws = {drawn(t.line) for t in tapped if t.kind == "draw N then play"}
    assert set(range(1, 6)) <= draws, f"draws measured before a play: {sorted(draws)}"

    hand_taps = sum(t.taps for t in tapped if t.part == "hand")
    per_line = hand_taps / len(hand)
    assert per_line <= TARGET, f"{per_line:.2f} taps per line (at most {TARGET}):\n{text}"
