"""The Square: every rule, every refusal (with the rule id it cites), the deal, the end."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import ACE, SUITS
from engine.deal import shuffled
from engine.square import (
    FOUNDATION_PILES, SQUARE_PILES, STOCK, TALON_PILE, TURNED, TheSquare, next_rank,
)
from engine.solver import Budget, solve
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule
from tests.engine.test_solver import exhaustive, replay

SLUG = "the-square"
R = f"{SLUG}-"
# Sixteen cards for the Square on which nothing marries by chance (no two a rank apart).
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()


def game(piles: dict[str, str], **kw: object) -> TheSquare:
    """A position with the places of the Square the test leaves out filled with cards on
    which nothing marries by chance (nines and fives, then queens and sevens, as copies
    remain), the rest of the cards at the bottom of the pack; loaded through
    ``engine.load_position`` with an explicit start, so that the position itself is
    checked."""
    given = dict(piles)
    used = Counter(c for text in given.values() for c in cards(text))
    tops = [cards(given[f"s{i}"])[-1] for i in range(16) if given.get(f"s{i}")]
    spare = iter(c for t in FILL_ORDER for c in cards(t))
    for i in range(16):
        if f"s{i}" in given:
            continue
        for c in spare:
            if used[c] < 2 and not any(c.suit is t.suit and abs(c.rank - t.rank) == 1
                                       for t in tops):
                used[c] += 1
                tops.append(c)
                given[f"s{i}"] = str(c)
                break
    made = make_game(SLUG, given, **kw)  # type: ignore[arg-type]
    g = engine.load_position(made.position())
    assert isinstance(g, TheSquare) and g.state == made.state
    return g


FILL_ORDER = ["9S 9S 9H 9H 9D 9D 9C 9C 5S 5S 5H 5H 5D 5D 5C 5C",
              "QS QS QH QH QD QD QC QC 7S 7S 7H 7H 7D 7D 7C 7C"]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def up_to(suit: str, last: str) -> str:
    """A foundation from its ace up to rank ``last``."""
    return " ".join(r + suit for r in RANKS[:RANKS.index(last) + 1])


def down_to(suit: str, last: str) -> str:
    """A foundation up to its king and down again to rank ``last``."""
    down = RANKS[RANKS.index(last):][::-1]
    return " ".join([up_to(suit, "K")] + [r + suit for r in down])


FOUR = {"f0": "AS", "f1": "AH", "f2": "AD", "f3": "AC"}


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-square-square", "the-square-aces")
def test_deal_lays_sixteen_cards_and_sends_the_first_aces_to_the_corners() -> None:
    seen_ace = seen_second = 0
    for seed in range(60):
        g = engine.new_game(SLUG, seed=seed)
        s = g.state
        deck = list(shuffled(engine.pack(2), seed))
        assert Counter(s.all_cards()) == Counter(engine.pack(2))
        assert all(len(s.piles[i]) == 1 for i in SQUARE_PILES)
        # replay the deal by hand: the first ace of each suit goes to the next corner
        founded: list[Card] = []
        square: list[Card] = []
        while len(square) < 16:
            c = deck.pop()
            if c.rank == ACE and c not in founded:
                founded.append(c)
            else:
                seen_second += c.rank == ACE
                square.append(c)
        assert [s.piles[i][0] for i in SQUARE_PILES] == square
        assert [s.piles[f] for f in FOUNDATION_PILES] == [
            (c,) for c in founded] + [()] * (4 - len(founded))
        assert s.piles[STOCK] == tuple(deck)
        assert not s.piles[TURNED] and not s.piles[TALON_PILE]
        seen_ace += bool(founded)
    assert seen_ace > 20 and seen_second > 0


@pytest.mark.rules("the-square-square")
def test_deal_numbers_give_the_same_deal_and_the_position_round_trips() -> None:
    a = engine.new_game(SLUG, seed=12345)
    b = engine.load_position(a.position())
    assert a.state == b.state
    c = engine.load_position(a.position(compact=True))
    assert c.state == a.state and c.deal == 12345
    assert engine.new_game(SLUG, seed=12346).state != a.state


# ----------------------------------------------------------------------------- the aces

@pytest.mark.rules("the-square-aces", "the-square-deal")
def test_an_ace_turned_up_from_the_pack_goes_at_once_to_the_first_empty_corner() -> None:
    g = game({"f0": "AS", "stock": "AD"})
    g.play("deal")
    assert g.state.piles[1] == cards("AD")
    assert not g.state.piles[TURNED] and not g.state.piles[TALON_PILE]


@pytest.mark.rules("the-square-aces", "the-square-talon")
def test_the_second_ace_of_a_suit_is_an_ordinary_card() -> None:
    g = game({"f0": up_to("S", "3"), "f1": "AH", "stock": "AS"})
    g.play("deal")
    # it cannot begin another foundation, nor be played or married: it goes to the talon
    assert g.state.piles[TALON_PILE] == cards("AS")
    assert not g.state.piles[2]
    g2 = game({"f0": "AS", "s0": "2S", "stock": "AS"})
    g2.play("deal")  # it marries on the two: held, to be used
    assert g2.state.piles[TURNED] == cards("AS")
    assert refusal_rule(g2, "turned-f1") == R + "aces"


@pytest.mark.rules("the-square-aces", "the-square-refill")
def test_an_ace_dealt_into_a_space_goes_to_a_corner_and_the_next_card_fills_it() -> None:
    # a space with the pack as its only source is refilled at once by the board
    g = game({"f0": up_to("S", "8"), "s0": "9S", "stock": "4H AH"})
    g.play("s0-f0")
    assert g.state.piles[1] == cards("AH")
    assert g.state.piles[SQUARE_PILES[0]] == cards("4H")


@pytest.mark.rules("the-square-aces")
def test_an_empty_corner_takes_no_card_from_the_player() -> None:
    g = game({"f0": "AS", "s0": "2H"})
    assert refusal_rule(g, "s0-f1") == R + "aces"


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("the-square-rule-1")
def test_the_foundations_follow_suit() -> None:
    g = game({"f0": "AS", "s0": "2H", "f1": "AH"})
    assert refusal_rule(g, "s0-f0") == R + "rule-1"
    g.play("s0-f1")
    assert g.state.piles[1] == cards("AH 2H")


@pytest.mark.rules("the-square-rule-2", "the-square-foundations", "the-square-play")
def test_the_foundations_ascend_in_sequence_from_the_square() -> None:
    g = game({"f0": "AS 2S", "s0": "4S", "s1": "3S"})
    assert refusal_rule(g, "s0-f0") == R + "rule-2"
    g.play("s1-f0")
    g.play("s0-f0")
    assert g.state.piles[0] == cards("AS 2S 3S 4S")


@pytest.mark.rules("the-square-rule-2", "the-square-foundations")
def test_a_second_king_goes_on_the_first_and_the_foundation_descends_to_the_ace() -> None:
    g = game({"f0": up_to("S", "K"), "s0": "KS", "s1": "QS", "s2": "JS"})
    assert refusal_rule(g, "s1-f0") == R + "rule-2"  # the queen waits for the second king
    g.play("s0-f0")
    assert refusal_rule(g, "s2-f0") == R + "rule-2"  # down: the queen first
    g.play("s1-f0")
    g.play("s2-f0")
    assert g.state.piles[0][-4:] == cards("KS KS QS JS")
    whole = cards(down_to("S", "A"))
    assert [next_rank(whole[:k]) for k in (0, 12, 13, 14, 25, 26)] == [
        1, 13, 13, 12, 1, None]


@pytest.mark.rules("the-square-rule-2")
def test_by_default_each_foundation_turns_at_its_own_king() -> None:
    g = game({"f0": up_to("S", "K"), "f1": "AH", "s0": "KS"})
    g.play("s0-f0")
    assert g.state.piles[0][-2:] == cards("KS KS")


@pytest.mark.rules("the-square-rule-2", "the-square-deal")
def test_under_the_other_reading_the_second_kings_wait_for_all_four() -> None:
    g = game({"f0": up_to("S", "K"), "f1": "AH", "s0": "KS"}, options="descent:all")
    assert refusal_rule(g, "s0-f0") == R + "rule-2"
    full = {"f0": up_to("S", "K"), "f1": up_to("H", "K"), "f2": up_to("D", "K"),
            "f3": up_to("C", "K"), "s0": "KS"}
    g2 = game(full, options="descent:all")
    g2.play("s0-f0")
    assert g2.state.piles[0][-2:] == cards("KS KS")


@pytest.mark.rules("the-square-foundations")
def test_cards_on_the_foundations_stay_there() -> None:
    g = game({"f0": "AS 2S", "s0": "3S"})
    assert refusal_rule(g, "f0-s0") == R + "foundations"


@pytest.mark.rules("the-square-rule-2", "the-square-succeeds")
def test_a_finished_foundation_takes_nothing_more() -> None:
    g = game({"f0": down_to("S", "A"), "f1": "AH", "s0": "2H"})
    assert refusal_rule(g, "s0-f0") == R + "rule-1"
    assert g.takes(g.state, 0, Card.parse("AS")) is False


# ----------------------------------------------------------------------------- marriages

@pytest.mark.rules("the-square-marry")
def test_cards_marry_on_the_square_one_above_or_one_below_in_suit() -> None:
    g = game({"f0": "AS", "s0": "7C", "s1": "8C", "s2": "6C", "s3": "8H"})
    legal = {str(m) for m in g.legal_moves()}
    assert {"s0-s1", "s0-s2", "s1-s0", "s2-s0"} <= legal
    assert refusal_rule(g, "s3-s0") == R + "marry"   # another suit
    assert refusal_rule(g, "s1-s2") == R + "marry"   # two apart
    g.play("s0-s1")                                  # descending line
    assert g.state.piles[SQUARE_PILES[1]] == cards("8C 7C")
    g.play("s2-s1")                                  # and on, the six on the seven


@pytest.mark.rules("the-square-marry", "the-square-reverse")
def test_a_marriage_may_turn_the_direction_of_a_packet() -> None:
    # a ten on a nine that lies on a ten: the author puts "either an eight or a ten" on a nine
    g = game({"f0": "AS", "s0": "10H 9H", "s1": "10H"})
    g.play("s1-s0")
    assert g.state.piles[SQUARE_PILES[0]] == cards("10H 9H 10H")


@pytest.mark.rules("the-square-reverse")
def test_a_sequence_is_reversed_card_by_card_onto_another_packet() -> None:
    g = game({"f0": "AS", "s0": "10D 9D", "s1": "5D 6D 7D 8D", "stock": "4S"})
    for _ in range(3):
        g.play("s1-s0")
    assert g.state.piles[SQUARE_PILES[0]] == cards("10D 9D 8D 7D 6D")
    assert g.state.piles[SQUARE_PILES[1]] == cards("5D")
    # the last card of the sequence leaves a space, refilled at once from the pack
    g.play("s1-s0")
    assert g.state.piles[SQUARE_PILES[0]][-1] == Card.parse("5D")
    assert g.state.piles[SQUARE_PILES[1]] == cards("4S")


@pytest.mark.rules("the-square-reverse")
def test_only_the_top_card_of_a_packet_moves() -> None:
    g = game({"f0": "AS 2S", "s0": "3S 4S"})
    assert refusal_rule(g, "s0:0-f0") == R + "reverse"


@pytest.mark.rules("the-square-care")
def test_the_board_lets_cards_block_each_other() -> None:
    # burying the three of spades under the four is allowed: the care is the player's
    g = game({"f0": "AS 2S", "s0": "3S", "s1": "4S"})
    g.play("s1-s0")
    assert g.state.piles[SQUARE_PILES[0]] == cards("3S 4S")


@pytest.mark.rules("the-square-marry", "the-square-talon", "the-square-deal")
def test_the_card_turned_up_and_the_talon_top_marry_on_the_square() -> None:
    g = game({"f0": "AS", "s0": "7C", "talon": "8C 2H", "stock": "6C"})
    g.play("deal")
    assert g.state.piles[TURNED] == cards("6C")
    g.play("turned-s0")
    assert refusal_rule(g, "talon:0-s0") == R + "talon"
    g.play("deal")  # the two of hearts to the talon
    assert g.state.piles[TALON_PILE][-1] != Card.parse("8C")


@pytest.mark.rules("the-square-marry", "the-square-refill")
def test_nothing_is_married_into_an_empty_place() -> None:
    # the pack, the card turned up and the talon are spent: the space stays empty
    piles = {"f0": down_to("S", "3"), "f1": down_to("H", "A"), "f2": down_to("D", "A"),
             "f3": down_to("C", "A"), "s1": "2S", "s2": "AS", "stock": "", "talon": ""}
    g = engine.load_position(make_game(SLUG, piles, rest_to="s3").position())
    assert refusal_rule(g, "s2-s0") == R + "refill"
    g.play("s1-f0")
    g.play("s2-f0")
    assert g.outcome() is Outcome.WON


# ----------------------------------------------------------------------------- refilling

@pytest.mark.rules("the-square-refill", "the-square-play")
def test_a_space_with_only_the_pack_to_fill_it_is_refilled_at_once() -> None:
    g = game({"f0": "AS", "s0": "2S", "stock": "7H"})
    g.play("s0-f0")
    assert g.state.piles[SQUARE_PILES[0]] == cards("7H")


@pytest.mark.rules("the-square-refill")
def test_a_space_must_be_refilled_before_anything_else_from_pack_or_talon() -> None:
    g = game({"f0": "AS", "s0": "2S", "s1": "3S", "talon": "7H", "stock": "8D"})
    g.play("s0-f0")
    assert not g.state.piles[SQUARE_PILES[0]]
    legal = {str(m) for m in g.legal_moves()}
    assert legal == {"stock-s0", "talon-s0"}
    assert refusal_rule(g, "s1-f0") == R + "refill"
    assert refusal_rule(g, "deal") == R + "refill"
    assert refusal_rule(g, "s1-s0") == R + "refill"  # never from the Square
    g.play("talon-s0")
    assert g.state.piles[SQUARE_PILES[0]] == cards("7H")
    g.play("s1-f0")


@pytest.mark.rules("the-square-refill", "the-square-deal")
def test_the_card_turned_up_or_the_pack_may_fill_a_space() -> None:
    g = game({"f0": "AS", "s0": "2S", "s1": "4H", "stock": "8D 3H"})
    g.play("deal")  # the three of hearts marries on the four: held
    g.play("s0-f0")
    assert {str(m) for m in g.legal_moves()} == {"stock-s0", "turned-s0"}
    g.play("stock-s0")
    assert g.state.piles[SQUARE_PILES[0]] == cards("8D")
    assert g.state.piles[TURNED] == cards("3H")


@pytest.mark.rules("the-square-refill")
def test_with_only_the_talon_left_it_refills_the_space_at_once() -> None:
    g = game({**FOUR, "s0": "2S", "stock": "", "talon": "JD"}, rest_to="talon")
    before = len(g.state.piles[TALON_PILE])
    g.play("s0-f0")
    assert g.state.piles[SQUARE_PILES[0]] == cards("JD")
    assert len(g.state.piles[TALON_PILE]) == before - 1


# ----------------------------------------------------------------------------- the talon

@pytest.mark.rules("the-square-talon", "the-square-deal")
def test_an_unsuitable_card_turned_up_goes_to_the_talon_at_once() -> None:
    g = game({"f0": "AS", "stock": "QH"})
    g.play("deal")
    assert g.state.piles[TALON_PILE] == cards("QH")
    assert not g.state.piles[TURNED]


@pytest.mark.rules("the-square-talon", "the-square-deal")
def test_a_suitable_card_turned_up_must_be_used_before_the_next_is_turned() -> None:
    g = game({"f0": "AS", "stock": "4D 2S"})
    g.play("deal")
    assert g.state.piles[TURNED] == cards("2S")
    assert refusal_rule(g, "deal") == R + "deal"
    assert refusal_rule(g, "turned-talon") == R + "talon"
    g.play("turned-f0")
    g.play("deal")


@pytest.mark.rules("the-square-talon", "the-square-deal")
def test_a_card_in_hand_left_without_a_place_may_be_laid_on_the_talon() -> None:
    g = game({"f0": "AS", "f1": up_to("H", "6"), "s0": "7H", "stock": "4D 7H"})
    g.play("deal")  # the second seven of hearts could be played: held
    assert g.state.piles[TURNED] == cards("7H")
    g.play("s0-f1")  # the other seven goes instead
    g.play("stock-s0")
    assert refusal_rule(g, "deal") == R + "deal"
    g.play("turned-talon")  # now unsuitable, it joins the talon
    assert g.state.piles[TALON_PILE] == cards("7H")
    g.play("deal")


@pytest.mark.rules("the-square-talon")
def test_under_the_other_reading_a_suitable_card_may_be_laid_aside() -> None:
    g = game({"f0": "AS", "stock": "4D 2S"}, options="turned_card:no")
    g.play("deal")
    g.play("turned-talon")
    assert g.state.piles[TALON_PILE] == cards("2S")


@pytest.mark.rules("the-square-talon")
def test_only_cards_turned_up_go_to_the_talon_and_only_its_top_is_used() -> None:
    g = game({"f0": "AS 2S", "s0": "3D", "talon": "3S 9C"})
    assert refusal_rule(g, "s0-talon") == R + "talon"
    assert refusal_rule(g, "talon:0-f0") == R + "talon"


@pytest.mark.rules("the-square-deal")
def test_the_pack_is_dealt_from_its_top_only() -> None:
    g = game({"f0": "AS", "stock": "2S 9C"})
    assert refusal_rule(g, "stock-f0") == R + "deal"
    assert refusal_rule(g, "stock:0-f0") == R + "deal"
    assert refusal_rule(g, "s0-turned") == R + "deal"


# ----------------------------------------------------------------------------- no re-deal, the end

@pytest.mark.rules("the-square-no-redeal")
def test_there_is_no_re_deal() -> None:
    g = game({**FOUR, "stock": "", "talon": "9C"}, rest_to="talon")
    assert refusal_rule(g, "deal") == R + "no-redeal"
    assert refusal_rule(g, "redeal") == R + "no-redeal"
    assert not [a for a in TheSquare.ACTIONS if a.move == "redeal"]


def _finished_but(piles: dict[str, str]) -> dict[str, str]:
    return {"f0": down_to("S", "A"), "f1": down_to("H", "A"), "f2": down_to("D", "A"),
            "f3": down_to("C", "A"), **piles}


@pytest.mark.rules("the-square-succeeds")
def test_the_game_is_won_when_the_four_foundations_end_with_their_aces() -> None:
    start = make_game(SLUG, _finished_but({"f3": down_to("C", "2")}), rest_to="s0")
    # every card but the last ace of clubs on the foundations; that ace alone in the Square
    g = engine.load_position(start.position())
    assert g.outcome() is None
    g.play("s0-f3")
    assert g.outcome() is Outcome.WON
    assert "Won" in g.status_of(g.state)


LOST_SQUARE = {f"s{i}": c for i, c in enumerate(
    "4S 4S 9S 9S QS QS 4H 9H 6H 4D 9D 6D 4C 9C 6C JH".split())}
LOST_FOUNDATIONS = {"f0": "AS", "f1": up_to("H", "K"), "f2": up_to("D", "K"),
                    "f3": up_to("C", "K")}


def end_game(talon: str, **kw: object) -> TheSquare:
    made = make_game(SLUG, {**LOST_FOUNDATIONS, **LOST_SQUARE, "stock": "", "talon": talon},
                     rest_to="talon", **kw)  # type: ignore[arg-type]
    g = engine.load_position(made.position())
    assert isinstance(g, TheSquare)
    return g


@pytest.mark.rules("the-square-succeeds", "the-square-no-redeal", "the-square-care")
def test_the_game_is_lost_when_no_card_can_reach_a_foundation() -> None:
    # the pack exhausted; no top card is wanted, none marries, the talon's top is stuck
    g = end_game("2D")
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)
    # the same, but the talon's eight of spades marries on a nine and uncovers the two
    g2 = end_game("2S 8S")
    assert g2.outcome() is None
    g2.play("talon-s2")
    g2.play("talon-f0")
    assert g2.state.piles[0] == cards("AS 2S")


@pytest.mark.rules("the-square-no-redeal")
def test_no_loss_is_declared_while_the_pack_lasts() -> None:
    g = game({"f0": "AS", "stock": "QH"})
    assert g.outcome() is None
    g.play("deal")
    assert g.outcome() is None


# ----------------------------------------------------------------------------- the solver

def _nearly_done(piles: dict[str, str]) -> TheSquare:
    """Every card on the foundations but the second three, two and ace of spades and the
    second two and ace of hearts, which lie in the Square as the test places them; the pack
    and the talon exhausted."""
    base = {"f0": down_to("S", "4"), "f1": down_to("H", "3"), "f2": down_to("D", "A"),
            "f3": down_to("C", "A"), "stock": "", "talon": "", "turned": ""}
    made = make_game(SLUG, base | piles, rest_to="s15")
    g = engine.load_position(made.position())
    assert isinstance(g, TheSquare)
    return g


@pytest.mark.rules("the-square-succeeds", "the-square-reverse")
@pytest.mark.parametrize("piles, want", [
    ({"s0": "3S 2S", "s1": "AS", "s2": "AH 2H"}, True),      # the two onto the ace, then up
    ({"s0": "3S 2S", "s1": "AS", "s2": "2H AH"}, False),     # the ace of hearts on its two
    ({"s0": "3S 2S AS", "s1": "2H", "s2": "AH"}, False),     # the three buried for good
    ({"s0": "3S 2S AS", "s1": "AH 2H"}, False),              # the hearts go; the spades stay
])
def test_verdicts_on_small_end_positions(piles: dict[str, str], want: bool) -> None:
    """Positions with a few cards left, judged by the solver, by a plain exhaustive search,
    and, for every position reachable, the board's own verdict (a LOST is a proof)."""
    g = _nearly_done(piles)
    assert exhaustive(g, 100_000) is want
    found = solve(g, Budget(nodes=5000))
    assert found.verdict == ("won" if want else "lost")
    if want:
        assert replay(g, found.line).outcome() is Outcome.WON
    search = check_verdicts(g)
    assert search.winnable is want
    if not want:
        assert search.lost > 0
