"""The Flower-Garden: every rule, every refusal (with the rule id it cites)."""

from __future__ import annotations

import random
from collections import Counter, deque

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.core import Fan, Role
from engine.flower_garden import (
    BQ, FOUNDATION_PILES, HAND_ORDER, PACKETS, PILES, SEARCH_LIMIT, FlowerGardenOptions,
    TheFlowerGarden, Transfer, deal_garden, hand_key, run_start,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-flower-garden"
R = f"{SLUG}-"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
RUNS = "transfer:runs"


def game(piles: dict[str, str], rest_to: str = "p5", **kw: object) -> TheFlowerGarden:
    """The cards given; every other card at the bottom of packet 6 (``rest_to``), sorted,
    so that its top is the highest card left unless cards are given for it."""
    g = make_game(SLUG, piles, rest_to=rest_to, **kw)  # type: ignore[arg-type]
    assert isinstance(g, TheFlowerGarden)
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def up_to(suit: str, last: str) -> str:
    """A foundation built from the ace of ``suit`` up to ``last`` (a rank)."""
    return " ".join(r + suit for r in RANKS[:RANKS.index(last) + 1])


def moves_from(g: TheFlowerGarden, src: str) -> set[str]:
    return {str(m) for m in g.legal_moves() if m.steps[0][0] == src}


def bq_ref(g: TheFlowerGarden, card: str) -> str:
    """The reference of a Bouquet card: ``bq`` for the last, ``bq:k`` for the others."""
    hand = g.state.piles[BQ]
    k = hand.index(Card.parse(card))
    return "bq" if k == len(hand) - 1 else f"bq:{k}"


def done_but(suit_rank: dict[str, str]) -> dict[str, str]:
    """Foundations built to the given rank for the suits named, to the king for the others."""
    out = {}
    for j, s in enumerate("SHDC"):
        last = suit_rank.get(s, "K")
        if last:
            out[f"f{j}"] = up_to(s, last)
    return out


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-flower-garden-deal", "the-flower-garden-bouquet")
def test_deal_six_packets_of_six_and_a_bouquet_of_sixteen() -> None:
    g = engine.new_game(SLUG, seed=7)
    s = g.state
    assert [len(s.piles[i]) for i in PACKETS] == [6] * 6
    assert len(s.piles[BQ]) == 16
    assert all(not s.piles[f] for f in FOUNDATION_PILES)
    assert Counter(s.all_cards()) == Counter(engine.pack(1))


@pytest.mark.rules("the-flower-garden-deal")
def test_same_deal_number_same_deal_and_different_numbers_differ() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (5, 5, 6))
    assert a == b
    assert a != c


@pytest.mark.rules("the-flower-garden-deal", "the-flower-garden-bouquet")
def test_six_cards_dealt_together_the_rest_kept_in_the_hand() -> None:
    # The pack's top is its last card: six leave it together and are turned up, so the card
    # that was on top lies at the bottom of the packet.
    pack = tuple(engine.pack(1))
    packets, hand = deal_garden(pack)
    assert packets[0] == tuple(reversed(pack[-6:]))
    assert packets[5] == tuple(reversed(pack[-36:-30]))
    assert Counter(hand) == Counter(pack[:16])


@pytest.mark.rules("the-flower-garden-bouquet")
def test_the_hand_is_sorted_by_suit_in_alternating_colours_and_by_rank() -> None:
    g = engine.new_game(SLUG, seed=3)
    hand = g.state.piles[BQ]
    assert list(hand) == sorted(hand, key=hand_key)
    assert [s.red for s in HAND_ORDER] == [False, True, False, True]


@pytest.mark.rules("the-flower-garden-deal")
def test_the_packets_lie_as_in_the_plate_two_rows_of_three() -> None:
    rows: dict[float, list[float]] = {}
    for i in PACKETS:
        rows.setdefault(PILES[i].y, []).append(PILES[i].x)
        assert PILES[i].fan is Fan.RIGHT and PILES[i].role is Role.TABLEAU
    assert [len(rows[y]) for y in sorted(rows)] == [3, 3]
    assert min(PILES[f].y for f in FOUNDATION_PILES) > max(rows)
    assert PILES[BQ].y > max(PILES[f].y for f in FOUNDATION_PILES)


@pytest.mark.rules("the-flower-garden-deal", "the-flower-garden-bouquet")
def test_every_card_is_shown() -> None:
    # "so spread that all are visible"; the Bouquet is held face up in the hand (FG-3).
    g = engine.new_game(SLUG, seed=9)
    for i in range(len(PILES)):
        assert all(f["c"] is not None for f in g.card_faces(g.state, i))


