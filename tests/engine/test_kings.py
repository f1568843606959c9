"""The Kings: every rule, every refusal (with the rule id it cites), the deal and after."""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Iterator

import pytest

import engine
from engine import Card, Move, Outcome
from engine.kings import (
    FOUNDS, LINES, PILES, ROW_SUITS, STOCK, DealAvailability, Direction, KingsOptions, Lanes,
    LineFoundations, RuleIII, TheKings, built_on, never_moving, place_of,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-kings"
R = f"{SLUG}-"
ACES = {"f0": "AD", "f4": "AD", "f1": "AC", "f5": "AC", "f2": "AH", "f6": "AH",
        "f3": "AS", "f7": "AS"}
ALL_FRESH = 0xFF
L0, L1, L2, L3, R0, R1, R2, R3 = LINES


def game(piles: dict[str, str], **kw: object) -> TheKings:
    g = make_game(SLUG, {**ACES, **piles}, **kw)  # type: ignore[arg-type]
    assert isinstance(g, TheKings)
    return g


def dealing(piles: dict[str, str], just: int = -1, fresh: int = ALL_FRESH,
            options: str | None = None, stock: str = "") -> TheKings:
    """A position during the deal: the pack holds the rest of the cards (under ``stock``,
    whose last card is the next to be dealt)."""
    return game({**piles, "stock": stock}, vars={"slot": 8, "just": just, "fresh": fresh},
                options=options)


def after_deal(piles: dict[str, str], rest_to: str = "l0", options: str | None = None,
               built: dict[str, int] | None = None) -> TheKings:
    """A position after the deal: the rest of the cards lie under ``rest_to``'s cards;
    ``built`` says how many cards at the top of a packet were laid there after the deal."""
    return game({**piles, "stock": ""}, rest_to=rest_to, options=options,
                vars={"slot": 24, "just": -1, "fresh": 0, "built": built_vars(built or {})})


def built_vars(counts: dict[str, int]) -> int:
    """The ``built`` counter: seven bits for each packet, l0 lowest."""
    ids = [PILES[i].id for i in LINES]
    return sum(n << (7 * ids.index(pid)) for pid, n in counts.items())


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def tops(g: TheKings, ids: str) -> list[str]:
    return [str(g.card_at(g.state, i) or "") for i in ids.split()]


# A pack whose next cards are never suitable on aces: no twos.
NO_TWOS = "9C 9D 9H 9S 10C 10D 10H 10S"


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-kings-aces")
def test_aces_withdrawn_and_placed_in_two_columns_suit_by_suit() -> None:
    g = engine.new_game(SLUG, seed=9)
    s = g.state
    for r, suit in enumerate(ROW_SUITS):
        assert s.piles[FOUNDS[r]] == s.piles[FOUNDS[4 + r]] == (Card(1, suit),)
    assert len(s.piles[STOCK]) == 96 and all(c.rank != 1 for c in s.piles[STOCK])
    assert all(not s.piles[i] for i in LINES)
    assert Counter(s.all_cards()) == Counter(engine.pack(2))


def test_same_deal_number_same_deal() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (8, 8, 9))
    assert a == b and a != c


@pytest.mark.rules("the-kings-columns", "the-kings-order")
def test_columns_dealt_top_to_bottom_first_left_then_alternately() -> None:
    assert [place_of(s) for s in range(12)] == [L0, L1, L2, L3, R0, R1, R2, R3,
                                                L0, L1, L2, L3]
    g = game({"stock": NO_TWOS}, vars={"just": -1})
    g.play("deal")
    assert tops(g, "l0 l1 l2 l3 r0") == ["10S", "10H", "10D", "10C", ""]
    g.play("deal")
    assert tops(g, "r0 r1 r2 r3") == ["9S", "9H", "9D", "9C"]
    g.play("deal")
    assert [len(g.state.piles[i]) for i in LINES] == [2, 2, 2, 2, 1, 1, 1, 1]


@pytest.mark.rules("the-kings-play-at-once")
def test_suitable_card_pauses_the_deal_and_must_be_played_at_once() -> None:
    g = game({"stock": "5C 5D 2H 5S"}, vars={"just": -1})
    g.play("deal")  # 5S to line 1, 2H to line 2: suitable, the deal stops
    assert tops(g, "l0 l1 l2") == ["5S", "2H", ""]
    assert refusal_rule(g, "deal") == R + "play-at-once"
    assert {str(m) for m in g.legal_moves()} == {"l1-f1", "l1-f5"}
    g.play("l1-f5")
    # replaced at once with the next card of the pack, in the same place
    assert tops(g, "l1 f5") == ["5D", "2H"]
    g.play("deal")  # the column is finished
    assert tops(g, "l2") == ["5C"] and len(g.state.piles[L3]) == 1
    assert not g.state.piles[R0]


