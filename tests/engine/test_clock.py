"""The Clock: every rule, every refusal (with the rule id it cites), the deal, the refill, the
deal-out, the talon and the end."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.clock import (
    BASES, FOUNDS, PACKETS, PILES, STOCK, TALON_PILE, TURNED, ClockOptions, Order, TheClock,
    Turning, foundation_cards, hour_card,
)
from engine.core import Fan, State
from engine.deal import shuffled
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-clock"
R = f"{SLUG}-"
ROOT = Path(__file__).resolve().parents[2]


def up_to(hour: int, last: str) -> str:
    """The foundation at ``hour`` built from its base card up to the card ``last``."""
    cards = foundation_cards(hour)
    want = Card.parse(last)
    return " ".join(str(c) for c in cards[:cards.index(want) + 1])


def done(hour: int) -> str:
    return " ".join(str(c) for c in foundation_cards(hour))


def game(piles: dict[str, str], dealing: int = 0, married: int = 0,
         options: str | None = None, rest_to: str = "stock") -> TheClock:
    """A position holding the cards given (bottom to top), each foundation its base card
    unless given; every other card lies under ``rest_to``'s cards (by default the pack). The
    position is loaded through ``engine.load_position``, so that it is checked as any saved
    game is."""
    full = {f"f{h}": str(BASES[h - 1]) for h in range(1, 13)} | piles
    g = make_game(SLUG, full, vars={"dealing": dealing, "married": married},
                  options=options, rest_to=rest_to)
    loaded = engine.load_position(g.position())
    assert isinstance(loaded, TheClock)
    return loaded


#: A full circle whose uppermost cards can be neither played on the base cards nor married to
#: one another (and whose other cards lie buried).
_UNDER = ("KC QC", "KH QH", "KD QD", "JC JD", "JS 10H", "10D 9C", "9D 8C", "8D 7D", "7S 6S",
          "6H 6D", "5C 5S", "4H 2S")
_TOPS = ("2H", "3S", "3D", "5H", "9H", "10S", "JH", "AC", "7H", "4C", "QS", "8S")
FULL = {f"p{h}": f"{u} {t}" for h, u, t in zip(range(1, 13), _UNDER, _TOPS)}


def exhausted(piles: dict[str, str], rest_to: str = "p12", **kw: object) -> TheClock:
    """The pack dealt out and exhausted: the other cards lie at the bottom of ``rest_to`` (by
    default under the cards of the packet at XII)."""
    kw.setdefault("dealing", 1)
    return game({**piles, "stock": ""}, rest_to=rest_to, **kw)  # type: ignore[arg-type]


def pile(g: TheClock, pid: str) -> list[str]:
    return [str(c) for c in g.state.piles[g.pile_index(pid)]]


def legal(g: TheClock) -> set[str]:
    return {str(m) for m in g.legal_moves()}


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-clock-withdraw", "the-clock-foundations")
def test_the_twelve_cards_of_the_first_dial_stand_against_the_hours() -> None:
    g = engine.new_game(SLUG, seed=3)
    tops = [str(g.state.piles[f][-1]) for f in FOUNDS]
    assert tops == "6C 7H 8S 9D 10C JH QS KD 2C 3H 4S 5D".split()
    # each ends at its hour: the second dial
    assert [str(hour_card(h)) for h in range(1, 13)] == (
        "AC 2H 3S 4D 5C 6H 7S 8D 9C 10H JS QD".split())
    # and together they take every card of the two packs, each exactly once
    every = Counter(c for h in range(1, 13) for c in foundation_cards(h))
    assert every == Counter(engine.pack(2))
    assert [len(foundation_cards(h)) for h in range(1, 13)] == [9] * 8 + [8] * 4


@pytest.mark.rules("the-clock-deal")
def test_twelve_packets_of_three_dealt_together_from_one_round_to_twelve() -> None:
    g = engine.new_game(SLUG, seed=11)
    s = g.state
    assert [len(s.piles[p]) for p in PACKETS] == [3] * 12
    assert len(s.piles[STOCK]) == 56
    assert not s.piles[TURNED] and not s.piles[TALON_PILE]
    assert Counter(s.all_cards()) == Counter(engine.pack(2))
    rest = Counter(engine.pack(2))
    rest.subtract(BASES)
    order = shuffled(sorted(rest.elements()), 11)
    # three cards taken together from the top of the pack and turned up: the card that was on
    # top lies at the bottom of the packet; the packet at I first
    assert s.piles[PACKETS[0]] == (order[-1], order[-2], order[-3])
    assert s.piles[PACKETS[11]] == (order[-34], order[-35], order[-36])
    assert s.piles[STOCK] == tuple(order[:-36])


@pytest.mark.rules("the-clock-deal")
def test_same_deal_number_same_deal() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (4, 4, 5))
    assert a == b and a != c


@pytest.mark.rules("the-clock-deal", "the-clock-rule-1")
def test_every_card_of_the_circle_is_shown_and_the_pack_is_not() -> None:
    g = game({"p1": "5H 9S 2D", "talon": "2S 3S 4S"}, dealing=1)
    faces = {p["id"]: p["cards"] for p in engine.view_of(g)["piles"]}
    assert faces["p1"] == [{"c": "5H"}, {"c": "9S"}, {"c": "2D"}]
    assert faces["talon"] == [{"c": None}, {"c": None}, {"c": "4S"}]
    assert all(c == {"c": None} for c in faces["stock"])


# ----------------------------------------------------------------------------- Rule I

@pytest.mark.rules("the-clock-rule-1")
def test_rule_1_only_the_uppermost_card_is_available_until_released() -> None:
    g = game({"p1": "7C 10S 9S", "p2": "JS"})
    assert refusal_rule(g, "p1:0-f1") == R + "rule-1"
    assert refusal_rule(g, "p1:1-p2") == R + "rule-1"
    assert "p1:0-f1" not in legal(g)
    g.play("p1-f3")        # the nine of spades to its foundation at III
    g.play("p1-f3")        # the ten, released, follows it
    g.play("p1-f1")        # and the seven of clubs
    assert pile(g, "f3") == ["8S", "9S", "10S"] and pile(g, "f1") == ["6C", "7C"]


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("the-clock-rule-4")
def test_rule_4_the_foundations_follow_suit() -> None:
    g = game({"p1": "7H", "p2": "8H"})
    assert refusal_rule(g, "p1-f1") == R + "rule-4"   # the six of clubs takes only clubs
    assert refusal_rule(g, "p2-f3") == R + "rule-4"   # the eight of spades takes spades
    g.play("p2-f2")                                   # the seven of hearts takes the eight


@pytest.mark.rules("the-clock-foundations")
def test_the_foundations_ascend_one_card_at_a_time() -> None:
    g = game({"p1": "8C", "p2": "7C"})
    assert refusal_rule(g, "p1-f1") == R + "foundations"
    g.play("p2-f1")
    g.play("p1-f1")
    assert pile(g, "f1") == ["6C", "7C", "8C"]


@pytest.mark.rules("the-clock-foundations")
def test_the_ace_follows_the_king_and_a_foundation_stops_at_its_hour() -> None:
    g = game({"f1": up_to(1, "KC"), "f8": "KD", "p1": "2C AC", "p2": "AD"})
    g.play("p1-f1")        # the ace after the king: the foundation at I attains its hour
    assert pile(g, "f1")[-2:] == ["KC", "AC"]
    assert refusal_rule(g, "p1-f1") == R + "foundations"   # the two of clubs is refused
    g.play("p2-f8")        # the king of diamonds at VIII takes its ace too
    g = game({"f12": up_to(12, "QD"), "p1": "KD"})
    assert refusal_rule(g, "p1-f12") == R + "foundations"  # no king after the queen at XII
    g = game({"f9": up_to(9, "9C"), "p1": "10C"})
    assert refusal_rule(g, "p1-f9") == R + "foundations"   # IX ends with the nine


@pytest.mark.rules("the-clock-foundations", "the-clock-not-obliged")
def test_a_card_that_fits_two_foundations_goes_where_the_player_chooses() -> None:
    g = game({"f9": up_to(9, "6C"), "p1": "7C"})
    assert {"p1-f1", "p1-f9"} <= legal(g)
    g.play("p1-f9")
    assert pile(g, "f9")[-1] == "7C" and pile(g, "f1") == ["6C"]


@pytest.mark.rules("the-clock-foundations")
def test_foundation_cards_stay_there() -> None:
    g = game({"f1": "6C 7C", "p1": "8C"})
    assert refusal_rule(g, "f1-p1") == R + "foundations"
    assert refusal_rule(g, "f1-f9") == R + "foundations"
    assert refusal_rule(g, "f1-talon") == R + "foundations"


# ----------------------------------------------------------------------------- marriages

@pytest.mark.rules("the-clock-order")
def test_marriages_in_a_descending_line_and_in_suit() -> None:
    g = game({"p1": "KC QC 8H", "p2": "KD QD 7H", "p3": "KH QH 7C", "p4": "JD 9H"})
    assert refusal_rule(g, "p3-p1") == R + "order"   # another suit
    assert refusal_rule(g, "p4-p1") == R + "order"   # ascending
    assert refusal_rule(g, "p2-p4") == R + "order"   # two ranks apart
    g.play("p2-p1")
    assert pile(g, "p1") == ["KC", "QC", "8H", "7H"] and pile(g, "p2") == ["KD", "QD"]


@pytest.mark.rules("the-clock-order")
def test_no_king_on_an_ace() -> None:
    g = game({"p1": "KC QC AH", "p2": "QS JS KH"})
    assert refusal_rule(g, "p2-p1") == R + "order"
    assert "p2-p1" not in legal(g)


@pytest.mark.rules("the-clock-rule-2", "the-clock-order")
def test_rule_2_marriages_only_between_cards_of_the_circle() -> None:
    g = game({**FULL, "p1": "KC QC 10C", "turned": "9C"}, dealing=1)
    assert refusal_rule(g, "turned-p1") == R + "rule-2"
    g = game({**FULL, "p1": "KC QC 10C", "talon": "9C"}, dealing=1)
    assert refusal_rule(g, "talon-p1") == R + "rule-2"
    g = game({"p1": "KC QC 8H", "p2": "JS 7H"})
    g.play("p2-p1")       # a card of the circle may be married there


@pytest.mark.rules("the-clock-order", "the-clock-rule-1")
def test_married_cards_move_one_at_a_time_and_may_shuttle() -> None:
    g = game({"p1": "KC QC 8H 7H", "p2": "KH 8H", "p3": "KS 9H"})
    assert refusal_rule(g, "p1:2-p3") == R + "rule-1"
    g.play("p1-p2")        # the seven alone
    g.play("p2-p1")        # and back, onto the other eight of hearts
    g.play("p1-p2")
    assert pile(g, "p2") == ["KH", "8H", "7H"]


@pytest.mark.rules("the-clock-note", "the-clock-rule-3")
def test_packets_grow_beyond_three_by_marriages_and_take_nothing_at_the_refill() -> None:
    g = game({"p1": "KC QC 8H", "p2": "KS QS 7H", "stock": "2S 3S 4S"})
    g.play("p2-p1")
    assert len(pile(g, "p1")) == 4
    g.play("refill")
    assert pile(g, "p1") == ["KC", "QC", "8H", "7H"]
    assert pile(g, "p2") == ["KS", "QS", "4S"]


@pytest.mark.rules("the-clock-rule-3")
def test_nothing_is_married_into_an_empty_place() -> None:
    g = game({"p1": "", "p2": "KS QS 7H"})
    assert refusal_rule(g, "p2-p1") == R + "rule-3"


@pytest.mark.rules("the-clock-note", "the-clock-rule-3")
def test_a_short_packet_takes_marriages_unless_the_narrower_reading_is_chosen() -> None:
    piles = {"p1": "KC 8H", "p2": "KS QS 7H"}
    g = game(piles)
    g.play("p2-p1")
    assert pile(g, "p1") == ["KC", "8H", "7H"]
    g = game(piles, options="short_marriages:no")
    assert refusal_rule(g, "p2-p1") == R + "rule-3"
    g.play("refill")
    g = game({"p1": "KC 8H 9C", "p2": "KS QS 8C"}, options="short_marriages:no")
    g.play("p2-p1")        # a full packet still takes marriages


# ----------------------------------------------------------------------------- the refill

@pytest.mark.rules("the-clock-rule-3", "the-clock-refill")
def test_the_refill_makes_every_short_packet_up_to_three_from_one_round_to_twelve() -> None:
    g = game({**FULL, "p1": "", "p2": "KS JS 9H", "p3": "QC", "p12": "KC JC",
              "stock": "6S 5S 4S 3S 2S AS"})
    g.play("refill")
    # the pack's top card goes first, onto the packet at I; each packet made up in turn
    assert pile(g, "p1") == ["AS", "2S", "3S"]
    assert pile(g, "p2") == ["KS", "JS", "9H"]
    assert pile(g, "p3") == ["QC", "4S", "5S"]
    assert pile(g, "p12") == ["KC", "JC", "6S"]
    assert all(len(g.state.piles[p]) >= 3 for p in PACKETS)


@pytest.mark.rules("the-clock-refill")
def test_when_the_pack_runs_out_the_later_packets_stay_short() -> None:
    g = game({**FULL, "p2": "", "p5": "KC", "stock": "6S 5S 4S 3S"}, rest_to="p12")
    g.play("refill")
    assert pile(g, "p2") == ["3S", "4S", "5S"] and pile(g, "p5") == ["KC", "6S"]
    assert not g.state.piles[STOCK]
    assert refusal_rule(g, "refill") == R + "rule-3"


@pytest.mark.rules("the-clock-rule-3")
def test_the_refill_is_refused_when_nothing_is_short() -> None:
    g = game(FULL)
    assert refusal_rule(g, "refill") == R + "rule-3"
    assert "refill" not in legal(g)


@pytest.mark.rules("the-clock-rule-3")
def test_the_talon_never_refills_the_circle() -> None:
    g = game({**FULL, "p1": "KC", "p2": "", "talon": "9S"}, dealing=1)
    assert refusal_rule(g, "talon-p1") == R + "rule-3"
    assert refusal_rule(g, "talon-p2") == R + "rule-3"


@pytest.mark.rules("the-clock-rule-3", "the-clock-deal-out")
def test_the_pack_is_not_turned_while_a_packet_is_short() -> None:
    g = game({**FULL, "p4": "KC QC", "stock": "9S 2H"})
    assert refusal_rule(g, "deal") == R + "rule-3"
    assert refusal_rule(g, "stock-p4") == R + "deal-out"
    g.play("refill")
    g.play("deal")


# ----------------------------------------------------------------------------- the order

@pytest.mark.rules("the-clock-order", "the-clock-refill")
def test_by_default_a_card_released_by_a_marriage_may_be_played_at_once() -> None:
    g = game({"p1": "KC 7C 8H", "p2": "KS QS 9H"})
    g.play("p1-p2")
    g.play("p1-f1")
    assert pile(g, "f1") == ["6C", "7C"]


@pytest.mark.rules("the-clock-order", "the-clock-refill")
def test_strict_reading_after_a_marriage_no_play_until_the_refill() -> None:
    opts = "order:strict"
    g = game({"p1": "KC 7C 8H", "p2": "KS JS 9H", "p3": "JD 10D 9S", "talon": "8H"},
             options=opts, dealing=1)
    g.play("p3-f3")        # plays first, as many as the player likes
    g.play("p1-p2")        # then a marriage: the plays wait
    assert g.var(g.state, "married") == 1
    assert refusal_rule(g, "p1-f1") == R + "refill"
    assert refusal_rule(g, "talon-f2") == R + "refill"
    assert "plays wait" in g.status_of(g.state)
    g = game({"p1": "KC 7C 8H", "p2": "KS JS 9H"}, options=opts)
    g.play("p1-p2")
    g.play("refill")       # the refill covers the released seven of clubs again
    assert g.var(g.state, "married") == 0
    assert pile(g, "p1")[1] == "7C" and len(pile(g, "p1")) == 3


@pytest.mark.rules("the-clock-order", "the-clock-note")
def test_strict_reading_a_marriage_that_leaves_the_circle_whole_holds_nothing_back() -> None:
    opts = "order:strict"
    g = game({**FULL, "p1": "KC QC 9H", "p2": "JS 7C 5C 8H"}, options=opts)
    g.play("p2-p1")        # the packet at II keeps three cards
    assert g.var(g.state, "married") == 0
    g = exhausted({**FULL, "p1": "KC 9H", "p2": "JS 7C 8H"}, options=opts)
    g.play("p2-p1")        # the pack is exhausted: nothing can be refilled
    g.play("p2-f1")


@pytest.mark.rules("the-clock-order", "the-clock-deal-out")
def test_strict_reading_in_the_deal_out_the_turned_card_may_still_be_played() -> None:
    g = game({**FULL, "p1": "KC 7C 8H", "p2": "KS JS 9H", "turned": "7C",
              "stock": "2D"}, options="order:strict", dealing=1)
    g.play("p1-p2")
    assert refusal_rule(g, "p1-f1") == R + "refill"
    g.play("turned-f1")    # the seven of clubs just turned up is played
    g.play("deal")         # the next card (not suitable) goes to the packet at I
    assert pile(g, "turned") and g.var(g.state, "married") == 1
    g.play("turned-p1")    # the circle is whole again: plays go on
    assert g.var(g.state, "married") == 0
    assert refusal_rule(g, "p1-f1") == R + "rule-4"


@pytest.mark.rules("the-clock-not-obliged")
def test_no_card_is_ever_played_for_the_player() -> None:
    g = game({**FULL, "p1": "KC QC 7C", "p2": "", "stock": "JS 9S 8H"})
    g.play("refill")       # the eight of hearts and the nine of spades fall suitable
    assert pile(g, "p2") == ["8H", "9S", "JS"]
    assert [len(g.state.piles[f]) for f in FOUNDS] == [1] * 12
    assert "p1-f1" in legal(g)    # the seven of clubs waits for the player


# ----------------------------------------------------------------------------- the deal-out

@pytest.mark.rules("the-clock-deal-out", "the-clock-rule-2")
def test_the_remaining_cards_are_turned_up_one_at_a_time() -> None:
    g = game({**FULL, "stock": "5H 9S", "talon": "2D"}, dealing=1)
    g.play("deal")
    assert pile(g, "turned") == ["9S"] and g.var(g.state, "dealing") == 1
    assert refusal_rule(g, "refill") == R + "deal-out"
    assert refusal_rule(g, "stock-talon") == R + "deal-out"
    assert refusal_rule(g, "p1-turned") == R + "rule-2"
    assert refusal_rule(g, "talon-turned") == R + "deal-out"


@pytest.mark.rules("the-clock-deal-out")
def test_a_suitable_card_turned_up_must_be_played() -> None:
    g = game({**FULL, "p2": "KS JS", "stock": "4H 7C"}, dealing=1)
    g.play("deal")
    assert refusal_rule(g, "turned-talon") == R + "deal-out"
    assert refusal_rule(g, "turned-p2") == R + "deal-out"
    assert refusal_rule(g, "deal") == R + "deal-out"
    assert "play the seven of clubs" in g.status_of(g.state)
    g.play("turned-f1")
    g.play("deal")


@pytest.mark.rules("the-clock-deal-out", "the-clock-refill", "the-clock-rule-2")
def test_an_unsuitable_card_turned_up_refills_the_first_short_packet() -> None:
    g = game({**FULL, "p3": "KD", "p7": "", "stock": "4H 2D"}, dealing=1)
    g.play("deal")
    assert refusal_rule(g, "turned-p7") == R + "refill"     # the packet at III comes first
    assert refusal_rule(g, "turned-talon") == R + "rule-3"
    assert refusal_rule(g, "turned-p1") == R + "rule-2"     # a full packet: a marriage
    g.play("turned-p3")
    assert pile(g, "p3") == ["KD", "2D"]


@pytest.mark.rules("the-clock-deal-out", "the-clock-talon")
def test_turning_the_next_card_places_the_last_where_it_must_go() -> None:
    g = game({**FULL, "p5": "KC QC", "stock": "4H 4D 2D"}, dealing=1)
    g.play("deal")         # the two of diamonds
    g.play("deal")         # goes to the packet at V; the four of diamonds is turned up
    assert pile(g, "p5") == ["KC", "QC", "2D"] and pile(g, "turned") == ["4D"]
    g.play("deal")         # the circle is full: the four is laid aside on the talon
    assert pile(g, "talon")[-1] == "4D" and pile(g, "turned") == ["4H"]


@pytest.mark.rules("the-clock-deal-out", "the-clock-order")
def test_the_circle_may_be_played_and_married_while_a_card_waits() -> None:
    g = game({**FULL, "p1": "KC 7C 2H", "p3": "KD QD 3H", "stock": "8C"}, dealing=1)
    g.play("deal")         # the eight of clubs is not yet suitable
    g.play("p1-p3")        # a marriage releases the seven of clubs
    g.play("p1-f1")        # a play: now the eight is suitable, and must be played
    assert refusal_rule(g, "turned-p1") == R + "deal-out"
    g.play("turned-f1")


@pytest.mark.rules("the-clock-deal-out", "the-clock-order")
def test_by_default_the_pack_is_not_dealt_out_while_a_play_is_open() -> None:
    # "From this circle you first play …; When all further progress is at an end, deal out
    # the remaining cards": straight after the deal, with plays open, the pack stays put.
    g = engine.new_game(SLUG, seed=1)
    assert "p2-f9" in legal(g)
    assert refusal_rule(g, "deal") == R + "deal-out"
    assert "deal" not in legal(g)
    g = game({**FULL, "p1": "KC QC 7C", "stock": "9S"})
    assert refusal_rule(g, "deal") == R + "deal-out"


@pytest.mark.rules("the-clock-deal-out")
def test_the_other_reading_turns_the_pack_whenever_the_circle_is_full() -> None:
    g = game({**FULL, "p1": "KC QC 7C", "stock": "9S"}, options="turning:any-time")
    assert {"deal", "p1-f1"} <= legal(g)
    g = engine.new_game(SLUG, seed=1, options="turning:any-time")
    assert "deal" in legal(g)


@pytest.mark.rules("the-clock-deal-out")
def test_by_default_a_card_is_turned_only_when_nothing_can_be_played() -> None:
    opts = ""
    g = game({**FULL, "p1": "KC QC 7C", "stock": "9S 2H"}, options=opts)
    assert refusal_rule(g, "deal") == R + "deal-out"
    g.play("p1-f1")
    g.play("refill")
    g.play("deal")         # marriages left open would not stop it
    g = game({**FULL, "p1": "KC QC 7C", "p2": "KS JS 6C", "stock": "9S 2H"}, options=opts)
    g.play("p2-p1")        # the seven of clubs, kept on the circle, is covered by the six
    g.play("refill")
    g.play("deal")
    g = game({**FULL, "talon": "7C", "stock": "9S"}, options=opts, dealing=1)
    assert refusal_rule(g, "deal") == R + "deal-out"   # the talon's top counts
    g.play("talon-f1")
    g.play("deal")


@pytest.mark.rules("the-clock-talon", "the-clock-deal-out")
def test_the_last_card_of_the_pack_is_placed_by_hand() -> None:
    g = game({**FULL, "stock": "2D", "talon": "4D"}, dealing=1, rest_to="talon")
    g.play("deal")
    assert refusal_rule(g, "deal") == R + "no-redeal"
    assert g.outcome() is None
    g.play("turned-talon")
    assert pile(g, "talon")[-1] == "2D"


# ----------------------------------------------------------------------------- the talon

@pytest.mark.rules("the-clock-talon")
def test_the_talons_top_card_may_only_be_played_on_a_foundation() -> None:
    g = game({**FULL, "p1": "KC QC 8C", "talon": "9S 7C"}, dealing=1)
    assert refusal_rule(g, "talon:0-f3") == R + "talon"
    g.play("talon-f1")
    g.play("p1-f1")
    g.play("talon-f3")
    assert pile(g, "f1") == ["6C", "7C", "8C"] and pile(g, "f3") == ["8S", "9S"]


@pytest.mark.rules("the-clock-talon")
def test_only_cards_turned_up_are_laid_aside_on_the_talon() -> None:
    g = game({**FULL, "talon": "9S"}, dealing=1)
    assert refusal_rule(g, "p1-talon") == R + "talon"


# ----------------------------------------------------------------------------- the end

@pytest.mark.rules("the-clock-no-redeal")
def test_no_redeal() -> None:
    g = exhausted({**FULL, "talon": "7C"})
    assert refusal_rule(g, "deal") == R + "no-redeal"
    assert refusal_rule(g, "redeal") == R + "no-redeal"
    assert "exhausted" in g.status_of(g.state)


@pytest.mark.rules("the-clock-foundations", "the-clock-no-redeal")
def test_won_when_every_foundation_shows_its_hour() -> None:
    piles = {f"f{h}": done(h) for h in range(1, 13)}
    piles["f12"] = up_to(12, "JD")
    g = game({**piles, "p1": "QD", "stock": ""}, rest_to="p1")
    assert g.outcome() is None
    g.play("p1-f12")
    assert g.outcome() is Outcome.WON
    assert g.status_of(g.state).startswith("Won")
    assert not g.legal_moves()


@pytest.mark.rules("the-clock-no-redeal")
def test_lost_when_no_card_can_reach_a_foundation() -> None:
    g = exhausted(FULL)
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


@pytest.mark.rules("the-clock-no-redeal", "the-clock-order")
def test_lost_when_marriages_go_round_in_circles_without_a_play() -> None:
    g = exhausted({**FULL, "p1": "KC 3D", "p2": "KH 3D", "p3": "QC 2D"})
    assert g.legal_moves()
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("the-clock-no-redeal", "the-clock-order")
def test_not_lost_while_marriages_can_release_a_play() -> None:
    g = exhausted({**FULL, "p1": "KC 3D", "p2": "7C 2D"})
    assert g.outcome() is None
    g.play("p2-p1")
    g.play("p2-f1")
    g = exhausted({**FULL, "p1": "KC 3D", "p2": "7C 2D", "p3": "KD QD 5D"},
                  options="short_marriages:no")
    assert g.outcome() is Outcome.LOST   # the packet at I, short, takes no marriage


@pytest.mark.rules("the-clock-no-redeal", "the-clock-talon")
def test_the_talons_top_and_a_waiting_card_count_in_the_verdict() -> None:
    g = exhausted({**FULL, "talon": "7C"}, rest_to="p12")
    assert g.outcome() is None
    g = game({**FULL, "stock": "", "turned": "9S"}, dealing=1, rest_to="talon")
    assert g.outcome() is None


@pytest.mark.rules("the-clock-deal-out")
def test_never_lost_while_the_pack_holds_cards() -> None:
    g = game({**FULL, "stock": "9S", "talon": "4D"}, rest_to="talon", dealing=1)
    assert g.outcome() is None
    assert Move(action="deal") in g.legal_moves()


def _is_play(g: TheClock, m: Move) -> bool:
    return bool(m.steps) and g.pile_index(m.steps[0][1]) in FOUNDS


def _moves_to_a_play(g: TheClock) -> list[Move] | None:
    """The shortest series of moves after which a card can be played (the pack exhausted),
    by breadth-first search over the game's own legal moves."""
    paths: dict[State, list[Move]] = {g.state: []}
    queue = [g.state]
    while queue:
        state = queue.pop(0)
        h = TheClock(state, g.options, None)
        for m in h.legal_moves():
            if _is_play(h, m):
                return paths[state]
            nxt = h.apply(state, m)
            if nxt not in paths:
                paths[nxt] = paths[state] + [m]
                queue.append(nxt)
            if len(paths) > 20000:
                raise AssertionError("search too large for the test")
    return None