def test_fans_stay_clear_of_each_other_and_inside_the_board() -> None:
    """A slot is a card (0.9) and a gap; a fan spreads at most fan_limit card widths."""
    hand = 0.9 * (1 + PILES[BQ].fan_limit)  # type: ignore[operator]
    for grid, places in (
            (TheFlowerGarden.GRID, {p.id: (p.x, p.y) for p in PILES}),
            (TheFlowerGarden.LAYOUTS[0].grid,
             {k: (x, y) for k, (x, y, _) in TheFlowerGarden.LAYOUTS[0].at.items()})):
        assert set(places) >= {p.id for p in PILES}
        width = 0.9 * (1 + PILES[0].fan_limit)  # type: ignore[operator]
        for i in PACKETS:
            x, y = places[PILES[i].id]
            assert x + 0.05 + width <= grid[0]
            for j in PACKETS:
                xj, yj = places[PILES[j].id]
                if j != i and yj == y and xj > x:
                    assert x + 0.05 + width + 0.1 <= xj + 0.05
        assert places["bq"][0] + 0.05 + hand <= grid[0]
        assert places["bq"][1] + 1 <= grid[1] + 0.1


def test_the_phone_layout_keeps_cards_at_least_36_pixels_wide() -> None:
    narrow = TheFlowerGarden.LAYOUTS[0]
    assert narrow.max_width is not None
    # a phone 390 pixels wide leaves the board about 350: a card is 0.9 of a slot
    assert 0.9 * 350 / narrow.grid[0] >= 36


# ----------------------------------------------------------------------------- Rule I

@pytest.mark.rules("the-flower-garden-rule-1")
def test_rule_1_only_the_uppermost_card_of_a_packet_is_available() -> None:
    g = game({"p0": "AS 9D 5C", "p1": "6C", "p2": "10H"})
    assert refusal_rule(g, "p0:0-f0") == R + "rule-1"
    assert refusal_rule(g, "p0:1-p2") == R + "rule-1"
    assert all(not m.steps[0][0].startswith("p0:") for m in g.legal_moves())


@pytest.mark.rules("the-flower-garden-rule-1")
def test_rule_1_any_card_in_the_bouquet_is_available() -> None:
    g = game({"bq": "2D AS 9C KH 3H", "f2": "AD"})
    hand = g.state.piles[BQ]
    assert len(hand) == 5
    for k, card in enumerate(hand):
        ref = "bq" if k == len(hand) - 1 else f"bq:{k}"
        if card in (Card.parse("AS"), Card.parse("2D")):
            assert Move.parse(f"{ref}-f{'SHDC'.index(card.suit.value)}") in g.legal_moves()
    g.play("bq:1-f0")  # the ace of spades, second in the hand as given
    g.play("bq:0-f2")  # the two of diamonds, first
    assert g.state.piles[BQ] == cards("9C KH 3H")


@pytest.mark.rules("the-flower-garden-rule-1")
def test_rule_1_removing_the_top_releases_the_card_beneath() -> None:
    g = game({"p0": "AS 10D 5C", "p1": "6H", "p2": "JS"})
    g.play("p0-p1")  # the five of clubs onto the six of hearts
    g.play("p0-p2")  # the ten of diamonds, now uppermost, onto the knave of spades
    g.play("p0-f0")  # and the ace of spades, released, to its foundation
    assert g.state.piles[FOUNDATION_PILES[0]] == cards("AS")
    assert not g.state.piles[0]


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("the-flower-garden-rule-2")
def test_rule_2_the_foundations_follow_suit() -> None:
    g = game({"p0": "AH", "f0": "AS", "bq": "2H"})
    assert refusal_rule(g, "p0-f0") == R + "rule-2"  # f0 is the spades foundation
    assert refusal_rule(g, "p0-f2") == R + "rule-2"
    assert refusal_rule(g, "bq-f0") == R + "rule-2"
    g.play("p0-f1")
    g.play("bq-f1")
    assert g.state.piles[FOUNDATION_PILES[1]] == cards("AH 2H")


@pytest.mark.rules("the-flower-garden-foundations")
def test_foundations_begin_with_the_ace_and_ascend_one_at_a_time() -> None:
    g = game({"p0": "2S", "p1": "3S", "bq": "AS"})
    assert refusal_rule(g, "p0-f0") == R + "foundations"
    g.play("bq-f0")
    assert refusal_rule(g, "p1-f0") == R + "foundations"
    g.play("p0-f0")
    g.play("p1-f0")
    assert g.state.piles[FOUNDATION_PILES[0]] == cards("AS 2S 3S")


