"""A seat's name on a small phone: short, readable, and never taken for another's."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine import SHORT_NAME_LENGTH, EngineError, Game, name_key, short_names


def test_names_that_fit_are_shown_whole() -> None:
    assert short_names(["Ann", "Bob", "Cy", "Ann Lee"]) == ("Ann", "Bob", "Cy", "Ann Lee")


def test_alexandra_and_alexander_stay_apart() -> None:
    names = ["Alexandra Montgomery", "Alexander Montgomery", "Jean-Baptiste Dupont"]
    assert short_names(names) == ("Alexandra", "Alexander", "Jean-Bap\u2026")


def test_a_first_name_two_players_share_takes_the_last_names_initial() -> None:
    assert short_names(["Chris Smith", "Chris Jones", "Ann"]) == ("Chris S.", "Chris J.", "Ann")


def test_a_long_first_name_is_cut_where_the_cut_keeps_it_apart() -> None:
    names = ["Christopher Smith", "Christopher Jones", "Bartholomew Kingsley"]
    assert short_names(names) == ("Chris\u2026 S.", "Chris\u2026 J.", "Bartholo\u2026")


def test_a_short_form_is_never_another_players_name() -> None:
    # "Ann" is Ann's own name: Ann Marie Smith is never shown as plain "Ann".
    shorts = short_names(["Ann Marie Smith", "Ann"])
    assert shorts[1] == "Ann"
    assert name_key(shorts[0]) != "ann"


def test_when_no_short_form_is_its_own_the_full_name_is_shown() -> None:
    names = ["Alexandrine Dupont", "Alexandrina Dupont", "Alexandrina Durand"]
    assert short_names(names)[1] == "Alexandrina Dupont"


def test_the_length_a_seat_shows() -> None:
    assert SHORT_NAME_LENGTH == 9


FIRST = st.sampled_from(
    ["Ann", "Anna", "Alexandra", "Alexander", "Alexandrine", "Chris", "Christopher",
     "Jean-Baptiste", "Maximilian", "Ana", "\u00c9lodie", "\u674e", "Bo"]
)  # fmt: skip
LAST = st.sampled_from(["", "Smith", "Jones", "S", "Montgomery", "Dupont", "Durand", "Lee"])
NAME = st.builds(lambda first, last: f"{first} {last}".strip(), FIRST, LAST)
ANY_NAME = NAME | st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cf")), max_size=20)


@given(st.lists(ANY_NAME, min_size=2, max_size=6, unique_by=name_key))
def test_every_seat_is_told_apart_and_fits_or_is_whole(texts: list[str]) -> None:
    try:
        players = Game(texts).players
    except EngineError:
        return
    shorts = short_names(players)
    assert len({name_key(short) for short in shorts}) == len(players)
    for name, short in zip(players, shorts, strict=True):
        assert short == name or len(short) <= SHORT_NAME_LENGTH
        assert len(short) <= len(name)
        # A short form begins as the name does: it reads as that player.
        assert name.startswith(short.split("\u2026")[0].split(" ")[0])
