"""Cæsar: the nine cards withdrawn and laid out, every exchange and every refusal (with the rule
id it cites), the eight lines counted, the win, the positions and the notation."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.caesar import (
    LINES, PILES, REST, SOLUTIONS, SQUARE, Caesar, exchanges_needed, fifteens, values,
)
from engine.deal import shuffled
from engine.solver import Budget, solve
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "caesar"
R = f"{SLUG}-"
#: The plate's values, row by row from the top left: 7 8 3 / 5 6 4 / 9 A 2.
PLATE = "7H 8H 3H 5C 6H 4H 9D AC 2C"
#: One of the eight squares: 2 7 6 / 9 5 1 / 4 3 8.
MADE = "2S 7H 6D 9C 5S AH 4D 3C 8S"


def game(square: str, **kw: object) -> Caesar:
    """A position whose square holds the cards given (row by row from the top left), the rest
    of the pack set aside, loaded through ``engine.load_position`` with an explicit start."""
    piles = {f"g{i}": c for i, c in enumerate(square.split())}
    made = make_game(SLUG, piles, rest_to="rest", **kw)  # type: ignore[arg-type]
    g = engine.load_position(made.position())
    assert isinstance(g, Caesar) and g.state == made.state
    return g


def square_of(g: Caesar) -> str:
    return " ".join(str(g.state.piles[i][0]) for i in SQUARE)


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("caesar-withdraw")
def test_the_deal_withdraws_the_first_ace_to_nine_it_meets_in_any_suits() -> None:
    suits: Counter[str] = Counter()
    for seed in range(200):
        g = engine.new_game(SLUG, seed=seed)
        s = g.state
        assert Counter(s.all_cards()) == Counter(engine.pack(1))
        square = [s.piles[i] for i in SQUARE]
        assert all(len(p) == 1 for p in square)
        assert sorted(values(s)) == list(range(1, 10))
        # each is the first card of its value from the top of the pack (its last card)
        top_down = list(reversed(shuffled(engine.pack(1), seed)))
        for (card,) in square:
            first = next(c for c in top_down if c.rank == card.rank)
            assert card == first
            suits[card.suit.value] += 1
        # the other forty-three cards are set aside, in their order, face down
        rest = s.piles[REST]
        assert len(rest) == 43
        assert [c for c in reversed(rest)] == [c for c in top_down
                                                if c not in {p[0] for p in square}]
        view = engine.view_of(g)
        assert all(c["c"] is None for c in view["piles"][REST]["cards"])
    assert set(suits) == {"S", "H", "D", "C"}  # any suits


@pytest.mark.rules("caesar-rows")
def test_the_nine_cards_are_laid_in_three_rows_of_three_in_the_order_withdrawn() -> None:
    for seed in range(50):
        g = engine.new_game(SLUG, seed=seed)
        top_down = list(reversed(shuffled(engine.pack(1), seed)))
        met: list[Card] = []
        for c in top_down:
            if c.rank <= 9 and all(m.rank != c.rank for m in met):
                met.append(c)
        assert [g.state.piles[i][0] for i in SQUARE] == met
        view = engine.view_of(g)
        assert all(p["cards"][0]["c"] for p in view["piles"][:9])
    # the places stand in three rows of three, like the plate
    rows = Counter(p.y for p in PILES[:9])
    cols = Counter(p.x for p in PILES[:9])
    assert sorted(rows.values()) == [3, 3, 3] and sorted(cols.values()) == [3, 3, 3]
    assert all(p.capacity == 1 for p in PILES[:9])


@pytest.mark.rules("caesar-rows")
def test_every_arrangement_is_equally_likely_to_be_dealt() -> None:
    centre: Counter[int] = Counter()
    for seed in range(1800):
        centre[values(Caesar.initial_state(seed, None))[4]] += 1
    assert set(centre) == set(range(1, 10))
    assert all(140 <= n <= 260 for n in centre.values()), centre  # 200 each expected


@pytest.mark.rules("caesar-rows", "caesar-withdraw")
def test_a_position_must_hold_one_card_of_each_value_in_each_place() -> None:
    good = game(PLATE).position()
    with pytest.raises(PositionError):   # a ten in the square
        engine.load_position(good.replace("g0:7H", "g0:10H").replace("10H.", "7H.", 1))
    with pytest.raises(PositionError):   # two sevens, no eight
        engine.load_position(good.replace("g1:8H", "g1:7S").replace("7S.", "8H.", 1))
    with pytest.raises(PositionError):   # two cards in one place, none in another
        engine.load_position(good.replace("g1:8H", "g1:8H.3H").replace("g2:3H", "g2:"))


# ----------------------------------------------------------------------------- the moves

@pytest.mark.rules("caesar-change")
def test_any_two_cards_of_the_square_change_places_either_way_round() -> None:
    g = game(PLATE)
    legal = g.legal_moves()
    assert len(legal) == 72  # every ordered pair of the nine places
    assert {str(m) for m in legal} == {f"g{a}-g{b}" for a in range(9) for b in range(9)
                                       if a != b}
    g.play("g0-g8")
    assert square_of(g) == "2C 8H 3H 5C 6H 4H 9D AC 7H"
    h = game(PLATE)
    h.play("g8-g0")  # the same exchange, written from its other end
    assert h.state == g.state
    g.play("g4-g1")  # neighbours or not, any two places
    assert square_of(g) == "2C 6H 3H 5C 8H 4H 9D AC 7H"
    g.undo()
    g.undo()
    assert square_of(g) == PLATE


@pytest.mark.rules("caesar-change")
def test_as_often_as_the_player_likes() -> None:
    g = game(PLATE)
    for _ in range(50):
        g.play("g0-g1")
    assert square_of(g) == PLATE and len(g.move_stack) == 50


@pytest.mark.rules("caesar-withdraw")
def test_the_rest_of_the_pack_takes_no_part() -> None:
    g = game(PLATE)
    assert refusal_rule(g, "rest-g0") == R + "withdraw"
    assert refusal_rule(g, "g0-rest") == R + "withdraw"
    assert refusal_rule(g, "rest:3-g4") == R + "withdraw"
    assert refusal_rule(g, "rest-rest") == R + "withdraw"


@pytest.mark.rules("caesar-change")
def test_a_card_changes_places_with_another_one_exchange_at_a_time() -> None:
    g = game(PLATE)
    assert refusal_rule(g, "g3-g3") == R + "board"
    assert refusal_rule(g, "g0-g1+g2-g3") == R + "change"
    for action in ("deal", "redeal", "shuffle"):
        assert refusal_rule(g, action) == R + "change"
    assert refusal_rule(g, "g0:0-g1") == R + "board"  # one notation for each move
    assert refusal_rule(g, "x9-g1") == R + "board"


# ----------------------------------------------------------------------------- the lines

@pytest.mark.rules("caesar-fifteen", "caesar-eight")
def test_the_plate_shows_three_fifteens() -> None:
    g = game(PLATE)
    assert values(g.state) == (7, 8, 3, 5, 6, 4, 9, 1, 2)  # the ace counts one pip
    assert fifteens(g.state) == (1, 4, 6)
    assert g.status_of(g.state) == ("3 of 8 lines make fifteen: the middle row, the middle "
                                    "column and the diagonal from the top left.")
    assert g.outcome() is None


@pytest.mark.rules("caesar-fifteen")
def test_rows_columns_and_both_diagonals_are_counted() -> None:
    assert len(LINES) == 8
    assert sorted(itertools.chain.from_iterable(LINES[:3])) == list(range(9))  # rows
    assert sorted(itertools.chain.from_iterable(LINES[3:6])) == list(range(9))  # columns
    assert {LINES[6], LINES[7]} == {(0, 4, 8), (2, 4, 6)}  # the two diagonals
    # only a diagonal: A . . / . 5 . / . . 9, with no row or column making fifteen
    g = game("AS 2H 3S 4C 5S 7D 8H 6C 9D")
    assert fifteens(g.state) == (6,)
    assert g.status_of(g.state) == ("1 of 8 lines make fifteen: the diagonal from the top "
                                    "left.")
    g = game("AS 2S 3S 4S 5S 6S 7S 8S 9S")
    assert fifteens(g.state) == (1, 4, 6, 7)  # 4 5 6 across, 2 5 8 down, both diagonals


@pytest.mark.rules("caesar-fifteen", "caesar-eight")
def test_eight_fifteens_only_in_the_eight_turns_of_one_square() -> None:
    assert len(SOLUTIONS) == 8
    lo_shu = (4, 9, 2, 3, 5, 7, 8, 1, 6)
    turns = set()
    sq = lo_shu
    for _ in range(4):
        sq = tuple(sq[6 - 3 * (i % 3) + i // 3] for i in range(9))  # a quarter turn
        turns |= {sq, tuple(sq[3 * (i // 3) + 2 - i % 3] for i in range(9))}  # and mirrored
    assert set(SOLUTIONS) == turns
    assert all(s[4] == 5 for s in SOLUTIONS)


# ----------------------------------------------------------------------------- the end

@pytest.mark.rules("caesar-eight")
def test_the_game_is_won_when_all_eight_lines_make_fifteen() -> None:
    g = game("2S 7H 6D 9C 5S AH 8S 3C 4D")  # the square with two corners exchanged
    assert len(fifteens(g.state)) == 4 and g.outcome() is None
    g.play("g6-g8")
    assert g.outcome() is Outcome.WON
    assert g.status_of(g.state).startswith("Won: all eight lines")
    assert g.legal_moves() == []
    assert refusal_rule(g, "g0-g1") == R + "eight"
    assert engine.view_of(g)["outcome"] == "won"
    g.undo()
    assert g.outcome() is None and g.legal_moves()


@pytest.mark.rules("caesar-eight", "caesar-fifteen")
def test_seven_fifteens_are_not_enough() -> None:
    # every row and column makes fifteen; the diagonal from the top left (1 2 3) does not
    g = game("AS 6H 8D 9C 2S 4H 5D 7C 3S")
    assert len(fifteens(g.state)) == 7 and 6 not in fifteens(g.state)
    assert g.outcome() is None and len(g.legal_moves()) == 72
    assert g.status_of(g.state).startswith("7 of 8 lines make fifteen: the top row")


@pytest.mark.rules("caesar-eight")
def test_a_made_square_is_won_whatever_the_suits() -> None:
    g = game(MADE)
    assert g.outcome() is Outcome.WON
    g = game("2H 7C 6S 9D 5H AD 4C 3S 8D")
    assert g.outcome() is Outcome.WON


@pytest.mark.rules("caesar-eight", "caesar-change")
def test_never_lost_every_arrangement_comes_right_in_at_most_seven_exchanges() -> None:
    needed: Counter[int] = Counter()
    for seed in range(60):
        g = engine.new_game(SLUG, seed=seed)
        assert g.outcome() is not Outcome.LOST
        n = exchanges_needed(g.state)
        needed[n] += 1
        assert n <= 7
        found = solve(g, Budget(nodes=5000, seconds=None))
        assert found.verdict == "won"
        assert found.line is not None and len(found.line) == n
        for m in found.line:
            g.play(m)
        assert g.outcome() is Outcome.WON
    assert exchanges_needed(game(MADE).state) == 0
    assert exchanges_needed(game(PLATE).state) >= 1


@pytest.mark.rules("caesar-eight", "caesar-change")
def test_the_solver_agrees_with_an_exhaustive_search_near_the_square() -> None:
    """The shared comparison (tests/engine/test_solver.py) finds no small future in random
    Cæsar positions: here, positions one exchange from the square, where a plain
    breadth-first search through ``play`` finds the win."""
    from collections import deque

    def exhaustive(g: Caesar, cap: int) -> bool | None:
        seen = {g.state}
        todo = deque([g])
        while todo:
            h = todo.popleft()
            if h.outcome() is Outcome.WON:
                return True
            for m in h.legal_moves():
                k = h.copy()
                k.play(m)
                if k.state not in seen:
                    if len(seen) >= cap:
                        return None
                    seen.add(k.state)
                    todo.append(k)
        return False

    near = ["7H 2S 6D 9C 5S AH 4D 3C 8S",   # the top corners exchanged: one exchange away
            "2S 7H 6D 9C 5S AH 4D 8S 3C"]   # two neighbours exchanged at the foot
    for square in near:
        g = game(square)
        assert exchanges_needed(g.state) == 1
        assert exhaustive(g, 3000) is True
        found = solve(g, Budget(nodes=2000, seconds=None))
        assert found.verdict == "won" and found.line is not None and len(found.line) == 1


# ----------------------------------------------------------------------------- the board

def test_no_reading_to_choose() -> None:
    assert engine.describe_options(Caesar.Options) == []


def test_the_diagram_deal_lays_out_the_plate() -> None:
    assert values(Caesar.initial_state(Caesar.DIAGRAM_DEAL, None)) == (7, 8, 3, 5, 6, 4, 9,
                                                                        1, 2)


def test_words_for_an_exchange_and_the_position_text() -> None:
    g = game(PLATE)
    assert g.describe(g.state, Move.parse("g0-g4")) == (
        "The seven of hearts (the top left place) and the six of hearts (the centre place) "
        "change places.")
    g.play("g0-g4")
    text = g.position()
    assert text.startswith("game=caesar;") and "moves=g0-g4" in text
    h = engine.load_position(text)
    assert h.state == g.state and h.move_stack == g.move_stack
    d = engine.new_game(SLUG, seed=5)
    d.play("g2-g7")
    assert engine.load_position(d.position(compact=True)).state == d.state
    assert "start=" not in d.position(compact=True)