@pytest.mark.rules("the-flower-garden-foundations")
def test_foundations_ascend_to_the_king_and_are_then_complete() -> None:
    g = game({"f3": up_to("C", "Q"), "p4": "KC"})
    g.play("p4-f3")
    assert g.state.piles[FOUNDATION_PILES[3]][-1] == Card.parse("KC")
    assert len(g.state.piles[FOUNDATION_PILES[3]]) == 13


@pytest.mark.rules("the-flower-garden-foundations")
def test_cards_on_the_foundations_stay_there() -> None:
    g = game({"f0": "AS 2S", "p0": "3S", "p1": ""}, rest_to="p2")
    assert refusal_rule(g, "f0-p0") == R + "foundations"
    assert refusal_rule(g, "f0-p1") == R + "foundations"
    assert refusal_rule(g, "f0-f1") == R + "foundations"
    assert refusal_rule(g, "f0-bq") == R + "foundations"


# ----------------------------------------------------------------------------- play

@pytest.mark.rules("the-flower-garden-play")
def test_aces_and_suitable_cards_are_played_from_bouquet_and_garden() -> None:
    g = game({"p0": "7D AD", "bq": "2D 3D", "p1": "9C 4D"})
    legal = {str(m) for m in g.legal_moves()}
    assert "p0-f2" in legal and "bq:0-f2" not in legal
    g.play("p0-f2")
    g.play("bq:0-f2")
    g.play("bq-f2")
    g.play("p1-f2")
    assert g.state.piles[FOUNDATION_PILES[2]] == cards("AD 2D 3D 4D")


@pytest.mark.rules("the-flower-garden-not-obliged")
def test_nothing_is_played_for_the_player() -> None:
    g = game({"p0": "AS", "p1": "2S", "p2": "6H", "bq": "5C"})
    g.play("bq-p2")  # a placing while an ace could be played
    assert g.state.piles[0] == cards("AS")
    assert all(not g.state.piles[f] for f in FOUNDATION_PILES)
    g = engine.new_game(SLUG, seed=2)  # the ace of clubs is in the hand from the start
    assert Card.parse("AC") in g.state.piles[BQ]
    placing = next(m for m in g.legal_moves() if not m.steps[0][1].startswith("f"))
    g.play(placing)
    assert Card.parse("AC") in g.state.piles[BQ]


@pytest.mark.rules("the-flower-garden-not-obliged", "the-flower-garden-sequences")
def test_a_card_that_could_be_played_may_be_placed_in_sequence_instead() -> None:
    # "it is often better to leave a card than to play it, as it may be useful"
    g = game({"p0": "2H", "p1": "3C", "f1": "AH"})
    assert Move.parse("p0-f1") in g.legal_moves()
    g.play("p0-p1")
    assert g.state.piles[1] == cards("3C 2H")


# ----------------------------------------------------------------------------- sequences

@pytest.mark.rules("the-flower-garden-sequences", "the-flower-garden-rule-3")
def test_a_card_goes_on_a_card_one_rank_higher_of_any_suit() -> None:
    for target in ("10S", "10H", "10D", "10C"):
        g = game({"p0": "9C", "p1": target})
        g.play("p0-p1")
        assert g.state.piles[1] == cards(f"{target} 9C")


@pytest.mark.rules("the-flower-garden-rule-3")
def test_rule_3_cards_need_not_follow_suit_but_may() -> None:
    g = game({"p0": "4D", "p1": "5C", "p2": "5D"})
    assert {"p0-p1", "p0-p2"} <= moves_from(g, "p0")


@pytest.mark.rules("the-flower-garden-sequences")
def test_only_descending_sequences() -> None:
    g = game({"p0": "9S", "p1": "8S", "p2": "JS", "p3": "9H"})
    assert refusal_rule(g, "p0-p1") == R + "sequences"  # onto one lower: ascending
    assert refusal_rule(g, "p0-p2") == R + "sequences"  # two higher
    assert refusal_rule(g, "p0-p3") == R + "sequences"  # the same rank


@pytest.mark.rules("the-flower-garden-sequences")
def test_bouquet_cards_are_placed_in_the_same_way() -> None:
    g = game({"bq": "9D 7C", "p0": "10S", "p1": "QH"})
    assert refusal_rule(g, "bq-p1") == R + "sequences"
    g.play("bq:0-p0")
    assert g.state.piles[0] == cards("10S 9D")
    assert g.state.piles[BQ] == cards("7C")