@pytest.mark.rules("the-kings-play-at-once")
def test_a_replacement_that_is_suitable_must_be_played_too() -> None:
    g = game({"stock": "3S 2S"}, vars={"just": -1})
    g.play("deal")
    g.play("l0-f0")
    assert tops(g, "l0") == ["3S"]
    assert refusal_rule(g, "deal") == R + "play-at-once"
    g.play("l0-f0")
    assert [str(c) for c in g.state.piles[FOUNDS[0]]] == ["AD", "2S", "3S"]


@pytest.mark.rules("the-kings-columns")
def test_the_last_column_may_be_short_and_the_deal_then_ends() -> None:
    g = game({"stock": "9C 9D", "r2": "2S"}, rest_to="r3", vars={"slot": 8, "just": -1})
    g.play("deal")
    assert tops(g, "l0 l1") == ["9D", "9C"]
    assert not g.state.piles[STOCK]
    assert refusal_rule(g, "deal") == R + "columns"
    assert "deal is complete" in g.status_of(g.state)


@pytest.mark.rules("the-kings-dealing", "the-kings-play-at-once")
def test_the_card_just_turned_up_may_not_be_passed_over() -> None:
    # The audit's case: the 3H has just turned up on the right, suitable for line 4's
    # foundation; the 3C lying in the left group's last column may not take it first.
    g = dealing({"f3": "AS 2S", "l3": "3C", "r3": "3H"}, just=R3, stock=NO_TWOS)
    assert refusal_rule(g, "l3-f3") == R + "dealing"
    assert refusal_rule(g, "deal") == R + "play-at-once"
    assert {str(m) for m in g.legal_moves()} == {"r3-f3"}
    g.play("r3-f3")
    assert tops(g, "r3") == ["10S"]  # replaced from the pack


@pytest.mark.rules("the-kings-play-at-once", "the-kings-dealing")
def test_a_card_that_suits_only_later_may_be_left_and_is_not_replaced() -> None:
    # The 4H turned up unsuitable (line 4's foundations wanted a three); the 3C of the
    # left group's last column then goes up, and the 4H suits: it is not compulsory...
    start = {"f3": "AS 2S", "l3": "3C", "r3": "2C 4H"}
    g = dealing(start, just=R3, stock=NO_TWOS)
    g.play("l3-f3")
    assert g.pending(g.state) is None
    assert "must be played" not in g.status_of(g.state)
    g.play("deal")  # it may be left where it is
    # ... and if it is played, nothing replaces it (the card under it is an inner one)
    g = dealing(start, just=R3, stock=NO_TWOS)
    g.play("l3-f3")
    pack_left = len(g.state.piles[STOCK])
    g.play("r3-f3")
    assert tops(g, "r3") == ["2C"] and len(g.state.piles[STOCK]) == pack_left
    assert refusal_rule(g, "r3-f7") == R + "dealing"


@pytest.mark.rules("the-kings-play-at-once", "the-kings-after-deal", "the-kings-rule-3")
def test_the_last_card_of_the_pack_turning_up_suitable_is_played_first() -> None:
    g = game({"stock": "2S", "r2": "7H", "l2": "8C", "r1": "3D"}, rest_to="r3",
             vars={"slot": 8, "just": -1})
    g.play("deal")
    assert not g.state.piles[STOCK] and tops(g, "l0") == ["2S"]
    assert "must be played first" in g.status_of(g.state)
    assert g.outcome() is None
    assert refusal_rule(g, "r2-l2") == R + "dealing"   # no building before it
    assert refusal_rule(g, "l0-f1") == R + "rule-3"    # on its own line, as it turned up
    assert {str(m) for m in g.legal_moves()} == {"l0-f0", "l0-f4"}
    g.play("l0-f4")
    # the deal is now complete: Rule III has ceased, building begins
    g.play("r1-f4")  # a card of line 2 on line 1's foundation
    g.play("r2-l2")


# ----------------------------------------------------------------------------- Rule III

@pytest.mark.rules("the-kings-rule-3")
def test_rule_3_during_the_deal_only_the_foundations_of_its_own_line() -> None:
    g = dealing({"l0": "2S", "r1": "2H"}, stock=NO_TWOS)
    assert refusal_rule(g, "l0-f1") == R + "rule-3"
    assert refusal_rule(g, "r1-f0") == R + "rule-3"
    assert {"l0-f0", "l0-f4", "r1-f1", "r1-f5"} <= {str(m) for m in g.legal_moves()}


@pytest.mark.rules("the-kings-rule-3")
def test_rule_3_own_side_reading() -> None:
    g = dealing({"l0": "2S", "r1": "2H"}, stock=NO_TWOS,
                options="line_foundations:own-side")
    assert refusal_rule(g, "l0-f4") == R + "rule-3"
    assert refusal_rule(g, "r1-f1") == R + "rule-3"
    g.play("l0-f0")
    g.play("r1-f5")


