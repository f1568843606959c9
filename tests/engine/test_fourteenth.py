"""The Fourteenth: every rule, every refusal (with the rule id it cites), the exchange, the end."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import pack
from engine.core import Role
from engine.deal import shuffled
from engine.fourteenth import (
    DERANGEMENTS, OUT, PILES, PLACES, STOCK, FourteenthOptions, Frequency, TheFourteenth,
    fourteens, in_line, value,
)
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-fourteenth"
R = f"{SLUG}-"

#: A full table on which no fourteen can be made: the king of spades (row 1, place 1) and the
#: ace of spades (row 2, place 2) would make one, but lie on a slant; every other card is a
#: two to a six, and no two of those make fourteen.
BLOCKED = ("KS 2H 3H 4H 5H",
           "2D AS 3D 4D 5D",
           "2C 3C 4C 5C 6C",
           "2S 3S 4S 5S 6S",
           "6H 6D 2H 3H 4H")


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def table(rows: tuple[str, ...] | list[str], stock: str | None = None, out: str = "",
          options: str | None = None, **vars: int) -> TheFourteenth:
    """A game whose five rows hold the cards given (``--`` for an empty place) and whose
    pairs withdrawn are ``out``; ``stock`` gives the top cards of the hand (the last is dealt
    first), every other card of the two packs lying in the hand beneath them."""
    places: dict[str, str] = {}
    for r, row in enumerate(rows):
        tokens = row.split()
        assert len(tokens) == 5
        for c, t in enumerate(tokens):
            places[f"p{5 * r + c}"] = "" if t == "--" else t
    places["stock"] = stock or ""
    places["out"] = out
    g = make_game(SLUG, places, vars=vars or None, options=options, rest_to="stock")
    assert isinstance(g, TheFourteenth)
    return g


def emptied(rows: tuple[str, ...] | list[str], out: str | None = None,
            options: str | None = None, **vars: int) -> TheFourteenth:
    """As :func:`table`, the hand exhausted: every card not on the table lies among the pairs
    withdrawn (paired as in :func:`pairs_of`, where the cards left allow it)."""
    on_table = Counter(c for row in rows for c in cards(row.replace("--", "")))
    rest = Counter(pack(2)) - on_table
    return table(rows, out=pairs_of(rest, strict=False) if out is None else out,
                 options=options, **vars)


def pairs_of(rest: Counter[Card], strict: bool = True) -> str:
    """The cards ``rest`` laid out as pairs making fourteen (each rank with its complement);
    unless ``strict``, the cards that have no partner follow, unpaired (a position the tests
    never load)."""
    by_rank: dict[int, list[Card]] = {}
    for c in sorted(rest.elements()):
        by_rank.setdefault(c.rank, []).append(c)
    out: list[Card] = []
    left: list[Card] = []
    for r in range(1, 8):
        low, high = by_rank.get(r, []), by_rank.get(14 - r, [])
        if r == 7:
            n = len(low) - len(low) % 2
            out += low[:n]
            left += low[n:]
            continue
        n = min(len(low), len(high))
        for a, b in zip(low, high):
            out += [a, b]
        left += low[n:] + high[n:]
    assert not (strict and left), left
    return " ".join(map(str, out + left))


def place(g: TheFourteenth, k: int) -> Card | None:
    p = g.state.piles[k]
    return p[0] if p else None


def row_cards(g: TheFourteenth) -> list[str]:
    return [str(place(g, k)) if place(g, k) else "--" for k in PLACES]


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-fourteenth-deal")
def test_deal_twenty_five_cards_in_five_rows_of_five() -> None:
    g = engine.new_game(SLUG, seed=7)
    s = g.state
    assert [len(s.piles[k]) for k in PLACES] == [1] * 25
    assert len(s.piles[STOCK]) == 79 and not s.piles[OUT]
    assert Counter(s.all_cards()) == Counter(pack(2))
    rows = {(PILES[k].x, PILES[k].y) for k in PLACES}
    assert rows == {(float(c), float(r)) for r in range(5) for c in range(5)}


@pytest.mark.rules("the-fourteenth-deal")
def test_deal_from_the_top_of_the_pack_row_by_row_left_to_right() -> None:
    g = engine.new_game(SLUG, seed=11)
    order = shuffled(pack(2), 11)
    assert [place(g, k) for k in PLACES] == order[::-1][:25]  # p0 first: row 1, place 1
    assert g.state.piles[STOCK] == tuple(order[:79])  # the hand's top is its last card


@pytest.mark.rules("the-fourteenth-deal")
def test_same_deal_number_same_deal() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (5, 5, 6))
    assert a == b and a != c


@pytest.mark.rules("the-fourteenth-deal", "the-fourteenth-paired")
def test_the_hand_is_face_down_and_the_table_face_up() -> None:
    g = engine.new_game(SLUG, seed=3)
    view = engine.view_of(g)
    piles = {p["id"]: p for p in view["piles"]}
    assert all(c["c"] is None for c in piles["stock"]["cards"])
    assert all(piles[f"p{k}"]["cards"][0]["c"] for k in PLACES)
    assert TheFourteenth.PILES[STOCK].role is Role.STOCK


# ----------------------------------------------------------------------------- fourteens

@pytest.mark.rules("the-fourteenth-fourteen", "the-fourteenth-paired")
def test_two_cards_of_one_horizontal_row_making_fourteen_are_withdrawn() -> None:
    rows = list(BLOCKED)
    rows[0] = "10H 2H 3H 5H 4C"  # the ten and the four at the two ends of the top row
    g = table(rows, stock="8D 9D")
    assert Move.parse("p0-p4") in g.legal_moves()
    g.play("p0-p4")
    assert g.state.piles[OUT] == cards("10H 4C")
    assert place(g, 0) == Card.parse("9D") and place(g, 4) == Card.parse("8D")


@pytest.mark.rules("the-fourteenth-fourteen")
def test_two_cards_of_one_perpendicular_row_making_fourteen_are_withdrawn() -> None:
    rows = list(BLOCKED)
    rows[4] = "QH 6D 2H 3H 4H"  # the queen under the two of diamonds, three rows apart
    g = table(rows)
    assert str(place(g, 5)) == "2D"
    g.play("p20-p5")
    assert g.state.piles[OUT] == cards("2D QH")


@pytest.mark.rules("the-fourteenth-fourteen")
def test_either_card_may_be_put_on_the_other() -> None:
    rows = list(BLOCKED)
    rows[0] = "10H 2H 3H 5H 4C"
    a, b = table(rows), table(rows)
    a.play("p0-p4")
    b.play("p4-p0")
    assert a.state == b.state


@pytest.mark.rules("the-fourteenth-fourteen")
def test_cards_on_a_slant_are_not_in_one_row() -> None:
    g = table(BLOCKED)  # the king of spades and the ace of spades, diagonally next
    assert in_line(0, 1) and in_line(0, 20) and not in_line(0, 6) and not in_line(0, 0)
    assert refusal_rule(g, "p0-p6") == R + "fourteen"
    assert refusal_rule(g, "p6-p0") == R + "fourteen"
    assert [m for m in g.legal_moves() if m.steps] == []


@pytest.mark.rules("the-fourteenth-fourteen")
def test_cards_in_different_rows_and_columns_are_refused() -> None:
    rows = list(BLOCKED)
    rows[4] = "6H 6D 2H 3H AH"
    g = table(rows)
    assert refusal_rule(g, "p0-p24") == R + "fourteen"
    with pytest.raises(engine.IllegalMove, match="neither in one horizontal nor in one "
                       "perpendicular row"):
        g.play("p0-p24")


@pytest.mark.rules("the-fourteenth-fourteen", "the-fourteenth-values")
def test_another_total_is_refused() -> None:
    g = table(BLOCKED)
    assert refusal_rule(g, "p0-p1") == R + "fourteen"  # king and two: fifteen
    with pytest.raises(engine.IllegalMove, match="make 15, not fourteen .the king of spades "
                       "counts 13"):
        g.play("p0-p1")
    assert refusal_rule(g, "p1-p2") == R + "fourteen"  # two and three


@pytest.mark.rules("the-fourteenth-fourteen")
def test_two_sevens_make_fourteen() -> None:
    rows = list(BLOCKED)
    rows[2] = "7C 3C 4C 5C 7H"
    g = table(rows)
    g.play("p10-p14")
    assert g.state.piles[OUT] == cards("7C 7H")


@pytest.mark.rules("the-fourteenth-fourteen", "the-fourteenth-paired")
def test_pairs_at_any_distance_and_across_an_empty_place() -> None:
    g = emptied(["KS -- -- -- AS",
                 "-- -- -- -- --",
                 "-- -- -- -- --",
                 "-- -- -- -- --",
                 "-- -- -- -- --"])
    g.play("p0-p4")
    assert g.outcome() is Outcome.WON


# ----------------------------------------------------------------------------- values

@pytest.mark.rules("the-fourteenth-values")
def test_the_court_cards_count_eleven_twelve_thirteen_and_the_ace_one() -> None:
    assert [value(Card.parse(t)) for t in "AS 2S 10S JS QS KS".split()] == [1, 2, 10, 11, 12,
                                                                             13]
    g = table(["KS AH QD 2C JS",
               "4H 3D 5D 6D 2D",
               "2C 3C 4C 5C 6C",
               "2S 3S 4S 5S 6S",
               "6H 6D 2H 3H 4H"])
    legal = {str(m) for m in g.legal_moves() if m.steps}
    assert {"p0-p1", "p2-p3", "p2-p22"} <= legal       # king and ace; queen and two
    assert refusal_rule(g, "p0-p3") == R + "fourteen"  # king and two
    assert refusal_rule(g, "p1-p6") == R + "fourteen"  # the ace counts one, not eleven
    g.play("p2-p3")


@pytest.mark.rules("the-fourteenth-values", "the-fourteenth-fourteen")
def test_knave_and_three_make_fourteen_in_a_column() -> None:
    rows = list(BLOCKED)
    rows[4] = "6H 6D JH 3H 4H"
    g = table(rows)
    assert str(place(g, 2)) == "3H"
    g.play("p22-p2")


@pytest.mark.rules("the-fourteenth-values")
def test_the_fourteens_are_the_seven_pairs_of_ranks() -> None:
    ranks = sorted({tuple(sorted((a, 14 - a))) for a in range(1, 14)})
    assert ranks == [(1, 13), (2, 12), (3, 11), (4, 10), (5, 9), (6, 8), (7, 7)]
    for a in range(1, 14):
        for b in range(1, 14):
            row: list[Card | None] = [None] * 25
            row[0], row[1] = Card(a, engine.Suit.SPADES), Card(b, engine.Suit.HEARTS)
            assert (list(fourteens(tuple(row))) == [(0, 1)]) == (a + b == 14)


# ----------------------------------------------------------------------------- refill

@pytest.mark.rules("the-fourteenth-paired")
def test_places_filled_at_once_from_the_hand_the_upper_first() -> None:
    rows = list(BLOCKED)
    rows[4] = "QH 6D 2H 3H 4H"
    g = table(rows, stock="9C 8C")
    g.play("p5-p20")  # the lower card put on the upper
    assert g.state.piles[OUT] == cards("2D QH")
    assert place(g, 5) == Card.parse("8C") and place(g, 20) == Card.parse("9C")
    assert len(g.state.piles[STOCK]) == 104 - 25 - 2


@pytest.mark.rules("the-fourteenth-paired")
def test_the_last_card_of_the_hand_fills_one_place_and_the_other_stays_empty() -> None:
    rows = list(BLOCKED)
    rows[0] = "10H 2H 3H 5H 4C"
    last = Card.parse("9D")
    rest = Counter(pack(2)) - Counter(c for row in rows for c in cards(row)) - Counter([last])
    g = table(rows, stock="9D", out=pairs_of(rest, strict=False))
    assert g.state.piles[STOCK] == (last,)
    assert "last card of the hand" in g.describe(g.state, Move.parse("p0-p4"))
    g.play("p4-p0")
    assert place(g, 0) == last and place(g, 4) is None
    assert not g.state.piles[STOCK]


@pytest.mark.rules("the-fourteenth-paired")
def test_an_empty_place_takes_no_card() -> None:
    g = emptied(["KS 2H -- 4H 5H",
                 "2D AS 3D 4D 5D",
                 "2C 3C 4C 5C 6C",
                 "2S 3S 4S 5S 6S",
                 "6H 6D 2H 3H 4H"])
    assert refusal_rule(g, "p1-p2") == R + "paired"
    assert refusal_rule(g, "p3-p2") == R + "paired"


@pytest.mark.rules("the-fourteenth-paired", "the-fourteenth-fourteen")
def test_cards_come_from_the_hand_only_by_themselves_and_withdrawn_cards_stay_out() -> None:
    rows = list(BLOCKED)
    rows[0] = "10H 2H 3H 5H 4C"
    g = table(rows)
    g.play("p0-p4")
    assert refusal_rule(g, "stock-p0") == R + "paired"
    assert refusal_rule(g, "out-p0") == R + "paired"
    assert refusal_rule(g, "out:0-p1") == R + "paired"
    assert refusal_rule(g, "deal") == R + "paired"
    assert refusal_rule(g, "p1-out") == R + "fourteen"
    assert refusal_rule(g, "p1-stock") == R + "fourteen"


def test_bad_notation_and_the_same_place_are_refused_on_the_board() -> None:
    g = table(BLOCKED)
    assert refusal_rule(g, "p0-p0") == R + "board"
    assert refusal_rule(g, "zz-p0") == R + "board"
    assert refusal_rule(g, "p0-p1+p2-p3") == R + "board"
    assert refusal_rule(g, "shuffle") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"


# ----------------------------------------------------------------------------- the exchange

@pytest.mark.rules("the-fourteenth-exchange")
def test_the_exchange_is_refused_while_a_fourteen_can_be_made() -> None:
    rows = list(BLOCKED)
    rows[0] = "10H 2H 3H 5H 4C"
    g = table(rows)
    assert refusal_rule(g, "exchange") == R + "exchange"
    with pytest.raises(engine.IllegalMove, match="ten of hearts .row 1, place 1. and the four "
                       "of clubs"):
        g.play("exchange")
    assert Move(action="exchange") not in g.legal_moves()


@pytest.mark.rules("the-fourteenth-exchange", "the-fourteenth-control")
def test_two_cards_change_places_with_two_others() -> None:
    g = table(BLOCKED)
    assert g.legal_moves() == [Move(action="exchange")]
    assert g.outcome() is None
    g.play("exchange")
    assert g.var(g.state, "exchanging") == 1
    g.play("p0-p1")  # the king of spades and the two of hearts change places
    assert str(place(g, 1)) == "KS" and str(place(g, 0)) == "2H"
    assert g.var(g.state, "exchanging") == 1  # two of four
    assert g.outcome() is None
    g.play("p10-p24")
    assert str(place(g, 10)) == "4H" and str(place(g, 24)) == "2C"
    assert g.state.vars == (1, 0, 0)  # complete
    assert Move.parse("p1-p6") in g.legal_moves()  # the king above the ace now
    g.play("p6-p1")
    assert g.state.piles[OUT] == cards("KS AS")


@pytest.mark.rules("the-fourteenth-exchange", "the-fourteenth-control")
def test_four_cards_may_go_round_in_a_ring() -> None:
    g = table(BLOCKED)
    g.play("exchange")
    g.play("p0-p1")   # KS to place 2, 2H to place 1
    g.play("p1-p2")   # KS on to place 3, 3H to place 2
    assert g.var(g.state, "exchanging") == 1 and g.outcome() is None
    g.play("p2-p3")   # KS on to place 4, 4H to place 3: four cards have moved
    assert row_cards(g)[:5] == ["2H", "3H", "4H", "KS", "5H"]
    assert g.var(g.state, "exchanging") == 0


@pytest.mark.rules("the-fourteenth-exchange")
def test_every_way_of_changing_four_cards_and_no_other_can_be_made() -> None:
    """FT-6: the changes of places the board allows reach exactly the nine arrangements of
    four cards in which no card keeps its place."""
    four = (0, 1, 2, 3)
    g = table(BLOCKED)
    g.play("exchange")
    start = tuple(row_cards(g))
    ends: set[tuple[str, ...]] = set()
    frontier = [g]
    while frontier:
        nxt = []
        for h in frontier:
            for m in h.legal_moves():
                a, b = (int(x[1:]) for x in m.steps[0])
                if a not in four or b not in four:
                    continue
                k = h.copy()
                k.play(m)
                if k.var(k.state, "exchanging"):
                    nxt.append(k)
                else:
                    ends.add(tuple(row_cards(k)))
        frontier = nxt
    want = set()
    for perm in permutations(range(4)):
        if all(perm[i] != i for i in range(4)):
            arranged = list(start)
            for i, j in enumerate(perm):
                arranged[four[j]] = start[four[i]]
            want.add(tuple(arranged))
    assert len(want) == len(DERANGEMENTS) == 9
    assert ends == want


@pytest.mark.rules("the-fourteenth-exchange")
def test_each_change_brings_in_a_card_not_yet_moved() -> None:
    g = table(BLOCKED)
    g.play("exchange")
    g.play("p0-p1")
    assert refusal_rule(g, "p0-p1") == R + "exchange"
    assert refusal_rule(g, "p1-p0") == R + "exchange"


@pytest.mark.rules("the-fourteenth-exchange")
def test_the_exchange_moves_four_cards_and_no_more() -> None:
    g = table(BLOCKED)
    g.play("exchange")
    g.play("p0-p1")
    g.play("p1-p2")  # three cards moved round
    assert refusal_rule(g, "p10-p11") == R + "exchange"  # two more would make five
    assert refusal_rule(g, "p0-p2") == R + "exchange"    # nothing new
    g.play("p0-p11")


@pytest.mark.rules("the-fourteenth-exchange")
def test_nothing_else_while_the_exchange_is_under_way() -> None:
    g = table(BLOCKED)
    g.play("exchange")
    g.play("p0-p1")  # the king now lies above the ace: a fourteen, but the exchange goes on
    assert refusal_rule(g, "exchange") == R + "exchange"
    assert refusal_rule(g, "p1-out") == R + "exchange"
    assert Move(action="exchange") not in g.legal_moves()
    g.play("p1-p6")  # the king put on the ace: they change places, nothing is withdrawn
    assert str(place(g, 6)) == "KS" and str(place(g, 1)) == "AS"
    assert not g.state.piles[OUT] and g.var(g.state, "exchanging") == 1


@pytest.mark.rules("the-fourteenth-exchange")
def test_only_cards_take_part_in_the_exchange() -> None:
    g = emptied(["KS 2H -- 4H 5H",
                 "2D AS 3D 4D 5D",
                 "2C 3C 4C 5C 6C",
                 "2S 3S 4S 5S 6S",
                 "6H 6D 2H 3H 4H"])
    g.play("exchange")
    assert refusal_rule(g, "p0-p2") == R + "exchange"
    assert not [m for m in g.legal_moves() if "p2" in m.steps[0]]


@pytest.mark.rules("the-fourteenth-control", "the-fourteenth-success")
def test_the_exchange_need_not_produce_a_fourteen() -> None:
    g = table(BLOCKED)
    g.play("exchange")
    g.play("p10-p11")
    g.play("p12-p13")
    assert g.var(g.state, "exchanging") == 0
    assert not g.legal_moves()
    assert g.outcome() is Outcome.LOST  # the chance has been used, and none remains
    assert "exchange has been made" in g.status_of(g.state)


@pytest.mark.rules("the-fourteenth-exchange")
def test_one_exchange_each_time_the_game_comes_to_a_stop() -> None:
    g = table(BLOCKED, stock="3C 2D")  # the refill: a two of diamonds, then a three of hearts
    g.play("exchange")
    g.play("p0-p1")
    g.play("p10-p11")
    assert refusal_rule(g, "exchange") == R + "exchange"
    g.play("p1-p6")  # king and ace withdrawn; a two and a three come in: blocked again
    assert [m for m in g.legal_moves() if m.steps] == []
    assert g.var(g.state, "spent") == 0
    assert g.legal_moves() == [Move(action="exchange")]


@pytest.mark.rules("the-fourteenth-exchange")
def test_a_second_exchange_needs_a_pair_withdrawn_since_the_first() -> None:
    g = table(BLOCKED)
    g.play("exchange")
    g.play("p10-p11")
    g.play("p12-p13")
    with pytest.raises(engine.IllegalMove, match="since the last pair"):
        g.play("exchange")


@pytest.mark.rules("the-fourteenth-exchange")
def test_once_in_the_whole_game_under_the_other_reading() -> None:
    g = table(BLOCKED, stock="3C 2D", options="exchanges:once")
    g.play("exchange")
    g.play("p0-p1")
    g.play("p10-p11")
    g.play("p1-p6")
    assert refusal_rule(g, "exchange") == R + "exchange"
    with pytest.raises(engine.IllegalMove, match="once in the game"):
        g.play("exchange")
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("the-fourteenth-exchange")
def test_the_exchange_needs_four_cards() -> None:
    g = emptied(["KS -- -- -- --",
                 "-- AS -- -- --",
                 "-- -- 2H -- --",
                 "-- -- -- -- --",
                 "-- -- -- -- --"], out=None)
    assert refusal_rule(g, "exchange") == R + "exchange"
    assert g.outcome() is Outcome.LOST
    assert "too few cards" in g.status_of(g.state)


@pytest.mark.rules("the-fourteenth-exchange")
def test_there_is_no_redeal() -> None:
    g = table(BLOCKED)
    assert refusal_rule(g, "redeal") == R + "exchange"


# ----------------------------------------------------------------------------- the end

@pytest.mark.rules("the-fourteenth-success")
def test_won_when_the_entire_pack_is_paired_off() -> None:
    g = emptied(["-- -- -- -- --",
                 "-- 7H -- -- --",
                 "-- -- -- -- --",
                 "-- 7D -- -- --",
                 "-- -- -- -- --"])
    assert len(g.state.piles[OUT]) == 102
    assert g.outcome() is None
    g.play("p16-p6")
    assert g.outcome() is Outcome.WON
    assert g.status_of(g.state) == "Won: the entire pack is paired off."
    assert g.legal_moves() == []


@pytest.mark.rules("the-fourteenth-success")
def test_lost_when_no_two_cards_left_make_fourteen() -> None:
    g = table(["KS 2H 3H 4H 5H",
               "2D 5S 3D 4D 5D",
               "2C 3C 4C 5C 6C",
               "2S 3S 4S 5S 6S",
               "6H 6D 2H 3H 4H"])
    assert refusal_rule(g, "p0-p1") == R + "fourteen"
    assert g.exchange_refusal(g.state) is None  # it could be made, but it cannot help
    assert g.outcome() is Outcome.LOST
    assert "no exchange can produce one" in g.status_of(g.state)


@pytest.mark.rules("the-fourteenth-success")
def test_lost_when_no_two_cards_left_lie_in_one_row() -> None:
    g = emptied(["KS -- -- -- --",
                 "-- AS -- -- --",
                 "-- -- 2H -- --",
                 "-- -- -- QH --",
                 "-- -- -- -- --"])
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("the-fourteenth-success", "the-fourteenth-exchange")
def test_not_lost_while_an_exchange_can_produce_a_fourteen() -> None:
    # Four cards: only the first two places lie in one row. The king stays out of line with
    # the ace unless all four go round: the king to place 2, the ace to place 1.
    g = emptied(["KS 2H -- -- --",
                 "-- -- -- -- --",
                 "-- -- AS -- --",
                 "-- -- -- 3H --",
                 "-- -- -- -- --"])
    assert g.outcome() is None
    assert g.exchange_can_help(g.state)
    g.play("exchange")
    assert g.outcome() is None  # never lost during the exchange
    g.play("p0-p1")    # KS to place 2, 2H to place 1
    g.play("p0-p12")   # 2H on to the ace's place, the ace to place 1
    g.play("p12-p18")  # 2H on to place 19, the three of hearts to the ace's old place
    assert row_cards(g)[:2] == ["AS", "KS"]
    g.play("p0-p1")
    assert g.outcome() is Outcome.LOST  # the two and the three are left


@pytest.mark.rules("the-fourteenth-success")
def test_a_crowded_table_is_not_judged_lost_while_a_fourteen_could_be_brought_in_line() -> None:
    g = table(BLOCKED)
    assert g.exchange_can_help(g.state)
    assert g.outcome() is None
    assert "one chance remains" in g.status_of(g.state)


#: Small end positions, the hand exhausted, whose every line of play an exhaustive search
#: visits: the first two can be won, the third cannot (its three fourteens, king and ace,
#: the two sevens, queen and two, each lie on a slant, and no series of exchanges and pairs
#: clears them all).
SMALL_ENDS = (
    ("-- -- AS -- --", "-- -- -- -- --", "-- -- 9S -- --", "-- -- -- -- --", "-- 5H -- KS --"),
    ("-- -- KS -- AS", "9S -- -- -- 5H", "8C -- -- -- --", "JC -- -- -- --", "-- 6D 3D -- --"),
    ("KS -- 7H -- QH", "-- 2C -- -- --", "-- -- AS -- --", "-- -- -- 7D --", "-- -- -- -- --"),
)


@pytest.mark.rules("the-fourteenth-success", "the-fourteenth-exchange")
@pytest.mark.parametrize("opts", ["", "exchanges:once"])
def test_a_search_of_every_line_of_play_agrees_with_each_loss_verdict(opts: str) -> None:
    # Every position reachable by legal moves is visited: each one the board calls lost must
    # be one from which no series of pairs and exchanges pairs off the pack.
    found = [check_verdicts(emptied(rows, options=opts)) for rows in SMALL_ENDS]
    assert [f.winnable for f in found] == [True, True, False]
    assert all(f.lost for f in found)  # some line of play loses, and every loss was checked


def test_random_play_always_ends_and_is_judged() -> None:
    rng = random.Random(3)
    ends: Counter[Outcome | None] = Counter()
    for seed in range(12):
        for opts in ("", "exchanges:once"):
            g = engine.new_game(SLUG, seed=seed, options=opts)
            for _ in range(400):
                moves = g.legal_moves()
                if not moves:
                    break
                g.play(rng.choice(moves))
            assert not g.legal_moves()
            assert g.outcome() is not None
            ends[g.outcome()] += 1
    assert ends[Outcome.LOST] > 0


@pytest.mark.rules("the-fourteenth-success")
def test_a_position_with_no_move_is_never_left_undecided() -> None:
    rng = random.Random(8)
    for seed in range(15):
        g = engine.new_game(SLUG, seed=seed)
        while g.outcome() is None:
            moves = g.legal_moves()
            assert moves, g.position()
            g.play(rng.choice(moves))


# ----------------------------------------------------------------------------- the plate

#: The plate's cards as the text names its three fourteens, the other suits as drawn where a
#: pack allows (the plate has four fives of hearts; two of them are given other suits here).
PLATE = ("10H 5H 2H KH 4C",
         "5D 8D 3H 6S 5S",
         "6H JS AH 2D 3H",
         "AC 2C 5C 3D 6C",
         "3C 5C 5H 2S 4H")


@pytest.mark.rules("the-fourteenth-tableau", "the-fourteenth-fourteen")
def test_the_plate_holds_the_three_fourteens_the_text_names() -> None:
    g = table(PLATE)
    pairs = {tuple(sorted(str(place(g, int(s[1:]))) for s in m.steps[0]))
             for m in g.legal_moves() if m.steps}
    assert pairs == {("10H", "4C"), ("3H", "JS"), ("6S", "8D")}
    # each in one row, with other cards between
    assert set(fourteens(TheFourteenth.places(g.state))) == {(0, 4), (6, 8), (11, 14)}


@pytest.mark.rules("the-fourteenth-tableau")
def test_a_queen_or_a_knave_at_the_fourth_place_would_make_more() -> None:
    for court in ("QH", "JH"):
        rows = list(PLATE)
        rows[0] = rows[0].replace("KH", court)
        g = table(rows)
        assert len(list(fourteens(TheFourteenth.places(g.state)))) > 3


@pytest.mark.rules("the-fourteenth-tableau")
def test_all_three_may_be_made_one_after_another() -> None:
    g = table(PLATE, stock="KD KD KS KS KC KC")
    g.play("p0-p4")
    g.play("p11-p14")
    g.play("p6-p8")
    assert len(g.state.piles[OUT]) == 6


# ----------------------------------------------------------------------------- positions

def test_a_played_game_round_trips_through_its_position() -> None:
    g = table(BLOCKED)
    g.play("exchange")
    g.play("p0-p1")
    for compact in (False, True):
        h = engine.load_position(g.position(compact=compact))
        assert h.state == g.state and h.move_stack == g.move_stack


def test_impossible_positions_are_refused() -> None:
    g = table(BLOCKED)
    text = g.position()
    assert engine.load_position(text).state == g.state
    bad_vars = [("vars=spent:0,exchanging:0,moved:0", "vars=spent:0,exchanging:1,moved:0"),
                ("vars=spent:0,exchanging:0,moved:0", "vars=spent:1,exchanging:0,moved:3"),
                ("vars=spent:0,exchanging:0,moved:0", "vars=spent:1,exchanging:1,moved:1"),
                ("vars=spent:0,exchanging:0,moved:0", "vars=spent:2,exchanging:0,moved:0")]
    for old, new in bad_vars:
        assert old in text
        with pytest.raises(PositionError):
            engine.load_position(text.replace(old, new))
    # two cards in one place
    with pytest.raises(PositionError):
        engine.load_position(text.replace("p0:KS|p1:2H", "p0:KS.2H|p1:"))
    # an empty place while the hand holds cards
    with pytest.raises(PositionError):
        engine.load_position(text.replace("p0:KS|", "p0:|").replace("out:", "out:KS"))
    # withdrawn cards that are not pairs making fourteen
    h = emptied(["KS -- -- -- AS", "-- -- -- -- --", "-- -- -- -- --", "-- -- -- -- --",
                 "-- -- -- -- --"])
    t = h.position()
    assert engine.load_position(t).state == h.state
    with pytest.raises(PositionError):
        engine.load_position(t.replace("p0:KS|", "p0:|").replace("out:", "out:KS."))


# ----------------------------------------------------------------------------- the board

def test_status_line_counts_pairs_hand_and_fourteens() -> None:
    g = table(PLATE)
    text = g.status_of(g.state)
    assert "Paired off: 0 of 104" in text and "in your hand: 79" in text
    assert "3 fourteens to be made" in text


def test_status_line_guides_the_exchange() -> None:
    g = table(BLOCKED)
    g.play("exchange")
    assert "put a card on another" in g.status_of(g.state)
    g.play("p0-p1")
    assert ("the two of hearts and the king of spades have changed places"
            in g.status_of(g.state))
    g.play("p1-p2")
    assert "the two of hearts, the three of hearts and the king of spades have moved round" \
        in g.status_of(g.state)
    assert "fourth card" in g.status_of(g.state)


def test_describe_says_what_a_pair_and_a_change_of_places_do() -> None:
    g = table(PLATE)
    assert g.describe(g.state, Move.parse("p0-p4")) == (
        "The ten of hearts and the four of clubs make fourteen and are withdrawn; their "
        "places are filled from the hand.")
    h = table(BLOCKED)
    assert "exchange begins" in h.describe(h.state, Move(action="exchange"))
    h.play("exchange")
    assert h.describe(h.state, Move.parse("p0-p1")) == (
        "The king of spades (row 1, place 1) and the two of hearts (row 1, place 2) change "
        "places.")


def test_the_narrow_board_keeps_every_pile_inside_it() -> None:
    (narrow,) = TheFourteenth.LAYOUTS
    w, h = narrow.grid
    for p in PILES:
        x, y, _ = narrow.at.get(p.id, (p.x, p.y, 0))
        assert 0 <= x and x + 1 <= w + 0.01 and 0 <= y and y + 1 <= h + 0.01


def test_options_round_trip_and_name_their_note() -> None:
    o = FourteenthOptions(exchanges=Frequency.ONCE)
    assert engine.options_to_text(o) == "exchanges:once"
    assert engine.options_from_text(FourteenthOptions, "exchanges:once") == o
    assert engine.options_to_text(FourteenthOptions()) == ""
    for d in engine.describe_options(FourteenthOptions):
        assert d["note"].startswith("note-ft-")
        assert d["default"] == "each-stop"