@pytest.mark.rules("the-flower-garden-sequences")
def test_transferring_as_often_as_you_please() -> None:
    g = game({"p0": "9S", "p1": "10H", "p2": "10C"})
    g.play("p0-p1")
    for _ in range(3):
        g.play("p1-p2")
        g.play("p2-p1")
    assert g.state.piles[1] == cards("10H 9S")
    assert g.state.piles[2] == cards("10C")


@pytest.mark.rules("the-flower-garden-sequences", "the-flower-garden-rule-1")
def test_by_default_a_sequence_moves_one_card_at_a_time() -> None:
    g = game({"p0": "KD 9C 8H 7S", "p1": "10D", "p2": "", "p3": "8D"}, rest_to="p4")
    assert refusal_rule(g, "p0:1-p1") == R + "rule-1"
    assert refusal_rule(g, "p0:2-p2") == R + "rule-1"
    # card by card, with an empty place to hold a card in passing
    for move in ("p0-p3", "p0-p2", "p0-p1", "p2-p1", "p3-p1"):
        g.play(move)
    assert g.state.piles[1] == cards("10D 9C 8H 7S")
    assert g.state.piles[0] == cards("KD")


@pytest.mark.rules("the-flower-garden-king")
def test_a_king_can_never_be_transferred_onto_another_card() -> None:
    g = game({"p0": "5C KS", "p1": "QS", "p2": "AS", "p3": "2C", "p4": "3D", "bq": "KH"})
    assert refusal_rule(g, "p0-p1") == R + "king"
    assert refusal_rule(g, "p0-p2") == R + "king"
    assert refusal_rule(g, "bq-p1") == R + "king"
    assert moves_from(g, "p0") == set()  # no place is empty
    assert moves_from(g, "bq") == set()


@pytest.mark.rules("the-flower-garden-rule-1", "the-flower-garden-sequences")
def test_moves_onto_a_buried_card_are_not_expressible() -> None:
    g = game({"p0": "9S", "p1": "10H 3C"})
    assert refusal_rule(g, "p0-p1:0") == R + "board"
    assert refusal_rule(g, "p0-p1") == R + "sequences"


# ----------------------------------------------------------------------------- the example

@pytest.mark.rules("the-flower-garden-example", "the-flower-garden-rule-3",
                   "the-flower-garden-sequences", "the-flower-garden-rule-1")
def test_the_authors_example_plays_move_by_move() -> None:
    # The packets of the plate: the five of clubs in front of packet 4, the four of diamonds
    # of packet 5 on the ace, the knave of diamonds in front of packet 6, the nine of clubs
    # of packet 3 on the deuce; the ten of hearts in the Bouquet.
    g = game({"p2": "3C 2D 9C", "p3": "9H 5C", "p4": "AH AD 4D", "p5": "JD",
              "bq": "10H KS"}, rest_to="p1")
    g.play("p4-p3")                     # the four of diamonds on the five of clubs
    g.play(f"{bq_ref(g, '10H')}-p5")    # the ten of hearts from the Bouquet on the knave
    g.play("p2-p5")                     # the nine of clubs can now be transferred
    assert g.state.piles[5] == cards("JD 10H 9C")
    # and the ace and deuce of diamonds are released
    assert g.state.piles[4][-1] == Card.parse("AD")
    assert g.state.piles[2][-1] == Card.parse("2D")
    g.play("p4-f2")
    g.play("p2-f2")
    assert g.state.piles[FOUNDATION_PILES[2]] == cards("AD 2D")


# ----------------------------------------------------------------------------- the Bouquet

@pytest.mark.rules("the-flower-garden-no-return")
def test_cards_taken_from_the_bouquet_cannot_be_returned_to_it() -> None:
    g = game({"bq": "9D 4C", "p0": "10S", "p1": "5H"})
    g.play("bq:0-p0")
    assert refusal_rule(g, "p0-bq") == R + "no-return"
    assert refusal_rule(g, "p1-bq") == R + "no-return"  # nor does any other card join it
    assert refusal_rule(g, "bq-bq") == R + "board"
    assert not [m for m in g.legal_moves() if m.steps[0][1] == "bq"]