@pytest.mark.rules("the-kings-rule-3", "the-kings-after-deal")
def test_rule_3_ceases_when_the_deal_is_complete() -> None:
    g = after_deal({"l1": "2S"}, rest_to="r3")
    g.play("l1-f3")
    assert g.state.piles[FOUNDS[3]][-1] == Card.parse("2S")


@pytest.mark.rules("the-kings-rule-3", "the-kings-after-deal")
def test_rule_3_for_the_whole_game_under_the_strict_reading() -> None:
    g = after_deal({"l1": "2S"}, rest_to="r3", options="rule_3:always")
    assert refusal_rule(g, "l1-f3") == R + "rule-3"
    g.play("l1-f5")


@pytest.mark.rules("the-kings-dealing", "the-kings-rule-2")
def test_inner_columns_are_never_played_during_the_deal_even_if_released() -> None:
    # line 1's card was played from the last column: the card released under it is inner
    g = dealing({"l0": "2C 2S"}, just=R3, stock=NO_TWOS)
    g.play("l0-f0")
    assert tops(g, "l0") == ["2C"]  # not replaced: it had not just turned up
    assert refusal_rule(g, "l0-f4") == R + "dealing"
    g = dealing({"l0": "2C"}, fresh=ALL_FRESH & ~1, stock=NO_TWOS)
    assert refusal_rule(g, "l0-f0") == R + "dealing"


@pytest.mark.rules("the-kings-dealing")
def test_cards_of_the_last_column_may_be_played_later_in_the_deal() -> None:
    g = dealing({"l0": "3S", "f0": "AD 2D"}, just=R3, stock=NO_TWOS)
    g.play("l0-f0")


@pytest.mark.rules("the-kings-dealing", "the-kings-play-at-once")
def test_only_the_card_just_dealt_under_the_stricter_reading() -> None:
    opts = "deal_availability:just-dealt"
    g = dealing({"l0": "2S", "r3": "9C"}, just=R3, stock=NO_TWOS, options=opts)
    assert refusal_rule(g, "l0-f0") == R + "play-at-once"
    dealing({"l0": "2S", "r3": "9C"}, just=R3, stock=NO_TWOS).play("l0-f0")
    g = dealing({"l0": "2S", "r3": "2C"}, just=R3, stock=NO_TWOS, options=opts)
    g.play("r3-f3")


@pytest.mark.rules("the-kings-sequences", "the-kings-lane")
def test_no_building_or_lanes_during_the_deal() -> None:
    g = dealing({"l0": "5H", "r0": "6C", "l1": ""}, stock=NO_TWOS)
    assert refusal_rule(g, "l0-r0") == R + "sequences"
    assert refusal_rule(g, "l0-l1") == R + "lane"


# ----------------------------------------------------------------------------- Rule I, II

@pytest.mark.rules("the-kings-foundations", "the-kings-rule-1")
def test_foundations_ascend_to_kings_regardless_of_suit() -> None:
    g = after_deal({"l1": "2S", "l2": "3H", "l3": "4D", "r0": "9C"}, rest_to="r3")
    g.play("l1-f0")   # spade on the diamond ace
    g.play("l2-f0")   # heart on it
    g.play("l3-f0")
    assert refusal_rule(g, "r0-f0") == R + "foundations"
    assert [str(c) for c in g.state.piles[FOUNDS[0]]] == ["AD", "2S", "3H", "4D"]


@pytest.mark.rules("the-kings-foundations")
def test_a_foundation_ends_with_its_king() -> None:
    g = after_deal({"f0": "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD", "l1": "KS"},
                   rest_to="r3")
    assert refusal_rule(g, "l1-f0") == R + "foundations"


@pytest.mark.rules("the-kings-rule-2")
def test_rule_2_only_the_outside_card_is_available() -> None:
    g = after_deal({"l1": "2S 9H"}, rest_to="r3")
    assert refusal_rule(g, "l1:0-f0") == R + "rule-2"
    assert Move.parse("l1:0-f0") not in g.legal_moves()


@pytest.mark.rules("the-kings-outside")
def test_outside_means_leftmost_on_the_left_and_rightmost_on_the_right() -> None:
    spec = {p.id: p for p in PILES}
    assert spec["l0"].fan.value == "left" and spec["r0"].fan.value == "right"
    assert spec["l0"].x < spec["f0"].x < spec["f4"].x < spec["r0"].x


# ----------------------------------------------------------------------------- sequences, lanes

