"""The Shah: every rule, every refusal (with the rule id it cites)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.deal import shuffled
from engine.shah import (
    FOUNDS, INNER, MIDDLE, OUT, OUTER, RAY_SUITS, SHAH_PILE, STOCK, TALON, THE_SHAH,
    THROWN_ASIDE, TURNED, DealPlays, RefillSource, ShahOptions, TheShah,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-shah"
R = f"{SLUG}-"
FIXED = {"shah": "KH", "out": " ".join(map(str, THROWN_ASIDE)),
         **{f"f{r}": f"A{s.value}" for r, s in enumerate(RAY_SUITS)}}
# A complete star in which nothing is suitable (no two) and no marriage can be made.
STAR = {
    **{f"i{r}": c for r, c in enumerate("9S 9H 9C 9D 10S 10H 10C 10D".split())},
    **{f"m{r}": c for r, c in enumerate("5S 5H 5C 5D 6S 6H 6C 6D".split())},
    **{f"o{r}": c for r, c in enumerate("QS QH QC QD 7S 7H 7C 7D".split())},
}
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q".split()


def game(piles: dict[str, str], circles: int = 3, options: str | None = None,
         rest_to: str = "stock", **more: str) -> TheShah:
    """A position with the Shah, the kings and the aces in place, the given piles (``more``:
    piles given by keyword, ``talon="9H"``), and every other card at the bottom of
    ``rest_to`` (the pack by default)."""
    g = make_game(SLUG, {**FIXED, **piles, **more}, vars={"circles": circles},
                  options=options, rest_to=rest_to)
    assert isinstance(g, TheShah)
    return g


def star(**changes: str) -> dict[str, str]:
    return {**STAR, **changes}


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def up_to(suit: str, last: str) -> str:
    """A foundation built from its ace up to rank ``last``."""
    return " ".join(r + suit for r in RANKS[:RANKS.index(last) + 1])


def pile(g: TheShah, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def legal(g: TheShah) -> set[str]:
    return {str(m) for m in g.legal_moves()}


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-shah-withdraw", "the-shah-shah", "the-shah-foundations",
                   "the-shah-first-circle")
def test_deal_sets_out_the_shah_the_kings_the_aces_and_the_first_circle() -> None:
    g = engine.new_game(SLUG, seed=3)
    s = g.state
    assert s.piles[SHAH_PILE] == (THE_SHAH,)
    assert s.piles[OUT] == THROWN_ASIDE and len(THROWN_ASIDE) == 7
    assert Counter(c.rank for c in (*THROWN_ASIDE, THE_SHAH)) == {13: 8}
    assert [s.piles[f] for f in FOUNDS] == [(Card(1, suit),) for suit in RAY_SUITS]
    assert Counter(RAY_SUITS) == {suit: 2 for suit in RAY_SUITS}
    assert Counter(s.all_cards()) == Counter(engine.pack(2))
    # the rest of the two packs, shuffled; the first circle dealt from the top ray clockwise
    rest = [c for c in engine.pack(2) if c.rank not in (1, 13)]
    order = shuffled(sorted(rest), 3)
    assert [s.piles[i] for i in INNER] == [(c,) for c in reversed(order[-8:])]
    assert s.piles[STOCK] == tuple(order[:-8])
    assert g.var(s, "circles") == 1
    assert not any(s.piles[p] for p in (*MIDDLE, *OUTER, TURNED, TALON))


def test_same_deal_number_same_deal_and_different_numbers_differ() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (5, 5, 6))
    assert a == b
    assert a != c


@pytest.mark.rules("the-shah-circles", "the-shah-first-circle")
def test_the_deal_goes_on_by_itself_while_no_card_is_suitable() -> None:
    g = engine.new_game(SLUG, seed=26)
    s = g.state
    assert g.var(s, "circles") == 3
    assert all(len(s.piles[p]) == 1 for p in (*INNER, *MIDDLE, *OUTER))
    assert len(s.piles[STOCK]) == 88 - 24
    rest = [c for c in engine.pack(2) if c.rank not in (1, 13)]
    order = list(reversed(shuffled(sorted(rest), 26)))
    assert [s.piles[p][0] for p in (*INNER, *MIDDLE, *OUTER)] == order[:24]


@pytest.mark.rules("the-shah-deal-plays", "the-shah-circles")
def test_the_deal_stops_when_a_card_is_suitable() -> None:
    g = engine.new_game(SLUG, seed=3)
    assert g.var(g.state, "circles") == 1
    assert legal(g) == {"i5-f0", "i5-f4"}
    assert refusal_rule(g, "circle") == R + "deal-plays"


# ----------------------------------------------------------------------------- dealing the star

def _dealing(options: str | None = None, **piles: str) -> TheShah:
    inner = {f"i{r}": c for r, c in enumerate("9S 9H 9C 9D 10S 10H 10C 10D".split())}
    return game({**inner, **piles}, circles=1, options=options)


@pytest.mark.rules("the-shah-deal-plays")
def test_a_card_played_while_dealing_is_replaced_at_once_from_the_pack() -> None:
    g = _dealing(i0="2S", stock="8H 3S")
    g.play("i0-f0")
    assert pile(g, "f0") == cards("AS 2S")
    assert pile(g, "i0") == cards("3S")          # the next card of the pack, at once
    assert pile(g, "stock")[-1] == Card.parse("8H")
    g.play("i0-f0")                               # and it may be played in its turn
    assert pile(g, "i0") == cards("8H")


@pytest.mark.rules("the-shah-deal-plays", "the-shah-circles")
def test_the_next_circle_waits_while_a_suitable_card_is_left() -> None:
    g = _dealing(i3="2D", stock="5S 5H 5C 5D 6S 6H 6C 6D")
    assert refusal_rule(g, "circle") == R + "deal-plays"
    g.play("i3-f3")
    assert pile(g, "i3") == cards("6D")
    g.play("circle")                                  # nothing suitable: on to the third
    assert g.var(g.state, "circles") == 3
    assert [pile(g, f"m{r}")[0] for r in range(7)] == list(cards("6C 6H 6S 5D 5C 5H 5S"))


@pytest.mark.rules("the-shah-deal-plays")
def test_suitable_cards_may_be_left_under_the_other_reading() -> None:
    g = _dealing(i3="2D", options="deal_plays:may")
    assert "circle" in legal(g)
    g.play("circle")
    assert g.var(g.state, "circles") >= 2
    assert pile(g, "i3") == cards("2D")
    assert refusal_rule(g, "i3-f3") == R + "rule-1"   # now blocked by the second circle


@pytest.mark.rules("the-shah-circles", "the-shah-rule-1")
def test_the_second_circle_blocks_the_first_and_the_third_completes_the_star() -> None:
    g = _dealing(stock="8D 7C 7H 7S QD QC QH QS 7D 6D 6C 6H 6S 2S 5C 5H 5S")
    g.play("circle")
    assert g.var(g.state, "circles") == 2          # stops: the two of spades is suitable
    assert pile(g, "m3") == cards("2S")
    assert refusal_rule(g, "i3-f3") == R + "rule-1"
    g.play("m3-f0")
    assert pile(g, "m3") == cards("7D")             # refilled at once
    g.play("circle")
    assert g.var(g.state, "circles") == 3
    assert [pile(g, f"o{r}")[0] for r in range(8)] == list(cards("QS QH QC QD 7S 7H 7C 8D"))
    assert refusal_rule(g, "circle") == R + "circles"


@pytest.mark.rules("the-shah-rule-2", "the-shah-deal-plays", "the-shah-circles")
def test_while_dealing_cards_are_only_played() -> None:
    g = game({**{f"i{r}": c for r, c in enumerate("9S 9H 9C 9D 10S 10H 10C 10D".split())},
              **{f"m{r}": c for r, c in enumerate("6S 5S 5C 5D 6S 6H 6C 6D".split())}},
             circles=2)
    assert refusal_rule(g, "m1-m0") == R + "rule-2"
    assert refusal_rule(g, "m1-o1") == R + "deal-plays"
    assert refusal_rule(g, "deal") == R + "circles"
    assert refusal_rule(g, "stock-o0") == R + "circles"
    assert refusal_rule(g, "stock-f0") == R + "circles"


# ----------------------------------------------------------------------------- the foundations

@pytest.mark.rules("the-shah-rule-3")
def test_the_foundations_follow_suit() -> None:
    g = game(star(o0="2H"))
    assert refusal_rule(g, "o0-f0") == R + "rule-3"   # f0 is an ace of spades
    g.play("o0-f1")
    assert pile(g, "f1") == cards("AH 2H")


@pytest.mark.rules("the-shah-foundations")
def test_the_aces_ascend_in_sequence_to_queens() -> None:
    g = game(star(o0="3S", o4="2S"))
    assert refusal_rule(g, "o0-f0") == R + "foundations"
    g.play("o4-f4")                                  # either ace of spades takes the two
    assert refusal_rule(g, "o0-f0") == R + "foundations"
    g.play("o0-f4")
    assert pile(g, "f4") == cards("AS 2S 3S")


@pytest.mark.rules("the-shah-foundations")
def test_a_foundation_ends_with_the_queen_and_keeps_its_cards() -> None:
    g = game(star(f0=up_to("S", "J"), o0="QS", o4="JS"), rest_to="talon")
    g.play("o0-f0")
    why = g.refusal(g.state, Move.parse("o4-f0"))
    assert why is not None and why.rule == R + "foundations" and "queen" in why.message
    assert refusal_rule(g, "f0-o0") == R + "foundations"
    assert refusal_rule(g, "f0-f4") == R + "foundations"


@pytest.mark.rules("the-shah-shah", "the-shah-withdraw")
def test_the_shah_remains_alone_and_the_kings_thrown_aside_stay_aside() -> None:
    g = game(star(o0="2S"))
    assert refusal_rule(g, "o0-shah") == R + "shah"
    assert refusal_rule(g, "shah-o0") == R + "shah"
    assert refusal_rule(g, "out-o0") == R + "withdraw"
    assert refusal_rule(g, "o0-out") == R + "withdraw"


# ----------------------------------------------------------------------------- availability

@pytest.mark.rules("the-shah-rule-1")
def test_after_the_deal_only_the_third_circle_is_available() -> None:
    g = game(star(m0="2S", i1="2H"))
    assert refusal_rule(g, "m0-f0") == R + "rule-1"
    assert refusal_rule(g, "i1-f1") == R + "rule-1"
    assert not any(m.startswith(("m", "i")) for m in legal(g))


@pytest.mark.rules("the-shah-rule-1", "the-shah-rule-2", "the-shah-examine")
def test_removing_the_outer_cards_releases_the_inner_circles_for_play() -> None:
    g = game(star(o0="2S", m0="3S", i0="4S"))
    g.play("o0-f0")
    assert not pile(g, "o0")
    g.play("m0-f0")                               # released: the space may wait
    g.play("i0-f0")
    assert pile(g, "f0") == cards("AS 2S 3S 4S")


@pytest.mark.rules("the-shah-rule-1")
def test_only_the_top_card_of_a_married_packet_is_available() -> None:
    g = game(star(o0="QS JS", o4="2S"))
    assert refusal_rule(g, "o0:0-o4") == R + "rule-1"


@pytest.mark.rules("the-shah-rule-1", "the-shah-refill")
def test_a_released_card_is_blocked_again_when_the_place_outside_it_is_refilled() -> None:
    g = game(star(o0="8D", o3="9D", m0="3C"))
    g.play("o0-o3")                               # a marriage empties the third circle
    assert pile(g, "m0") == cards("3C")
    g.play("stock-o0")                            # the space refilled from the pack
    assert len(pile(g, "o0")) == 1
    assert refusal_rule(g, "m0-o3") == R + "rule-1"
    assert refusal_rule(g, "m0-f2") == R + "rule-1"


@pytest.mark.rules("the-shah-examine")
def test_after_the_deal_nothing_has_to_be_played_or_married() -> None:
    g = game(star(o0="2S", o1="8S"))
    assert {"o0-f0", "o0-f4", "o4-o1", "deal"} <= legal(g)
    g.play("deal")                                    # the two and the seven may wait
    g.play("turned-talon")
    assert pile(g, "o0") == cards("2S") and pile(g, "o4") == cards("7S")
    assert g.outcome() is None


# ----------------------------------------------------------------------------- marriages

@pytest.mark.rules("the-shah-descending", "the-shah-rule-2")
def test_marriages_descend_in_suit_between_third_circle_cards() -> None:
    g = game(star(o0="8S", o1="7S", o2="9S", o3="7H"))
    assert refusal_rule(g, "o3-o0") == R + "descending"   # another suit
    assert refusal_rule(g, "o2-o0") == R + "descending"   # ascending
    assert refusal_rule(g, "o0-o1") == R + "descending"   # ascending
    g.play("o1-o0")
    assert pile(g, "o0") == cards("8S 7S")
    assert not pile(g, "o1")


@pytest.mark.rules("the-shah-descending", "the-shah-rule-2")
def test_any_number_may_be_married_one_card_at_a_time() -> None:
    g = game(star(o0="9C", o1="8C", o2="7C", o3="6C"))
    g.play("o1-o0")
    g.play("o2-o0")
    g.play("o3-o0")
    assert pile(g, "o0") == cards("9C 8C 7C 6C")
    g.play("stock-o1")
    assert refusal_rule(g, "o0:2-o1") == R + "rule-1"


@pytest.mark.rules("the-shah-rule-2")
def test_released_inner_cards_are_neither_married_nor_married_onto() -> None:
    g = game(star(o0="2C", m0="8H", o1="9H", o2="7H"))
    g.play("o0-f2")
    assert refusal_rule(g, "m0-o1") == R + "rule-2"   # can only be played
    assert refusal_rule(g, "o2-m0") == R + "rule-2"   # nothing is married onto it
    assert refusal_rule(g, "o2-i3") == R + "rule-2"   # nor onto a blocked one


@pytest.mark.rules("the-shah-deal-out", "the-shah-rule-2")
def test_the_card_turned_up_may_be_married() -> None:
    g = game(star(o0="8S"), stock="7S")
    g.play("deal")
    assert pile(g, "turned") == cards("7S")
    g.play("turned-o0")
    assert pile(g, "o0") == cards("8S 7S")


@pytest.mark.rules("the-shah-rule-2", "the-shah-deal-out")
def test_the_talon_card_is_not_married_unless_the_reading_allows() -> None:
    g = game(star(o0="8S"), talon="7S")
    assert refusal_rule(g, "talon-o0") == R + "rule-2"
    h = game(star(o0="8S"), talon="7S", options="talon_marry:yes")
    h.play("talon-o0")
    assert pile(h, "o0") == cards("8S 7S")


@pytest.mark.rules("the-shah-deal-out")
def test_cards_of_the_pack_are_turned_up_before_use() -> None:
    g = game(star(o0="8S"), stock="7S")
    assert refusal_rule(g, "stock-o0") == R + "deal-out"
    assert refusal_rule(g, "stock-f0") == R + "deal-out"
    assert refusal_rule(g, "stock-talon") == R + "deal-out"


# ----------------------------------------------------------------------------- the deal-out

@pytest.mark.rules("the-shah-deal-out", "the-shah-examine")
def test_turning_up_the_next_card_and_its_uses() -> None:
    g = game(star(), stock="9H 2S", rest_to="o0")
    g.play("deal")
    assert pile(g, "turned") == cards("2S")
    assert refusal_rule(g, "deal") == R + "deal-out"   # one card at a time
    assert refusal_rule(g, "turned-o1") == R + "descending"
    assert {"turned-f0", "turned-f4", "turned-talon"} <= legal(g)
    g.play("turned-talon")                            # not obliged to play it
    assert pile(g, "talon") == cards("2S")
    g.play("deal")
    g.play("turned-talon")
    assert pile(g, "talon") == cards("2S 9H")
    assert refusal_rule(g, "talon:0-f0") == R + "deal-out"
    assert refusal_rule(g, "deal") == R + "deal-out"   # the pack is used up


@pytest.mark.rules("the-shah-deal-out")
def test_the_talon_top_may_be_played_unless_the_reading_forbids() -> None:
    g = game(star(), talon="2S")
    g.play("talon-f4")
    assert pile(g, "f4") == cards("AS 2S")
    h = game(star(), talon="2S", options="talon_play:no")
    assert refusal_rule(h, "talon-f4") == R + "deal-out"


@pytest.mark.rules("the-shah-deal-out")
def test_only_cards_turned_up_go_to_the_talon() -> None:
    g = game(star(), talon="9H")
    assert refusal_rule(g, "o0-talon") == R + "deal-out"
    assert refusal_rule(g, "talon-talon") == R + "board"
    assert refusal_rule(g, "o0-turned") == R + "deal-out"
    assert refusal_rule(g, "o0-stock") == R + "deal-out"


# ----------------------------------------------------------------------------- refilling

@pytest.mark.rules("the-shah-refill", "the-shah-examine")
def test_spaces_wait_while_the_player_plays_but_are_refilled_before_the_next_card() -> None:
    g = game(star(o0="2S", o1="3S"), talon="9H", stock="8H")
    g.play("o0-f0")
    assert refusal_rule(g, "deal") == R + "refill"
    g.play("o1-f0")                                   # more plays may come first
    g.play("talon-o0")
    g.play("stock-o1")
    assert pile(g, "o0") == cards("9H") and pile(g, "o1") == cards("8H")
    assert not g.spaces(g.state)


@pytest.mark.rules("the-shah-refill")
def test_spaces_are_refilled_inner_circles_first_from_left_to_right() -> None:
    g = game(star(o1="2H", m1="3H", o5="4D", o3="5D", o6="2C"), talon="8S 8S 8H 8H")
    g.play("o1-f1")
    g.play("m1-f1")
    g.play("o5-o3")
    g.play("o6-f2")
    assert [g.PILES[p].id for p in g.spaces(g.state)] == ["m1", "o1", "o5", "o6"]
    assert refusal_rule(g, "talon-o1") == R + "refill"
    assert refusal_rule(g, "talon-o5") == R + "refill"
    for pid in ("m1", "o1", "o5", "o6"):
        assert {str(m) for m in g.legal_moves() if m.steps and m.steps[0][1] == pid} \
            == {f"talon-{pid}", f"stock-{pid}"}
        g.play(f"talon-{pid}")
    assert [pile(g, p) for p in ("m1", "o1", "o5", "o6")] == [
        cards("8H"), cards("8H"), cards("8S"), cards("8S")]


@pytest.mark.rules("the-shah-refill")
def test_spaces_take_no_card_of_the_star() -> None:
    g = game(star(o0="2S"))
    g.play("o0-f0")
    assert refusal_rule(g, "o1-o0") == R + "refill"
    assert refusal_rule(g, "o1-m0") == R + "rule-2"   # not a space: a card of the second circle


@pytest.mark.rules("the-shah-refill", "the-shah-vacant-space")
def test_refill_from_the_talon_or_the_pack_at_the_players_choice() -> None:
    g = game(star(o0="2S"), talon="9H", stock="8H 7H")
    g.play("deal")
    g.play("o0-f0")
    assert {"talon-o0", "turned-o0"} <= legal(g)
    assert refusal_rule(g, "stock-o0") == R + "deal-out"   # the card turned up comes first
    g.play("turned-o0")
    assert pile(g, "o0") == cards("7H")


@pytest.mark.rules("the-shah-refill")
def test_the_talon_first_under_the_other_reading() -> None:
    g = game(star(o0="2S"), talon="9H", stock="8H 7H", options="refill_source:talon-first")
    g.play("o0-f0")
    assert refusal_rule(g, "stock-o0") == R + "refill"
    g.play("talon-o0")
    h = game(star(o0="2S"), talon="", stock="8H 7H", options="refill_source:talon-first")
    h.play("o0-f0")
    h.play("stock-o0")
    assert pile(h, "o0") == cards("7H")


@pytest.mark.rules("the-shah-vacant-space", "the-shah-refill")
def test_a_card_turned_up_waits_for_the_space_the_player_makes() -> None:
    g = game(star(o1="7S", o0="8S"), stock="QH")
    g.play("deal")                                    # the queen of hearts is wanted
    g.play("o1-o0")                                   # a marriage makes a space for it
    g.play("turned-o1")
    assert pile(g, "o1") == cards("QH") and pile(g, "o0") == cards("8S 7S")


@pytest.mark.rules("the-shah-refill")
def test_a_space_stays_empty_when_nothing_is_left_to_refill_it() -> None:
    g = game(star(o0="2S"), stock="", talon="", rest_to="o3")
    g.play("o0-f0")
    assert g.spaces(g.state) == [OUTER[0]]
    assert not any(m.steps and m.steps[0][1] == "o0" for m in g.legal_moves())


# ----------------------------------------------------------------------------- lanes

def _lane(rest_to: str = "stock", **kw: str) -> TheShah:
    """The top ray down to its first-circle two of spades; play it and the ray is a lane."""
    return game(star(**{"o0": "", "m0": "", "i0": "2S", "o3": "JD", **kw}), rest_to=rest_to)


@pytest.mark.rules("the-shah-lane", "the-shah-lane-refill")
def test_a_lane_takes_one_card_from_the_third_circle_and_the_talon_fills_the_rest() -> None:
    g = _lane(talon="9H 8H 7H", stock="6H")
    g.play("i0-f0")
    assert g.lanes(g.state) == [0]
    assert refusal_rule(g, "deal") == R + "lane-refill"
    assert refusal_rule(g, "o1-o2") == R + "lane-refill"
    assert refusal_rule(g, "talon-m0") == R + "lane-refill"
    assert refusal_rule(g, "o4-f4") == R + "lane-refill"
    assert legal(g) == {f"o{r}-i0" for r in range(1, 8)} | {"talon-i0", "stock-i0"}
    g.play("o3-i0")                                   # the grace
    assert pile(g, "i0") == cards("JD")
    assert pile(g, "m0") == cards("7H") and pile(g, "o0") == cards("8H")
    assert pile(g, "talon") == cards("9H")
    assert not pile(g, "o3") and g.spaces(g.state) == [OUTER[3]]


@pytest.mark.rules("the-shah-lane")
def test_the_grace_is_one_card_of_the_third_circle_only() -> None:
    g = _lane(o3="JD 10D", talon="9H 8H 7H")
    g.play("i0-f0")
    assert refusal_rule(g, "o3:0-i0") == R + "rule-1"
    h = _lane(o1="", m1="", talon="9H 8H 7H", stock="2H")
    h.play("i0-f0")
    assert refusal_rule(h, "i1-i0") == R + "lane"


@pytest.mark.rules("the-shah-lane-refill", "the-shah-lane")
def test_without_the_grace_the_lane_is_refilled_from_the_talon_or_pack() -> None:
    g = _lane(talon="9H 8H 7H")
    g.play("i0-f0")
    g.play("talon-i0")
    assert [pile(g, p) for p in ("i0", "m0", "o0")] == [cards("7H"), cards("8H"), cards("9H")]
    h = _lane(talon="", stock="9H 8H 7H")
    h.play("i0-f0")
    h.play("stock-i0")
    assert [pile(h, p) for p in ("i0", "m0", "o0")] == [cards("7H"), cards("8H"), cards("9H")]


@pytest.mark.rules("the-shah-lane-refill")
def test_the_lane_takes_the_pack_when_the_talon_runs_out() -> None:
    g = _lane(talon="9H", stock="8C 7C")
    g.play("i0-f0")
    g.play("o3-i0")
    assert [pile(g, p) for p in ("i0", "m0", "o0")] == [cards("JD"), cards("9H"), cards("7C")]
    assert pile(g, "stock")[-1] == Card.parse("8C")


@pytest.mark.rules("the-shah-lane", "the-shah-lane-refill")
def test_with_nothing_to_refill_it_the_lane_waits_and_the_grace_stays_open() -> None:
    g = _lane(talon="", stock="", rest_to="o7")
    g.play("i0-f0")
    assert g.lanes(g.state) == [0] and g.lane_due(g.state) is None
    assert "o3-i0" in legal(g)
    assert refusal_rule(g, "o3-m0") == R + "lane-refill"
    g.play("o3-i0")
    assert pile(g, "i0") == cards("JD") and not pile(g, "m0") and not pile(g, "o0")


@pytest.mark.rules("the-shah-lane-refill")
def test_the_card_turned_up_may_fill_the_lane() -> None:
    g = _lane(talon="9H 8H", turned="7C")
    g.play("i0-f0")
    assert refusal_rule(g, "turned-talon") == R + "lane-refill"
    assert "turned-i0" in legal(g) and "stock-i0" not in legal(g)
    g.play("turned-i0")
    assert [pile(g, p) for p in ("i0", "m0", "o0")] == [cards("7C"), cards("8H"), cards("9H")]


# ----------------------------------------------------------------------------- the end

@pytest.mark.rules("the-shah-no-redeal")
def test_there_is_no_redeal() -> None:
    g = game(star(), stock="", rest_to="talon")
    assert refusal_rule(g, "redeal") == R + "no-redeal"


def _finished(**kw: str) -> dict[str, str]:
    return {f"f{r}": up_to(s.value, "Q") for r, s in enumerate(RAY_SUITS)} | kw


@pytest.mark.rules("the-shah-foundations")
def test_won_when_eight_queens_surround_the_shah() -> None:
    g = game(_finished(f0=up_to("S", "J")), stock="", talon="", rest_to="o0")
    assert pile(g, "o0") == cards("QS")
    assert g.outcome() is None
    g.play("o0-f0")
    assert g.outcome() is Outcome.WON
    assert "queens" in g.status_of(g.state)


@pytest.mark.rules("the-shah-no-redeal")
def test_lost_when_no_card_can_reach_a_foundation() -> None:
    # the last card of the talon can still refill a space, but nothing comes of it
    g = game(star(o0=""), stock="", talon="9S", rest_to="o1")
    assert "talon-o0" in legal(g)
    assert g.outcome() is Outcome.LOST


def test_lost_when_nothing_at_all_can_move() -> None:
    # The whole of the rest lies married in the top ray's third circle: no space can open.
    g = game(star(), stock="", talon="", rest_to="o0")
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


def test_lost_when_marriages_only_go_round_in_circles() -> None:
    g = game(star(o0="QS 8S", o4="8S 7S", o1="QH JH"), stock="", talon="", rest_to="o0")
    assert "o4-o0" in legal(g)
    assert g.outcome() is Outcome.LOST


def test_not_lost_while_a_marriage_can_release_a_playable_card() -> None:
    g = game(star(o0="2S 8S", o4="9S"), stock="", talon="", rest_to="o7")
    assert g.outcome() is None
    g.play("o0-o4")
    g.play("o0-f0")


def test_not_lost_while_the_pack_lasts_or_the_talon_hides_cards() -> None:
    g = game(star(), stock="9S", rest_to="talon")
    assert g.outcome() is None
    h = game(star(o0="JS", o1="QS"), stock="", rest_to="talon")
    assert len(pile(h, "talon")) > 2 and "o0-o1" in legal(h)
    # a marriage could open a space, and its refill would bring an unseen card to light
    assert h.outcome() is None


def test_no_verdict_when_the_search_is_too_long() -> None:
    g = game(star(o0="QS 8S", o4="8S 7S", o1="QH JH"), stock="", talon="", rest_to="o0")
    assert g.stuck(g.state, limit=1) is None
    assert g.stuck(g.state) is True


@pytest.mark.rules("the-shah-foundations", "the-shah-deal-out", "the-shah-rule-1")
def test_a_game_can_be_won_by_the_rules() -> None:
    # queens in the first circle, knaves in the second, tens in the third; the pack turns up
    # the twos to the nines in the order the foundations want them
    suits = "SHCDSHCD"
    piles = {**{f"i{r}": f"Q{suits[r]}" for r in range(8)},
             **{f"m{r}": f"J{suits[r]}" for r in range(8)},
             **{f"o{r}": f"10{suits[r]}" for r in range(8)}}
    order = [f"{rank}{s}" for rank in "2 3 4 5 6 7 8 9".split() for s in suits]
    g = game(piles, stock=" ".join(reversed(order)), rest_to="talon")
    assert not pile(g, "talon")
    while g.outcome() is None:               # the star waits until the pack is used up
        moves = g.legal_moves()
        plays = [m for m in moves if m.steps and m.steps[0][1].startswith("f")
                 and (m.steps[0][0] == "turned"
                      or not (pile(g, "stock") or pile(g, "turned")))]
        g.play(plays[0] if plays else Move(action="deal"))
    assert g.outcome() is Outcome.WON
    assert all(pile(g, f"f{r}")[-1].rank == 12 for r in range(8))


def test_random_games_come_to_an_end() -> None:
    for seed in range(12):
        g = engine.new_game(SLUG, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if g.outcome() is not None:
                break
            g.play(rng.choice(g.legal_moves()))
        assert g.outcome() is not None


# ----------------------------------------------------------------------------- the board

def test_notation_errors_are_refused_on_the_board_rule() -> None:
    g = game(star(o0=""), rest_to="talon")
    assert refusal_rule(g, "zz9-f0") == R + "board"
    assert refusal_rule(g, "o1-zz9") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"
    assert refusal_rule(g, "o1-f0+o2-f0") == R + "board"
    assert refusal_rule(g, "o1-f0:0") == R + "board"
    assert refusal_rule(g, "shuffle") == R + "board"
    assert refusal_rule(g, "o1-o1") == R + "board"


def test_corrupt_positions_are_refused() -> None:
    g = engine.new_game(SLUG, seed=26)
    text = g.position()
    assert engine.load_position(text).state == g.state
    bad = [
        text.replace("vars=circles:3", "vars=circles:4"),
        text.replace("shah:KH", "shah:KS").replace("out:KC.KC.KD.KD.KH.KS.KS",
                                                   "out:KC.KC.KD.KD.KH.KH.KS"),
        text.replace("f0:AS", "f0:AH").replace("f1:AH", "f1:AS"),
    ]
    m0 = g.state.piles[MIDDLE[0]][0]
    bad.append(text.replace(f"|m0:{m0}|", "|m0:|").replace("|o0:", f"|o0:{m0}."))
    for b in bad:
        assert b != text
        with pytest.raises(PositionError):
            engine.load_position(b)


def test_describe_says_what_a_move_does() -> None:
    g = game(star(o1="7S", o0="8S"), stock="QH 2S")
    assert "circle" in g.describe(engine.new_game(SLUG, seed=3).state, Move(action="circle"))
    assert "two of spades" in g.describe(g.state, Move(action="deal"))
    assert "married" in g.describe(g.state, Move.parse("o1-o0"))
    g.play("deal")
    assert "played" in g.describe(g.state, Move.parse("turned-f0"))
    assert "talon" in g.describe(g.state, Move.parse("turned-talon"))


def test_status_line_follows_the_game() -> None:
    assert "Dealing the star" in engine.new_game(SLUG, seed=3).status_of(
        engine.new_game(SLUG, seed=3).state)
    g = game(star(o0="2S"), talon="9H", stock="8H", rest_to="o7")
    assert "Pack: 1 card" in g.status_of(g.state)
    g.play("o0-f0")
    assert "1 space to refill" in g.status_of(g.state)
    assert "played: 1 of 88" in g.status_of(g.state)


def test_the_narrow_layout_places_every_moving_pile() -> None:
    lay = TheShah.LAYOUTS[0]
    assert lay.max_width is not None
    ids = {p.id for p in TheShah.PILES}
    assert set(lay.at) | set(lay.hidden) == ids
    spots = [(x, y) for x, y, _ in lay.at.values()]
    assert len(set(spots)) == len(spots)
    assert all(0 <= x <= lay.grid[0] - 1 and 0 <= y <= lay.grid[1] - 1 for x, y in spots)


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = ShahOptions(deal_plays=DealPlays.MAY, refill_source=RefillSource.TALON_FIRST,
                    talon_play=False, talon_marry=True)
    text = engine.options_to_text(o)
    assert engine.options_from_text(ShahOptions, text) == o
    assert engine.options_to_text(ShahOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(ShahOptions, "deal_plays:sometimes")


def test_every_option_names_its_note() -> None:
    for d in engine.describe_options(ShahOptions):
        assert d["note"].startswith("note-sh-")
        assert len(d["choices"]) >= 2
        assert d["default"] in {c["value"] for c in d["choices"]}