@pytest.mark.rules("the-flower-garden-bouquet", "the-flower-garden-no-return")
def test_a_bouquet_card_may_go_to_a_foundation_a_packet_or_an_empty_place() -> None:
    g = game({"bq": "AS 9D QH", "p0": "10C", "p1": "", "p3": "5C", "p4": "7C", "p5": "9C"},
             rest_to="p2")
    assert moves_from(g, "bq:0") == {"bq:0-f0", "bq:0-p1"}
    assert moves_from(g, "bq:1") == {"bq:1-p0", "bq:1-p1"}
    assert moves_from(g, "bq") == {"bq-p1", "bq-p2"}  # the queen on the king of packet 3


# ----------------------------------------------------------------------------- new packets

@pytest.mark.rules("the-flower-garden-new-packet")
def test_an_emptied_packet_may_be_begun_with_any_card() -> None:
    g = game({"p0": "", "p1": "3C 7H", "bq": "KD 2S"}, rest_to="p2")
    assert "p1-p0" in moves_from(g, "p1")
    assert "bq-p0" in moves_from(g, "bq")
    g.play("bq:0-p0")  # a king from the Bouquet begins the new packet
    assert g.state.piles[0] == cards("KD")
    g.play("p1-p3")    # and the uppermost card of a packet another
    assert g.state.piles[3] == cards("7H")


@pytest.mark.rules("the-flower-garden-new-packet", "the-flower-garden-king")
def test_a_king_leaves_its_packet_by_beginning_a_new_one() -> None:
    g = game({"p0": "", "p1": "AS KC", "p2": "QC"}, rest_to="p3")
    assert refusal_rule(g, "p1-p2") == R + "king"
    g.play("p1-p0")  # "the only means of removing a king"
    g.play("p1-f0")  # the ace it covered is released
    g.play("p2-p0")  # and cards go on the king in sequence
    assert g.state.piles[0] == cards("KC QC")


@pytest.mark.rules("the-flower-garden-new-packet")
def test_the_empty_place_may_wait() -> None:
    g = game({"p0": "", "p1": "9S", "p2": "10H", "p4": "5D", "p5": "7D", "bq": "AS"},
             rest_to="p3")
    assert "p1-p0" in moves_from(g, "p1")  # a lone card may even change places (FG-4)
    g.play("p1-p2")
    assert not g.state.piles[0] and not g.state.piles[1]
    g.play("p2-p1")
    assert not g.state.piles[0]
    assert "1 packet cleared off" in g.status_of(g.state)


@pytest.mark.rules("the-flower-garden-new-packet")
def test_a_new_packet_takes_one_card_even_under_the_runs_reading() -> None:
    g = game({"p0": "", "p1": "KS 9C 8D", "p2": "10H"}, rest_to="p3", options=RUNS)
    assert refusal_rule(g, "p1:1-p0") == R + "new-packet"
    g.play("p1-p0")
    assert g.state.piles[0] == cards("8D")


# ----------------------------------------------------------------------------- FG-1 runs

@pytest.mark.rules("the-flower-garden-sequences", "the-flower-garden-rule-1")
def test_under_the_runs_reading_a_descending_sequence_moves_whole() -> None:
    g = game({"p0": "KD 9C 8H 7S", "p1": "10D", "p2": "9H"}, rest_to="p3", options=RUNS)
    assert moves_from(g, "p0:1") == {"p0:1-p1"}
    assert moves_from(g, "p0:2") == {"p0:2-p2"}
    assert refusal_rule(g, "p0:0-p1") == R + "rule-1"  # the king is not in sequence with 9C
    g.play("p0:2-p2")  # 8H 7S onto the nine of hearts
    assert g.state.piles[2] == cards("9H 8H 7S")
    assert g.state.piles[0] == cards("KD 9C")
    said = g.describe(g.state, Move.parse("p0-p1"))
    assert said.startswith("The nine of clubs from packet 1 is placed on the ten")


@pytest.mark.rules("the-flower-garden-sequences", "the-flower-garden-rule-1")
def test_under_the_runs_reading_only_a_true_sequence_on_top_moves() -> None:
    g = game({"p0": "10S 9S 5C 4H", "p1": "JH", "p2": "6D"}, rest_to="p3", options=RUNS)
    assert refusal_rule(g, "p0:1-p1") == R + "rule-1"  # 9S 5C 4H is not a sequence
    g.play("p0:2-p2")                                   # 5C 4H is
    g.play("p0:0-p1")                                   # and now 10S 9S
    assert g.state.piles[1] == cards("JH 10S 9S")