@pytest.mark.rules("the-kings-sequences", "the-kings-rule-1")
def test_sequences_up_or_down_any_suit_on_the_outside_cards() -> None:
    g = after_deal({"l1": "5H", "r2": "6C", "r1": "7D", "l2": "8S"}, rest_to="r3")
    g.play("l1-r2")   # 5H on 6C: down
    assert refusal_rule(g, "r1-r2") == R + "sequences"  # 7D on 5H
    g.play("r1-l2")   # 7D on 8S
    assert tops(g, "r2 l2") == ["5H", "7D"]


@pytest.mark.rules("the-kings-sequences")
def test_sequences_reversed_by_transferring_card_by_card() -> None:
    g = after_deal({"l1": "10S 9S 8H 7C", "r2": "6D"}, rest_to="r3", built={"l1": 3})
    for _ in range(3):
        g.play("l1-r2")
    # read outwards, 9S 8H 7C on the left has become 7C 8H 9S on the right
    assert [str(c) for c in g.state.piles[R2]] == ["6D", "7C", "8H", "9S"]
    assert tops(g, "l1") == ["10S"]


@pytest.mark.rules("the-kings-sequences")
def test_building_refused_when_not_one_apart() -> None:
    g = after_deal({"l1": "5H", "r2": "8C", "l2": "5S"}, rest_to="r3")
    assert refusal_rule(g, "l1-r2") == R + "sequences"
    assert refusal_rule(g, "l1-l2") == R + "sequences"


def _deal_out(seed: int, options: str | None = None) -> TheKings:
    """Deal the whole pack, playing the first card listed whenever one may be played."""
    g = engine.new_game(SLUG, seed=seed,
                        options=engine.options_from_text(KingsOptions, options or ""))
    assert isinstance(g, TheKings)
    while g.state.piles[STOCK] or g.pending(g.state) is not None:
        moves = g.legal_moves()
        plays = [m for m in moves if m.steps]
        g.play(plays[0] if plays else "deal")
    return g


@pytest.mark.rules("the-kings-sequences")
def test_a_sequence_keeps_its_direction_deal_0() -> None:
    # The audit's case: deal 0 dealt out, the 6D laid on the 7D; the 7H may not then be
    # laid on the 6D, which would turn the packet back up.
    g = _deal_out(0)
    assert tops(g, "l0 l1 l2") == ["6D", "7D", "7H"]
    g.play("l0-l1")
    assert refusal_rule(g, "l2-l1") == R + "sequences"
    # under the free reading (KI-6's option) it may
    g = _deal_out(0, "direction:free")
    g.play("l0-l1")
    g.play("l2-l1")
    assert tops(g, "l1") == ["7H"]


@pytest.mark.rules("the-kings-sequences", "the-kings-rule-1")
def test_the_first_two_cards_set_the_direction() -> None:
    # The 7D was dealt on the 8S: the dealt cards are no part of the sequence built on it,
    # so the 7D, a sequence of one card, may be continued either way.
    start = {"l1": "8S 7D", "r2": "6C", "r1": "8H", "l2": "5S", "l3": "7H"}
    g = after_deal(start, rest_to="r3")
    assert {"r1-l1", "r2-l1"} <= {str(m) for m in g.legal_moves()}
    g.play("r2-l1")  # the 6C sets it descending
    assert built_on(g.state, L1) == 1
    assert refusal_rule(g, "l3-l1") == R + "sequences"  # 7H on 6C would turn it up
    g.play("l2-l1")  # the 5S continues it
    assert [str(c) for c in g.state.piles[L1]][-4:] == ["8S", "7D", "6C", "5S"]
    assert built_on(g.state, L1) == 2
    g = after_deal(start, rest_to="r3")
    g.play("r1-l1")  # the 8H sets it ascending
    assert refusal_rule(g, "r2-l1") == R + "sequences"  # 6C on 8H: a descent


@pytest.mark.rules("the-kings-sequences")
def test_a_packet_whose_laid_cards_are_gone_may_go_either_way_again() -> None:
    g = after_deal({"l1": "7D 6C", "r2": "", "l3": "8H"}, rest_to="r3", built={"l1": 1})
    assert refusal_rule(g, "l3-l1") == R + "sequences"  # 7D 6C descends
    g.play("l1-r2")   # the 6C into the lane
    assert built_on(g.state, L1) == 0 and built_on(g.state, R2) == 1
    g.play("l3-l1")   # the 7D alone may now go up


@pytest.mark.rules("the-kings-sequences", "the-kings-lane")
def test_a_lane_sequence_takes_its_direction_from_its_first_two_cards() -> None:
    g = after_deal({"l1": "", "l2": "7S", "l3": "8H", "r0": "6D", "r1": "9C"},
                   rest_to="r3")
    g.play("l2-l1")   # any card in the lane; a sequence of one card
    g.play("l3-l1")   # 8H on 7S: ascending
    assert refusal_rule(g, "r0-l1") == R + "sequences"  # 7S 8H then 6D? no: it must be 9
    g.play("r1-l1")
    assert [str(c) for c in g.state.piles[L1]] == ["7S", "8H", "9C"]