@pytest.mark.rules("the-clock-no-redeal")
@pytest.mark.parametrize("opts", ["", "order:strict,short_marriages:no,turning:no-play"])
def test_played_out_games_end_won_or_lost_and_lost_only_when_no_play_can_follow(
        opts: str) -> None:
    outcomes = set()
    for seed in range(10):
        g = engine.new_game(SLUG, seed=seed, options=opts)
        assert isinstance(g, TheClock)
        steps = 0
        while g.outcome() is None:
            steps += 1
            assert steps < 2000
            moves = g.legal_moves()
            plays = [m for m in moves if _is_play(g, m)]
            placing = [m for m in moves if m.steps and m.steps[0][0] == "turned"]
            if plays:
                g.play(plays[0])
            elif placing:
                g.play(placing[0])
            elif Move(action="refill") in moves:
                g.play("refill")
            elif Move(action="deal") in moves:
                g.play("deal")
            else:
                path = _moves_to_a_play(g)
                assert path, "not declared lost, yet no play can be reached"
                for m in path:
                    g.play(m)
        total = sum(len(g.state.piles[f]) for f in FOUNDS)
        assert (g.outcome() is Outcome.WON) == (total == 104)
        if g.outcome() is Outcome.LOST:
            assert _moves_to_a_play(g) is None
        outcomes.add(g.outcome())
    assert Outcome.LOST in outcomes


