"""The Mill: every rule, every refusal (with the rule id it cites)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import pack
from engine.deal import shuffled
from engine.mill import (
    ANGLES, CENTRE_ACE, CENTRE_PILE, STOCK, TALON_PILE, TURNED, WING_PILES, MillOptions,
    Refill, TheMill, _settle, centre_needs,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-mill"
R = f"{SLUG}-"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
#: Four kings in the angles, each needing a queen; the ace packet needs a two.
ANGLES_SET = {"a0": "KS", "a1": "KH", "a2": "KD", "a3": "KC"}
#: Eight wing cards that suit no foundation of ``ANGLES_SET`` and the bare centre ace.
QUIET_WINGS = {f"w{i}": c for i, c in enumerate("5S 6S 7S 8S 5D 6D 7D 8D".split())}


def game(piles: dict[str, str], **kw: object) -> TheMill:
    """A position with the centre ace, four kings in the angles and eight quiet wings, as
    changed by ``piles``; every other card in ``rest_to`` (the pack unless said)."""
    base = {"c": "AH", **ANGLES_SET, **QUIET_WINGS}
    g = make_game(SLUG, {**base, **piles}, **kw)  # type: ignore[arg-type]
    assert isinstance(g, TheMill)
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def down_to(king: str, last: str) -> str:
    """A king packet from ``king`` down to rank ``last``, all of the king's suit."""
    ranks = RANKS[RANKS.index(last):12][::-1]
    return " ".join([king] + [r + king[-1] for r in ranks])