@pytest.mark.rules("the-kings-sequences")
def test_the_free_reading_lets_a_sequence_turn() -> None:
    g = after_deal({"l1": "7D 6C", "l3": "7H"}, rest_to="r3", built={"l1": 1},
                   options="direction:free")
    g.play("l3-l1")
    assert [str(c) for c in g.state.piles[L1]][-3:] == ["7D", "6C", "7H"]


@pytest.mark.rules("the-kings-lane")
def test_lane_takes_any_available_card() -> None:
    g = after_deal({"l1": "", "r1": "QH", "l2": "7S"}, rest_to="r3")
    g.play("l2-l1")
    assert tops(g, "l1") == ["7S"]
    g = after_deal({"l1": "", "r1": "QH", "l2": "7S"}, rest_to="r3",
                   options="lanes:both-groups")
    assert refusal_rule(g, "l2-l1") == R + "lane"
    g = after_deal({"l1": "", "r1": "", "l2": "7S"}, rest_to="r3",
                   options="lanes:both-groups")
    g.play("l2-r1")
    assert tops(g, "r1") == ["7S"]


@pytest.mark.rules("the-kings-lane")
def test_sequences_placed_on_a_lane_card() -> None:
    g = after_deal({"l1": "", "l2": "7S", "l3": "8H"}, rest_to="r3")
    g.play("l2-l1")
    g.play("l3-l1")
    assert [str(c) for c in g.state.piles[L1]] == ["7S", "8H"]


# ----------------------------------------------------------------------------- refusals

@pytest.mark.rules("the-kings-foundations", "the-kings-columns")
def test_foundation_cards_stay_and_pack_is_only_dealt() -> None:
    g = dealing({"l0": "5H"}, stock=NO_TWOS)
    assert refusal_rule(g, "f0-l0") == R + "foundations"
    assert refusal_rule(g, "stock-f0") == R + "columns"
    assert refusal_rule(g, "stock-l0") == R + "columns"


@pytest.mark.rules("the-kings-no-redeal")
def test_no_redeal_and_board_refusals() -> None:
    g = after_deal({"l1": "5H"}, rest_to="r3")
    assert refusal_rule(g, "redeal") == R + "no-redeal"
    assert refusal_rule(g, "shuffle") == R + "board"
    assert refusal_rule(g, "q1-f0") == R + "board"
    assert refusal_rule(g, "l1-q1") == R + "board"
    assert refusal_rule(g, "l1-l1") == R + "board"
    assert refusal_rule(g, "l1-stock") == R + "board"
    assert refusal_rule(g, "l1-r3:0") == R + "board"
    assert refusal_rule(g, "l0-f0+l1-f1") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"
    g = after_deal({"l1": ""}, rest_to="r3")
    assert refusal_rule(g, "l1-f0") == R + "board"


# ----------------------------------------------------------------------------- outcome

@pytest.mark.rules("the-kings-foundations")
def test_won_when_every_foundation_reaches_its_king() -> None:
    piles = {}
    order = "2 3 4 5 6 7 8 9 10 J Q K".split()
    for n, (fid, ace) in enumerate(ACES.items()):
        suit = ace[-1]
        piles[fid] = ace + " " + " ".join(r + suit for r in order)
    g = after_deal({**piles, "l0": ""}, rest_to="l0")
    assert g.outcome() is Outcome.WON
    assert g.status_of(g.state).startswith("Won")


@pytest.mark.rules("the-kings-foundations")
def test_the_last_king_wins() -> None:
    piles = {}
    order = "2 3 4 5 6 7 8 9 10 J Q K".split()
    for fid, ace in ACES.items():
        piles[fid] = ace + " " + " ".join(r + ace[-1] for r in order)
    piles["f0"] = "AD " + " ".join(r + "D" for r in order[:-1])
    g = after_deal({**piles, "r2": "KD"}, rest_to="r2")
    assert g.outcome() is None
    g.play("r2-f0")
    assert g.outcome() is Outcome.WON


LOCKED = {"l0": "KS", "l1": "KH", "l2": "KD", "l3": "KC", "r0": "3D 9S", "r1": "3H 9H",
          "r2": "3S 9D"}


@pytest.mark.rules("the-kings-no-redeal")
def test_lost_when_nothing_can_move() -> None:
    g = after_deal({**LOCKED, "r3": "7C"})
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


