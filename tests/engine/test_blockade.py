"""The Blockade: every rule, every refusal (with the rule id it cites), the deal and the end."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.blockade import (
    COLUMNS, FOUNDATION_SET, FOUNDS, MAX_ROWS, PILES, SLOTS, STOCK, AcesInDeal,
    BlockadeOptions, NextRow, TheBlockade, slot,
)
from engine.core import Fan, Role
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-blockade"
R = f"{SLUG}-"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()


def s(row: int, col: int) -> str:
    """The id of the place in row ``row``, column ``col`` (both counted from 1)."""
    return PILES[slot(row - 1, col - 1)].id


#: Cards for the lowest dealt row where a test says nothing: kings and knaves, which neither
#: play nor marry unless a test puts a queen beside them; and for the rows above, blocked.
LOW_FILL = [f"{r}{x}" for r in "KJ" for x in "SHDC" * 2]
HIGH_FILL = [f"{r}{x}" for r in ("10", "8", "7", "6", "5", "4", "3") for x in "SHDC" * 2]


def game(piles: dict[str, str], rows: int = 1, rest_to: str = "stock",
         **kw: object) -> TheBlockade:
    """A position: the places given by pile id (``""`` for an empty place); every other place
    of the ``rows`` rows dealt holds an inert card (LOW_FILL in the lowest row, HIGH_FILL
    above); the remaining cards lie in the pack, sorted (the highest on top, dealt first),
    under any cards given for it, or under ``rest_to``."""
    used: Counter[Card] = Counter()
    for text in piles.values():
        used.update(cards(text))
    spare = Counter(engine.pack(2)) - used
    filled = dict(piles)
    for r in range(1, rows + 1):
        for c in range(1, COLUMNS + 1):
            if s(r, c) in filled:
                continue
            pool = LOW_FILL if r == rows else HIGH_FILL
            card = next(Card.parse(t) for t in pool if spare[Card.parse(t)] > 0)
            spare[card] -= 1
            filled[s(r, c)] = str(card)
    g = make_game(SLUG, filled, vars={"rows": rows}, rest_to=rest_to,  # type: ignore[arg-type]
                  **kw)
    assert isinstance(g, TheBlockade)
    return g


def row(*given: str, r: int = 1) -> dict[str, str]:
    """Cards for the places of row ``r``, from column 1 (``""``: an empty place)."""
    return {s(r, c + 1): card for c, card in enumerate(given)}


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def up_to(suit: str, last: str) -> str:
    return " ".join(r + suit for r in RANKS[:RANKS.index(last) + 1])


def pile(g: TheBlockade, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def legal(g: TheBlockade) -> set[str]:
    return set(map(str, g.legal_moves()))


def exhausted(piles: dict[str, str], rows: int = 3, **kw: object) -> TheBlockade:
    """A position after the pack is out: the cards not given lie in row 1, column 12, blocked
    for good by a king of spades in row 2 and a king of hearts in row 3 below it."""
    base = {s(2, 12): "KS", s(3, 12): "KH", "stock": ""}
    empty = {s(r, c): "" for r in range(1, rows + 1) for c in range(1, COLUMNS + 1)}
    return game({**empty, s(1, 12): "", **base, **piles}, rows=rows, rest_to=s(1, 12), **kw)


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-blockade-deal")
def test_the_game_opens_with_twelve_cards_in_a_horizontal_line() -> None:
    g = engine.new_game(SLUG, seed=4)
    st = g.state
    assert [len(st.piles[slot(0, c)]) for c in range(COLUMNS)] == [1] * 12
    assert all(not st.piles[i] for i in SLOTS[COLUMNS:])
    assert len(st.piles[STOCK]) == 104 - 12
    assert g.var(st, "rows") == 1
    assert Counter(st.all_cards()) == Counter(engine.pack(2))


@pytest.mark.rules("the-blockade-deal")
def test_the_row_is_dealt_left_to_right_from_the_top_of_the_pack() -> None:
    g = game({"stock": "5D 4D 3D 2D"})
    g.play("deal")  # the top card of the pack (written last) goes to the left
    assert [pile(g, s(2, c))[-1] for c in range(1, 5)] == list(cards("2D 3D 4D 5D"))


@pytest.mark.rules("the-blockade-deal")
def test_same_deal_number_same_deal() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (9, 9, 10))
    assert a == b and a != c


@pytest.mark.rules("the-blockade-deal", "the-blockade-rule-1")
def test_the_places_lie_as_in_the_plate() -> None:
    found_y = {PILES[f].y for f in FOUNDS}
    assert len(found_y) == 1 and len(FOUNDS) == 8
    for r in range(MAX_ROWS):
        ys = {PILES[slot(r, c)].y for c in range(COLUMNS)}
        assert len(ys) == 1 and ys.pop() > max(found_y)
        xs = [PILES[slot(r, c)].x for c in range(COLUMNS)]
        assert xs == sorted(xs)
    # each row lies under the one before; married cards lie exactly over their card
    assert all(PILES[slot(r + 1, 0)].y > PILES[slot(r, 0)].y for r in range(MAX_ROWS - 1))
    assert all(PILES[i].fan is Fan.NONE for i in SLOTS)
    assert MAX_ROWS * COLUMNS >= 104 > (MAX_ROWS - 1) * COLUMNS


# ----------------------------------------------------------------------------- Rule I

@pytest.mark.rules("the-blockade-rule-1")
def test_all_cards_of_the_first_row_are_available() -> None:
    g = game(row("2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"))
    sources = {str(m).split("-")[0] for m in g.legal_moves() if m.steps}
    assert sources == {s(1, c) for c in range(1, 12)}  # the king of spades has no place
    assert refusal_rule(g, f"{s(1, 12)}-{s(1, 11)}") == R + "marriages"


@pytest.mark.rules("the-blockade-rule-1")
def test_each_row_blocks_the_one_before() -> None:
    g = game({**row("AS", "5H", "6H"), **row("9D", "7H", "KD", r=2)}, rows=2)
    assert refusal_rule(g, f"{s(1, 1)}-f0") == R + "rule-1"         # the ace, under the 9D
    assert refusal_rule(g, f"{s(1, 2)}-{s(2, 3)}") == R + "rule-1"  # the five, blocked
    assert Move.parse(f"{s(1, 1)}-f0") not in g.legal_moves()
    # nor may a card be married onto a blocked card: the six of hearts lies under the KD
    g2 = game({**row("6H", "KS"), **row("KD", "5H", r=2)}, rows=2)
    assert refusal_rule(g2, f"{s(2, 2)}-{s(1, 1)}") == R + "rule-1"
    assert refusal_rule(g2, f"{s(2, 2)}-{s(1, 2)}") == R + "rule-1"  # its own column


@pytest.mark.rules("the-blockade-release")
def test_removing_a_card_releases_the_one_above_before_the_refill() -> None:
    g = game({**row("2S", "KD"), **row("AS", "KC", r=2)}, rows=2)
    assert refusal_rule(g, f"{s(1, 1)}-f0") == R + "rule-1"
    g.play(f"{s(2, 1)}-f0")         # the ace in row 2 is played ...
    assert f"{s(1, 1)}-f0" in legal(g)  # ... and the two above it is released at once
    g.play(f"{s(1, 1)}-f0")
    assert pile(g, "f0") == cards("AS 2S")
    assert g.vacancies(g.state) == [slot(0, 0), slot(1, 0)]


@pytest.mark.rules("the-blockade-release")
def test_a_released_card_may_be_married_and_receive_a_marriage() -> None:
    g = game({**row("6H", "KS", "5H"), **row("", "KC", "AS", r=2), s(1, 4): "4H"}, rows=2)
    assert refusal_rule(g, f"{s(1, 3)}-{s(1, 1)}") == R + "rule-1"
    g.play(f"{s(2, 3)}-f0")
    g.play(f"{s(1, 3)}-{s(1, 1)}")  # both released: the five married onto the six
    assert pile(g, s(1, 1)) == cards("6H 5H")
    g2 = game({**row("", "KS", "5H"), **row("6H", "KC", "AS", r=2), s(1, 4): "4H"}, rows=2)
    g2.play(f"{s(2, 3)}-f0")
    assert f"{s(1, 3)}-{s(2, 1)}" in legal(g2)  # the released five onto the six below


@pytest.mark.rules("the-blockade-release", "the-blockade-marriages")
def test_only_the_top_card_of_a_place_is_available() -> None:
    g = game(row("8C 7C", "KS", "6C"))
    assert refusal_rule(g, f"{s(1, 1)}:0-{s(1, 2)}") == R + "marriages"
    g.play(f"{s(1, 3)}-{s(1, 1)}")
    assert pile(g, s(1, 1)) == cards("8C 7C 6C")
    # the line of married cards never moves as a whole, and the card beneath is covered
    assert refusal_rule(g, f"{s(1, 1)}:1-{s(1, 2)}") == R + "marriages"


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("the-blockade-rule-2")
def test_the_foundations_follow_suit() -> None:
    g = game({**row("AH", "2S"), "f0": "AS"})
    assert FOUNDATION_SET.suit(FOUNDS[0]).noun == "spades"
    assert refusal_rule(g, f"{s(1, 1)}-f0") == R + "rule-2"
    assert refusal_rule(g, f"{s(1, 1)}-f2") == R + "rule-2"
    assert refusal_rule(g, f"{s(1, 2)}-f1") == R + "rule-2"
    g.play(f"{s(1, 1)}-f1")
    g.play(f"{s(1, 2)}-f0")
    assert pile(g, "f0") == cards("AS 2S") and pile(g, "f1") == cards("AH")


@pytest.mark.rules("the-blockade-foundations")
def test_eight_aces_two_places_to_a_suit() -> None:
    g = game(row("AS", "AS", "AC"))
    assert {f"{s(1, 1)}-f0", f"{s(1, 1)}-f4"} <= legal(g)
    g.play(f"{s(1, 1)}-f4")
    g.play(f"{s(1, 2)}-f0")
    g.play(f"{s(1, 3)}-f7")
    assert [FOUNDATION_SET.suit(f).noun for f in FOUNDS] == [
        "spades", "hearts", "diamonds", "clubs"] * 2


@pytest.mark.rules("the-blockade-foundations")
def test_foundations_begin_with_an_ace_and_ascend_in_sequence_to_kings() -> None:
    g = game({**row("2S", "3S", "AS", "KD"), "f2": up_to("D", "Q"), "f6": up_to("D", "Q")})
    assert refusal_rule(g, f"{s(1, 1)}-f0") == R + "foundations"
    g.play(f"{s(1, 3)}-f0")
    assert refusal_rule(g, f"{s(1, 2)}-f0") == R + "foundations"
    g.play(f"{s(1, 1)}-f0")
    g.play(f"{s(1, 2)}-f0")
    assert f"{s(1, 4)}-f6" in legal(g)  # a card that fits two places may go to either
    g.play(f"{s(1, 4)}-f6")
    assert len(pile(g, "f6")) == 13


@pytest.mark.rules("the-blockade-foundations")
def test_cards_on_the_foundations_stay_there() -> None:
    g = game({**row("", "3S"), "f0": "AS 2S"})
    assert refusal_rule(g, f"f0-{s(1, 2)}") == R + "foundations"
    assert refusal_rule(g, f"f0-{s(1, 1)}") == R + "foundations"
    assert refusal_rule(g, "f0-f4") == R + "foundations"


# ----------------------------------------------------------------------------- the aces

@pytest.mark.rules("the-blockade-aces")
def test_the_row_is_dealt_whole_and_an_ace_waits_for_the_player() -> None:
    g = game({"stock": "9D 8D 7D 6D 5D 4D 3D 2D 10D AD JD QD"})
    g.play("deal")
    second = [pile(g, s(2, c))[-1] for c in range(1, 13)]
    assert second == list(cards("QD JD AD 10D 2D 3D 4D 5D 6D 7D 8D 9D"))
    assert all(not pile(g, f"f{k}") for k in range(8))  # nothing is played for the player
    g.play(f"{s(2, 3)}-f2")                               # the ace, when the player likes
    assert g.vacancies(g.state) == [slot(1, 2)]           # and its place is a vacancy


@pytest.mark.rules("the-blockade-aces")
def test_under_the_other_reading_an_ace_is_played_as_it_appears_and_replaced() -> None:
    g = game({"stock": "9D 8D 7D 6D 5D 4D 3D 2D 10D AD JD QD"},
             options="aces:replaced")
    g.play("deal")
    second = [str(pile(g, s(2, c))[-1]) for c in range(1, 13)]
    assert second == "QD JD 10D 2D 3D 4D 5D 6D 7D 8D 9D".split() + [str(second[-1])]
    assert pile(g, "f2") == cards("AD")
    assert not g.vacancies(g.state)
    g.undo()
    assert g.describe(g.state, Move(action="deal")) == (
        "Row 2 is dealt under the last; the ace of diamonds is played as it appears.")


@pytest.mark.rules("the-blockade-aces")
def test_under_the_other_reading_aces_turned_up_in_a_refill_are_replaced_too() -> None:
    g = game({s(1, 12): "2H", "f1": "AH", "stock": "7C AC AS"},
             options="aces:replaced")
    g.play(f"{s(1, 12)}-f1")
    g.play("refill")
    assert pile(g, s(1, 12)) == cards("7C")
    assert pile(g, "f0") == cards("AS") and pile(g, "f3") == cards("AC")
    first = engine.new_game(SLUG, seed=1, options="aces:replaced")
    assert not any(c.rank == 1 for i in SLOTS for c in first.state.piles[i])
    assert sum(len(first.state.piles[f]) for f in FOUNDS) >= 1  # seed 1 deals an ace


@pytest.mark.rules("the-blockade-aces", "the-blockade-higher-rows")
def test_an_ace_turned_up_in_a_refill_may_be_played_before_the_place_below_covers_it() -> None:
    # Column 1 has lost its cards in rows 2 and 3: the refill fills row 2 first, and the ace
    # of hearts turns up there. “Aces may be played as they appear”: the refill pauses with
    # the ace available, instead of burying it at once under the next card in row 3.
    g = game({**row("QC", r=1), **row("2S", r=2), **row("AS", r=3), "stock": "9C AH"},
             rows=3)
    g.play(f"{s(3, 1)}-f0")
    g.play(f"{s(2, 1)}-f0")
    assert g.describe(g.state, Move(action="refill")) == (
        "The vacancy is refilled from the pack, the higher rows first; the ace of hearts "
        "turns up, and the refill waits for it to be played as it appears.")
    g.play("refill")
    assert pile(g, s(2, 1)) == cards("AH") and not pile(g, s(3, 1))
    assert f"{s(2, 1)}-f1" in legal(g)
    assert refusal_rule(g, "deal") == R + "refill"   # the vacancy below still waits
    g.play(f"{s(2, 1)}-f1")                          # played as it appeared
    g.play("refill")
    assert pile(g, s(2, 1)) == cards("9C") and pile(g, s(3, 1))
    # The player may instead leave it and go on with the refill, which covers it.
    g2 = game({**row("QC", r=1), **row("2S", r=2), **row("AS", r=3), "stock": "9C AH"},
              rows=3)
    g2.play(f"{s(3, 1)}-f0")
    g2.play(f"{s(2, 1)}-f0")
    g2.play("refill")
    g2.play("refill")
    assert pile(g2, s(2, 1)) == cards("AH") and pile(g2, s(3, 1)) == cards("9C")
    # An ace that falls in the lowest place of its column lies there, and the refill goes on.
    g3 = game({**row("QC", "2S", r=1), **row("AS", "AS", r=2), "stock": "9C AH 8D"},
              rows=2)
    g3.play(f"{s(2, 1)}-f0")
    g3.play(f"{s(2, 2)}-f4")
    g3.play(f"{s(1, 2)}-f0")
    g3.play("refill")
    assert [pile(g3, p) for p in (s(1, 2), s(2, 1), s(2, 2))] == [
        cards("8D"), cards("AH"), cards("9C")]
    assert not g3.vacancies(g3.state)


@pytest.mark.rules("the-blockade-aces", "the-blockade-next-row")
def test_nothing_but_aces_can_be_played_before_the_row_is_complete() -> None:
    # The deal is one move: after it the row is complete. The two of hearts that follows
    # its ace stays in the row even when the ace has gone up as it appeared.
    for opts in ("", "aces:replaced"):
        g = game({"stock": "4H 3H 2H AH"}, options=opts)
        g.play("deal")
        assert all(pile(g, s(2, c)) for c in range(1, 13))
        assert Card.parse("2H") in {pile(g, s(2, c))[-1] for c in range(1, 13)}
        assert not pile(g, "f1") or pile(g, "f1") == cards("AH")


# ----------------------------------------------------------------------------- marriages

@pytest.mark.rules("the-blockade-marriages")
def test_marriage_in_descending_line_exactly_over_the_card() -> None:
    g = game(row("9S", "10S", "KD"))
    assert f"{s(1, 1)}-{s(1, 2)}" in legal(g)
    g.play(f"{s(1, 1)}-{s(1, 2)}")
    assert pile(g, s(1, 2)) == cards("10S 9S")  # in the same place: no new row
    assert g.var(g.state, "rows") == 1
    assert all(not pile(g, s(2, c)) for c in range(1, 13))


@pytest.mark.rules("the-blockade-marriages")
def test_marriage_must_be_of_the_same_suit_and_one_rank_higher() -> None:
    g = game(row("9S", "10H", "8S", "JS", "KS", "QS"))
    assert refusal_rule(g, f"{s(1, 1)}-{s(1, 2)}") == R + "marriages"  # other suit
    assert refusal_rule(g, f"{s(1, 1)}-{s(1, 3)}") == R + "marriages"  # ascending
    assert refusal_rule(g, f"{s(1, 1)}-{s(1, 4)}") == R + "marriages"  # two higher
    assert refusal_rule(g, f"{s(1, 5)}-{s(1, 6)}") == R + "marriages"  # a king, never
    g.play(f"{s(1, 6)}-{s(1, 5)}")                                      # a queen on it


@pytest.mark.rules("the-blockade-marriages")
def test_a_married_card_may_move_on_to_the_twin_of_its_card() -> None:
    g = game(row("8C 7C", "8C", "KD"))
    g.play(f"{s(1, 1)}-{s(1, 2)}")
    assert pile(g, s(1, 1)) == cards("8C") and pile(g, s(1, 2)) == cards("8C 7C")


@pytest.mark.rules("the-blockade-marriages")
def test_plays_and_marriages_are_not_compulsory_and_come_in_any_order() -> None:
    g = game(row("AH", "5C", "6C"))
    g.play(f"{s(1, 2)}-{s(1, 3)}")  # a marriage while a play is open
    g.play("refill")               # and the vacancy refilled while the ace waits
    assert pile(g, s(1, 1)) == cards("AH")


# ----------------------------------------------------------------------------- vacancies

@pytest.mark.rules("the-blockade-refill")
def test_vacancies_are_refilled_from_the_pack() -> None:
    g = game({**row("9S", "10S"), "stock": "QD 3C"})
    g.play(f"{s(1, 1)}-{s(1, 2)}")
    assert g.vacancies(g.state) == [slot(0, 0)]
    g.play("refill")
    assert pile(g, s(1, 1)) == cards("3C")
    assert pile(g, "stock")[-1] == Card.parse("QD")
    assert refusal_rule(g, "refill") == R + "refill"  # nothing left to refill


@pytest.mark.rules("the-blockade-refill")
def test_the_next_row_waits_for_the_vacancies_to_be_refilled() -> None:
    for opts in ("", "next_row:choice"):
        g = game({**row(""), "stock": "9H"}, options=opts)
        assert refusal_rule(g, "deal") == R + "refill"
        g.play("refill")
        g.play("deal")
        assert g.var(g.state, "rows") == 2


@pytest.mark.rules("the-blockade-refill")
def test_a_vacancy_is_filled_from_the_pack_and_from_nothing_else() -> None:
    g = game({**row("", "9S", "KD"), **row("", "KH", "KC", r=2)}, rows=2)
    assert refusal_rule(g, f"{s(2, 2)}-{s(2, 1)}") == R + "refill"
    assert refusal_rule(g, f"{s(2, 2)}-{s(1, 1)}") == R + "refill"
    assert refusal_rule(g, f"{s(2, 2)}-{s(3, 2)}") == R + "next-row"  # a row not dealt
    assert refusal_rule(g, f"stock-{s(1, 1)}") == R + "deal"


@pytest.mark.rules("the-blockade-higher-rows")
def test_the_higher_rows_are_refilled_first_left_to_right() -> None:
    g = game({**row("6S", "KS", "KD", r=1), **row("2S", "KH", "2H", r=2),
              **row("AS", "QC", "AH", r=3), "stock": "7H 6H 5H 4H"}, rows=3)
    for col, f in ((3, "f1"), (1, "f0")):
        g.play(f"{s(3, col)}-{f}")
        g.play(f"{s(2, col)}-{f}")
    assert g.vacancies(g.state) == [slot(1, 0), slot(1, 2), slot(2, 0), slot(2, 2)]
    g.play("refill")
    assert [pile(g, p)[-1] for p in (s(2, 1), s(2, 3), s(3, 1), s(3, 3))] == list(
        cards("4H 5H 6H 7H"))


@pytest.mark.rules("the-blockade-higher-rows", "the-blockade-release")
def test_a_vacancy_in_a_higher_row_is_made_by_using_a_released_card() -> None:
    g = game({**row("5D"), **row("AD", r=2), "f6": "AD 2D 3D 4D", "stock": "9H 8H"},
             rows=2)
    g.play(f"{s(2, 1)}-f2")
    g.play(f"{s(1, 1)}-f6")  # the released five: a vacancy in the higher row
    assert g.vacancies(g.state) == [slot(0, 0), slot(1, 0)]
    g.play("refill")
    assert pile(g, s(1, 1)) == cards("8H") and pile(g, s(2, 1)) == cards("9H")


@pytest.mark.rules("the-blockade-higher-rows", "the-blockade-rows")
def test_a_refill_stops_when_the_pack_runs_out_the_higher_places_first() -> None:
    g = game({**row(""), **row("", r=2), "stock": "9H"}, rows=2, rest_to=s(1, 12))
    g.play("refill")
    assert pile(g, s(1, 1)) == cards("9H") and not pile(g, s(2, 1))
    assert refusal_rule(g, "refill") == R + "rows"


# ----------------------------------------------------------------------------- the next row

@pytest.mark.rules("the-blockade-next-row")
def test_another_row_only_when_neither_play_nor_marriage_can_be_done() -> None:
    g = game({**row("AS"), "stock": "9D"})
    assert refusal_rule(g, "deal") == R + "next-row"   # the ace can be played
    g.play(f"{s(1, 1)}-f0")
    g.play("refill")
    assert pile(g, s(1, 1)) == cards("9D")
    g2 = game({**row("9S", "10S"), "stock": "9H"})
    assert refusal_rule(g2, "deal") == R + "next-row"  # the nine can be married
    g2.play(f"{s(1, 1)}-{s(1, 2)}")
    g2.play("refill")
    g2.play("deal")
    assert g2.var(g2.state, "rows") == 2


@pytest.mark.rules("the-blockade-next-row")
def test_moving_a_married_card_to_the_twin_of_its_card_does_not_hold_up_the_row() -> None:
    g = game({**row("8C 7C", "8C")})
    assert f"{s(1, 1)}-{s(1, 2)}" in legal(g)
    g.play("deal")
    assert g.var(g.state, "rows") == 2


@pytest.mark.rules("the-blockade-next-row")
def test_under_the_other_reading_the_row_comes_when_the_player_chooses() -> None:
    g = game({**row("AS", "9S", "10S")}, options="next_row:choice")
    g.play("deal")
    assert g.var(g.state, "rows") == 2
    assert pile(g, s(2, 1)) and refusal_rule(g, f"{s(1, 1)}-f0") == R + "rule-1"


@pytest.mark.rules("the-blockade-next-row", "the-blockade-rows")
def test_each_row_is_dealt_underneath_the_last() -> None:
    g = game({}, rows=2)
    g.play("deal")
    assert g.var(g.state, "rows") == 3
    assert all(pile(g, s(3, c)) for c in range(1, 13))
    assert "dealt under" in g.describe(g.state, Move(action="deal"))


# ----------------------------------------------------------------------------- the pack out

@pytest.mark.rules("the-blockade-rows")
def test_rows_until_the_pack_is_exhausted_the_last_short() -> None:
    g = engine.new_game(SLUG, seed=3, options="next_row:choice")
    while g.state.piles[STOCK]:
        while g.vacancies(g.state):
            g.play("refill")
        if g.state.piles[STOCK]:
            g.play("deal")
    rows = g.var(g.state, "rows")
    assert rows == MAX_ROWS  # nothing played: eight full rows and a ninth of eight
    assert sum(1 for c in range(COLUMNS) if g.state.piles[slot(rows - 1, c)]) == 8
    assert refusal_rule(g, "deal") == R + "rows"
    assert refusal_rule(g, "refill") == R + "rows"


@pytest.mark.rules("the-blockade-rows")
def test_after_the_pack_play_and_marriage_go_on_but_empty_places_stay_empty() -> None:
    g = exhausted({**row("5C", "6C", "AS", "2S"), **row("", "", "KD", r=2),
                   "f0": "", "f4": ""}, rows=3)
    g.play(f"{s(1, 1)}-{s(1, 2)}")
    assert refusal_rule(g, f"{s(2, 3)}-{s(1, 1)}") == R + "rows"
    assert refusal_rule(g, f"{s(1, 4)}-{s(2, 4)}") == R + "rows"
    assert refusal_rule(g, f"{s(1, 4)}-{s(1, 1)}") == R + "rows"


@pytest.mark.rules("the-blockade-no-redeal")
def test_there_is_no_redeal() -> None:
    g = engine.new_game(SLUG, seed=5)
    assert refusal_rule(g, "redeal") == R + "no-redeal"
    g2 = exhausted({})
    assert refusal_rule(g2, "redeal") == R + "no-redeal"


# ----------------------------------------------------------------------------- outcome

@pytest.mark.rules("the-blockade-foundations")
def test_won_when_all_hundred_and_four_are_on_the_foundations() -> None:
    done = {f"f{k}": up_to("SHDC"[k % 4], "K") for k in range(8)}
    done["f3"] = up_to("C", "Q")
    g = game({**done, **row(*[""] * 12), s(1, 1): "KC", "stock": ""})
    assert g.outcome() is None
    g.play(f"{s(1, 1)}-f3")
    assert g.outcome() is Outcome.WON
    assert "Won" in g.status_of(g.state)


@pytest.mark.rules("the-blockade-no-redeal", "the-blockade-rows")
def test_lost_when_the_pack_is_out_and_no_card_can_reach_a_foundation() -> None:
    g = exhausted(row("9D", "KC"))
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)
    g2 = exhausted({**row("4D", "5D", "QS"), "f2": "AD 2D"})
    # the four can be married onto the five, but that releases nothing: lost all the same
    assert g2.outcome() is Outcome.LOST


@pytest.mark.rules("the-blockade-no-redeal", "the-blockade-release")
def test_not_lost_while_a_marriage_can_release_a_playable_card() -> None:
    g = exhausted({**row("3D", "5C"), **row("4C", "", r=2), "f2": "AD 2D", "f6": ""})
    assert g.outcome() is None  # marry the four onto the five: the three is released
    g.play(f"{s(2, 1)}-{s(1, 2)}")
    assert f"{s(1, 1)}-f2" in legal(g)


def test_never_lost_while_the_pack_lasts() -> None:
    g = game({})
    assert g.outcome() is None
    assert legal(g) == {"deal"}


def test_random_play_ends_and_every_end_is_judged() -> None:
    import random
    rng = random.Random(3)
    ends: Counter[Outcome | None] = Counter()
    for seed in range(12):
        g = engine.new_game(SLUG, seed=seed)
        for _ in range(2000):
            if g.outcome() is not None:
                break
            moves = g.legal_moves()
            plays = [m for m in moves if m.steps and m.steps[0][1].startswith("f")]
            g.play(plays[0] if plays else rng.choice(moves))
        ends[g.outcome()] += 1
    assert ends[None] == 0 and ends[Outcome.LOST] > 0


# ----------------------------------------------------------------------------- positions

def test_positions_round_trip_and_bad_ones_are_refused() -> None:
    g = engine.new_game(SLUG, seed=8, options="next_row:choice")
    g.play("deal")
    h = engine.load_position(g.position())
    assert h.state == g.state
    text = g.position()
    with pytest.raises(PositionError):  # a row not yet dealt holds cards
        engine.load_position(text.replace("vars=rows:1", "vars=rows:0"))
    bad = game({**row("9S 8H")})
    with pytest.raises(PositionError):  # a card on another not of its suit
        engine.load_position(bad.position())
    gap = game({**row("", "KS"), **row("KD", r=2)}, rows=2)
    with pytest.raises(PositionError):  # a card below an empty place
        engine.load_position(gap.position())
    out = game({"f0": "AS 3S"})
    with pytest.raises(PositionError):
        engine.load_position(out.position())


# ----------------------------------------------------------------------------- the board

def test_every_card_of_the_tableau_is_face_up_and_the_pack_face_down() -> None:
    g = engine.new_game(SLUG, seed=9)
    view = engine.view_of(g)
    for spec, p in zip(PILES, view["piles"]):
        if spec.role is Role.STOCK:
            assert all(c["c"] is None for c in p["cards"])
        else:
            assert all(c["c"] is not None for c in p["cards"])


def test_the_board_fits_the_grid_and_the_phone_layout_keeps_cards_large() -> None:
    w, h = TheBlockade.GRID
    for p in PILES:
        assert 0 <= p.x and p.x + 1 <= w + 1e-9 and 0 <= p.y and p.y + 1 <= h + 1e-9
    narrow = TheBlockade.LAYOUTS[0]
    assert narrow.max_width is not None and narrow.max_width >= 400
    nw, nh = narrow.grid
    assert set(narrow.at) == {p.id for p in PILES}
    for x, y, _ in narrow.at.values():
        assert 0 <= x and x + 1 <= nw + 1e-9 and 0 <= y and y + 1 <= nh + 1e-9
    # a 390-pixel phone leaves the board about 350 pixels: cards at least 36 wide
    assert 350 / nw * 0.9 >= 36
    # the normal layout is used down to max_width: cards at least 36 wide there too
    assert (narrow.max_width + 1) / w * 0.9 >= 36
    places = [(x, y) for x, y, _ in narrow.at.values()]
    assert len(set(places)) == len(places)


def test_status_line_and_describe() -> None:
    g = game({**row("9S", "10S")})
    text = g.status_of(g.state)
    assert "1 row dealt" in text and "no vacancy" in text and "0 of 104" in text
    said = g.describe(g.state, Move.parse(f"{s(1, 1)}-{s(1, 2)}"))
    assert said == ("The nine of spades from row 1, column 1 is married to the ten of spades "
                    "in row 1, column 2.")
    g.play(f"{s(1, 1)}-{s(1, 2)}")
    assert "1 vacancy to refill" in g.status_of(g.state)
    assert "refilled" in g.describe(g.state, Move(action="refill"))


def test_moves_with_bad_notation_are_refused_on_the_board() -> None:
    g = game(row("9S", "10S"))
    assert refusal_rule(g, f"{s(1, 1)}-{s(1, 1)}") == R + "board"
    assert refusal_rule(g, f"{s(1, 1)}-stock") == R + "board"
    assert refusal_rule(g, "zz9-f0") == R + "board"
    assert refusal_rule(g, "shuffle") == R + "board"
    assert refusal_rule(g, f"{s(1, 1)}-{s(1, 2)}+{s(1, 2)}-f0") == R + "board"


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = BlockadeOptions(aces=AcesInDeal.REPLACED, next_row=NextRow.CHOICE)
    text = engine.options_to_text(o)
    assert text == "aces:replaced,next_row:choice"
    assert engine.options_from_text(BlockadeOptions, text) == o
    assert engine.options_to_text(BlockadeOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(BlockadeOptions, "aces:never")


def test_every_option_names_its_note() -> None:
    for d in engine.describe_options(BlockadeOptions):
        assert d["note"].startswith("note-bk-")
        assert len(d["choices"]) >= 2
        assert d["default"] in {c["value"] for c in d["choices"]}
    assert {f.name for f in dataclasses.fields(BlockadeOptions)} == {"aces", "next_row"}