# ----------------------------------------------------------------------------- refusals

def test_board_refusals() -> None:
    g = game({**FULL, "p2": ""})
    assert refusal_rule(g, "shuffle") == R + "board"
    assert refusal_rule(g, "q1-f1") == R + "board"
    assert refusal_rule(g, "p1-q1") == R + "board"
    assert refusal_rule(g, "p1-p1") == R + "board"
    assert refusal_rule(g, "p1-stock") == R + "board"
    assert refusal_rule(g, "p2-f1") == R + "board"
    assert refusal_rule(g, "turned-f1") == R + "board"
    assert refusal_rule(g, "p1-p3:0") == R + "board"
    assert refusal_rule(g, "p1-f1+p3-f1") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"


# ----------------------------------------------------------------------------- options, positions

def test_options_round_trip_as_text() -> None:
    o = ClockOptions(order=Order.STRICT, short_marriages=False, turning=Turning.ANY_TIME)
    text = engine.options_to_text(o)
    assert engine.options_from_text(ClockOptions, text) == o
    assert engine.options_to_text(ClockOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(ClockOptions, "order:anything")


def test_every_option_names_its_note_and_defaults_to_the_recommended_reading() -> None:
    o = ClockOptions()
    assert (o.order, o.short_marriages, o.turning) == (Order.FREE, True, Turning.NO_PLAY)
    for d in engine.describe_options(ClockOptions):
        assert d["note"].startswith("note-cl-")
        assert len(d["choices"]) == 2


def test_position_restores_a_game_in_the_deal_out_exactly() -> None:
    g = engine.new_game(SLUG, seed=21, options="order:strict")
    for _ in range(60):
        moves = g.legal_moves()
        actions = [m for m in moves if m.action]
        g.play(actions[-1] if actions else moves[0])
        if g.var(g.state, "dealing") and g.state.piles[TURNED]:
            break
    h = engine.load_position(g.position())
    assert h.state == g.state and h.position() == g.position()


def test_corrupt_positions_are_refused() -> None:
    g = game({**FULL, "p1": "KC 8H", "p2": "KS JS 9H", "f1": "6C 7C"}, options="order:strict")
    g.play("p1-p2")
    text = g.position()
    engine.load_position(text)
    start = text.split(";start=")[1].split(";")[0]
    with pytest.raises(PositionError):
        engine.load_position(text.replace(start, start.replace("f1:6C.7C", "f1:7C.6C")))
    with pytest.raises(PositionError):
        engine.load_position(text.replace(start, start.replace("f2:7H|f3:8S",
                                                               "f2:8S|f3:7H")))
    with pytest.raises(PositionError):  # the plays wait only under the strict reading
        engine.load_position(text.replace("married:0", "married:1")
                             .replace("opts=order:strict", "opts="))
    with pytest.raises(PositionError):  # a card turned up before the deal-out
        bad = game({**FULL, "turned": "9S"}, dealing=1).position()
        engine.load_position(bad.replace("dealing:1", "dealing:0"))
    with pytest.raises(PositionError):  # a talon before the deal-out
        bad = game({**FULL, "talon": "9S"}, dealing=1).position()
        engine.load_position(bad.replace("dealing:1", "dealing:0"))


# ----------------------------------------------------------------------------- the layout

def test_the_dial_follows_the_plate_and_has_a_narrow_form() -> None:
    spec = {p.id: p for p in PILES}
    # the foundations round the dial: XII at the top, VI at the bottom, III right, IX left
    assert spec["f12"].y < spec["f3"].y < spec["f6"].y
    assert spec["f9"].x < spec["f12"].x < spec["f3"].x
    # each packet outside its foundation, turned with it
    for h in range(1, 13):
        assert spec[f"p{h}"].rotate == spec[f"f{h}"].rotate
    assert spec["p12"].y < spec["f12"].y and spec["p6"].y > spec["f6"].y
    assert all(spec[f"p{h}"].fan is Fan.DOWN for h in range(1, 13))
    narrow = next(lay for lay in TheClock.LAYOUTS if lay.name == "narrow")
    assert narrow.max_width and narrow.grid[0] <= 7
    assert set(narrow.at) == {p.id for p in PILES}
    assert all(r == 0 for _, _, r in narrow.at.values())
    # cards at least 36 px wide on a phone 390 px wide (the board some 350 px wide)
    assert 350 / narrow.grid[0] * 0.9 >= 36


# ----------------------------------------------------------------------------- the ledger

def _page_rule_anchors() -> set[str]:
    page = ROOT / "docs" / f"{SLUG}.md"
    if not page.exists():  # inside Pyodide only the engine and its tests are copied
        pytest.skip("the chapter page is not here")
    text = page.read_text(encoding="utf-8")
    ids = set(re.findall(r'class="rule" id="([^"]+)"', text))
    ids |= set(re.findall(r"\{ #([\w-]+) \.rule \}", text))
    return ids


def test_the_ledger_covers_every_rule_anchor_and_every_anchor_is_tested() -> None:
    anchors = _page_rule_anchors()
    assert len(anchors) == 14
    assert set(TheClock.LEDGER) == anchors
    cited = set(re.findall(r'"(the-clock-[a-z0-9-]+)"',
                           "".join(re.findall(r"@pytest\.mark\.rules\(([^)]*)\)",
                                              Path(__file__).read_text(encoding="utf-8")))))
    assert cited == anchors
