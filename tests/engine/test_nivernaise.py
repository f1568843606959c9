"""La Nivernaise: every rule, every refusal (with the rule id it cites)."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome
from engine.nivernaise import (
    ASC, DESC, FLANKS, LINE, STOCK, LaNivernaise, NivernaiseOptions, ExaminedUse, ExamineCount,
    DealTiming, Pickup,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "la-nivernaise"
R = f"{SLUG}-"
FULL_FLANKS = {f"f{i}": c for i, c in enumerate("5S 6S 7S 8S 5D 6D 7D 8D".split())}


def game(piles: dict[str, str], **kw: object) -> LaNivernaise:
    g = make_game(SLUG, piles, **kw)  # type: ignore[arg-type]
    assert isinstance(g, LaNivernaise)
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("la-nivernaise-layout", "la-nivernaise-line")
def test_deal_lays_out_flanks_line_and_pack() -> None:
    g = engine.new_game(SLUG, seed=7)
    s = g.state
    assert [len(s.piles[i]) for i in FLANKS] == [1] * 8
    assert [len(s.piles[i]) for i in LINE] == [4] * 6
    assert len(s.piles[STOCK]) == 72
    assert all(not s.piles[i] for i in ASC) and all(not s.piles[i] for i in DESC)
    assert Counter(s.all_cards()) == Counter(engine.pack(2))


def test_same_deal_number_same_deal_and_different_numbers_differ() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (5, 5, 6))
    assert a == b
    assert a != c


@pytest.mark.rules("la-nivernaise-line", "la-nivernaise-rounds")
def test_packet_is_four_cards_dealt_together_turned_up() -> None:
    # The pack's top card (the last) ends at the bottom of the face-up block.
    g = game({"stock": "2C 3C 4C 5C"}, options=None)
    s = g.apply(g.state, Move(action="deal"))
    assert s.piles[LINE[0]][-4:] == cards("5C 4C 3C 2C")


# ----------------------------------------------------------------------------- Rule I and II

@pytest.mark.rules("la-nivernaise-rule-1")
def test_rule_1_only_the_top_card_is_available() -> None:
    # one Flank vacancy: the card under the top of l0 is examined but not playable
    g = game({**FULL_FLANKS, "f0": "", "l0": "AS 2D"})
    assert refusal_rule(g, "l0:0-a0") == R + "rule-1"
    assert Move.parse("l0:0-a0") not in g.legal_moves()


@pytest.mark.rules("la-nivernaise-rule-2")
def test_rule_2_examined_cards_are_shown_as_many_as_vacancies() -> None:
    flanks = {**FULL_FLANKS, "f0": "", "f1": ""}
    g = game({**flanks, "l0": "2D 3D 4D 5D 6D"})
    faces = g.card_faces(g.state, LINE[0])
    # two vacancies: two cards beneath the top are shown (NI-2, default)
    assert [f.get("c") for f in faces] == [None, None, "4D", "5D", "6D"]
    assert [bool(f.get("peek")) for f in faces] == [False, False, True, True, False]
    g2 = game({**flanks, "l0": "2D 3D 4D 5D 6D"}, options="examine_count:with-top")
    faces2 = g2.card_faces(g2.state, LINE[0])
    assert [f.get("c") for f in faces2] == [None, None, None, "5D", "6D"]


@pytest.mark.rules("la-nivernaise-rule-2")
def test_no_vacancy_means_nothing_examined() -> None:
    g = game({**FULL_FLANKS, "l0": "2D 3D"})
    assert [f.get("c") for f in g.card_faces(g.state, LINE[0])] == [None, "3D"]


@pytest.mark.rules("la-nivernaise-rule-1", "la-nivernaise-rule-2")
def test_examined_card_may_be_played_under_the_digging_reading() -> None:
    g = game({**FULL_FLANKS, "f0": "", "l0": "AS 2D"}, options="examined_use:play")
    assert Move.parse("l0:0-a0") in g.legal_moves()
    g.play("l0:0-a0")
    assert g.state.piles[ASC[0]] == cards("AS")
    assert g.state.piles[LINE[0]] == cards("2D")
    # but not into a Flank vacancy under that reading
    g = game({**FULL_FLANKS, "f0": "", "l0": "AS 2D"}, options="examined_use:play")
    assert refusal_rule(g, "l0:0-f0") == R + "rule-1"
    g = game({**FULL_FLANKS, "f0": "", "l0": "AS 2D"}, options="examined_use:play-and-fill")
    g.play("l0:0-f0")
    assert g.state.piles[FLANKS[0]] == cards("AS")


@pytest.mark.rules("la-nivernaise-rule-2")
def test_rule_2_card_deeper_than_examined_is_refused() -> None:
    g = game({**FULL_FLANKS, "f0": "", "l0": "AS 3D 2D"}, options="examined_use:play")
    assert refusal_rule(g, "l0:0-a0") == R + "rule-2"


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("la-nivernaise-rule-3")
def test_rule_3_foundations_follow_suit() -> None:
    g = game({"f0": "AH"})
    assert refusal_rule(g, "f0-a0") == R + "rule-3"  # a0 is the spades pile
    g.play("f0-a1")
    assert g.state.piles[ASC[1]] == cards("AH")


@pytest.mark.rules("la-nivernaise-foundations")
def test_ascending_begins_with_ace_descending_with_king() -> None:
    g = game({"f0": "2S", "f1": "QS"})
    assert refusal_rule(g, "f0-a0") == R + "foundations"
    assert refusal_rule(g, "f1-k0") == R + "foundations"


@pytest.mark.rules("la-nivernaise-foundations")
def test_foundations_build_one_rank_at_a_time() -> None:
    g = game({"a0": "AS 2S", "k0": "KS", "f0": "3S", "f1": "4S", "f2": "QS", "f3": "JS"})
    assert refusal_rule(g, "f1-a0") == R + "foundations"
    assert refusal_rule(g, "f3-k0") == R + "foundations"
    g.play("f0-a0")
    g.play("f1-a0")
    g.play("f2-k0")
    g.play("f3-k0")
    assert [str(c) for c in g.state.piles[ASC[0]]] == ["AS", "2S", "3S", "4S"]
    assert [str(c) for c in g.state.piles[DESC[0]]] == ["KS", "QS", "JS"]


@pytest.mark.rules("la-nivernaise-foundations")
def test_second_ace_can_only_end_the_descending_pile() -> None:
    g = game({"a0": "AS", "k0": "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "f0": "AS"})
    assert refusal_rule(g, "f0-a0") == R + "foundations"
    g.play("f0-k0")
    assert len(g.state.piles[DESC[0]]) == 13


@pytest.mark.rules("la-nivernaise-foundations")
def test_complete_pile_takes_nothing() -> None:
    g = game({"a0": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "f0": "KS"})
    assert refusal_rule(g, "f0-a0") == R + "foundations"


# ----------------------------------------------------------------------------- sources

@pytest.mark.rules("la-nivernaise-sources")
def test_pack_never_plays_to_a_foundation() -> None:
    g = game({"stock": "AS"})
    assert refusal_rule(g, "stock-a0") == R + "sources"


@pytest.mark.rules("la-nivernaise-sources")
def test_flank_card_goes_only_to_a_foundation() -> None:
    g = game({"f0": "5D", "f1": ""})
    assert refusal_rule(g, "f0-f1") == R + "sources"
    assert refusal_rule(g, "f0-l0") == R + "sources"


@pytest.mark.rules("la-nivernaise-packet-refill")
def test_nothing_is_put_on_the_line() -> None:
    g = game({"f0": "", "l0": "5D", "l1": "6D"})
    assert refusal_rule(g, "l0-l1") == R + "packet-refill"


@pytest.mark.rules("la-nivernaise-exchange")
def test_foundation_cards_do_not_leave_the_foundations() -> None:
    g = game({"a0": "AS", "f0": ""})
    assert refusal_rule(g, "a0-f0") == R + "exchange"


def test_unknown_piles_and_empty_places_are_refused_on_the_board_rule() -> None:
    g = game({"f0": ""})
    assert refusal_rule(g, "f0-a0") == R + "board"
    assert refusal_rule(g, "zz9-a0") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"
    assert refusal_rule(g, "f1-a0+f2-a1") == R + "board"
    assert refusal_rule(g, "shuffle") == R + "board"


# ----------------------------------------------------------------------------- Flanks

@pytest.mark.rules("la-nivernaise-flank-fill")
def test_flank_vacancy_filled_from_pack_or_line_top() -> None:
    g = game({**FULL_FLANKS, "f0": "", "f1": "", "stock": "7H", "l2": "2C 8C"})
    g.play("stock-f0")
    assert g.state.piles[FLANKS[0]] == cards("7H")
    g.play("l2-f1")
    assert g.state.piles[FLANKS[1]] == cards("8C")
    assert g.state.piles[LINE[2]] == cards("2C")


@pytest.mark.rules("la-nivernaise-flank-fill")
def test_occupied_flank_cannot_be_filled() -> None:
    g = game({"f0": "5D", "l0": "6D"})
    assert refusal_rule(g, "l0-f0") == R + "flank-fill"
    assert refusal_rule(g, "stock-f0") == R + "flank-fill"


@pytest.mark.rules("la-nivernaise-flank-fill")
def test_vacancies_may_be_left_open() -> None:
    g = game({**FULL_FLANKS, "f0": "", "l0": "AS"})
    g.play("l0-a0")  # the game goes on with the vacancy open
    assert not g.state.piles[FLANKS[0]]


# ----------------------------------------------------------------------------- packets

@pytest.mark.rules("la-nivernaise-packet-refill")
def test_packet_played_off_is_replaced_by_four_cards_at_once() -> None:
    g = game({"f0": "", "l3": "AS", "stock": "2C 3C 4C 5C 6C"})
    g.play("l3-a0")
    assert g.state.piles[LINE[3]] == cards("6C 5C 4C 3C")
    assert g.state.piles[STOCK][-1] == Card.parse("2C")


@pytest.mark.rules("la-nivernaise-packet-refill")
def test_packet_emptied_into_a_flank_is_replaced_too() -> None:
    g = game({**FULL_FLANKS, "f0": "", "l3": "10C", "stock": "2C 3C 4C 5C 6C"})
    g.play("l3-f0")
    assert len(g.state.piles[LINE[3]]) == 4


@pytest.mark.rules("la-nivernaise-packet-refill")
def test_packet_played_off_with_short_or_empty_pack() -> None:
    g = game({"l3": "AS", "stock": "2C 3C"}, rest_to="l5")
    g.play("l3-a0")
    assert g.state.piles[LINE[3]] == cards("3C 2C")
    assert not g.state.piles[STOCK]
    g = game({"l3": "2S", "a0": "AS", "stock": ""}, rest_to="l5")
    g.play("l3-a0")
    assert not g.state.piles[LINE[3]]


@pytest.mark.rules("la-nivernaise-packet-refill")
def test_single_cards_are_not_replaced() -> None:
    g = game({"l3": "7C AS"})
    n = len(g.state.piles[STOCK])
    g.play("l3-a0")
    assert g.state.piles[LINE[3]] == cards("7C")
    assert len(g.state.piles[STOCK]) == n


# ----------------------------------------------------------------------------- rounds

@pytest.mark.rules("la-nivernaise-rounds")
def test_deal_a_round_puts_four_on_each_packet() -> None:
    g = engine.new_game(SLUG, seed=3)
    before = [len(g.state.piles[i]) for i in LINE]
    g.play("deal")
    assert [len(g.state.piles[i]) for i in LINE] == [n + 4 for n in before]
    assert len(g.state.piles[STOCK]) == 72 - 24


@pytest.mark.rules("la-nivernaise-rounds")
def test_short_last_round_deals_from_the_left() -> None:
    g = game({"stock": "2C 3C 4C 5C 6C 7C"}, rest_to="l5")
    l5 = len(g.state.piles[LINE[5]])
    g.play("deal")
    assert g.state.piles[LINE[0]][-4:] == cards("7C 6C 5C 4C")
    assert g.state.piles[LINE[1]] == cards("3C 2C")
    assert [len(g.state.piles[i]) for i in LINE[2:]] == [0, 0, 0, l5]


@pytest.mark.rules("la-nivernaise-rounds")
def test_no_round_when_the_pack_is_used_up() -> None:
    g = game({"stock": ""}, rest_to="l0")
    assert refusal_rule(g, "deal") == R + "rounds"


@pytest.mark.rules("la-nivernaise-rounds")
def test_strict_timing_deals_only_when_nothing_can_be_played() -> None:
    g = game({"f0": "AS", "l0": "5H", "stock": "2C 3C"}, rest_to="l0",
             options="deal_timing:stuck")
    assert refusal_rule(g, "deal") == R + "rounds"
    g.play("f0-a0")
    g.play("deal")


# ----------------------------------------------------------------------------- re-deal

def _line_game(**kw: object) -> LaNivernaise:
    piles = {"l0": "2C 3C", "l1": "4C", "l2": "5C 6C", "l3": "", "l4": "7C", "l5": "8C 9C",
             "stock": ""}
    return game(piles, rest_to="f0", **kw)  # type: ignore[arg-type]


@pytest.mark.rules("la-nivernaise-redeal")
def test_redeal_only_when_the_pack_is_used_up() -> None:
    g = game({"stock": "2C"})
    assert refusal_rule(g, "redeal") == R + "redeal"


@pytest.mark.rules("la-nivernaise-rule-4", "la-nivernaise-redeal")
def test_redeal_takes_up_the_line_from_the_left_each_packet_under_the_last() -> None:
    g = _line_game()
    g.play("redeal")
    s = g.state
    # taken up l0 first, the others underneath, turned: l5's lowest card comes out first
    dealt = [s.piles[i] for i in LINE]
    order = [c for p in dealt for c in p]  # each block in the order it left the pack
    assert [str(c) for c in order] == ["8C", "9C", "7C", "5C", "6C", "4C", "2C", "3C"]
    assert [len(p) for p in dealt] == [4, 4, 0, 0, 0, 0]
    assert g.var(s, "redeals") == 1


@pytest.mark.rules("la-nivernaise-rule-4")
def test_redeal_the_other_pickup_deals_the_left_packet_first() -> None:
    g = _line_game(options="pickup:over")
    g.play("redeal")
    order = [c for i in LINE for c in g.state.piles[i]]
    assert [str(c) for c in order] == ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]


@pytest.mark.rules("la-nivernaise-redeal")
def test_redeal_keeps_flanks_and_foundations() -> None:
    g = _line_game()
    flanks = [g.state.piles[i] for i in FLANKS]
    g.play("redeal")
    assert [g.state.piles[i] for i in FLANKS] == flanks


@pytest.mark.rules("la-nivernaise-one-redeal")
def test_only_one_redeal() -> None:
    g = _line_game()
    g.play("redeal")
    while g.state.piles[STOCK]:
        g.play("deal")
    assert refusal_rule(g, "redeal") == R + "one-redeal"


@pytest.mark.rules("la-nivernaise-redeal")
def test_redeal_of_an_empty_line_is_refused() -> None:
    g = game({"stock": "", **{f"l{i}": "" for i in range(6)}}, rest_to="f0")
    assert refusal_rule(g, "redeal") == R + "redeal"


# ----------------------------------------------------------------------------- exchange

@pytest.mark.rules("la-nivernaise-exchange")
def test_exchange_between_met_piles_one_card_at_a_time() -> None:
    g = game({"a1": "AH 2H 3H 4H 5H 6H 7H", "k1": "KH QH JH 10H 9H 8H"})
    g.play("a1-k1")
    assert g.state.piles[ASC[1]][-1] == Card.parse("6H")
    assert g.state.piles[DESC[1]][-1] == Card.parse("7H")
    g.play("k1-a1")
    g.play("k1-a1")
    assert g.state.piles[ASC[1]][-1] == Card.parse("8H")


@pytest.mark.rules("la-nivernaise-exchange")
def test_exchange_refused_when_piles_have_not_met() -> None:
    g = game({"a1": "AH 2H", "k1": "KH QH"})
    assert refusal_rule(g, "a1-k1") == R + "exchange"
    assert refusal_rule(g, "a1-k2") == R + "exchange"


@pytest.mark.rules("la-nivernaise-exchange")
def test_exchange_of_the_base_card_depends_on_the_reading() -> None:
    piles = {"a1": "AH", "k1": "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"}
    g = game(piles)
    g.play("a1-k1")
    assert not g.state.piles[ASC[1]]
    g = game(piles, options="exchange_base:no")
    assert refusal_rule(g, "a1-k1") == R + "exchange"


@pytest.mark.rules("la-nivernaise-exchange")
def test_exchange_works_both_ways_even_when_it_empties_a_pile() -> None:
    # Deviation 6: ascending spades A-Q, descending spades only its K. The K may pass onto
    # the ascending pile, and "vice versa" it may come back, so the second QS on the Flank
    # can still go on it.
    spades = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"
    g = game({"a0": spades, "k0": "KS", "f0": "QS"})
    g.play("k0-a0")
    assert not g.state.piles[DESC[0]] and len(g.state.piles[ASC[0]]) == 13
    assert Move.parse("a0-k0") in g.legal_moves()
    g.play("a0-k0")
    assert g.state.piles[DESC[0]] == cards("KS")
    g.play("f0-k0")
    assert g.state.piles[DESC[0]] == cards("KS QS")


@pytest.mark.rules("la-nivernaise-exchange")
def test_exchange_may_begin_a_pile_with_its_ace_or_king_and_take_it_back() -> None:
    hearts_down = "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH"
    g = game({"k1": hearts_down})  # the descending pile complete, the ascending empty
    g.play("k1-a1")                 # its ace begins the ascending pile
    assert g.state.piles[ASC[1]] == cards("AH")
    g.play("a1-k1")
    assert g.state.piles[ASC[1]] == () and len(g.state.piles[DESC[1]]) == 13
    g = game({"k1": "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"})
    assert refusal_rule(g, "k1-a1") == R + "exchange"  # the 2H cannot begin a pile


@pytest.mark.rules("la-nivernaise-exchange")
def test_under_the_strict_reading_an_exchange_neither_empties_nor_begins_a_pile() -> None:
    spades = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"
    g = game({"a0": spades, "k0": "KS"}, options="exchange_base:no")
    assert refusal_rule(g, "k0-a0") == R + "exchange"   # would empty the descending pile
    g.play("a0-k0")                                     # QS onto KS: both keep a card
    g.play("k0-a0")
    g = game({"a0": spades + " KS"}, options="exchange_base:no")
    assert refusal_rule(g, "a0-k0") == R + "exchange"   # would begin the descending pile
    assert Move.parse("a0-k0") not in g.legal_moves()


# ----------------------------------------------------------------------------- outcome

@pytest.mark.rules("la-nivernaise-foundations")
def test_won_when_every_card_is_on_the_foundations() -> None:
    piles = {}
    for j, s in enumerate("SHDC"):
        ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
        piles[f"a{j}"] = " ".join(r + s for r in ranks)
        piles[f"k{j}"] = " ".join(r + s for r in reversed(ranks))
    g = game(piles, rest_to="stock")
    assert not g.state.piles[STOCK]
    assert g.outcome() is Outcome.WON


@pytest.mark.rules("la-nivernaise-redeal", "la-nivernaise-one-redeal")
def test_lost_when_nothing_more_can_be_done() -> None:
    # pack used up, re-deal made, no Flank vacancy, no top card playable
    g = game({**FULL_FLANKS, "l0": "5H", "stock": ""}, rest_to="l0", vars={"redeals": 1})
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("la-nivernaise-exchange")
def test_not_lost_while_an_exchange_would_make_room() -> None:
    # hearts have met; a 7H on a Flank fits after one exchange
    piles = {**FULL_FLANKS, "f0": "7H", "l0": "5C", "stock": "",
             "a1": "AH 2H 3H 4H 5H 6H 7H", "k1": "KH QH JH 10H 9H 8H"}
    g = game(piles, rest_to="l0", vars={"redeals": 1})
    assert g.outcome() is None
    g.play("a1-k1")
    g.play("f0-a1")


@pytest.mark.rules("la-nivernaise-exchange", "la-nivernaise-one-redeal")
def test_not_lost_while_an_exchange_beginning_a_pile_would_make_room() -> None:
    # spades complete on the ascending pile, the descending pile empty, the second QS in
    # a Flank: under the default reading the KS passes across and the QS follows it;
    # under the strict reading nothing can be done
    piles = {**FULL_FLANKS, "f0": "QS", "l0": "5C", "stock": "",
             "a0": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"}
    g = game(piles, rest_to="l0", vars={"redeals": 1})
    assert g.outcome() is None
    g.play("a0-k0")
    g.play("f0-k0")
    g = game(piles, rest_to="l0", vars={"redeals": 1}, options="exchange_base:no")
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("la-nivernaise-exchange", "la-nivernaise-one-redeal")
def test_lost_though_exchanges_remain_when_they_can_bring_no_card_in() -> None:
    # hearts have met and may be exchanged back and forth for ever, but no heart is in view
    piles = {**FULL_FLANKS, "l0": "5C", "stock": "",
             "a1": "AH 2H 3H 4H 5H 6H 7H", "k1": "KH QH JH 10H 9H 8H"}
    g = game(piles, rest_to="l0", vars={"redeals": 1})
    assert {str(m) for m in g.legal_moves()} == {"a1-k1", "k1-a1"}
    assert g.outcome() is Outcome.LOST
    assert "the patience has failed" in g.status_of(g.state)


@pytest.mark.rules("la-nivernaise-redeal")
def test_lost_before_the_redeal_when_the_line_is_empty() -> None:
    g = game({**FULL_FLANKS, "stock": "", **{f"l{i}": "" for i in range(6)}}, rest_to="f0")
    assert g.var(g.state, "redeals") == 0
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("la-nivernaise-redeal", "la-nivernaise-rounds")
def test_never_lost_while_a_round_or_the_redeal_remains() -> None:
    # nothing can be played, but a round can still be dealt, or the Line re-dealt
    g = game({**FULL_FLANKS, "l0": "5H", "stock": "2C"}, rest_to="l0")
    assert g.outcome() is None
    g = game({**FULL_FLANKS, "l0": "5H", "stock": ""}, rest_to="l0")
    assert g.outcome() is None and g.legal_moves() == [Move(action="redeal")]


def _exchanges_bring_a_play(g: LaNivernaise) -> bool:
    """Brute force over exchanges alone: whether some other move becomes legal."""
    seen = {g.state}
    todo = [g.state]
    while todo:
        s = todo.pop()
        for m in g.candidate_moves(s):
            if g.refusal(s, m) is not None:
                continue
            if m.action or m.steps[0][0][0] not in "ak":
                return True
            t = g.apply(s, m)
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return False


@pytest.mark.rules("la-nivernaise-exchange")
@pytest.mark.parametrize("options", ["", "exchange_base:no"])
def test_the_loss_verdict_is_never_wrong(options: str) -> None:
    # Random end positions (pack used up, re-deal made, Flanks full, one card on each
    # packet): the engine says LOST exactly when no sequence of exchanges makes any other
    # move legal.
    import random
    ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    losses = kept = 0
    for seed in range(80):
        rnd = random.Random(seed)
        piles: dict[str, str] = {"stock": ""}
        for j, suit in enumerate("SHDC"):
            x = rnd.randint(0, 13)
            m = 13 - x if rnd.random() < 0.3 else rnd.randint(0, 13)
            piles[f"a{j}"] = " ".join(r + suit for r in ranks[:x])
            piles[f"k{j}"] = " ".join(r + suit for r in reversed(ranks[13 - m:]))
        full = Counter(str(c) for c in engine.pack(2))
        for t in piles.values():
            full.subtract(t.split())
        # the cards in view: none of them playable at once
        g = game(piles, rest_to="l5", vars={"redeals": 1}, options=options or None)
        rest = [c for c in full.elements()
                if not any(g.accepts(g.state, f, Card.parse(c)) for f in list(ASC) + list(DESC))]
        rnd.shuffle(rest)
        for i in range(8):
            piles[f"f{i}"] = rest.pop()
        for i in range(6):
            piles[f"l{i}"] = rest.pop()
        g = game(piles, rest_to="l5", vars={"redeals": 1}, options=options or None)
        if any(m.action or m.steps[0][0][0] not in "ak" for m in g.legal_moves()):
            continue
        lost = g.outcome() is Outcome.LOST
        losses += lost
        kept += not lost
        assert lost is not _exchanges_bring_a_play(g), seed
    assert losses >= 10 and kept >= 10


def test_status_line_reports_pack_vacancies_and_redeal() -> None:
    g = game({**FULL_FLANKS, "f0": "", "stock": "2C 3C"}, rest_to="l0")
    text = g.status_of(g.state)
    assert "Pack: 2 cards" in text and "Flank vacancies: 1" in text
    assert "re-deal still to come" in text


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = NivernaiseOptions(examine_count=ExamineCount.WITH_TOP, examined_use=ExaminedUse.PLAY,
                          deal_timing=DealTiming.STUCK, pickup=Pickup.OVER, exchange_base=False)
    text = engine.options_to_text(o)
    assert engine.options_from_text(NivernaiseOptions, text) == o
    assert engine.options_to_text(NivernaiseOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(NivernaiseOptions, "pickup:sideways")
    with pytest.raises(ValueError):
        engine.options_from_text(NivernaiseOptions, "nonsense:1")


def test_every_option_names_its_note() -> None:
    for d in engine.describe_options(NivernaiseOptions):
        assert d["note"].startswith("note-ni-")
        assert len(d["choices"]) >= 2
        assert d["default"] in {c["value"] for c in d["choices"]}