def up_to(count: int) -> str:
    """The ace packet with ``count`` cards, a family of hearts first (on the centre ace of
    hearts), then spades, diamonds and clubs: one pack at most."""
    return " ".join(RANKS[k % 13] + "HSDC"[k // 13] for k in range(count))


#: The four king packets complete, one suit each: the second pack.
COMPLETE = {f"a{j}": down_to(k, "A") for j, k in enumerate("KS KH KD KC".split())}


def legal(g: TheMill) -> set[str]:
    return {str(m) for m in g.legal_moves()}


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-mill-centre", "the-mill-wings", "the-mill-kings")
def test_deal_places_the_centre_ace_and_eight_wings() -> None:
    g = engine.new_game(SLUG, seed=3)
    s = g.state
    assert s.piles[CENTRE_PILE] == (CENTRE_ACE,)
    assert [len(s.piles[i]) for i in WING_PILES] == [1] * 8
    assert not any(s.piles[a] for a in ANGLES)  # no king among this deal's first cards
    assert len(s.piles[STOCK]) == 104 - 1 - 8
    assert not s.piles[TALON_PILE] and not s.piles[TURNED]
    assert Counter(s.all_cards()) == Counter(pack(2))
    # the wings are the first eight cards of the shuffled pack, in the order of their places
    rest = Counter(pack(2))
    rest.subtract([CENTRE_ACE])
    stock = shuffled(sorted(rest.elements()), 3)
    assert [s.piles[i][0] for i in WING_PILES] == stock[::-1][:8]


def test_same_deal_number_same_deal_and_different_numbers_differ() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (5, 5, 6))
    assert a == b
    assert a != c


@pytest.mark.rules("the-mill-kings", "the-mill-opening")
def test_kings_among_the_first_wings_go_to_the_angles_and_are_replaced() -> None:
    seen = 0
    for seed in range(60):
        rest = Counter(pack(2))
        rest.subtract([CENTRE_ACE])
        first = shuffled(sorted(rest.elements()), seed)[::-1][:8]
        kings = [c for c in first if c.rank == 13][:4]
        if not kings:
            continue
        seen += 1
        s = engine.new_game(SLUG, seed=seed).state
        assert [s.piles[a][0] for a in ANGLES[:len(kings)]] == kings
        assert all(len(s.piles[i]) == 1 for i in WING_PILES)
        if any(not s.piles[a] for a in ANGLES):
            assert not any(s.piles[i][0].rank == 13 for i in WING_PILES)
        assert Counter(s.all_cards()) == Counter(pack(2))
    assert seen >= 5


@pytest.mark.rules("the-mill-kings")
def test_only_the_first_four_kings_go_to_the_angles_in_the_order_dealt() -> None:
    piles: list[tuple[Card, ...]] = [()] * 16
    piles[CENTRE_PILE] = (CENTRE_ACE,)
    wings = "9C KD 9D KS KH 9S KC KD".split()
    for i, c in zip(WING_PILES, wings):
        piles[i] = (Card.parse(c),)
    piles[STOCK] = cards("2S 3S 4S 5S")  # the top is the last
    _settle(piles, MillOptions())
    assert [piles[a] for a in ANGLES] == [cards("KD"), cards("KS"), cards("KH"), cards("KC")]
    assert [str(piles[i][0]) for i in WING_PILES] == "9C 5S 9D 4S 3S 9S 2S KD".split()


@pytest.mark.rules("the-mill-kings", "the-mill-refill", "the-mill-opening")
def test_a_king_refilled_from_the_pack_goes_to_an_empty_angle() -> None:
    g = make_game(SLUG, {"c": "AH", "a0": "", "a1": "", "a2": "KD", "a3": "KC",
                         **QUIET_WINGS, "w0": "2C", "stock": "9H KS"})
    g.play("w0-c")
    s = g.state
    assert s.piles[ANGLES[0]] == cards("KS")  # the king went to the first empty angle
    assert s.piles[WING_PILES[0]] == cards("9H")  # and the wing was refilled again
    assert not s.piles[ANGLES[1]]


@pytest.mark.rules("the-mill-kings", "the-mill-deal")
def test_a_king_turned_up_while_an_angle_is_empty_goes_there() -> None:
    g = make_game(SLUG, {"c": "AH", "a0": "KS", "a1": "KH", "a2": "KD", "a3": "",
                         **QUIET_WINGS, "stock": "KC"})
    assert "lower right angle" in g.describe(g.state, Move(action="deal"))
    g.play("deal")
    assert g.state.piles[ANGLES[3]] == cards("KC")
    assert not g.state.piles[TURNED] and not g.state.piles[TALON_PILE]


@pytest.mark.rules("the-mill-kings", "the-mill-families", "the-mill-deal", "the-mill-talon")
def test_later_kings_are_ordinary_cards() -> None:
    g = game({"stock": "KS"})
    g.play("deal")  # the ace packet needs a two: the king goes to the talon
    assert g.state.piles[TALON_PILE] == cards("KS")
    h = game({"c": up_to(12), "stock": "KS"})
    h.play("deal")  # the ace packet needs a king: the king must be played on it
    assert h.state.piles[TURNED] == cards("KS")
    assert legal(h) == {"turned-c"}
    h.play("turned-c")
    assert h.state.piles[CENTRE_PILE][-1] == Card.parse("KS")


@pytest.mark.rules("the-mill-kings")
def test_an_empty_angle_takes_only_a_king() -> None:
    g = make_game(SLUG, {"c": "AH", "a0": "", "a1": "KH", "a2": "KD", "a3": "KC",
                         **QUIET_WINGS, "w0": "QS"})
    assert refusal_rule(g, "w0-a0") == R + "kings"
    g.play("w0-a1")


@pytest.mark.rules("the-mill-kings", "the-mill-transfer")
def test_the_kings_in_the_angles_never_move() -> None:
    g = game({"c": up_to(12), "w0": "KS"}, rest_to="stock")
    assert refusal_rule(g, "a0-c") == R + "kings"
    assert refusal_rule(g, "a0-w1") == R + "transfer"
    g.play("w0-c")


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("the-mill-rule-2", "the-mill-foundations")
def test_rule_2_the_foundations_do_not_follow_suit() -> None:
    g = game({"w0": "2S", "w1": "QD", "w2": "3C"})
    g.play("w0-c")   # a two of spades on the ace of hearts
    g.play("w1-a0")  # a queen of diamonds on the king of spades
    g.play("w2-c")
    assert g.state.piles[CENTRE_PILE] == cards("AH 2S 3C")
    assert g.state.piles[ANGLES[0]] == cards("KS QD")


@pytest.mark.rules("the-mill-foundations")
def test_the_ace_packet_ascends_in_sequence() -> None:
    g = game({"w0": "3S", "w1": "2D"})
    assert refusal_rule(g, "w0-c") == R + "foundations"
    why = g.refusal(g.state, Move.parse("w0-c"))
    assert why is not None and "needs a two" in why.message
    g.play("w1-c")
    g.play("w0-c")


@pytest.mark.rules("the-mill-foundations")
def test_the_king_packets_descend_to_the_ace_and_end_there() -> None:
    g = game({"a0": down_to("KS", "2"), "w0": "3H", "w1": "AD"})
    assert refusal_rule(g, "w0-a0") == R + "foundations"
    g.play("w1-a0")
    assert len(g.state.piles[ANGLES[0]]) == 13
    assert g.state.piles[ANGLES[0]][-1] == Card.parse("AD")
    h = game({"a0": down_to("KS", "A"), "w0": "KH"})
    assert refusal_rule(h, "w0-a0") == R + "foundations"
    why = h.refusal(h.state, Move.parse("w0-a0"))
    assert why is not None and "complete" in why.message


@pytest.mark.rules("the-mill-families")
def test_after_a_king_the_ace_packet_begins_a_new_family_with_an_ace() -> None:
    g = game({"c": up_to(13), "w0": "2S", "w1": "AS"})
    assert g.state.piles[CENTRE_PILE][-1].rank == 13
    assert refusal_rule(g, "w0-c") == R + "families"
    g.play("w1-c")
    g.play("w0-c")
    assert len(g.state.piles[CENTRE_PILE]) == 15


@pytest.mark.rules("the-mill-families", "the-mill-foundations")
def test_the_ace_packet_is_complete_with_four_families() -> None:
    assert centre_needs(cards(up_to(52))) is None
    assert centre_needs(cards(up_to(51))) == 13
    g = make_game(SLUG, {"c": up_to(52), **COMPLETE, **{f"w{i}": "" for i in range(8)},
                         "stock": ""}, rest_to="stock")
    assert g.outcome() is Outcome.WON


@pytest.mark.rules("the-mill-foundations", "the-mill-transfer")
def test_cards_on_the_foundations_stay_there() -> None:
    g2 = game({"c": "AH 2S", "stock": ""}, rest_to="talon")
    assert refusal_rule(g2, "c-w0") == R + "foundations"
    assert refusal_rule(g2, "c-a0") == R + "foundations"
    assert refusal_rule(g2, "c:0-a0") == R + "foundations"
    h = game({"a0": "KS QS"})
    assert refusal_rule(h, "a0-a1") == R + "transfer"
    assert refusal_rule(h, "a0-talon") == R + "transfer"


# ----------------------------------------------------------------------------- the wings

@pytest.mark.rules("the-mill-rule-1", "the-mill-opening")
def test_rule_1_every_wing_card_is_available() -> None:
    wings = {f"w{i}": c for i, c in enumerate("2S 5S QC 6S 7S 8S 5D 6D".split())}
    g = game(wings)
    assert legal(g) == {"w0-c", "w2-a0", "w2-a1", "w2-a2", "w2-a3", "deal"}
    g.play("w2-a3")  # any wing card, before any card of the pack is turned
    g.play("w0-c")


@pytest.mark.rules("the-mill-rule-1", "the-mill-refill", "the-mill-talon")
def test_wing_cards_go_only_to_the_foundations() -> None:
    g = game({})
    assert refusal_rule(g, "w0-w1") == R + "refill"
    assert refusal_rule(g, "w0-talon") == R + "talon"
    assert refusal_rule(g, "w0-stock") == R + "rule-1"
    assert refusal_rule(g, "w0-turned") == R + "rule-1"


@pytest.mark.rules("the-mill-refill", "the-mill-opening")
def test_a_vacancy_is_refilled_at_once_from_the_pack_when_there_is_no_talon() -> None:
    g = game({"w3": "2C", "stock": "9H 10H"})
    g.play("w3-c")
    assert g.state.piles[WING_PILES[3]] == cards("10H")
    assert g.state.piles[STOCK][-1] == Card.parse("9H")


@pytest.mark.rules("the-mill-refill")
def test_a_vacancy_is_refilled_from_the_talon_when_the_pack_is_used_up() -> None:
    g = game({"w3": "2C", "stock": "", "talon": "9H 10H"}, rest_to="talon")
    g.play("w3-c")
    assert g.state.piles[WING_PILES[3]] == cards("10H")
    assert g.state.piles[TALON_PILE][-1] == Card.parse("9H")


@pytest.mark.rules("the-mill-refill")
def test_the_player_chooses_pack_or_talon_and_must_do_so_at_once() -> None:
    g = game({"w3": "2C", "w4": "3D", "stock": "9H 10H", "talon": "JS 4C",
              "a0": "KS QH"})
    g.play("w3-c")
    assert not g.state.piles[WING_PILES[3]]
    assert legal(g) == {"stock-w3", "talon-w3"}
    assert refusal_rule(g, "w4-c") == R + "refill"
    assert refusal_rule(g, "deal") == R + "refill"
    assert refusal_rule(g, "talon-c") == R + "refill"
    assert refusal_rule(g, "stock-w4") == R + "refill"
    assert refusal_rule(g, "a0-c") == R + "refill"
    assert "refill" in g.status_of(g.state)
    assert "from the pack" in g.describe(g.state, Move.parse("stock-w3"))
    assert "four of clubs from the talon" in g.describe(g.state, Move.parse("talon-w3"))
    h = g.copy()
    g.play("talon-w3")
    assert g.state.piles[WING_PILES[3]] == cards("4C")
    assert g.state.piles[TALON_PILE][-1] == Card.parse("JS")
    h.play("stock-w3")
    assert h.state.piles[WING_PILES[3]] == cards("10H")
    assert h.state.piles[TALON_PILE][-1] == Card.parse("4C")


@pytest.mark.rules("the-mill-refill")
def test_talon_first_and_pack_first_readings_refill_without_asking() -> None:
    piles = {"w3": "2C", "stock": "9H 10H", "talon": "JS 4C"}
    g = game(piles, options="refill:talon")
    g.play("w3-c")
    assert g.state.piles[WING_PILES[3]] == cards("4C")
    h = game(piles, options="refill:pack")
    h.play("w3-c")
    assert h.state.piles[WING_PILES[3]] == cards("10H")
    assert h.state.piles[TALON_PILE] == cards("JS 4C")


@pytest.mark.rules("the-mill-refill")
def test_a_vacancy_stays_when_pack_and_talon_are_empty() -> None:
    wings = {f"w{i}": f"{r}C" for i, r in enumerate("6 7 8 9 10 J Q K".split())}
    g = make_game(SLUG, {"c": up_to(44), **COMPLETE, **wings, "stock": "", "talon": ""})
    g.play("w0-c")
    assert not g.state.piles[WING_PILES[0]]
    assert g.outcome() is None


@pytest.mark.rules("the-mill-refill")
def test_an_occupied_wing_is_not_refilled() -> None:
    g = game({"talon": "9H"})
    assert refusal_rule(g, "stock-w0") == R + "refill"
    assert refusal_rule(g, "talon-w0") == R + "refill"


# ----------------------------------------------------------------------------- turning the pack

@pytest.mark.rules("the-mill-deal", "the-mill-talon")
def test_a_card_that_cannot_be_used_goes_to_the_talon() -> None:
    g = game({"stock": "9H"})
    g.play("deal")
    assert g.state.piles[TALON_PILE] == cards("9H")
    assert "laid on the talon" in g.describe(game({"stock": "9H"}).state, Move(action="deal"))


@pytest.mark.rules("the-mill-deal")
def test_a_suitable_card_turned_up_must_be_played_first() -> None:
    g = game({"w0": "2C", "stock": "QD 2S", "talon": "9H"}, options="refill:talon")
    assert "suits a foundation" in g.describe(g.state, Move(action="deal"))
    g.play("deal")
    assert g.state.piles[TURNED] == cards("2S")
    assert legal(g) == {"turned-c"}
    assert refusal_rule(g, "turned-talon") == R + "deal"
    assert refusal_rule(g, "w0-c") == R + "deal"
    assert refusal_rule(g, "deal") == R + "deal"
    assert refusal_rule(g, "turned-w1") == R + "refill"
    assert "play the two of spades" in g.status_of(g.state)
    g.play("turned-c")
    assert not g.state.piles[TURNED]
    g.play("deal")  # a queen suits all four king packets: the player chooses
    assert legal(g) == {"turned-a0", "turned-a1", "turned-a2", "turned-a3"}
    g.play("turned-a2")
    assert g.state.piles[ANGLES[2]] == cards("KD QD")


@pytest.mark.rules("the-mill-deal")
def test_the_pack_is_only_turned_card_by_card() -> None:
    g = game({"stock": "2S"})
    assert refusal_rule(g, "stock-c") == R + "deal"
    assert refusal_rule(g, "stock-talon") == R + "deal"


@pytest.mark.rules("the-mill-no-redeal")
def test_there_is_no_redeal() -> None:
    g = game({"stock": ""}, rest_to="talon")
    assert refusal_rule(g, "deal") == R + "no-redeal"
    assert refusal_rule(g, "redeal") == R + "no-redeal"


# ----------------------------------------------------------------------------- the talon

@pytest.mark.rules("the-mill-advice", "the-mill-talon")
def test_the_top_card_of_the_talon_may_be_played() -> None:
    g = game({"talon": "2D 9H 2S"})
    assert refusal_rule(g, "talon:0-c") == R + "talon"
    g.play("talon-c")
    assert g.state.piles[TALON_PILE] == cards("2D 9H")
    assert g.state.piles[CENTRE_PILE] == cards("AH 2S")


@pytest.mark.rules("the-mill-talon")
def test_only_cards_turned_up_go_to_the_talon_and_only_its_top_is_seen() -> None:
    g = game({"talon": "2D 9H"})
    assert refusal_rule(g, "talon-talon") == R + "talon"
    view = engine.view_of(g)
    talon = next(p for p in view["piles"] if p["id"] == "talon")
    assert talon["cards"] == [{"c": None}, {"c": "9H"}]
    stock = next(p for p in view["piles"] if p["id"] == "stock")
    assert all(c["c"] is None for c in stock["cards"])


# ----------------------------------------------------------------------------- the privilege

#: The ace packet needs a five; the king packet in the upper left angle shows a five on a six;
#: the wings hold nines, tens and knaves, which nothing takes.
FIVE_ON_SIX = {"c": up_to(4), "a0": down_to("KS", "5"),
               **{f"w{i}": c for i, c in enumerate("9C 9D 10C 10D JC JD 9H 10H".split())}}


@pytest.mark.rules("the-mill-transfer", "the-mill-privilege")
def test_a_transfer_that_brings_a_wing_card_into_use() -> None:
    g = game({**FIVE_ON_SIX, "w0": "6H"})
    assert "a0-c" in legal(g)
    g.play("a0-c")
    assert g.state.piles[CENTRE_PILE][-1].rank == 5
    assert g.state.piles[ANGLES[0]][-1].rank == 6
    assert "w0-c" in legal(g)
    assert "transferred" in g.describe(game({**FIVE_ON_SIX, "w0": "6H"}).state,
                                       Move.parse("a0-c"))


@pytest.mark.rules("the-mill-transfer", "the-mill-privilege")
def test_a_transfer_that_brings_the_talon_top_into_use() -> None:
    g = game({**FIVE_ON_SIX, "talon": "9C 6D"})
    g.play("a0-c")
    g.play("talon-c")


@pytest.mark.rules("the-mill-privilege")
def test_a_transfer_that_brings_nothing_into_use_is_refused() -> None:
    g = game({**FIVE_ON_SIX, "talon": "6D 9C"})
    assert refusal_rule(g, "a0-c") == R + "privilege"
    # a card that could already be played is not brought into use
    h = game({**FIVE_ON_SIX, "a1": "KH QD JD 10D 9D 8D 7D", "w0": "6H"})
    assert "w0-a1" in legal(h)
    assert refusal_rule(h, "a0-c") == R + "privilege"
    # nor a card of the rank transferred, which the uncovered packet would take again
    k = game({**FIVE_ON_SIX, "w0": "5C"})
    assert refusal_rule(k, "a0-c") == R + "privilege"


@pytest.mark.rules("the-mill-privilege")
def test_a_transfer_that_makes_room_for_a_second_card_of_a_rank_is_allowed() -> None:
    """Two sixes wait and one king packet takes a six: only one of them can be played until
    the five goes to the ace packet, which then takes the other. The transfer brings that
    second six into use, though either six alone could have been played before."""
    g = game({**FIVE_ON_SIX, "a1": down_to("KH", "7"), "w0": "6H", "w1": "6C"})
    assert "a0-c" in legal(g)
    g.play("a0-c")
    g.play("w0-a1")
    g.play("w1-c")
    # the second six may be the talon's top card
    h = game({**FIVE_ON_SIX, "a1": down_to("KH", "7"), "w0": "6H", "talon": "9S 6C"})
    h.play("a0-c")
    h.play("talon-c")
    h.play("w0-a1")
    # the same under the chain reading, at the end of a run of transfers: the five and the six
    # go up, and the ace packet then takes the second of two sevens
    piles = {**FIVE_ON_SIX, "a1": down_to("KH", "6"), "a2": down_to("KD", "8"),
             "w1": "7H", "w2": "7C"}
    assert refusal_rule(game(piles), "a0-c") == R + "privilege"
    k = game(piles, options="transfer:chain")
    k.play("a0-c")
    assert legal(k) == {"a1-c"}
    k.play("a1-c")
    k.play("w1-a2")
    k.play("w2-c")


@pytest.mark.rules("the-mill-transfer")
def test_only_a_suitable_top_card_may_be_transferred() -> None:
    g = game({"c": up_to(6), "a0": down_to("KS", "5"), "w0": "8H"})
    assert refusal_rule(g, "a0-c") == R + "transfer"
    assert refusal_rule(g, "a0:3-c") == R + "transfer"
    assert refusal_rule(g, "a0-w0") == R + "transfer"


@pytest.mark.rules("the-mill-privilege")
def test_one_card_of_each_king_packet_at_a_time() -> None:
    g = game({**FIVE_ON_SIX, "w0": "6H", "w1": "7H", "stock": "9S"})
    g.play("a0-c")
    # the six now tops the packet and the ace packet needs a six; taking it would bring the
    # seven into use, but a second card may not come from the same packet at once
    assert refusal_rule(g, "a0-c") == R + "privilege"
    g.play("deal")  # another move ends the run
    g.play("a0-c")
    g.play("w1-c")


@pytest.mark.rules("the-mill-privilege")
def test_transfers_from_different_packets_each_bringing_a_card_into_use() -> None:
    g = game({**FIVE_ON_SIX, "a1": down_to("KH", "6"), "w0": "6H", "w1": "7H"})
    g.play("a0-c")
    g.play("a1-c")
    assert [c.rank for c in g.state.piles[CENTRE_PILE][-2:]] == [5, 6]
    g.play("w1-c")


@pytest.mark.rules("the-mill-privilege")
def test_the_chain_reading_takes_one_card_from_each_of_several_packets() -> None:
    piles = {**FIVE_ON_SIX, "a1": down_to("KH", "6"), "w1": "7H"}
    g = game(piles)
    assert refusal_rule(g, "a0-c") == R + "privilege"
    h = game(piles, options="transfer:chain")
    h.play("a0-c")
    assert legal(h) == {"a1-c"}
    assert refusal_rule(h, "deal") == R + "privilege"
    assert refusal_rule(h, "a0-c") == R + "privilege"
    assert "another king packet" in h.status_of(h.state)
    h.play("a1-c")
    assert "w1-c" in legal(h)
    h.play("w1-c")
    k = game({**FIVE_ON_SIX, "w1": "9H"}, options="transfer:chain")
    assert refusal_rule(k, "a0-c") == R + "privilege"


@pytest.mark.rules("the-mill-transfer", "the-mill-families", "the-mill-privilege")
def test_the_ace_of_a_complete_king_packet_may_begin_a_family() -> None:
    g = game({"c": up_to(13), "a0": down_to("KS", "A"), "w0": "2H"})
    g.play("a0-c")
    assert g.state.piles[CENTRE_PILE][-1].rank == 1
    g.play("w0-c")


@pytest.mark.rules("the-mill-families")
def test_nothing_goes_on_a_complete_ace_packet() -> None:
    done = {f"a{j}": down_to(k, "2") for j, k in enumerate("KS KH KD KC".split())}
    g = make_game(SLUG, {"c": up_to(52), **done, **{f"w{i}": "" for i in range(8)},
                         "w0": "AS", "stock": ""}, rest_to="talon")
    assert g.state.piles[TALON_PILE] == cards("AC AD AH")
    assert refusal_rule(g, "a0-c") == R + "families"


# ----------------------------------------------------------------------------- outcome

@pytest.mark.rules("the-mill-foundations")
def test_won_with_four_families_and_four_king_packets_down_to_ace() -> None:
    g = make_game(SLUG, {"c": up_to(51), **COMPLETE, **{f"w{i}": "" for i in range(8)},
                         "stock": ""}, rest_to="w0")
    assert g.state.piles[WING_PILES[0]][-1].rank == 13
    assert g.outcome() is None
    g.play("w0-c")
    assert g.outcome() is Outcome.WON
    assert "Won" in g.status_of(g.state)


@pytest.mark.rules("the-mill-no-redeal")
def test_lost_when_nothing_more_can_be_done() -> None:
    g = game({"stock": ""}, rest_to="talon")
    top = g.state.piles[TALON_PILE][-1]
    assert centre_needs(g.state.piles[CENTRE_PILE]) != top.rank and top.rank != 12
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


def test_not_lost_while_the_pack_has_cards() -> None:
    g = game({})
    assert g.legal_moves() == [Move(action="deal")]
    assert g.outcome() is None


def test_random_games_end_and_positions_restore() -> None:
    for seed in range(12):
        opts = ["", "refill:talon", "refill:pack", "transfer:chain"][seed % 4]
        g = engine.new_game(SLUG, seed=seed, options=opts)
        rng = random.Random(seed)
        for _ in range(1000):
            if g.outcome() is not None:
                break
            g.play(rng.choice(g.legal_moves()))
        assert g.outcome() is not None
        h = engine.load_position(g.position(compact=True))
        assert h.state == g.state


# ----------------------------------------------------------------------------- the board

def test_notation_errors_are_refused_on_the_board_rule() -> None:
    g2 = game({"talon": "9H", "stock": ""}, rest_to="talon")
    assert refusal_rule(g2, "zz9-c") == R + "board"
    assert refusal_rule(g2, "w1-zz9") == R + "board"
    assert refusal_rule(g2, "not a move") == R + "board"
    assert refusal_rule(g2, "w1-c+w2-c") == R + "board"
    assert refusal_rule(g2, "w1:0-c") == R + "board"
    assert refusal_rule(g2, "w1-c:0") == R + "board"
    assert refusal_rule(g2, "shuffle") == R + "board"
    assert refusal_rule(g2, "talon-stock") == R + "board"
    assert refusal_rule(g2, "turned-c") == R + "board"  # no card there


@pytest.mark.parametrize("piles,extra", [
    ({"c": "AH 3S"}, {}),                                # the ace packet out of sequence
    ({"c": "2H"}, {}),                                   # nor begun with an ace
    ({"a0": "QS"}, {}),                                  # an angle begun without a king
    ({"a0": "KS JS"}, {}),                               # a king packet out of sequence
    ({"a0": "", "w0": "KD"}, {}),                        # a king in the wings, an angle empty
    ({"w0": "5S 6S"}, {}),                               # two cards in one wing
    ({"w0": "", "talon": ""}, {}),                       # a vacancy left with the pack full
    ({"w0": "", "talon": "9H"}, {"options": "refill:talon"}),  # ... under talon first
    ({"turned": "9H"}, {}),                              # a turned card that suits nothing
    ({}, {"vars": {"run": 99}}),                         # bad counters
    ({}, {"vars": {"owed": 1}}),                         # a debt only the chain reading knows
])
def test_corrupt_positions_are_refused(piles: dict[str, str], extra: dict[str, object]) -> None:
    g = game(piles, **extra)
    with pytest.raises(PositionError):
        engine.load_position(g.position())


def test_a_sound_hand_made_position_loads() -> None:
    g = game({"w0": "", "talon": "9H"})  # a vacancy waiting for the player's choice
    assert engine.load_position(g.position()).state == g.state
    h = engine.new_game(SLUG, seed=3)
    assert engine.load_position(h.position()).state == h.state


def test_a_pending_choice_survives_a_saved_position() -> None:
    g = game({"w3": "2C", "stock": "9H 10H", "talon": "JS 4C"}, deal=7)
    g.play("w3-c")
    h = engine.load_position(g.position())
    assert h.state == g.state
    assert legal(h) == {"stock-w3", "talon-w3"}


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = MillOptions(refill=Refill.PACK)
    text = engine.options_to_text(o)
    assert text == "refill:pack"
    assert engine.options_from_text(MillOptions, text) == o
    assert engine.options_to_text(MillOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(MillOptions, "refill:sometimes")


def test_every_option_names_its_note() -> None:
    for d in engine.describe_options(MillOptions):
        assert d["note"].startswith("note-mi-")
        assert len(d["choices"]) >= 2
        assert d["default"] in {c["value"] for c in d["choices"]}