@pytest.mark.rules("the-flower-garden-sequences")
def test_under_the_runs_reading_the_sequence_must_fit_where_it_goes() -> None:
    g = game({"p0": "5C 9C 8H", "p1": "JS", "f2": "AD"}, rest_to="p3", options=RUNS)
    assert refusal_rule(g, "p0:1-p1") == R + "sequences"
    assert refusal_rule(g, "p0:1-f2") == R + "rule-1"  # played one card at a time


@pytest.mark.rules("the-flower-garden-king")
def test_under_the_runs_reading_a_sequence_headed_by_a_king_stays() -> None:
    g = game({"p0": "3C KS QH", "p1": "", "p2": "AS"}, rest_to="p3", options=RUNS)
    assert refusal_rule(g, "p0:1-p2") == R + "king"
    assert refusal_rule(g, "p0:1-p1") == R + "new-packet"


# ----------------------------------------------------------------------------- one deal

@pytest.mark.rules("the-flower-garden-one-deal")
def test_there_is_only_one_deal() -> None:
    g = game({"p0": "9S"})
    assert refusal_rule(g, "redeal") == R + "one-deal"
    assert refusal_rule(g, "deal") == R + "one-deal"
    assert refusal_rule(g, "shuffle") == R + "board"
    assert all(m.steps for m in g.legal_moves())
    assert TheFlowerGarden.ACTIONS == ()


# ----------------------------------------------------------------------------- outcome

@pytest.mark.rules("the-flower-garden-foundations")
def test_won_when_all_fifty_two_are_on_the_foundations() -> None:
    g = game(done_but({"C": "Q"}), rest_to="p3")
    assert g.outcome() is None
    g.play("p3-f3")
    assert g.outcome() is Outcome.WON
    assert "Won" in g.status_of(g.state)


#: A line that wins deal 8 under the default reading (one card at a time), found by a
#: best-first search outside the engine and replayed here move by move: "exceedingly
#: difficult" as the game is, the book's rules let a deal come out, though the odds' careful
#: player and their small solver (1,000 positions a deal) win almost none.
WIN_8 = (
    "bq:7-f3 bq:9-f2 bq:2-f1 bq:2-f1 p1-f1 bq:2-f1 bq:2-f1 p0-p1 p2-p0 p2-f0 p5-f0 p5-p0 p5-f0 "
    "p4-f0 p5-f1 bq:0-f0 p4-p0 bq:7-p0 p3-p0 p5-p3 p5-p0 p4-p5 p4-f1 p4-p2 p4-f3 p1-p4 p1-f1 "
    "bq:1-p2 p5-p2 p1-p5 p1-p0 p1-f1 p1-p2 p3-p1 p3-p0 p3-f0 p1-p0 p3-p1 p3-p5 p0-p1 p3-p5 "
    "p0-p3 p0-p4 p0-f0 p0-f0 p2-f0 bq:0-f0 p0-p2 p0-f1 p0-f0 p3-p4 p2-p3 p2-p5 p2-f1 p2-f0 "
    "p3-p5 p2-p3 p1-p4 bq:1-p5 bq:0-p5 bq:1-p5 p1-p5 p2-p1 p2-p5 p2-f2 bq:0-f2 p4-f2 p0-p3 "
    "p0-p2 p0-f3 p0-f1 p5-f3 p4-f3 p4-f3 p5-f2 p5-f2 p4-f2 p5-f3 p5-f3 p1-f3 bq:0-f2 p5-f2 "
    "p5-f3 p5-f3 p3-f3 p3-f1 bq-f2 p0-f2 p0-f0 p5-f2 p2-f2 p5-f3"
).split()


@pytest.mark.rules("the-flower-garden-foundations", "the-flower-garden-sequences",
                   "the-flower-garden-new-packet", "the-flower-garden-one-deal")
def test_deal_8_can_be_won_by_the_book_and_is_never_judged_lost_on_the_way() -> None:
    g = engine.new_game(SLUG, seed=8)
    for move in WIN_8:
        assert g.outcome() is None
        g.play(move)
    assert g.outcome() is Outcome.WON


@pytest.mark.rules("the-flower-garden-one-deal")
def test_lost_when_no_move_is_left() -> None:
    # The spades want the two, which lies under the king; no uppermost card is one rank
    # below another, and no place is empty.
    g = game({**done_but({"S": "A"}), "p0": "2S KS", "p1": "QS 3S", "p2": "4S 5S",
              "p3": "6S 7S", "p4": "8S 9S", "p5": "10S JS"}, rest_to="p5")
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