@pytest.mark.rules("the-kings-no-redeal", "the-kings-sequences")
def test_lost_when_building_goes_round_in_circles_without_a_play() -> None:
    # 8C and the nines can shuttle about for ever, but nothing ever reaches a foundation
    g = after_deal({**LOCKED, "r3": "5C 8C"})
    assert g.legal_moves()
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("the-kings-no-redeal", "the-kings-sequences")
def test_not_lost_while_building_can_release_a_play() -> None:
    g = after_deal({**LOCKED, "r3": "2C 8C"})
    assert not any(g.pile_index(m.steps[0][1]) in FOUNDS for m in g.legal_moves())
    assert g.outcome() is None
    g.play("r3-r0")
    g.play("r3-f0")


@pytest.mark.rules("the-kings-no-redeal", "the-kings-columns")
def test_never_lost_during_the_deal() -> None:
    g = dealing({**LOCKED, "r3": "7C"}, stock="9C")
    assert g.outcome() is None
    assert Move(action="deal") in g.legal_moves()


def _is_play(g: TheKings, m: Move) -> bool:
    return bool(m.steps) and g.pile_index(m.steps[0][1]) in FOUNDS


def _builds_to_a_play(g: TheKings) -> list[Move] | None:
    """The shortest series of builds and lanes after which a card can be played."""
    paths: dict[object, list[Move]] = {g.state: []}
    queue = [g.state]
    while queue:
        state = queue.pop(0)
        h = TheKings(state, g.options, None)
        for m in h.legal_moves():
            if _is_play(h, m):
                return paths[state]
            nxt = h.apply(state, m)
            if nxt not in paths:
                paths[nxt] = paths[state] + [m]
                queue.append(nxt)
    return None


@pytest.mark.rules("the-kings-no-redeal")
def test_played_out_games_end_won_or_lost_and_a_won_game_is_never_called_lost() -> None:
    # Plays first, then the deal, else the shortest builds that lead to a play, until none
    # does (found by the engine's own moves, not by the verdict). A deal played out to a
    # win must never have been called lost on the way; one that sticks must be lost.
    outcomes = set()
    for seed in (0, 3, 13, 14, 22):  # deals that end quickly, won and lost
        g = engine.new_game(SLUG, seed=seed)
        assert isinstance(g, TheKings)
        said = set()
        while (out := g.outcome()) is not Outcome.WON:
            said.add(out)
            moves = g.legal_moves()
            plays = [m for m in moves if _is_play(g, m)]
            deal = [m for m in moves if m.action]
            if plays or deal:
                g.play((plays or deal)[0])
                continue
            path = _builds_to_a_play(g)
            if path is None:
                assert out is Outcome.LOST
                break
            for m in path:
                g.play(m)
        total = sum(len(g.state.piles[f]) for f in FOUNDS)
        assert (out is Outcome.WON) == (total == 104)
        if out is Outcome.WON:
            assert Outcome.LOST not in said
        outcomes.add(out)
    assert outcomes == {Outcome.WON, Outcome.LOST}


# Deal 0 played by plays first, then builds towards a play: every card might still move,
# but no series of builds can bring one to a foundation.
DEAL_0_STUCK = (
    "game=the-kings;deal=0;opts=;moves=deal,deal,deal,deal,deal,l3-f3,deal,deal,l0-f0,deal,"
    "l3-f7,l3-f3,deal,r0-f4,deal,deal,l0-f0,deal,l1-f1,deal,l3-f3,l3-f3,deal,r0-f4,deal,"
    "deal,deal,deal,l2-f2,deal,deal,deal,deal,r1-f1,deal,deal,deal,r2-f2,deal,r3-f3,deal,"
    "l0-f0,l0-f4,deal,deal,l1-f3,l3-f1,l3-f2,r1-f3,r1-f7,r3-f3,l3-f3,r3-f7,l2-l0,l2-l1,"
    "l2-f3,r1-f3,l1-f3,l3-l1,l3-l0,l3-f0,l2-f0;redo=")


def _ranks(g: TheKings) -> tuple[list[list[int]], list[int]]:
    s = g.state
    return ([[c.rank for c in s.piles[i]] for i in LINES],
            [s.piles[f][-1].rank for f in FOUNDS])


@pytest.mark.rules("the-kings-no-redeal", "the-kings-sequences")
def test_lost_when_no_series_of_builds_brings_a_card_to_a_foundation() -> None:
    g = engine.load_position(DEAL_0_STUCK)
    assert isinstance(g, TheKings)
    assert never_moving(*_ranks(g), None) == [0] * 8  # the first proof finds nothing
    assert g.legal_moves() and not any(_is_play(g, m) for m in g.legal_moves())
    assert g.outcome() is Outcome.LOST and g.outcome_decided(g.state)
    assert "no card can ever reach a foundation" in g.status_of(g.state)
    assert _builds_to_a_play(g) is None


