"""A person recording record lines on the table screen, every tap counted.

`Tapper.line(line)` turns one engine line (engine.notation) into the taps a person makes
for it on a phone: the card key on the Playable tab, a follow-up's button, a stepper's
-/+/+5, the reveal keyboard. Every click goes through `Tapper.tap`; typing counts one
tap for the field and one per character. Scrolling is not counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.sync_api import Locator, Page, expect

from engine import Card, Color, Face
from engine.core.notation import (
    ActionLine,
    CallUno,
    Catch,
    Correct,
    Draw,
    HandLine,
    Line,
    Play,
    Reveal,
    Roulette,
    StartLine,
    Take,
)

# The reveal keyboard's tabs, in the order it shows them (the wilds' letter is W).
REVEAL_TABS = [c.value for c in Color] + ["W"]


def colour_tab(card: Card) -> str:
    """The table keyboard's tab a card is on: its colour's title, or Wild."""
    return card.color.title if card.color is not None else "Wild"


def reveal_tab(card: Card) -> str:
    return card.color.value if card.color is not None else "W"


def kind(line: Line) -> str:
    """The kind of line the report counts it under."""
    if isinstance(line, StartLine):
        return "start"
    if isinstance(line, HandLine):
        return "next hand"
    if not isinstance(line, ActionLine):
        raise ValueError(f"not a line of play: {line}")
    action = line.action
    if isinstance(action, Play):
        return play_kind(action)
    if isinstance(action, Draw):
        if action.play is None:
            return "draw, no play"
        plain = play_kind(action.play) == "plain card"
        return "draw N then play" if plain else "draw N then a card with a question"
    if isinstance(action, Roulette):
        return "roulette, one card" if action.count == 1 else "roulette, more cards"
    names = {Take: "take", CallUno: "UNO", Catch: "catch", Correct: "correction"}
    for kind_, name in names.items():
        if isinstance(action, kind_):
            return name
    if isinstance(action, Reveal):
        return "reveal (cards)" if action.cards is not None else "reveal (points)"
    raise ValueError(f"no taps known for {line}")


def play_kind(play: Play) -> str:
    if play.card.face is Face.DISCARD_ALL:
        return "Discard All"
    if play.color is not None:
        return "wild"
    if play.swap is not None:
        return "7 swap"
    return "plain card"  # a number, an action, the Colour Roulette card: no question


@dataclass
class Tapper:
    page: Page
    taps: int = 0
    log: list[str] = field(default_factory=list)  # what was tapped, for a failure's message

    # ------------------------------------------------------------ the counted gestures

    def tap(self, target: Locator) -> None:
        self.taps += 1
        target.click()

    def type_in(self, target: Locator, text: str) -> None:
        """Tap a field, then type: one tap for the field, one per character."""
        self.tap(target)
        self.taps += len(text)
        target.press_sequentially(text)

    def count(self, field: str, value: int) -> bool:
        """Set a count the quickest way: its quick-count button when it has one for
        `value` (one tap), else its stepper. True when that tap also recorded the line
        (a quick count that presses the form's button)."""
        quick = self.page.locator(f'[data-quick-for="{field.lstrip("#")}"]')
        button = quick.locator(f'[data-set="{value}"]')
        if quick.count():
            # Until app.js has taken the row over, the drawn count's row shows its
            # stepper (the screen without scripts), which app.js then hides: a stepper
            # seen there too early was tapped once it had gone (test_taps_per_line, CI).
            expect(quick).to_have_attribute("data-ready", "1")
        if quick.count() and button.count():
            expect(quick).to_be_visible()
            submits = quick.get_attribute("data-submit") is not None
            self.tap(button)
            return submits
        stepper = self.page.locator(field).locator("xpath=..")
        if quick.count() and not stepper.is_visible():
            # The drawn count's row shows its stepper once a count is chosen: the
            # highest quick count first, then the stepper.
            highest = max(
                int(b.get_attribute("data-set") or 0) for b in quick.locator("[data-set]").all()
            )
            self.tap(quick.locator(f'[data-set="{highest}"]'))
            expect(stepper).to_be_visible()
        self.step_to(field, value)
        return False

    def step_to(self, field: str, value: int) -> None:
        """Set a stepper (`field` is its input's selector) with the fewest taps: +5 as
        often as it saves taps (then -1 if it went past), + or - for the rest."""
        box = self.page.locator(field).locator("xpath=..")
        input_ = self.page.locator(field)
        now = int(input_.input_value() or 0)
        gap = value - now
        fives = 0
        if gap > 0 and box.get_by_label("Five more").count():
            fives = min((gap // 5, gap // 5 + 1), key=lambda k: (k + abs(gap - 5 * k), k))
        for _ in range(fives):
            self.tap(box.get_by_label("Five more"))
        # The stepper keeps to its field's min and max: read it back rather than assume.
        while (now := int(input_.input_value() or 0)) != value:
            self.tap(box.get_by_label("One more" if value > now else "One fewer"))

    # ------------------------------------------------------------ reading the screen

    @property
    def version(self) -> int:
        return int(self.page.locator("#table").get_attribute("data-version") or 0)

    def active_tab(self) -> str:
        """The open tab's name (a colour's tab draws its letter and is named by the colour)."""
        return str(
            self.page.locator("nav.tabs .tab.active").evaluate(
                "tab => (tab.querySelector('.sr-only') || tab).textContent.trim()"
            )
        )

    def open_tab(self, title: str) -> None:
        self.tap(self.page.locator("nav.tabs").get_by_role("link", name=title, exact=True))
        expect(self.page.locator("nav.tabs .tab.active")).to_have_accessible_name(title)

    def button(self, name: str | re.Pattern[str]) -> Locator:
        return self.page.locator("#table").get_by_role("button", name=name, exact=True)

    # ------------------------------------------------------------ a line

    def line(self, line: Line) -> int:
        """Record `line` by tapping; returns its taps. The table's version must move on
        by one: the line was recorded, once."""
        before_taps, before = self.taps, self.version
        self.log.append(str(line))
        if isinstance(line, StartLine):
            self.start(line.card)
        elif isinstance(line, HandLine):
            self.tap(self.button(re.compile(r"^Next hand")))
        elif isinstance(line, ActionLine):
            self.action(line)
        expect(self.page.locator("#table")).to_have_attribute(
            "data-version", str(before + 1), timeout=5000
        )
        return self.taps - before_taps

    def start(self, card: Card) -> None:
        if self.active_tab() != colour_tab(card):
            self.open_tab(colour_tab(card))
        self.tap(self.page.locator(f'[aria-label="Start with {card.name}"]'))

    def action(self, line: ActionLine) -> None:
        who, action = line.player, line.action
        match action:
            case Play():
                self.play(action)
            case Draw(count=count, play=None):
                self.count("#drawn", count)
                self.tap(self.button(re.compile(r"^(No play|Kept it)$")))
            case Draw(count=count, play=Play() as play):
                self.count("#drawn", count)
                self.play(play)
            case Take():
                self.tap(self.button(re.compile(r"^Take \d+$")))
            case Roulette(color=color, count=count):
                self.tap(self.page.locator("form.roulette label", has_text=f"({color.value})"))
                if not self.count("#roulette-count", count):
                    self.tap(self.button("Record the roulette"))
            case CallUno():
                self.tap(self.button(f"{who} called UNO"))
            case Catch(target=caught):
                self.tap(self.page.get_by_role("link", name=f"Caught {caught} without UNO"))
                expect(self.page.locator(".follow-up")).to_contain_text(f"Who caught {caught}")
                self.tap(self.button(who))
            case Correct(count=count):
                self.tap(self.page.locator(f'a.seat-box[aria-label^="Correct {who}\'s count"]'))
                expect(self.page.locator("#fix-count")).to_be_visible()
                self.step_to("#fix-count", count)
                self.tap(self.button("Correct the count"))
            case Reveal(cards=cards, points=points):
                self.reveal(who, cards, points)
            case _:
                raise ValueError(f"no taps known for {line}")

    def play(self, play: Play) -> None:
        """The card's key (on the Playable tab, else its colour's), then its question."""
        card = play.card
        if play.color is not None:  # on the Playable tab, a key per colour it may name
            named = f"{card.name}, naming {play.color.title}"
            key = self.page.locator(f'.keyboard [aria-label="{named}"]')
            if key.count():
                self.tap(key)
                return
        key = self.page.locator(f'.keyboard [aria-label="{card.name}"]')
        if not key.count():
            self.open_tab(colour_tab(card))
        asks = key.evaluate("key => key.tagName") == "A"  # a key with a question is a link
        self.tap(key)
        if not asks:
            return
        expect(self.page.locator(".follow-up")).to_be_visible()
        if play.color is not None:
            self.tap(self.button(f"{play.color.title} ({play.color.value})"))
        elif play.swap is not None:
            self.tap(self.button(play.swap))
        else:  # a Discard All: how many more cards of its colour, then play it
            if not self.count("#discard-count", play.discard):
                self.tap(self.button(f"Play {card.name}"))

    def reveal(self, who: str, cards: tuple[Card, ...] | None, points: int | None) -> None:
        form = self.page.locator("form.reveal:visible")
        chips = self.page.locator(".reveal-chips")
        if chips.count() and chips.is_visible() and f"{who} reveals" not in form.inner_text():
            self.tap(chips.get_by_role("button", name=who, exact=True))
        form = self.page.locator("form.reveal", has_text=f"{who} reveals")
        expect(form).to_be_visible()
        if cards is None:
            self.type_in(form.locator('input[name="points"]'), str(points))
        else:
            keys = self.page.locator(".reveal-keys")
            for card in in_reveal_order(cards, self.reveal_tab_shown()):
                tab = reveal_tab(card)
                if tab != self.reveal_tab_shown():
                    self.tap(keys.locator(f'.reveal-tab[data-tab="{tab}"]'))
                self.tap(keys.locator(f'.reveal-key[aria-label="{card.name}"]'))
        self.tap(form.get_by_role("button", name=f"Record {who}'s cards"))

    def reveal_tab_shown(self) -> str:
        tab = self.page.locator('.reveal-keys .reveal-tab[aria-pressed="true"]')
        return tab.get_attribute("data-tab") or REVEAL_TABS[0]


def in_reveal_order(cards: tuple[Card, ...], shown: str) -> list[Card]:
    """A loser's cards as a person taps them: colour by colour, starting with the tab the
    keyboard shows, then the tabs in their order (one tab tap per colour held)."""
    start = REVEAL_TABS.index(shown)
    order = REVEAL_TABS[start:] + REVEAL_TABS[:start]
    return sorted(cards, key=lambda card: order.index(reveal_tab(card)))