@pytest.mark.rules("the-flower-garden-one-deal", "the-flower-garden-sequences")
def test_lost_though_cards_can_still_shuttle_between_packets() -> None:
    # The two of spades lies under the king; the five of spades can go back and forth
    # between the two sixes for ever, but nothing ever reaches a foundation.
    g = game({**done_but({"S": "A", "H": "4", "D": "4"}), "p0": "2S KS", "p1": "6H",
              "p2": "6D", "p3": "8D 5S", "p4": "3S", "p5": "10S"}, rest_to="p4")
    assert {str(m) for m in g.legal_moves()} == {"p3-p1", "p3-p2"}
    assert g.outcome() is Outcome.LOST
    assert _reachable(g) is False
    g.play("p3-p1")
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("the-flower-garden-one-deal", "the-flower-garden-new-packet")
def test_not_lost_while_a_series_of_moves_can_release_a_card() -> None:
    # The two of spades lies under a king; an empty place lets the king move off it.
    g = game({**done_but({"S": "A"}), "p0": "2S KS", "p2": ""}, rest_to="p1")
    assert g.playable(g.state) is None
    assert g.outcome() is None
    g.play("p0-p2")
    g.play("p0-f0")


@pytest.mark.rules("the-flower-garden-bouquet")
def test_not_lost_while_the_bouquet_holds_a_card_that_can_help() -> None:
    # The two of spades lies under the five of hearts; the six of clubs in the hand can
    # take the five, releasing the two.
    g = game({**done_but({"S": "A", "C": "4", "H": "3"}), "p0": "2S 5H", "bq": "6C"},
             rest_to="p1")
    assert g.playable(g.state) is None
    assert g.outcome() is None
    g.play("bq-p2")
    g.play("p0-p2")
    g.play("p0-f0")


def test_the_search_answers_as_a_brute_force_search_over_the_real_moves() -> None:
    """Random small endings with nothing to play at once: the verdict agrees with an
    exhaustive search, through the engine's own legal moves, for a position where a card
    can be played, under both readings of FG-1."""
    rng = random.Random(11)
    checked = Counter[str]()
    for _ in range(3000):
        if len(checked) == 2 and min(checked.values()) >= 25:
            break
        founds = {f"f{j}": up_to(s, RANKS[h - 1]) for j, s in enumerate("SHDC")
                  if (h := rng.randint(7, 13))}
        done = {c for f in founds.values() for c in cards(f)}
        kept = [c for c in engine.pack(1) if c not in done]
        if not 8 <= len(kept) <= 13:
            continue
        rng.shuffle(kept)
        # every packet holds a card, so that empty places do not make every ending easy
        piles: dict[str, list[Card]] = {f"p{i}": [kept[i]] for i in range(6)}
        piles["bq"] = []
        for c in kept[6:]:
            piles[rng.choice(list(piles))].append(c)
        spec = {k: " ".join(map(str, v)) for k, v in piles.items()}
        for opts in (None, RUNS):
            h = game({**founds, **spec}, rest_to="p0", options=opts)
            if h.playable(h.state) is not None:
                break
            verdict = h.outcome()
            assert verdict is not Outcome.WON
            assert (verdict is Outcome.LOST) is (not _reachable(h))
            checked[str(opts)] += 1
    assert len(checked) == 2 and min(checked.values()) >= 25, checked


def test_losses_reached_by_random_play_are_confirmed_by_brute_force() -> None:
    """Random games played until the board calls them lost: an exhaustive search through
    the engine's own legal moves finds no play either. (Games whose exhaustive search is
    small enough to run here, chosen once by their deal numbers.)"""
    for seed, opts in [(0, None), (1, None), (2, None), (4, None), (5, None), (7, None),
                       (8, None), (10, None), (14, None), (3, RUNS), (7, RUNS), (8, RUNS),
                       (10, RUNS), (12, RUNS)]:
        rng = random.Random(seed)
        g = engine.new_game(SLUG, seed=seed, options=opts)
        for _ in range(400):
            if g.outcome() is not None:
                break
            moves = g.legal_moves()
            plays = [m for m in moves if m.steps[0][1].startswith("f")]
            g.play(rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(moves))
        assert g.outcome() is Outcome.LOST, (seed, opts)
        assert _reachable(g, cap=3000) is False, (seed, opts)


def _reachable(g: TheFlowerGarden, cap: int = 10**6) -> bool | None:
    """Whether some series of the engine's legal moves reaches a play (breadth first);
    None when more than ``cap`` positions would have to be looked at."""
    start = g.state
    seen = {start}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        if g.playable(s) is not None:
            return True
        for m in g.candidate_moves(s):
            if g.refusal(s, m) is None:
                t = g.apply(s, m)
                if t not in seen:
                    if len(seen) >= cap:
                        return None
                    seen.add(t)
                    todo.append(t)
    return False