@pytest.mark.rules("the-kings-no-redeal")
def test_when_the_search_gives_up_the_game_is_not_called_lost(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("engine.kings.SEARCH_LIMIT", 1)
    g = engine.load_position(DEAL_0_STUCK)
    assert isinstance(g, TheKings)
    assert g.outcome() is None and not g.outcome_decided(g.state)
    assert "cannot tell" in g.status_of(g.state)


FIVES_UNDER_KINGS = {
    "l0": "5S KS 4S 3S 2S", "l1": "5S KS", "l2": "5H KH", "l3": "5H KH", "r0": "5D KD",
    "r1": "5D KD", "r2": "5C KC", "r3": "5C KC",
}


@pytest.mark.rules("the-kings-no-redeal")
def test_lost_when_a_card_can_never_move_though_plays_remain() -> None:
    # Every five lies under a king. A king can move only onto a queen, into a lane or onto
    # a queen on a foundation: the queens are buried under the kings too (the rest of the
    # pack lies under the packet r3), no packet can be emptied, and no foundation can pass
    # four without a five. The twos, threes and fours can still be played.
    g = after_deal(FIVES_UNDER_KINGS, rest_to="r3")
    assert any(_is_play(g, m) for m in g.legal_moves())
    assert g.outcome() is Outcome.LOST
    assert "can never be moved" in g.status_of(g.state)
    lines, tops = _ranks(g)
    assert never_moving(lines, tops, None)[:7] == [2] * 7  # each five and its king


@pytest.mark.rules("the-kings-no-redeal")
def test_never_moving_counts_every_card_that_can_move() -> None:
    # 9 on 8 or 10, a lane once a packet can be emptied, a foundation the movable cards
    # can raise: every card here might move
    assert never_moving([[5, 9], [8], [], [7]], [1, 2, 3, 4, 5, 6, 13], None) == [0, 0, 0, 0]
    # the 5 under a 9 with no 8 or 10 anywhere and no lane; the 7 could go up only after
    # the 5 and 6, and the 6 lies under it
    assert never_moving([[5, 9], [6, 7]], [4], None) == [2, 2]
    # a card below its neighbour in the same packet is no help: the 6 needs the 5 moved
    assert never_moving([[6, 5, 12]], [3], None) == [3]
    # under the both-groups reading a lane needs the partner packet empty too
    assert never_moving([[9], [], [5], [7]], [1], [2, 3, 0, 1]) == [1, 0, 1, 1]
    assert never_moving([[9], [], [5], []], [1], [2, 3, 0, 1]) == [0, 0, 0, 0]


def _search_all(g: TheKings, full: bool, limit: int = 20_000) -> bool | None:
    """By the engine's own moves: whether a win (``full``: depth first, plays first) or a
    play on a foundation (breadth first) can be reached; None if more than ``limit``
    positions would be needed."""
    seen = {g.state}
    todo = deque([g.state])
    while todo:
        state = todo.pop() if full else todo.popleft()
        if sum(len(state.piles[f]) for f in FOUNDS) == 104:
            return True
        h = TheKings(state, g.options, None)
        for m in sorted(h.legal_moves(), key=lambda m: _is_play(h, m)):
            if not full and _is_play(h, m):
                return True
            nxt = h.apply(state, m)
            if nxt not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(nxt)
                todo.append(nxt)
    return False


def _tiny(seed: int, options: str) -> TheKings:
    """After the deal, every foundation complete but for a few cards (the line 1 foundation
    at a four or higher) laid out at random in the packets, after a few random builds; no
    card playable at once."""
    rng = random.Random(seed)
    while True:
        start = rng.randint(7, 10)
        cards = [f"{RANK_TEXT[r]}D" for r in range(start + 1, 14)]
        rng.shuffle(cards)
        lines: dict[str, list[str]] = {PILES[i].id: [] for i in LINES}
        for c in cards:
            lines[rng.choice(sorted(lines))].append(c)
        if all(not v or v[-1] != cards_rank(start + 1) for v in lines.values()):
            break
    full = {fid: " ".join(f"{RANK_TEXT[r]}{ace[-1]}" for r in range(1, 14))
            for fid, ace in ACES.items()}
    full["f0"] = " ".join(f"{RANK_TEXT[r]}D" for r in range(1, start + 1))
    g = make_game(SLUG, {**full, **{k: " ".join(v) for k, v in lines.items()}},
                  vars={"slot": 24, "just": -1}, options=options)
    assert isinstance(g, TheKings)
    for _ in range(rng.randint(0, 3)):
        builds = [m for m in g.legal_moves() if not _is_play(g, m)]
        if builds:
            g.play(rng.choice(builds))
    return TheKings(g.state, g.options, None)


RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}


def cards_rank(rank: int) -> str:
    return f"{RANK_TEXT[rank]}D"


OPTION_SETS = ["", "direction:free", "lanes:both-groups",
               "rule_3:always,line_foundations:own-side"]


