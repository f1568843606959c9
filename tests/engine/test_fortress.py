"""Fortress: every rule, every refusal (with the rule id it cites), the deal and the end."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from pathlib import Path

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.core import Fan
from engine.fortress import (
    FOUNDS, LEFT, LINES, PILES, RIGHT, ROW_SIZES, SEARCH_LIMIT, Fortress, FortressOptions,
    Lanes, deal_rows, other_group,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "fortress"
R = f"{SLUG}-"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
L0, L1, L2, L3, L4 = LEFT
R0, R1, R2, R3, R4 = RIGHT


def game(piles: dict[str, str], rest_to: str = "r4", **kw: object) -> Fortress:
    """The cards given; every other card at the bottom of ``rest_to`` (sorted, so that the
    highest card left, mostly the king of spades, lies on its outside end)."""
    g = make_game(SLUG, piles, rest_to=rest_to, **kw)  # type: ignore[arg-type]
    assert isinstance(g, Fortress)
    return g


def full(piles: dict[str, str], **kw: object) -> Fortress:
    """The cards given; every other card shared out, in order, among the rows not named, so
    that no other row is empty."""
    given = Counter(c for text in piles.values() for c in cards(text))
    rest = sorted((Counter(engine.pack(1)) - given).elements())
    free = [p.id for p in PILES if p.id[0] in "lr" and p.id not in piles]
    share = {pid: " ".join(str(c) for c in rest[k::len(free)]) for k, pid in enumerate(free)}
    return game({**piles, **share}, **kw)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def up_to(suit: str, last: str) -> str:
    """A foundation built from the ace of ``suit`` up to ``last`` (a rank)."""
    return " ".join(r + suit for r in RANKS[:RANKS.index(last) + 1])


def done(*suits: str) -> dict[str, str]:
    """Foundations complete for ``suits``, on f0, f1, ... in that order."""
    return {f"f{k}": up_to(s, "K") for k, s in enumerate(suits)}


def tops(g: Fortress, ids: str) -> list[str]:
    return [str(g.card_at(g.state, i) or "") for i in ids.split()]


def pile(g: Fortress, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


# A position in which nothing can move: spades and hearts are home, diamonds and clubs are
# built to their threes, both fours lie under another card, every outside card is two ranks
# from every other outside card of its suit, and no row is empty.
STUCK = {**done("S", "H"), "f2": up_to("D", "3"), "f3": up_to("C", "3"),
         "l0": "4D KC", "l1": "4C KD", "l2": "6D JC", "l3": "6C JD", "l4": "8D 9C",
         "r0": "8C 9D", "r1": "10D 7C", "r2": "10C 7D", "r3": "QD 5C", "r4": "QC 5D"}


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("fortress-deal")
def test_deal_two_groups_of_five_rows_the_bottom_rows_of_six() -> None:
    g = engine.new_game(SLUG, seed=7)
    s = g.state
    assert [len(s.piles[i]) for i in LEFT] == list(ROW_SIZES) == [5, 5, 5, 5, 6]
    assert [len(s.piles[i]) for i in RIGHT] == [5, 5, 5, 5, 6]
    assert all(not s.piles[f] for f in FOUNDS)  # space left in the centre for four aces
    assert Counter(s.all_cards()) == Counter(engine.pack(1))


@pytest.mark.rules("fortress-deal")
def test_same_deal_number_same_deal_and_different_numbers_differ() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (5, 5, 6))
    assert a == b
    assert a != c


@pytest.mark.rules("fortress-deal", "fortress-outside")
def test_each_row_dealt_straight_across_from_the_left_left_group_first() -> None:
    pack = list(engine.pack(1))   # its top is its last card
    order = pack[::-1]            # the order in which the cards are dealt
    rows = deal_rows(pack)
    left, right = rows[:5], rows[5:]
    # row 1 of the left-hand group: the first five cards, from left to right; its first
    # card is the leftmost, the outside card, which is the top of the pile
    assert left[0] == tuple(reversed(order[0:5]))
    assert left[0][-1] == order[0]
    # then row 1 of the right-hand group, from left to right: its last card is outside
    assert right[0] == tuple(order[5:10])
    assert right[0][-1] == order[9]
    # the six-card rows come last: the left one begins in the place that stands out on the
    # left (its outside card), the right one ends in the place that stands out on the right
    assert left[4] == tuple(reversed(order[40:46])) and left[4][-1] == order[40]
    assert right[4] == tuple(order[46:52]) and right[4][-1] == order[51]


@pytest.mark.rules("fortress-deal", "fortress-outside")
def test_the_rows_lie_as_in_the_plate() -> None:
    spec = {p.id: p for p in PILES}
    for r in range(5):
        left, right = spec[f"l{r}"], spec[f"r{r}"]
        assert left.y == right.y == float(r)
        assert left.fan is Fan.LEFT and right.fan is Fan.RIGHT  # outside: away from the aces
        assert all(left.x < spec[f"f{k}"].x < right.x for k in range(4))
    assert len({spec[f"f{k}"].x for k in range(4)}) == 1  # a column of four in the centre


# ----------------------------------------------------------------------------- Rule I

@pytest.mark.rules("fortress-rule-1")
def test_rule_1_only_the_outside_card_is_available() -> None:
    g = game({"l0": "AS 9D", "r0": "10D", "l1": ""})
    assert refusal_rule(g, "l0:0-f0") == R + "rule-1"
    assert refusal_rule(g, "l0:0-l1") == R + "rule-1"  # not even into a lane
    assert Move.parse("l0:0-f0") not in g.legal_moves()
    g = game({"r0": "2H AH 7C", "r1": "8C"})
    assert refusal_rule(g, "r0:1-f0") == R + "rule-1"
    assert refusal_rule(g, "r0:0-r1") == R + "rule-1"


@pytest.mark.rules("fortress-rule-1", "fortress-marriages")
def test_rule_1_removing_the_outside_card_releases_the_next() -> None:
    g = game({"l0": "AS 9D", "r0": "10D"})
    g.play("l0-r0")   # the nine of diamonds married to the ten, in the other group
    g.play("l0-f0")   # and the ace of spades, released, to a foundation
    assert pile(g, "f0") == cards("AS")
    assert not pile(g, "l0")


@pytest.mark.rules("fortress-outside")
def test_outside_is_the_left_of_the_left_group_and_the_right_of_the_right() -> None:
    # The top of each pile is its outside card; the board draws left-hand rows spreading
    # leftwards from their inner card, right-hand rows rightwards.
    g = engine.new_game(SLUG, seed=3)
    view = engine.view_of(g)
    fans = {p["id"]: p["fan"] for p in view["piles"]}
    assert all(fans[f"l{r}"] == "left" and fans[f"r{r}"] == "right" for r in range(5))
    movable = set(view["movable"])
    assert all(":" not in ref for ref in movable)  # only outside cards ever move


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("fortress-rule-2")
def test_rule_2_the_foundations_follow_suit() -> None:
    g = game({"f0": "AS", "l0": "2H", "l1": "2S"})
    assert refusal_rule(g, "l0-f0") == R + "rule-2"
    g.play("l1-f0")
    g = game({"f0": "AS 2S 3S", "f1": "AH 2H", "l0": "3H"})
    assert refusal_rule(g, "l0-f0") == R + "rule-2"
    g.play("l0-f1")


@pytest.mark.rules("fortress-foundations")
def test_any_ace_begins_any_empty_foundation() -> None:
    g = game({"l0": "AC", "r2": "AH"})
    legal = {str(m) for m in g.legal_moves()}
    assert {"l0-f0", "l0-f1", "l0-f2", "l0-f3", "r2-f0", "r2-f3"} <= legal
    g.play("l0-f2")
    g.play("r2-f0")
    assert pile(g, "f2") == cards("AC") and pile(g, "f0") == cards("AH")


@pytest.mark.rules("fortress-foundations")
def test_an_empty_foundation_takes_only_an_ace() -> None:
    g = game({"l0": "2C", "r0": "KH"})
    assert refusal_rule(g, "l0-f0") == R + "foundations"
    assert refusal_rule(g, "r0-f3") == R + "foundations"


@pytest.mark.rules("fortress-foundations")
def test_foundations_ascend_in_sequence_the_misprinted_descend_read_as_ascend() -> None:
    g = game({"f1": "AD 2D 3D", "l0": "4D", "l1": "6D", "r0": "5D"})
    assert refusal_rule(g, "l1-f1") == R + "foundations"   # the six before the five
    g.play("l0-f1")
    g.play("r0-f1")
    g.play("l1-f1")
    assert pile(g, "f1") == cards("AD 2D 3D 4D 5D 6D")


@pytest.mark.rules("fortress-foundations")
def test_nothing_descends_from_an_ace() -> None:
    # "descend in sequence to kings" is impossible: a king cannot follow an ace downwards,
    # nor anything else; the pile rises from its ace.
    g = game({"f0": "AS", "l0": "KS", "l1": "2S"})
    assert refusal_rule(g, "l0-f0") == R + "foundations"
    g.play("l1-f0")


@pytest.mark.rules("fortress-foundations")
def test_foundations_end_with_their_kings() -> None:
    g = game({**done("S"), "f1": up_to("C", "Q"), "l0": "KC"}, rest_to="r4")
    g.play("l0-f1")
    assert pile(g, "f1")[-1] == Card.parse("KC")
    g = game({**done("S"), "l0": "QH", "f1": "AH"})
    assert refusal_rule(g, "l0-f0") == R + "rule-2"


@pytest.mark.rules("fortress-foundations")
def test_cards_on_the_foundations_stay_there() -> None:
    g = game({"f0": "AS 2S", "l0": "3S", "l1": ""})
    assert refusal_rule(g, "f0-l0") == R + "foundations"
    assert refusal_rule(g, "f0-l1") == R + "foundations"
    assert refusal_rule(g, "f0-f1") == R + "foundations"


# ----------------------------------------------------------------------------- plays

@pytest.mark.rules("fortress-aces")
def test_aces_and_suitable_cards_are_played_from_the_outside_of_either_group() -> None:
    g = game({"l3": "9C AD", "r1": "7H 2D", "r2": "3D"})
    g.play("l3-f0")
    g.play("r1-f0")
    g.play("r2-f0")
    assert pile(g, "f0") == cards("AD 2D 3D")


@pytest.mark.rules("fortress-aces")
def test_nothing_is_played_for_the_player() -> None:
    g = engine.new_game(SLUG, seed=1)
    for _ in range(20):
        moves = [m for m in g.legal_moves() if not m.steps[0][1].startswith("f")]
        if not moves:
            break
        g.play(moves[0])
    assert all(not g.state.piles[f] for f in FOUNDS)


@pytest.mark.rules("fortress-aces", "fortress-marriages")
def test_plays_are_optional_and_marriages_may_come_first() -> None:
    # The four of hearts could be played; it may instead be married to the five.
    g = game({"f0": "AH 2H 3H", "l0": "4H", "r0": "5H"})
    assert Move.parse("l0-f0") in g.legal_moves()
    g.play("l0-r0")
    assert pile(g, "r0") == cards("5H 4H")


# ----------------------------------------------------------------------------- marriages

@pytest.mark.rules("fortress-marriages")
def test_marriages_descending_and_ascending_in_suit() -> None:
    g = game({"l0": "7C", "l1": "8C", "r0": "6C"})
    legal = {str(m) for m in g.legal_moves()}
    assert {"l0-l1", "l1-l0", "l0-r0", "r0-l0"} <= legal
    g.play("l0-l1")   # descending: the seven on the eight
    assert pile(g, "l1") == cards("8C 7C")
    g.play("r0-l1")   # and on, down: the six on the seven
    g = game({"l0": "7C", "r0": "6C"})
    g.play("l0-r0")   # ascending: the seven on the six
    assert pile(g, "r0") == cards("6C 7C")


@pytest.mark.rules("fortress-marriages")
def test_marriages_within_a_group_and_across_both_groups() -> None:
    g = game({"l0": "9S", "l4": "10S", "r2": "JS"})
    g.play("l0-l4")   # within the left-hand group
    g2 = game({"l0": "9S", "l4": "10S", "r2": "JS"})
    g2.play("l4-r2")  # across to the right-hand group
    assert pile(g2, "r2") == cards("JS 10S")


@pytest.mark.rules("fortress-marriages")
def test_marriage_must_be_in_suit() -> None:
    g = game({"l0": "7C", "l1": "8H", "r0": "6S"})
    assert refusal_rule(g, "l0-l1") == R + "marriages"
    assert refusal_rule(g, "l0-r0") == R + "marriages"


@pytest.mark.rules("fortress-marriages")
def test_marriage_must_be_one_rank_apart() -> None:
    g = game({"l0": "7C", "l1": "9C", "r0": "5C", "r1": "7D", "r3": "7H"})
    assert refusal_rule(g, "l0-l1") == R + "marriages"
    assert refusal_rule(g, "l0-r0") == R + "marriages"
    assert refusal_rule(g, "r1-r3") == R + "marriages"  # equal ranks, other suit


@pytest.mark.rules("fortress-marriages")
def test_no_marriage_round_the_corner_from_king_to_ace() -> None:
    g = game({"l0": "KS", "l1": "AS"}, rest_to="r4")
    assert refusal_rule(g, "l0-l1") == R + "marriages"
    assert refusal_rule(g, "l1-l0") == R + "marriages"


@pytest.mark.rules("fortress-marriages", "fortress-rule-1")
def test_one_card_at_a_time() -> None:
    g = game({"l0": "6D 7D", "r0": "8D", "r1": ""})
    assert refusal_rule(g, "l0:0-r0") == R + "rule-1"
    assert refusal_rule(g, "l0-r0+l0-r0") == R + "board"
    g.play("l0-r0")
    assert pile(g, "r0") == cards("8D 7D")


# ----------------------------------------------------------------------------- lanes

@pytest.mark.rules("fortress-lane", "fortress-refill")
def test_an_emptied_row_of_one_group_is_a_lane_for_any_available_card() -> None:
    g = full({"l2": ""})
    assert "1 lane" in g.status_of(g.state)
    for src in ("r0", "r2", "l4"):
        assert Move.parse(f"{src}-l2") in g.legal_moves()
    card = pile(g, "r0")[-1]
    g.play("r0-l2")   # the outside card of a row of the other group, at the inner end
    assert pile(g, "l2") == (card,)
    assert "lane" not in g.status_of(g.state)


@pytest.mark.rules("fortress-lane")
def test_a_row_opened_out_by_playing_its_cards_becomes_a_lane() -> None:
    g = full({"l1": "2S AS"})
    assert "lane" not in g.status_of(g.state)
    g.play("l1-f0")
    g.play("l1-f0")
    assert not pile(g, "l1")
    assert "1 lane" in g.status_of(g.state)
    g.play("r3-l1")


@pytest.mark.rules("fortress-lane")
def test_under_the_stricter_reading_the_row_must_be_cleared_in_both_groups() -> None:
    opts = "lanes:both-groups"
    g = full({"l2": ""}, options=opts)
    assert refusal_rule(g, "r0-l2") == R + "lane"
    assert "lane" not in g.status_of(g.state)
    g = full({"l2": "", "r2": ""}, options=opts)
    assert "1 lane" in g.status_of(g.state)  # one line across the table, in two halves
    g.play("r0-r2")   # either half of the line may take the card
    # and once one half is filled, the other half is no lane until it is cleared again
    assert refusal_rule(g, "l0-l2") == R + "lane"
    assert other_group(L2) == R2 and other_group(R2) == L2


@pytest.mark.rules("fortress-wait")
def test_a_lane_may_stay_empty_as_long_as_the_player_likes() -> None:
    g = game({"l1": "2S AS", "r3": "9H", "r1": "10H"})
    g.play("l1-f0")
    g.play("l1-f0")
    g.play("r3-r1")   # other moves go on; nothing is put in the lane
    assert not pile(g, "l1")
    assert Move.parse("r1-l1") in g.legal_moves()


@pytest.mark.rules("fortress-refill")
def test_cards_of_the_same_suit_in_sequence_are_married_along_the_lane_card() -> None:
    g = game({"l0": "", "r1": "JH", "r2": "10H", "l3": "9H", "l4": "QH"})
    g.play("r2-l0")   # the ten in the lane
    g.play("l3-l0")   # the nine along it
    assert refusal_rule(g, "l4-l0") == R + "marriages"  # the queen does not follow the nine
    assert pile(g, "l0") == cards("10H 9H")
    assert tops(g, "l0") == ["9H"]  # the last card is the available one


@pytest.mark.rules("fortress-refill", "fortress-rule-1")
def test_the_card_in_a_lane_is_available_like_any_outside_card() -> None:
    g = game({"l0": "", "r1": "3S", "r2": "4S", "f0": "AS 2S"})
    g.play("r1-l0")
    assert Move.parse("l0-f0") in g.legal_moves()
    g.play("l0-r2")   # married on again, to the four in the other group
    g.play("r2-f0")


@pytest.mark.rules("fortress-refill")
def test_a_lane_card_may_come_from_either_group_and_be_of_any_rank() -> None:
    for card in ("AS", "7D", "KC"):
        g = game({"r4": "", "l2": card}, rest_to="l0")
        g.play("l2-r4")
        assert pile(g, "r4") == cards(card)
        assert pile(g, "l2") == ()


@pytest.mark.rules("fortress-reverse", "fortress-note")
def test_a_sequence_from_deuce_to_eight_is_turned_round_in_a_lane() -> None:
    # The Note: a sequence placed upon a deuce, ending with eight; the eight at the inner
    # end of the lane, the others following, until the deuce is the outside card.
    g = game({"f0": "AC", "l1": "KH 2C 3C 4C 5C 6C 7C 8C", "r3": ""})
    assert refusal_rule(g, "l1:1-f0") == R + "rule-1"
    for _ in range(7):
        g.play("l1-r3")
    assert pile(g, "r3") == cards("8C 7C 6C 5C 4C 3C 2C")
    assert tops(g, "r3 l1") == ["2C", "KH"]
    g.play("r3-f0")   # the deuce, now outside, goes to its foundation, and so on up
    for _ in range(6):
        g.play("r3-f0")
    assert pile(g, "f0") == cards(up_to("C", "8"))


@pytest.mark.rules("fortress-reverse")
def test_a_sequence_cannot_be_moved_whole() -> None:
    g = game({"l1": "2C 3C 4C", "r3": ""})
    assert refusal_rule(g, "l1:0-r3") == R + "rule-1"
    assert refusal_rule(g, "l1-r3+l1-r3+l1-r3") == R + "board"


@pytest.mark.rules("fortress-overlap")
def test_a_row_may_grow_beyond_its_original_length() -> None:
    # twelve cards in one row, and the king of spades married on it after the queen
    g = game({"r0": "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS", "r1": "KS"}, rest_to="l4")
    g.play("r1-r0")
    assert len(pile(g, "r0")) == 12
    spec = {p.id: p for p in PILES}
    assert all(spec[PILES[i].id].fan_limit is not None for i in LINES)


# ----------------------------------------------------------------------------- no re-deal, the end

@pytest.mark.rules("fortress-no-redeal")
def test_there_is_no_redeal_and_nothing_to_deal() -> None:
    g = engine.new_game(SLUG, seed=2)
    assert refusal_rule(g, "redeal") == R + "no-redeal"
    assert refusal_rule(g, "deal") == R + "deal"
    assert refusal_rule(g, "shuffle") == R + "board"
    assert not [m for m in g.legal_moves() if m.action]


@pytest.mark.rules("fortress-foundations")
def test_won_when_all_fifty_two_are_on_the_foundations() -> None:
    g = game({**done("S", "H", "D"), "f3": up_to("C", "Q")}, rest_to="l0")
    assert pile(g, "l0") == cards("KC")
    assert g.outcome() is None
    g.play("l0-f3")
    assert g.outcome() is Outcome.WON
    assert "Won" in g.status_of(g.state)


@pytest.mark.rules("fortress-no-redeal")
def test_lost_when_nothing_can_move() -> None:
    g = game(STUCK, rest_to="l0")
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


# Lost, though moves remain: every outside card can go into the lane (row 5 of the right-hand
# group), but the card it uncovers is two ranks from every other outside card of its suit,
# so nothing follows, and each four lies under two cards.
LOST_WITH_A_LANE = {
    "f0": "AS 2S 3S", "f1": "AH 2H 3H", "f2": "AD 2D 3D", "f3": "AC 2C 3C",
    "l0": "4S 8S 7S 5S", "l1": "4H 8H 7H 5H", "l2": "4D 8D 7D 5D", "l3": "4C 8C 6S JS 9S",
    "l4": "6H 10S JH 9H", "r0": "6D 10H JD 9D", "r1": "6C 10D 7C KS",
    "r2": "10C QS QH JC KH", "r3": "QD QC 9C KC 5C KD", "r4": ""}


@pytest.mark.rules("fortress-no-redeal", "fortress-lane")
def test_lost_when_no_series_of_moves_can_reach_a_foundation() -> None:
    g = game(LOST_WITH_A_LANE)
    assert len(g.legal_moves()) == 9
    assert g.reachable_play(g.state) is False
    assert g.outcome() is Outcome.LOST
    g.play("l0-r4")   # the five of spades into the lane: the seven beneath goes nowhere
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("fortress-no-redeal", "fortress-refill")
def test_not_lost_while_a_series_of_moves_can_free_a_card() -> None:
    # The same, but the six of spades lies under the five: once the five is in the lane,
    # the six is married to the five, the seven and eight follow, and the four comes out.
    g = game({**LOST_WITH_A_LANE, "l0": "4S 8S 7S 6S 5S", "l3": "4C 8C JS 9S"})
    assert g.reachable_play(g.state) is True
    assert g.outcome() is None
    for move in ("l0-r4", "l0-r4", "l0-r4", "l0-r4", "l0-f0"):
        g.play(move)
    assert pile(g, "f0")[-1] == Card.parse("4S")


def test_an_undecided_search_never_calls_the_game_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Fortress, "reachable_play", lambda self, state: None)
    g = game(STUCK, rest_to="l0")
    assert g.outcome() is None
    assert SEARCH_LIMIT >= 1000


def _brute_force_play(g: Fortress, cap: int = 30000) -> bool | None:
    """Whether some series of legal moves (none to a foundation) reaches a position where a
    card can be played: a search over the engine's own legal moves and positions (None if
    it passes ``cap`` positions)."""
    start = g.state
    seen = {start}
    todo = [start]
    while todo:
        s = todo.pop()
        for m in g.candidate_moves(s):
            if g.refusal(s, m) is not None:
                continue
            if g.pile_index(m.steps[0][1]) in FOUNDS:
                return True
            n = g.apply(s, m)
            if n not in seen:
                if len(seen) > cap:
                    return None
                seen.add(n)
                todo.append(n)
    return False


@pytest.mark.rules("fortress-no-redeal")
def test_the_loss_search_agrees_with_a_search_over_the_legal_moves() -> None:
    """The verdict's search works on rows sorted into a standard order; a plain search over
    the engine's legal moves must agree with it, on positions near the lost one above (a few
    cards swapped), under both readings of FO-6."""
    rng = random.Random(3)
    verdicts: Counter[tuple[str, bool]] = Counter()
    for _ in range(60):
        rows = {k: v.split() for k, v in LOST_WITH_A_LANE.items() if k[0] in "lr"}
        ids = list(rows)
        for _ in range(rng.randint(1, 3)):
            a, b = rng.sample([p for p in ids if rows[p]], 2)
            i, j = rng.randrange(len(rows[a])), rng.randrange(len(rows[b]))
            rows[a][i], rows[b][j] = rows[b][j], rows[a][i]
        spec = {k: v for k, v in LOST_WITH_A_LANE.items() if k[0] == "f"}
        spec |= {k: " ".join(v) for k, v in rows.items()}
        for lanes in ("one-group", "both-groups"):
            g = game(spec, options=f"lanes:{lanes}")
            expected = _brute_force_play(g)
            if expected is None:
                continue
            assert g.reachable_play(g.state) is expected
            assert (g.outcome() is Outcome.LOST) is (not expected)
            verdicts[lanes, expected] += 1
    assert min(verdicts[lanes, v] for lanes in ("one-group", "both-groups")
               for v in (True, False)) >= 3, verdicts


#: A win found by a search over the legal moves for deal 6: the game can be won by the book.
WIN_OF_DEAL_6 = (
    "r4-r3,r4-r2,l1-r4,l4-r2,l1-r2,l1-f0,l1-l4,l1-f1,r3-l1,r3-f0,l1-f0,r0-l1,r0-l3,r0-l1,"
    "r0-l2,r0-l0,l3-l2,l3-l2,l3-f2,r4-r0,r4-f2,r0-f2,l3-r0,l3-r0,l3-f3,r3-l3,r3-f3,r3-r4,"
    "l3-r3,r2-l3,r2-l3,r2-l3,r2-l1,l3-l1,l3-l1,l3-l1,r2-l1,l0-r2,l0-r2,r0-l0,r0-l0,r4-l3,"
    "r4-l3,r4-f3,l4-r0,l4-r0,l4-l3,l4-f2,l0-f2,l0-f2,l0-f2,r1-f2,l4-r2,l4-l0,r1-l3,r4-r1,"
    "r3-l0,r3-l0,r2-l4,r2-l4,r2-l4,r2-l0,r2-f2,l3-f2,l3-f2,l3-f2,l3-f2,l0-l4,l0-l4,l0-l4,"
    "l0-l4,l0-l4,r2-l4,l0-l3,l0-l1,l3-l1,r0-l0,r0-l0,l2-l3,l2-l3,l2-l3,l2-l3,l2-l4,l2-l0,"
    "l2-f0,l2-f1,r1-f0,r1-f0,l3-f0,l3-f0,l3-f0,l3-f0,l0-f0,l0-f0,l0-f0,r1-l4,r1-f3,l1-f3,"
    "l1-f3,l1-f3,l1-f3,l1-f3,l1-f3,l1-f3,l1-f3,l1-f3,l4-l0,l4-l0,l4-l0,l4-l0,l4-l0,l4-l0,"
    "l4-l0,l4-l0,l4-l0,l4-l0,l4-f1,l0-f1,l0-f1,l0-f1,l0-f1,l0-f1,l0-f1,l0-f1,l0-f1,l0-f1,"
    "l0-f1"
)


@pytest.mark.rules("fortress-foundations", "fortress-reverse")
def test_deal_6_can_be_won_and_the_win_is_declared() -> None:
    g = engine.new_game(SLUG, seed=6)
    moves = WIN_OF_DEAL_6.split(",")
    for m in moves[:-1]:
        g.play(m)
        assert g.outcome() is None
    g.play(moves[-1])
    assert g.outcome() is Outcome.WON
    assert all(len(g.state.piles[f]) == 13 for f in FOUNDS)


def test_random_play_always_ends_and_every_end_is_judged() -> None:
    rng = random.Random(7)
    ends: Counter[Outcome | None] = Counter()
    for seed in range(30):
        g = engine.new_game(SLUG, seed=seed)
        for _ in range(800):
            if g.outcome() is not None:
                break
            moves = g.legal_moves()
            plays = [m for m in moves if m.steps[0][1].startswith("f")]
            g.play(rng.choice(plays or moves))
        ends[g.outcome()] += 1
    assert ends[None] == 0 and ends[Outcome.LOST] > 0


# ----------------------------------------------------------------------------- positions

def test_a_foundation_out_of_order_is_not_a_position() -> None:
    g = game({"f0": "AS 2S"})
    text = g.position()
    assert engine.load_position(text).state == g.state
    with pytest.raises(PositionError):
        engine.load_position(text.replace("f0:AS.2S", "f0:2S.AS"))
    g = game({"f0": "AS 2H"})
    with pytest.raises(PositionError):
        engine.load_position(g.position())


def test_positions_round_trip_after_play() -> None:
    g = engine.new_game(SLUG, seed=4242, options="lanes:both-groups")
    rng = random.Random(1)
    for _ in range(40):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(rng.choice(moves))
    for compact in (False, True):
        h = engine.load_position(g.position(compact=compact))
        assert h.state == g.state and h.options == g.options


# ----------------------------------------------------------------------------- the board

def test_every_card_is_shown() -> None:
    g = engine.new_game(SLUG, seed=9)
    for i in LINES:
        assert all(f["c"] is not None for f in g.card_faces(g.state, i))


def test_rows_and_foundations_fit_the_board_wide_and_narrow() -> None:
    """A slot is a card (0.9) and a gap; a row spreads at most fan_limit card widths."""
    narrow = Fortress.LAYOUTS[0]
    assert narrow.max_width is not None
    for grid, places in (
            (Fortress.GRID, {p.id: (p.x, p.y) for p in PILES}),
            (narrow.grid, {k: (x, y) for k, (x, y, _) in narrow.at.items()})):
        assert set(places) >= {p.id for p in PILES}
        for p in PILES:
            x, y = places[p.id]
            spread = 0.9 * (p.fan_limit or 0)
            lo = x + 0.05 - (spread if p.fan is Fan.LEFT else 0)
            hi = x + 0.05 + 0.9 + (spread if p.fan is Fan.RIGHT else 0)
            assert 0 <= lo and hi <= grid[0], p.id
            assert 0 <= y and y + 1 <= grid[1] + 1e-9, p.id
        # no two rows on one line run into each other, nor into the aces
        for p in PILES:
            for q in PILES:
                if p.id < q.id and places[p.id][1] == places[q.id][1]:
                    def span(s: object) -> tuple[float, float]:
                        assert isinstance(s, type(PILES[0]))
                        x = places[s.id][0]
                        sp = 0.9 * (s.fan_limit or 0)
                        return (x + 0.05 - (sp if s.fan is Fan.LEFT else 0),
                                x + 0.95 + (sp if s.fan is Fan.RIGHT else 0))
                    a, b = span(p), span(q)
                    assert a[1] <= b[0] or b[1] <= a[0], (p.id, q.id)


def test_status_line_counts_the_foundations_and_lanes() -> None:
    g = engine.new_game(SLUG, seed=9)
    text = g.status_of(g.state)
    assert "0 of 52" in text and "no re-deal" in text and "lane" not in text


def test_describe_says_what_a_play_a_marriage_and_a_lane_move_do() -> None:
    g = game({"l0": "9S", "l1": "10S", "r0": "", "l2": "AD"})
    assert g.describe(g.state, Move.parse("l0-l1")) == (
        "The nine of spades is married from the left-hand group, row 1 to the ten of "
        "spades, left-hand group, row 2.")
    assert "inner end of the lane" in g.describe(g.state, Move.parse("l0-r0"))
    assert "played" in g.describe(g.state, Move.parse("l2-f0"))


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = FortressOptions(lanes=Lanes.BOTH_GROUPS)
    text = engine.options_to_text(o)
    assert text == "lanes:both-groups"
    assert engine.options_from_text(FortressOptions, text) == o
    assert engine.options_to_text(FortressOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(FortressOptions, "lanes:never")
    assert {f.name for f in dataclasses.fields(FortressOptions)} == {"lanes"}


def test_every_option_names_its_note() -> None:
    for d in engine.describe_options(FortressOptions):
        assert d["note"].startswith("note-fo-")
        assert len(d["choices"]) >= 2
        assert d["default"] in {c["value"] for c in d["choices"]}


def test_the_ledger_describes_every_rule_of_the_chapter() -> None:
    page = Path(__file__).resolve().parents[2] / "docs" / "fortress.md"
    if not page.exists():
        pytest.skip("the chapter page is not here (Pyodide)")
    from build_scripts.ledger import rule_anchors

    assert set(rule_anchors(page.read_text(encoding="utf-8"))) == set(Fortress.LEDGER)
    assert all("'" not in t and '"' not in t for t in Fortress.LEDGER.values())