def test_a_tangle_too_large_to_search_is_left_to_the_player() -> None:
    assert 500 <= SEARCH_LIMIT <= 5000
    g = engine.new_game(SLUG, seed=1)  # nothing playable at once, a whole game ahead
    assert g.playable(g.state) is None
    assert g.outcome() is None


def test_random_play_ends_and_every_end_is_judged() -> None:
    rng = random.Random(5)
    ends: Counter[Outcome | None] = Counter()
    for seed in range(12):
        g = engine.new_game(SLUG, seed=seed)
        for _ in range(500):
            if g.outcome() is not None:
                break
            moves = g.legal_moves()
            plays = [m for m in moves if m.steps[0][1].startswith("f")]
            g.play(rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(moves))
        ends[g.outcome()] += 1
    assert ends[Outcome.LOST] >= 6


# ----------------------------------------------------------------------------- positions

def test_a_foundation_out_of_order_is_not_a_position() -> None:
    g = game({"f0": "AS 2S"})
    text = g.position()
    assert engine.load_position(text).state == g.state
    with pytest.raises(PositionError):
        engine.load_position(text.replace("f0:AS.2S", "f0:2S.AS"))
    with pytest.raises(PositionError):
        engine.load_position(game({"f0": "AS 2H"}).position())


def test_a_game_replays_from_its_position() -> None:
    g = engine.new_game(SLUG, seed=4242, options=RUNS)
    rng = random.Random(1)
    for _ in range(40):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(rng.choice(moves))
    for compact in (False, True):
        h = engine.load_position(g.position(compact=compact))
        assert h.state == g.state and h.move_stack == g.move_stack


# ----------------------------------------------------------------------------- the board

def test_status_line_counts_the_bouquet_and_the_foundations() -> None:
    g = engine.new_game(SLUG, seed=9)
    text = g.status_of(g.state)
    assert "Bouquet: 16 cards" in text and "0 of 52" in text


@pytest.mark.rules("the-flower-garden-rule-2")
def test_a_refusal_names_the_foundation_in_full() -> None:
    # The board labels each place by its suit alone, to fit a phone.
    assert [PILES[f].label for f in FOUNDATION_PILES] == ["spades", "hearts", "diamonds",
                                                          "clubs"]
    g = game({"p0": "AH", "bq": "2S"})
    with pytest.raises(engine.IllegalMove, match="spades foundation takes only spades"):
        g.play("p0-f0")
    with pytest.raises(engine.IllegalMove, match="spades foundation must begin with an ace"):
        g.play("bq-f0")


def test_describe_says_what_each_move_does() -> None:
    g = game({"p0": "9S", "p1": "10S", "p2": "", "bq": "AH 8D"}, rest_to="p3")
    assert g.describe(g.state, Move.parse("p0-p1")) == (
        "The nine of spades from packet 1 is placed on the ten of spades in packet 2.")
    assert g.describe(g.state, Move.parse("bq:0-f1")) == (
        "The ace of hearts is played from the Bouquet to the hearts foundation.")
    assert g.describe(g.state, Move.parse("bq-p2")) == (
        "The eight of diamonds from the Bouquet begins a new packet in the place of packet 3.")
    r = game({"p0": "9S 8H", "p1": "10C"}, options=RUNS)
    assert r.describe(r.state, Move.parse("p0:0-p1")) == (
        "The sequence from the nine of spades down to the eight of hearts is transferred "
        "from packet 1 onto the ten of clubs in packet 2.")


def test_run_start_finds_the_descending_sequence_on_top() -> None:
    assert run_start(cards("KD 9C 8H 7S")) == 1
    assert run_start(cards("9C 8H 9S")) == 2
    assert run_start(cards("5C")) == 0


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = FlowerGardenOptions(transfer=Transfer.RUNS)
    text = engine.options_to_text(o)
    assert text == RUNS
    assert engine.options_from_text(FlowerGardenOptions, text) == o
    assert engine.options_to_text(FlowerGardenOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(FlowerGardenOptions, "transfer:all")


def test_every_option_names_its_note() -> None:
    for d in engine.describe_options(FlowerGardenOptions):
        assert d["note"].startswith("note-fg-")
        assert len(d["choices"]) >= 2
        assert d["default"] in {c["value"] for c in d["choices"]}