@pytest.mark.rules("the-kings-no-redeal", "the-kings-sequences", "the-kings-lane")
@pytest.mark.parametrize("options", OPTION_SETS[:3])
def test_verdicts_agree_with_an_exhaustive_search_on_small_positions(options: str) -> None:
    positions = [_tiny(seed, options) for seed in range(8)]
    positions += [after_deal({**LOCKED, "r3": "5C 8C"}, options=options),
                  after_deal({**LOCKED, "r3": "2C 8C"}, options=options),
                  after_deal(FIVES_UNDER_KINGS, rest_to="r3", options=options)]
    if not options:
        positions.append(engine.load_position(DEAL_0_STUCK))  # type: ignore[arg-type]
    said = Counter()
    for g in positions:
        verdict = g.judge(g.state)
        play = _search_all(g, full=False)
        assert play is not None, g.position()
        if verdict.outcome is Outcome.LOST:
            assert _search_all(g, full=True) is False, g.position()  # never a wrong loss
        else:
            # decided, and a game is called lost at the latest when no card can reach a
            # foundation any more
            assert verdict.decided and play, g.position()
        said[verdict.outcome] += 1
    assert said[Outcome.LOST] and said[None], said


def _play_at_random(g: TheKings, rng: random.Random, moves: int) -> Iterator[TheKings]:
    """Play on at random (a play whenever there is one, most of the time), whatever the
    verdict, yielding after each move."""
    for _ in range(moves):
        legal = g.legal_moves()
        if not legal:
            return
        plays = [m for m in legal if _is_play(g, m)]
        g.play(rng.choice(plays if plays and rng.random() < 0.8 else legal))
        yield g


@pytest.mark.rules("the-kings-no-redeal")
@pytest.mark.parametrize("options", OPTION_SETS)
def test_a_card_called_immovable_never_moves(options: str) -> None:
    # never_moving over-estimates what can move: in random games played on regardless,
    # the cards it calls immovable stay where they are.
    rng = random.Random(7)
    partners = [(n + 4) % 8 for n in range(8)] if "both-groups" in options else None
    checked = 0
    for seed in range(100, 130):
        g = engine.new_game(SLUG, seed=seed,
                            options=engine.options_from_text(KingsOptions, options))
        assert isinstance(g, TheKings)
        fixed: dict[int, tuple[Card, ...]] = {}
        for n, h in enumerate(_play_at_random(g, rng, 300)):
            for i, cards in fixed.items():
                assert h.state.piles[i][:len(cards)] == cards, (seed, h.position())
            if n % 3 == 0 and not h.state.piles[STOCK]:
                stop = never_moving(*_ranks(h), partners)
                for i, s in zip(LINES, stop):
                    if s > len(fixed.get(i, ())):
                        fixed[i] = h.state.piles[i][:s]
                        checked += 1
    assert checked > 10, checked


@pytest.mark.rules("the-kings-no-redeal")
def test_no_win_is_found_where_random_games_are_called_lost() -> None:
    rng = random.Random(5)
    lost = 0
    for seed in range(40, 52):
        g = engine.new_game(SLUG, seed=seed)
        assert isinstance(g, TheKings)
        while g.outcome() is None and len(g.move_stack) < 400:
            g.play(rng.choice(g.legal_moves()))
        if g.outcome() is not Outcome.LOST:
            continue
        lost += 1
        assert _search_all(g, full=True, limit=2000) is not True, g.position()
        if "reach" in g.judge(g.state).reason:  # builds alone: none leads to a play
            for h in _play_at_random(g, rng, 200):
                assert not any(_is_play(h, m) for m in h.legal_moves()), h.position()
    assert lost


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = KingsOptions(rule_3=RuleIII.ALWAYS, line_foundations=LineFoundations.OWN_SIDE,
                     deal_availability=DealAvailability.JUST_DEALT,
                     lanes=Lanes.BOTH_GROUPS)
    text = engine.options_to_text(o)
    assert engine.options_from_text(KingsOptions, text) == o
    assert engine.options_to_text(KingsOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(KingsOptions, "rule_3:sometimes")


def test_every_option_names_its_note_and_rule_3_defaults_to_the_books_advice() -> None:
    assert KingsOptions().rule_3 is RuleIII.DEAL
    for d in engine.describe_options(KingsOptions):
        assert d["note"].startswith("note-ki-")
        assert len(d["choices"]) >= 2


def test_position_restores_the_deal_state_exactly() -> None:
    g = engine.new_game(SLUG, seed=21)
    for _ in range(12):
        moves = g.legal_moves()
        plays = [m for m in moves if m.steps]
        g.play((plays or moves)[0])
    h = engine.load_position(g.position())
    assert h.state == g.state
    assert h.position() == g.position()
