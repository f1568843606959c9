"""The Wheel: every rule, every refusal (with the rule id it cites), the deal, the refills, and
the end of the game."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import ACE, pack
from engine.deal import shuffled
from engine.wheel import CIRCLE, CUSHION_PILES, PILES, STOCK, TheWheel
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-wheel"
R = f"{SLUG}-"
CROSS = {f"a{k}": f"A{'SHDC'[k % 4]}" for k in range(8)}
#: Nine cards for the cushion's other places, among which no combination of eighteen lies
#: (eights, nines and tens only).
FILL = "8S 8H 8D 8C 9S 9H 9D 10S 10H 9C 10C".split()


def game(cushion: list[str], piles: dict[str, str] | None = None, deals: int = 1,
         options: str = "", stock: str | None = None) -> TheWheel:
    """A position: the cross in place; the cushion's places from ``cushion`` (each a place's
    cards, bottom to top; places not given are filled from FILL while the first deal lasts);
    other piles as given; every other card at the bottom of the pack, under the cards of
    ``stock`` when given (its last card the pack's top). Loaded through ``engine.load_position`` with an explicit start,
    so that the position itself is checked."""
    given: dict[str, str] = {**CROSS, **(piles or {})}
    fill = iter(FILL)
    for i in range(12):
        if i < len(cushion):
            given[f"c{i}"] = cushion[i]
        elif deals == 1:
            given[f"c{i}"] = next(fill)
    if stock is not None:
        given["stock"] = stock
    made = make_game(SLUG, given, vars={"deals": deals}, options=options)
    g = engine.load_position(made.position())
    assert isinstance(g, TheWheel) and g.state == made.state
    return g


def pile(g: TheWheel, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def full_circle(made: int) -> dict[str, str]:
    """``made`` packets in the circle: 2, 6, 10 / 3, 7, 8 / 4, 5, 9 of each suit and pack,
    each crowned; these use every card of the game but the aces."""
    packets = []
    for trio in ((2, 6, 10), (3, 7, 8), (4, 5, 9)):
        court = {(2, 6, 10): "K", (3, 7, 8): "Q", (4, 5, 9): "J"}[trio]
        for _pack in range(2):
            for s in "SHDC":
                packets.append(" ".join(f"{r}{s}" for r in trio) + f" {court}{s}")
    return {f"w{j}": packets[j] for j in range(made)}


# ---- the deal ---------------------------------------------------------------------------

@pytest.mark.rules("the-wheel-cross", "the-wheel-cushion")
def test_the_deal_lays_the_cross_and_the_cushion() -> None:
    g = engine.new_game(SLUG, seed=11)
    assert isinstance(g, TheWheel)
    p = g.state.piles
    assert [len(p[k]) for k in range(8)] == [1] * 8
    assert all(p[k][0].rank == ACE for k in range(8))
    assert all(len(p[i]) == 1 for i in CUSHION_PILES)
    assert len(p[STOCK]) == 84 and not any(c.rank == ACE for c in p[STOCK])
    assert all(not p[j] for j in CIRCLE)
    # The cushion comes from the pack's top, the rest stays in order.
    order = shuffled([c for c in pack(2) if c.rank != ACE], 11)
    assert [p[i][0] for i in CUSHION_PILES] == order[::-1][:12]
    assert list(p[STOCK]) == order[:84]
    assert g.var(g.state, "deals") == 1
    assert Counter(g.state.all_cards()) == TheWheel.full_pack()
    assert [p.id for p in PILES[:8]] == [f"a{k}" for k in range(8)]


@pytest.mark.rules("the-wheel-cross")
def test_the_aces_of_the_cross_never_move() -> None:
    g = game(["2S", "7H", "9D", "KC"])
    assert refusal_rule(g, "a0-w0") == R + "cross"
    assert refusal_rule(g, "a0-w0+c0-w0+c1-w0+c3-w0") == R + "cross"


# ---- combinations -----------------------------------------------------------------------

@pytest.mark.rules("the-wheel-object", "the-wheel-packet", "the-wheel-rule-4",
                   "the-wheel-three")
def test_three_minor_cards_making_eighteen_go_crowned_to_the_circle() -> None:
    g = game(["2S", "7H", "9D", "KC"])
    move = Move.parse("c0-w0+c1-w0+c2-w0+c3-w0")
    assert move in g.legal_moves()
    g.play(move)
    # taken up together, the court card on top, face upward, on a space of the circle
    assert pile(g, "w0") == cards("2S 7H 9D KC")
    assert [c["c"] for c in engine.view_of(g)["piles"][g.pile_index("w0")]["cards"]] == \
        ["2S", "7H", "9D", "KC"]


@pytest.mark.rules("the-wheel-examples")
@pytest.mark.parametrize("trio", ["2S 7H 9D", "3C 5D 10H", "2H 6H 10H"])
def test_the_book_s_examples_are_combinations(trio: str) -> None:
    a, b, c = trio.split()
    g = game([a, b, c, "QD"])
    g.play("c0-w0+c1-w0+c2-w0+c3-w0")
    assert pile(g, "w0") == cards(f"{trio} QD")


@pytest.mark.rules("the-wheel-object")
def test_a_combination_must_make_eighteen() -> None:
    g = game(["2S", "7H", "8D", "KC"])
    assert refusal_rule(g, "c0-w0+c1-w0+c2-w0+c3-w0") == R + "object"
    g = game(["3S", "7H", "9D", "KC"])
    assert refusal_rule(g, "c0-w0+c1-w0+c2-w0+c3-w0") == R + "object"


@pytest.mark.rules("the-wheel-rule-2", "the-wheel-three")
def test_no_two_cards_of_the_same_value() -> None:
    g = game(["4S", "4H", "10D", "KC", "6C", "6D"], deals=2)
    assert refusal_rule(g, "c0-w0+c1-w0+c2-w0+c3-w0") == R + "rule-2"
    assert refusal_rule(g, "c4-w0+c5-w0+c0-w0+c3-w0") == R + "rule-2"
    assert not [m for m in g.legal_moves() if m.steps]


@pytest.mark.rules("the-wheel-rule-3", "the-wheel-no-court")
def test_without_a_court_card_the_three_cards_stay() -> None:
    g = game(["2S", "7H", "9D", "5C"], stock="KD 2D 2H 2C 3C 3D 4D 4H 4C 5D 5H 3H")
    # Three cards that make eighteen, but no court card on the cushion: no combination.
    assert refusal_rule(g, "c0-w0+c1-w0+c2-w0") == R + "rule-3"
    assert refusal_rule(g, "c0-w0+c1-w0+c2-w0+c3-w0") == R + "no-court"
    assert g.legal_moves() == [Move(action="deal")]
    # They remain in their places until a court card appears on the cushion.
    g.play("deal")
    assert pile(g, "c0") == cards("2S 3H")
    assert pile(g, "c11")[-1] == Card.parse("KD")
    g2 = game(["2S", "7H", "9D", "5C", "KD"])
    assert Move.parse("c0-w0+c1-w0+c2-w0+c4-w0") in g2.legal_moves()


@pytest.mark.rules("the-wheel-rule-4")
def test_court_cards_are_excluded_from_the_sum() -> None:
    g = game(["8S", "KH", "QD", "JC"])
    assert refusal_rule(g, "c0-w0+c1-w0+c2-w0+c3-w0") == R + "rule-4"
    g = game(["7S", "KH", "QD", "2C"])
    assert refusal_rule(g, "c0-w0+c1-w0+c2-w0+c3-w0") == R + "rule-4"


@pytest.mark.rules("the-wheel-three")
def test_a_combination_is_three_cards_and_one_crown() -> None:
    g = game(["2S", "7H", "9D", "KC", "5S"])
    assert refusal_rule(g, "c0-w0+c1-w0+c2-w0+c4-w0+c3-w0") == R + "three"
    assert refusal_rule(g, "c2-w0+c3-w0") == R + "three"
    assert refusal_rule(g, "c2-w0+c1-w0+c3-w0") == R + "three"
    assert refusal_rule(g, "c3-w0") == R + "three"


@pytest.mark.rules("the-wheel-packet")
def test_the_crowned_packet_goes_to_the_next_space_of_the_circle() -> None:
    g = game(["2S", "7H", "9D", "KC", "3S", "5H", "10C", "QS"])
    assert refusal_rule(g, "c0-w3+c1-w3+c2-w3+c3-w3") == R + "packet"
    assert refusal_rule(g, "c0-w0+c1-w0+c2-w1+c3-w0") == R + "packet"
    assert refusal_rule(g, "c0-c5") == R + "packet"
    g.play("c0-w0+c1-w0+c2-w0+c3-w0")
    assert refusal_rule(g, "c4-w0+c5-w0+c6-w0+c7-w0") == R + "packet"
    assert refusal_rule(g, "w0-c0") == R + "packet"
    # the steps in any order name the same move
    g.play("c7-w1+c6-w1+c5-w1+c4-w1")
    assert pile(g, "w1") == cards("3S 5H 10C QS")


@pytest.mark.rules("the-wheel-packet")
def test_any_court_card_of_the_cushion_may_crown_and_the_player_chooses() -> None:
    g = game(["2S", "7H", "9D", "KC", "QH", "JS"])
    crowns = {str(m).split("+")[-1] for m in g.legal_moves() if m.steps}
    assert crowns == {"c3-w0", "c4-w0", "c5-w0"}
    g.play("c0-w0+c1-w0+c2-w0+c5-w0")
    assert pile(g, "w0")[-1] == Card.parse("JS")


# ---- the uppermost cards ----------------------------------------------------------------

@pytest.mark.rules("the-wheel-rule-5")
def test_only_the_uppermost_cards_are_available_and_their_removal_releases() -> None:
    g = game(["9D 5S", "2S", "7H", "KC", "3C", "10H", "QD"], deals=2)
    assert refusal_rule(g, "c0:0-w0+c1-w0+c2-w0+c3-w0") == R + "rule-5"
    # 5, 3, 10 uses the five; the nine beneath is then released
    g.play("c0-w0+c4-w0+c5-w0+c3-w0")
    assert pile(g, "c0") == cards("9D")
    assert Move.parse("c0-w1+c1-w1+c2-w1+c6-w1") in g.legal_moves()
    g.play("c0-w1+c1-w1+c2-w1+c6-w1")
    assert pile(g, "w1") == cards("9D 2S 7H QD")


@pytest.mark.rules("the-wheel-rule-5")
def test_the_three_cards_are_taken_up_together() -> None:
    # the 2 lies beneath the 7: removing the 7 would release it, but not in the same move
    g = game(["2S 7H", "9D", "KC", "5C", "3H", "10D"], deals=2)
    assert refusal_rule(g, "c0:0-w0+c0-w0+c1-w0+c2-w0") == R + "rule-5"
    assert not [m for m in g.legal_moves() if m.steps and "c0:0" in str(m)]


@pytest.mark.rules("the-wheel-rule-5", "the-wheel-rule-3")
def test_a_court_card_beneath_one_of_the_three_crowns_only_under_the_other_reading() -> None:
    cushion = ["KC 9D", "2S", "7H", "QH 5C", "3H", "10D"]
    g = game(cushion, deals=2)
    assert refusal_rule(g, "c0-w0+c1-w0+c2-w0+c0:0-w0") == R + "rule-5"
    assert not [m for m in g.legal_moves() if m.steps]
    g = game(cushion, deals=2, options="crown_released:yes")
    assert Move.parse("c0-w0+c1-w0+c2-w0+c0:0-w0") in g.legal_moves()
    # a court card beneath a card that is not one of the three stays blocked
    assert refusal_rule(g, "c0-w0+c1-w0+c2-w0+c3:0-w0") == R + "rule-5"
    g.play("c0-w0+c1-w0+c2-w0+c0:0-w0")
    assert pile(g, "w0") == cards("9D 2S 7H KC")
    assert pile(g, "c0") == ()


# ---- refilling, and the later deals ------------------------------------------------------

@pytest.mark.rules("the-wheel-rule-1", "the-wheel-refill")
def test_in_the_first_deal_the_spaces_are_refilled_from_the_pack() -> None:
    g = game(["2S", "7H", "9D", "KC"], stock="5D 4C 3H 2H 6C")
    g.play("c0-w0+c1-w0+c2-w0+c3-w0")
    # the pack's top card goes to the first space, and so on
    assert [pile(g, f"c{i}") for i in range(4)] == [cards("6C"), cards("2H"), cards("3H"),
                                                     cards("4C")]
    assert pile(g, "stock")[-1] == Card.parse("5D")
    assert all(len(pile(g, f"c{i}")) == 1 for i in range(12))


@pytest.mark.rules("the-wheel-rule-1", "the-wheel-empty-spaces")
def test_after_the_second_deal_spaces_stay_empty_and_are_dealt_on() -> None:
    g = game(["2S", "7H", "9D", "KC", "8S", "8H"], deals=2,
             stock=" ".join(["3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "2D", "3D",
                             "4D", "5D"]))
    g.play("c0-w0+c1-w0+c2-w0+c3-w0")
    assert [pile(g, f"c{i}") for i in range(4)] == [()] * 4
    g.play("deal")
    assert pile(g, "c0") == cards("5D") and pile(g, "c4") == cards("8S 10C")
    assert all(len(pile(g, f"c{i}")) >= 1 for i in range(12))
    assert g.var(g.state, "deals") == 3


@pytest.mark.rules("the-wheel-deal", "the-wheel-continue")
def test_twelve_more_cards_cover_the_cushion_in_one_move() -> None:
    g = game(["2S", "7H", "9D", "5C"])
    before = [pile(g, f"c{i}") for i in range(12)]
    top12 = pile(g, "stock")[-12:][::-1]
    g.play("deal")
    assert [pile(g, f"c{i}") for i in range(12)] == [b + (c,) for b, c in zip(before, top12,
                                                                             strict=True)]
    assert g.var(g.state, "deals") == 2
    assert g.describe_ahead(g.state, Move(action="deal")) == "Deal twelve more"


@pytest.mark.rules("the-wheel-deal")
def test_the_next_deal_waits_until_no_combination_can_be_made() -> None:
    g = game(["2S", "7H", "9D", "KC"])
    assert refusal_rule(g, "deal") == R + "deal"
    assert Move(action="deal") not in g.legal_moves()
    g = game(["2S", "7H", "9D", "KC"], options="deal_early:yes")
    assert Move(action="deal") in g.legal_moves()
    g.play("deal")
    assert g.var(g.state, "deals") == 2


@pytest.mark.rules("the-wheel-continue", "the-wheel-empty-spaces")
def test_the_last_deal_lays_what_is_left() -> None:
    # Twenty-one packets made; three knaves on the cushion, nine minor cards in the pack.
    g = game([], piles={**full_circle(21), "c0": "JH", "c1": "JD", "c2": "JC"}, deals=2,
             stock="4H 5H 9H 4D 5D 9D 4C 5C 9C")
    assert g.legal_moves() == [Move(action="deal")]
    g.play("deal")
    assert not pile(g, "stock")
    assert [len(pile(g, f"c{i}")) for i in range(12)] == [2, 2, 2] + [1] * 6 + [0] * 3
    assert pile(g, "c0") == cards("JH 9C")


@pytest.mark.rules("the-wheel-no-redeal")
def test_there_is_no_re_deal() -> None:
    g = game([], piles={**full_circle(23), "c0": "4C", "c1": "JC 5C", "c2": "9C"}, deals=5,
             stock="")
    assert refusal_rule(g, "deal") == R + "no-redeal"
    assert refusal_rule(g, "redeal") == R + "no-redeal"


# ---- the end ----------------------------------------------------------------------------

@pytest.mark.rules("the-wheel-success")
def test_the_game_is_won_with_twenty_four_crowned_packets() -> None:
    circle = full_circle(24)
    last = circle.pop("w23").split()
    g = game([], piles={**circle, "c0": last[0], "c1": last[1], "c2": last[2], "c5": last[3]},
             deals=3, stock="")
    assert g.outcome() is None
    g.play("c0-w23+c1-w23+c2-w23+c5-w23")
    assert g.outcome() is Outcome.WON
    assert all(len(pile(g, f"w{j}")) == 4 for j in range(24))
    assert g.status_of(g.state).startswith("Won")


@pytest.mark.rules("the-wheel-no-redeal")
def test_the_game_is_lost_when_the_pack_is_out_and_no_combination_can_be_made() -> None:
    circle = full_circle(24)
    last = circle.pop("w23").split()
    # the crown lies beneath one of the three: blocked for good under the default reading
    g = game([], piles={**circle, "c0": f"{last[3]} {last[0]}", "c1": last[1],
                        "c2": last[2]}, deals=3, stock="")
    assert g.outcome() is Outcome.LOST
    assert g.legal_moves() == []
    assert "failed" in g.status_of(g.state)
    g = game([], piles={**circle, "c0": f"{last[3]} {last[0]}", "c1": last[1],
                        "c2": last[2]}, deals=3, stock="", options="crown_released:yes")
    assert g.outcome() is None
    # with cards left in the pack the verdict waits
    g = game([], piles={**circle, "c0": f"{last[3]} {last[0]}", "c1": last[1]}, deals=3,
             stock=last[2])
    assert g.outcome() is None


# ---- positions, view, words ---------------------------------------------------------------

def test_positions_are_checked() -> None:
    g = game(["2S", "7H", "9D", "KC"])
    text = g.position()
    bad = text.replace("a0:AS", "a0:2S").replace("c0:2S", "c0:AS")
    with pytest.raises(PositionError):
        engine.load_position(bad)
    with pytest.raises(PositionError):  # a packet that does not make eighteen
        game([], piles={"w0": "2S 7H 8D KC"}, deals=2)
    with pytest.raises(PositionError):  # the circle filled out of turn
        game([], piles={"w1": "2S 7H 9D KC"}, deals=2)
    with pytest.raises(PositionError):  # the first deal holds one card in each place
        game(["2S 7H"])


def test_the_view_shows_the_cushion_and_hides_the_pack() -> None:
    g = game(["9D 5S", "2S", "7H", "KC"], deals=2)
    view = engine.view_of(g)
    piles = {p["id"]: p for p in view["piles"]}
    assert [c["c"] for c in piles["c0"]["cards"]] == ["9D", "5S"]
    assert all(c["c"] is None for c in piles["stock"]["cards"])
    assert view["pack"] == {"pile": "stock", "move": "deal", "legal": True}


def test_a_combination_is_described_in_words() -> None:
    g = game(["2S", "7H", "9D", "KC"])
    words = g.describe(g.state, Move.parse("c0-w0+c1-w0+c2-w0+c3-w0"))
    assert words == ("The two of spades, the seven of hearts and the nine of diamonds, "
                     "crowned by the king of clubs, go to space 1 of the circle.")
