"""The Empress of India: every rule and every refusal, the deal, the end, and random play.

The rules are restated here independently of the engine (``next_rank`` below), so a test can
fail when the engine is wrong. Positions are written by hand with ``fixtures.make_game``.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import Card, IllegalMove, Move, Outcome
from engine.core import Role

from .fixtures import make_game, refusal_rule

SLUG = "the-empress-of-india"
CLS = engine.GAMES[SLUG]
ARMY = [f"a{k}" for k in range(24)]
NAVY = [f"n{k}" for k in range(24)]
PLACES = ARMY + NAVY
GENERALS = [f"g{i}" for i in range(8)]
ADMIRALS = [f"ad{i}" for i in range(8)]
FOUNDATIONS = GENERALS + ADMIRALS
GUARD = [f"k{i}" for i in range(8)]


def rid(name: str) -> str:
    return f"{SLUG}-{name}"


def piles_of(game: engine.Game) -> dict[str, list[Card]]:
    return {p.id: list(cards) for p, cards in zip(game.PILES, game.state.piles)}


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


FRESH = piles_of(engine.new_game(SLUG, 0))
SUIT = {f: FRESH[f][0].suit for f in FOUNDATIONS}
#: The fixed part of every position: the figure, the queens thrown aside, the foundations'
#: aces and kings.
FIXED = {pid: " ".join(map(str, FRESH[pid]))
         for pid in ["out", "emp", *GUARD, *FOUNDATIONS]}


def next_rank(general: bool, top: int) -> int | None:
    """Generals descend K Q 10 … A (no knave); Admirals ascend A … 10 J K (no queen)."""
    if general:
        return None if top == 1 else (10 if top == 12 else top - 1)
    return None if top == 13 else (13 if top == 11 else top + 1)


def general(suit: str, top: str = "K") -> str:
    """A General's pile from its king down to ``top``."""
    seq = ["K", "Q", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"]
    return " ".join(r + suit for r in seq[:seq.index(top) + 1])


def admiral(suit: str, top: str = "A") -> str:
    seq = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "K"]
    return " ".join(r + suit for r in seq[:seq.index(top) + 1])


def position(piles: dict[str, str], options: str = "", fill: bool = True,
             rest_to: str = "stock") -> engine.Game:
    """A game with the fixed cards in place, the piles given, every other Army place holding
    a red card and every other Navy place a black card that no foundation wants, and the
    remaining cards at the bottom of ``rest_to`` (``out`` keeps them out of play)."""
    spec = FIXED | piles
    if fill:
        used: Counter[Card] = Counter()
        for text in spec.values():
            used.update(cards(text))
        pool = CLS.full_pack() - used
        wanted = set()
        for f in FOUNDATIONS:
            top = cards(spec[f])[-1]
            r = next_rank(f in GENERALS, top.rank)
            if r is not None:
                wanted.add(Card(r, top.suit))
        for ids, red in ((ARMY, True), (NAVY, False)):
            spare = sorted(c for c in pool.elements()
                           if c.red == red and c not in wanted and 3 <= c.rank <= 9)
            for pid in ids:
                if pid not in spec:
                    c = spare.pop()
                    spec[pid] = str(c)
                    pool[c] -= 1
    return make_game(SLUG, spec, options=options, rest_to=rest_to)


def legal(game: engine.Game) -> set[str]:
    return {str(m) for m in game.legal_moves()}


# --------------------------------------------------------------------------- the deal

def test_four_packs_and_every_card_once() -> None:
    full = CLS.full_pack()
    assert sum(full.values()) == 208 and len(full) == 52
    assert all(n == 4 for n in full.values())
    for deal in (0, 1, 7, 2**53 - 1):
        g = engine.new_game(SLUG, deal)
        assert Counter(g.state.all_cards()) == full


@pytest.mark.rules("the-empress-of-india-withdraw", "the-empress-of-india-thrown-aside",
                   "the-empress-of-india-figure", "the-empress-of-india-foundations")
def test_the_central_figure_and_the_queens_thrown_aside() -> None:
    p = piles_of(engine.new_game(SLUG, 5))
    assert p["emp"] == cards("QC")
    assert Counter(p["out"]) == Counter(cards("QS QS QS QS QC QC QC"))
    assert sorted(str(c) for k in GUARD for c in p[k]) == ["JD"] * 4 + ["JH"] * 4
    assert sorted(str(p[g][0]) for g in GENERALS) == ["KD"] * 4 + ["KH"] * 4
    assert sorted(str(p[a][0]) for a in ADMIRALS) == ["AC"] * 4 + ["AS"] * 4
    assert all(len(p[f]) == 1 for f in FOUNDATIONS)
    roles = {s.id: s.role for s in CLS.PILES}
    assert roles["emp"] is Role.FIGURE and all(roles[k] is Role.FIGURE for k in GUARD)
    assert roles["out"] is Role.DISCARD
    assert all(roles[f] is Role.FOUNDATION for f in FOUNDATIONS)
    assert roles["tr"] is roles["tb"] is Role.TALON


@pytest.mark.rules("the-empress-of-india-deal", "the-empress-of-india-deal-talon",
                   "the-empress-of-india-rule-4")
@pytest.mark.parametrize("deal", range(12))
def test_one_pass_fills_the_army_red_and_the_navy_black(deal: int) -> None:
    p = piles_of(engine.new_game(SLUG, deal))
    assert all(len(p[a]) == 1 and p[a][0].red for a in ARMY)
    assert all(len(p[n]) == 1 and p[n][0].black for n in NAVY)
    assert all(c.red for c in p["tr"]) and all(c.black for c in p["tb"])
    # The deal stops when both bodies are complete: only the colour that filled first can
    # have sent cards to its talon, and the last card dealt completed the other body.
    assert not (p["tr"] and p["tb"])
    assert len(p["stock"]) + len(p["tr"]) + len(p["tb"]) == 176 - 48


def test_deals_are_reproducible_and_differ() -> None:
    a, b = engine.new_game(SLUG, 41), engine.new_game(SLUG, 41)
    assert a.position() == b.position()
    assert engine.new_game(SLUG, 42).state_text() != a.state_text()


@pytest.mark.rules("the-empress-of-india-pair-time", "the-empress-of-india-foundations")
def test_the_first_pair_is_a_black_two_and_a_red_queen() -> None:
    for deal in range(30):
        g = engine.new_game(SLUG, deal)
        for m in g.legal_moves():
            if len(m.steps) == 2:
                moved = [g.card_at(g.state, src) for src, _ in m.steps]
                assert sorted((c.rank, c.red) for c in moved if c) == [(2, False), (12, True)]


# --------------------------------------------------------------------------- Rule I

@pytest.mark.rules("the-empress-of-india-rule-1", "the-empress-of-india-rule-2")
def test_a_red_and_a_black_card_go_up_together() -> None:
    g = position({"a3": "QH", "n5": "2S", "tr": "7D 9H", "tb": "4C 8S"})
    g0 = next(f for f in GENERALS if SUIT[f].value == "H")
    ad = next(f for f in ADMIRALS if SUIT[f].value == "S")
    move = f"a3-{g0}+n5-{ad}"
    assert move in legal(g)
    g.play(move)
    p = piles_of(g)
    assert p[g0] == cards("KH QH") and p[ad] == cards("AS 2S")
    # Rule II: both vacancies refilled at once from the tops of their talons.
    assert p["a3"] == cards("9H") and p["tr"] == cards("7D")
    assert p["n5"] == cards("8S") and p["tb"] == cards("4C")


@pytest.mark.rules("the-empress-of-india-rule-1")
def test_the_steps_of_a_pair_may_come_in_either_order() -> None:
    g = position({"a0": "QD", "n0": "2C"})
    gd = next(f for f in GENERALS if SUIT[f].value == "D")
    ac = next(f for f in ADMIRALS if SUIT[f].value == "C")
    g.play(f"n0-{ac}+a0-{gd}")
    assert piles_of(g)[gd][-1] == Card.parse("QD")


@pytest.mark.rules("the-empress-of-india-rule-1")
def test_a_card_alone_is_refused_by_rule_1() -> None:
    g = position({"a3": "QH", "n5": "2S"})
    g0 = next(f for f in GENERALS if SUIT[f].value == "H")
    assert refusal_rule(g, f"a3-{g0}") == rid("rule-1")
    e = pytest.raises(IllegalMove, g.play, f"a3-{g0}").value
    assert "(Rule I)" in e.message and "at the same time" in e.message


@pytest.mark.rules("the-empress-of-india-rule-1")
def test_two_cards_of_one_colour_are_refused_by_rule_1() -> None:
    g = position({"a3": "QH", "a4": "QD"})
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    gd = next(f for f in GENERALS if SUIT[f].value == "D")
    assert refusal_rule(g, f"a3-{gh}+a4-{gd}") == rid("rule-1")


@pytest.mark.rules("the-empress-of-india-rule-1")
def test_three_steps_or_a_second_step_off_the_foundations_are_refused() -> None:
    g = position({"a3": "QH", "n5": "2S", "n6": "2C"})
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    cl = next(f for f in ADMIRALS if SUIT[f].value == "C")
    assert refusal_rule(g, f"a3-{gh}+n5-{sp}+n6-{cl}") == rid("rule-1")
    assert refusal_rule(g, f"a3-{gh}+n5-a7") == rid("rule-1")
    assert refusal_rule(g, f"a3-{gh}+a3-{gh}") == rid("board")


# --------------------------------------------------------------------------- foundations

@pytest.mark.rules("the-empress-of-india-rule-5")
def test_rule_5_foundations_follow_suit() -> None:
    g = position({"a3": "QD", "n5": "2S"})
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    assert refusal_rule(g, f"a3-{gh}+n5-{sp}") == rid("rule-5")
    g = position({"a3": "QH", "n5": "2C"})
    assert refusal_rule(g, f"a3-{gh}+n5-{sp}") == rid("rule-5")


@pytest.mark.rules("the-empress-of-india-foundations")
def test_red_cards_on_generals_black_cards_on_admirals() -> None:
    g = position({"a3": "QH", "n5": "2S"})
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    assert refusal_rule(g, f"a3-{sp}+n5-{gh}") == rid("foundations")


@pytest.mark.rules("the-empress-of-india-foundations", "the-empress-of-india-omit")
def test_sequences_and_the_note_on_knaves_and_queens() -> None:
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    # a General at its queen takes a ten (no knave); an Admiral at its ten a knave, at its
    # knave a king (no queen)
    g = position({gh: general("H", "Q"), sp: admiral("S", "J"), "a0": "10H", "n0": "KS"})
    assert f"a0-{gh}+n0-{sp}" in legal(g)
    g = position({gh: general("H", "Q"), sp: admiral("S", "J"), "a0": "9H", "n0": "KS"})
    assert refusal_rule(g, f"a0-{gh}+n0-{sp}") == rid("omit")
    g = position({gh: general("H", "Q"), sp: admiral("S", "J"), "a0": "10H", "n0": "10S"})
    assert refusal_rule(g, f"a0-{gh}+n0-{sp}") == rid("omit")
    g = position({gh: general("H", "Q"), sp: admiral("S", "10"), "a0": "10H", "n0": "JS"})
    assert f"a0-{gh}+n0-{sp}" in legal(g)
    # an ordinary step out of sequence cites the foundations' sentence
    g = position({gh: general("H", "8"), sp: admiral("S", "3"), "a0": "6H", "n0": "4S"})
    e = pytest.raises(IllegalMove, g.play, f"a0-{gh}+n0-{sp}").value
    assert e.rule == rid("foundations") and "seven of hearts" in e.message
    # a complete General
    g = position({gh: general("H", "A"), sp: admiral("S", "3"), "a0": "AH", "n0": "4S"})
    e = pytest.raises(IllegalMove, g.play, f"a0-{gh}+n0-{sp}").value
    assert e.rule == rid("foundations") and "complete" in e.message


# --------------------------------------------------------------------------- Rules II–IV

@pytest.mark.rules("the-empress-of-india-rule-2", "the-empress-of-india-rule-4")
def test_refill_from_the_pack_turns_to_the_wanted_colour() -> None:
    # Red talon empty: the pack is turned; black cards turned on the way go to the black
    # talon (the Navy being full), the first red card fills the Army's vacancy.
    g = position({"a3": "QH", "n5": "2S", "tr": "", "tb": "5C",
                  "stock": "9D 4S 6H 8C 7S"}, rest_to="out")
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    g.play(f"a3-{gh}+n5-{sp}")
    p = piles_of(g)
    assert p["n5"] == cards("5C")                # from the black talon
    assert p["a3"] == cards("6H")                # the first red card turned
    assert p["tb"] == cards("7S 8C")             # black cards turned before it
    assert p["stock"] == cards("9D 4S")
    assert p["tr"] == []


@pytest.mark.rules("the-empress-of-india-rule-2")
def test_refill_from_the_pack_fills_other_vacancies_on_the_way() -> None:
    # Both talons empty: the Army vacancy is served first; a black card turned meanwhile
    # fills the Navy vacancy.
    g = position({"a3": "QH", "n5": "2S", "tr": "", "tb": "",
                  "stock": "3S 5H 4C"}, rest_to="out")
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    g.play(f"a3-{gh}+n5-{sp}")
    p = piles_of(g)
    assert p["n5"] == cards("4C") and p["a3"] == cards("5H") and p["stock"] == cards("3S")


@pytest.mark.rules("the-empress-of-india-rule-2")
def test_without_a_talon_or_pack_a_vacancy_stays_open() -> None:
    g = position({"a3": "QH", "n5": "2S", "tr": "", "tb": "4S 5S", "stock": ""},
                 rest_to="out")
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    g.play(f"a3-{gh}+n5-{sp}")
    assert piles_of(g)["a3"] == [] and piles_of(g)["n5"] == cards("5S")
    assert g.outcome() is None and "vacancies: 1" in engine.view_of(g)["status"]


@pytest.mark.rules("the-empress-of-india-rule-2", "the-empress-of-india-deal-out")
def test_em5_wait_leaves_the_vacancy_for_the_deal_out() -> None:
    g = position({"a3": "QH", "n5": "2S", "tr": "", "tb": "5C",
                  "stock": "9D 4S 6H 8C 7S"}, options="pack_refill:wait", rest_to="out")
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    g.play(f"a3-{gh}+n5-{sp}")
    p = piles_of(g)
    assert p["a3"] == [] and p["n5"] == cards("5C") and len(p["stock"]) == 5
    # Moving a card into the vacancy by hand is refused: the rules refill it.
    assert refusal_rule(g, "stock-a3") == rid("rule-2")
    assert refusal_rule(g, "a4-a3") == rid("rule-2")
    # Dealt card by card (EM-15): the black cards go on their talon, the first red card
    # dealt is "required to fill" the vacancy and fills it.
    g.play("deal")
    assert piles_of(g)["tb"] == cards("7S") and piles_of(g)["a3"] == []
    assert "vacancies: 1" in engine.view_of(g)["status"]
    g.play("deal")
    assert "into the vacancy" in g.describe(g.state, Move.parse("deal"))
    g.play("deal")
    p = piles_of(g)
    assert p["a3"] == cards("6H") and p["tr"] == [] and p["tb"] == cards("7S 8C")
    assert p["stock"] == cards("9D 4S")
    # Dealt at once, the same cards go the same way.
    g = position({"a3": "QH", "n5": "2S", "tr": "", "tb": "5C",
                  "stock": "9D 4S 6H 8C 7S"}, options="pack_refill:wait,deal_out:all",
                 rest_to="out")
    g.play(f"a3-{gh}+n5-{sp}")
    g.play("deal")
    p = piles_of(g)
    assert p["a3"] == cards("6H")                  # the first red card turned
    assert p["tr"] == cards("9D")
    assert p["tb"] == cards("7S 8C 4S")
    assert p["stock"] == []


@pytest.mark.rules("the-empress-of-india-deal-out", "the-empress-of-india-rule-4")
def test_em15_all_at_once_divides_the_pack_between_the_talons() -> None:
    g = position({"tr": "3H", "tb": "3C", "stock": "4D 5S 6H 7C 8D"}, options="deal_out:all",
                 rest_to="out")
    assert "deal" in legal(g)
    assert "5 cards" in g.describe(g.state, Move.parse("deal"))
    g.play("deal")
    p = piles_of(g)
    assert p["tr"] == cards("3H 8D 6H 4D") and p["tb"] == cards("3C 7C 5S")
    assert p["stock"] == []
    assert refusal_rule(g, "deal") == rid("deal-out")
    assert "deal" not in legal(g)


@pytest.mark.rules("the-empress-of-india-deal-out", "the-empress-of-india-rule-4")
def test_em15_the_pack_is_dealt_out_one_card_at_a_time() -> None:
    # Audit, deviation 7: "deal" turned the whole pack at once. By default it turns one card,
    # which goes on the talon of its colour, and the player may act before the next.
    g = position({"tr": "3H", "tb": "3C", "stock": "4D 5S 6H 7C 8D"}, rest_to="out")
    assert engine.options_to_text(g.options) == ""          # the default reading
    assert g.describe(g.state, Move.parse("deal")) == (
        "The eight of diamonds is dealt onto the red talon.")
    g.play("deal")
    p = piles_of(g)
    assert p["stock"] == cards("4D 5S 6H 7C")
    assert p["tr"] == cards("3H 8D") and p["tb"] == cards("3C")
    # Between two cards the player may pair (and so make a vacancy) or deal on.
    assert "deal" in legal(g) and "a0-n0" in legal(g)
    for _ in range(4):
        g.play("deal")
    p = piles_of(g)
    assert p["tr"] == cards("3H 8D 6H 4D") and p["tb"] == cards("3C 7C 5S")
    assert p["stock"] == [] and refusal_rule(g, "deal") == rid("deal-out")
    # Undo takes back one card at a time.
    g.undo()
    assert piles_of(g)["stock"] == cards("4D") and piles_of(g)["tr"] == cards("3H 8D 6H")


@pytest.mark.rules("the-empress-of-india-choose-time", "the-empress-of-india-deal-out",
                   "the-empress-of-india-rule-2", "the-empress-of-india-rule-3")
def test_em15_the_ten_of_clubs_waits_on_top_of_the_talon() -> None:
    # The chapter's example: the Admiral of clubs wants its ten. The player deals until the
    # ten of clubs lies on top of the black talon, then makes a vacancy in the Navy (here by
    # laying a Navy card on an Army card), which the ten fills; it goes up with a red card.
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    ac = next(f for f in ADMIRALS if SUIT[f].value == "C")
    g = position({ac: admiral("C", "9"), "a3": "QH", "tr": "", "tb": "",
                  "stock": "4S 7D 10C"}, rest_to="out")
    assert not [m for m in g.legal_moves() if len(m.steps) == 2]
    g.play("deal")
    p = piles_of(g)
    assert p["tb"] == cards("10C") and p["stock"] == cards("4S 7D")
    # Rule III: the ten cannot be played from the talon ...
    assert refusal_rule(g, f"a3-{gh}+tb-{ac}") == rid("rule-3")
    # ... but a vacancy in the Navy brings it in (Rule II), and then it goes up.
    g.play("n4-a5")
    assert piles_of(g)["n4"] == cards("10C") and piles_of(g)["tb"] == []
    move = f"a3-{gh}+n4-{ac}"
    assert move in legal(g)
    g.play(move)
    assert piles_of(g)[ac][-1] == Card.parse("10C")


@pytest.mark.rules("the-empress-of-india-rule-2", "the-empress-of-india-deal-out")
def test_em15_a_vacancy_made_while_dealing_refills_from_the_talon_or_the_pack() -> None:
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    g = position({"a3": "QH", "n5": "2S", "tr": "", "tb": "",
                  "stock": "6C 9H 8D 4S 5C"}, rest_to="out")
    g.play("deal")                                   # 5C onto the black talon
    g.play(f"a3-{gh}+n5-{sp}")
    p = piles_of(g)
    # The Navy place takes the top of its talon, the card just dealt; the red talon being
    # empty, the Army place takes the next red card of the pack, the black card turned on
    # the way going on its talon (EM-5).
    assert p["n5"] == cards("5C") and p["a3"] == cards("8D")
    assert p["tb"] == cards("4S") and p["tr"] == [] and p["stock"] == cards("6C 9H")
    # Then the dealing goes on from where the pack stands.
    g.play("deal")
    assert piles_of(g)["tr"] == cards("9H") and piles_of(g)["stock"] == cards("6C")


@pytest.mark.rules("the-empress-of-india-rule-3")
def test_rule_3_pack_and_talon_cards_pass_through_the_army_or_navy() -> None:
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    g = position({"tr": "QH", "tb": "2S", "n5": "2C", "a3": "QD", "stock": "QH 2S"})
    for move in (f"tr-{gh}", f"tr-{gh}+n5-{sp}", f"a3-{gh}+tb-{sp}", f"stock-{gh}",
                 "tr-n5", "tb-a3", "stock-a3"):
        assert refusal_rule(g, move) == rid("rule-3"), move
    e = pytest.raises(IllegalMove, g.play, f"tr-{gh}").value
    assert "(Rule III)" in e.message and "Army or Navy" in e.message


@pytest.mark.rules("the-empress-of-india-rule-4")
def test_rule_4_cards_reach_the_talons_only_from_the_pack() -> None:
    g = position({})
    assert refusal_rule(g, "a0-tr") == rid("rule-4")
    assert refusal_rule(g, "n0-tb") == rid("rule-4")
    assert refusal_rule(g, "a0-stock") == rid("board")


@pytest.mark.rules("the-empress-of-india-rule-2")
def test_rule_2_is_quoted_when_a_vacancy_is_filled_by_hand() -> None:
    g = position({"a3": "", "tr": ""}, options="pack_refill:wait", rest_to="out")
    e = pytest.raises(IllegalMove, g.play, "n4-a3").value
    assert e.rule == rid("rule-2") and "(Rule II)" in e.message


# --------------------------------------------------------------------------- pairing

@pytest.mark.rules("the-empress-of-india-pairing", "the-empress-of-india-refill")
def test_an_army_card_laid_on_a_navy_card() -> None:
    g = position({"a3": "5H", "n7": "9S", "tr": "6D 7H", "tb": "8C"})
    assert "a3-n7" in legal(g)
    g.play("a3-n7")
    p = piles_of(g)
    assert p["n7"] == cards("9S 5H")               # the pair lies in the Navy place
    assert p["a3"] == cards("7H") and p["tr"] == cards("6D")   # refilled red
    assert p["tb"] == cards("8C")


@pytest.mark.rules("the-empress-of-india-pairing", "the-empress-of-india-refill")
def test_a_navy_card_laid_on_an_army_card() -> None:
    g = position({"a3": "5H", "n7": "9S", "tr": "6D", "tb": "8C 4S"})
    g.play("n7-a3")
    p = piles_of(g)
    assert p["a3"] == cards("5H 9S") and p["n7"] == cards("4S") and p["tb"] == cards("8C")


@pytest.mark.rules("the-empress-of-india-pairing")
def test_pairing_within_one_body_is_refused() -> None:
    g = position({})
    assert refusal_rule(g, "a1-a2") == rid("pairing")
    assert refusal_rule(g, "n1-n2") == rid("pairing")
    assert refusal_rule(g, "a1-a1") == rid("pairing")


@pytest.mark.rules("the-empress-of-india-paired-once", "the-empress-of-india-paired")
def test_each_card_can_only_be_paired_once() -> None:
    g = position({"a3": "5H", "n7": "9S"})
    g.play("a3-n7")
    assert refusal_rule(g, "a5-n7") == rid("paired-once")
    assert refusal_rule(g, "n7-a5") == rid("paired")
    assert refusal_rule(g, "n7:0-a5") == rid("paired")
    assert not any(m.steps[0][0].startswith("n7") or m.steps[0][1] == "n7"
                   for m in g.legal_moves() if len(m.steps) == 1)


@pytest.mark.rules("the-empress-of-india-paired", "the-empress-of-india-rule-1",
                   "the-empress-of-india-refill")
def test_a_pair_is_played_together_and_only_together() -> None:
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    g = position({"a3": "QH", "n7": "2S", "n9": "2S", "tr": "3H", "tb": "3C 4C"})
    g.play("a3-n7")                                   # n7: 2S under QH
    assert piles_of(g)["n7"] == cards("2S QH")
    pair = f"n7-{gh}+n7:0-{sp}"
    assert pair in legal(g)
    # the paired queen cannot go up with another black two
    assert refusal_rule(g, f"n7-{gh}+n9-{sp}") == rid("paired")
    assert refusal_rule(g, f"n7-{gh}") == rid("rule-1")
    g.play(pair)
    p = piles_of(g)
    assert p[gh][-1] == Card.parse("QH") and p[sp][-1] == Card.parse("2S")
    assert p["n7"] == cards("4C")                     # a Navy place: refilled black


@pytest.mark.rules("the-empress-of-india-paired")
def test_a_pair_waits_until_both_its_cards_fit() -> None:
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    g = position({"a3": "QH", "n7": "3S"})
    g.play("n7-a3")                                   # a3: QH under 3S
    assert refusal_rule(g, f"a3:0-{gh}+a3-{sp}") == rid("foundations")
    assert not [m for m in g.legal_moves() if any(s.startswith("a3") for s, _ in m.steps)]


@pytest.mark.rules("the-empress-of-india-rule-1")
def test_em1_stacked_only_pairs_made_beforehand_are_played() -> None:
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    g = position({"a3": "QH", "n7": "2S"}, options="pair_play:stacked")
    assert refusal_rule(g, f"a3-{gh}+n7-{sp}") == rid("rule-1")
    assert not [m for m in g.legal_moves() if len(m.steps) == 2]
    g.play("a3-n7")
    assert f"n7-{gh}+n7:0-{sp}" in legal(g)


@pytest.mark.rules("the-empress-of-india-pair-time", "the-empress-of-india-choose-time")
def test_em12_pairing_only_when_no_pair_can_be_played() -> None:
    g = position({"a3": "QH", "n7": "2S"}, options="pairing_time:no-pair")
    assert refusal_rule(g, "a4-n8") == rid("pair-time")
    assert not [m for m in g.legal_moves() if len(m.steps) == 1]
    g = position({}, options="pairing_time:no-pair")
    assert "a4-n8" in legal(g)
    # By default ("you may choose your own time") pairing is open while a pair is ready.
    g = position({"a3": "QH", "n7": "2S"})
    assert "a4-n8" in legal(g) and "a3-n8" in legal(g)


@pytest.mark.rules("the-empress-of-india-deal-out")
def test_em8_deal_out_only_when_no_pair_can_be_played() -> None:
    g = position({"a3": "QH", "n7": "2S", "stock": "5H"}, options="deal_out_time:stuck")
    assert refusal_rule(g, "deal") == rid("deal-out")
    g = position({"stock": "5H"}, options="deal_out_time:stuck")
    assert "deal" in legal(g)
    # Card by card, the test is made before each card.
    g = position({"a3": "QH", "tb": "", "stock": "4H 2S 7D"}, options="deal_out_time:stuck",
                 rest_to="out")
    g.play("deal")                                   # 7D onto the red talon
    g.play("deal")                                   # 2S onto the black talon
    g.play("n5-a4")                                  # the 2S comes into the Navy: a pair
    assert refusal_rule(g, "deal") == rid("deal-out")
    g = position({"a3": "QH", "tb": "", "stock": "4H 2S 7D"}, rest_to="out")
    g.play("deal")
    g.play("deal")
    g.play("n5-a4")
    assert "deal" in legal(g)                         # by default the player chooses


# --------------------------------------------------------------------------- what never moves

@pytest.mark.rules("the-empress-of-india-figure", "the-empress-of-india-thrown-aside",
                   "the-empress-of-india-foundations")
def test_the_figure_the_queens_and_the_foundations_never_move() -> None:
    g = position({})
    assert refusal_rule(g, "emp-a0") == rid("figure")
    assert refusal_rule(g, "k3-n0") == rid("figure")
    assert refusal_rule(g, "a0-emp") == rid("figure")
    assert refusal_rule(g, "out-a0") == rid("thrown-aside")
    assert refusal_rule(g, "a0-out") == rid("thrown-aside")
    assert refusal_rule(g, "g0-a0") == rid("foundations")
    assert refusal_rule(g, "ad0-g0+a0-ad1") == rid("foundations")


@pytest.mark.rules("the-empress-of-india-no-redeal")
def test_board_errors_and_the_missing_redeal() -> None:
    g = position({})
    assert refusal_rule(g, "redeal") == rid("no-redeal")
    assert refusal_rule(g, "shuffle") == rid("board")
    assert refusal_rule(g, "zz1-a0") == rid("board")
    assert refusal_rule(g, "a0-zz1") == rid("board")
    assert refusal_rule(g, "a0:5-n0") == rid("board")
    assert refusal_rule(g, "a0-n0:0") == rid("board")
    assert refusal_rule(g, "a0 to n0") == rid("board")


# --------------------------------------------------------------------------- the end

def _almost_won() -> engine.Game:
    """Every foundation complete but a General of hearts at its two and an Admiral of clubs
    at its knave; the ace of hearts and the king of clubs wait in the Army and Navy."""
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    ac = next(f for f in ADMIRALS if SUIT[f].value == "C")
    spec = {f: general(SUIT[f].value, "A") for f in GENERALS}
    spec |= {f: admiral(SUIT[f].value, "K") for f in ADMIRALS}
    spec[gh] = general("H", "2")
    spec[ac] = admiral("C", "J")
    spec |= dict.fromkeys(PLACES, "")
    spec |= {"a5": "AH", "n9": "KC", "tr": "", "tb": "", "stock": ""}
    return position(spec, fill=False)


@pytest.mark.rules("the-empress-of-india-foundations", "the-empress-of-india-omit")
def test_won_when_all_176_cards_are_played() -> None:
    g = _almost_won()
    assert g.outcome() is None
    (move,) = [m for m in g.legal_moves() if len(m.steps) == 2]
    assert {str(m) for m in g.legal_moves() if len(m.steps) == 1} == {"a5-n9", "n9-a5"}
    g.play(move)
    assert g.outcome() is Outcome.WON
    assert g.legal_moves() == []
    assert "Won" in engine.view_of(g)["status"]


def test_lost_when_nothing_can_bring_a_new_card() -> None:
    # No pair fits, pack and talons empty: pairing would bring nothing.
    g = position({"tr": "", "tb": "", "stock": ""}, rest_to="out")
    assert g.outcome() is Outcome.LOST
    assert "failed" in engine.view_of(g)["status"]
    # A card in a talon keeps the game alive (pairing brings it in) ...
    g = position({"tr": "", "tb": "4S", "stock": ""}, rest_to="out")
    assert g.outcome() is None
    # ... and so does the pack (it can be dealt out).
    g = position({"tr": "", "tb": "", "stock": "4S"}, rest_to="out")
    assert g.outcome() is None


def test_lost_when_no_unpaired_card_is_left_in_one_body() -> None:
    spec = {a: "" for a in ARMY} | {"a0": "5H 6S", "tr": "7H", "tb": "8S", "stock": ""}
    g = position(spec, rest_to="out")
    assert g.outcome() is Outcome.LOST


def test_em13_with_stacked_pairs_a_pairing_that_fits_keeps_the_game_alive() -> None:
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    spec = {"a3": "QH", "n7": "2S", "tr": "", "tb": "", "stock": ""}
    g = position(spec, options="pair_play:stacked", rest_to="out")
    assert g.outcome() is None
    g.play("a3-n7")
    g.play(f"n7-{gh}+n7:0-{sp}")
    assert g.outcome() is Outcome.LOST or g.legal_moves()


# --------------------------------------------------------------------------- the view

def test_view_lists_pair_plays_and_pairings() -> None:
    g = position({"a3": "QH", "n5": "2S"})
    v = engine.view_of(g)
    json.dumps(v)
    gh = [f for f in GENERALS if SUIT[f].value == "H"]
    sp = [f for f in ADMIRALS if SUIT[f].value == "S"]
    pair_moves = {m["m"] for m in v["moves"]}
    assert pair_moves == {f"a3-{x}+n5-{y}" for x in gh for y in sp}
    assert all(len(m["steps"]) == 2 for m in v["moves"])
    # single-step pairings are carried by `movable`
    assert set(v["movable"]["a3"]) == set(gh) | set(NAVY)
    assert set(v["movable"]["n5"]) == set(sp) | set(ARMY)
    assert v["actions"][0]["move"] == "deal" and v["actions"][0]["enabled"]


def test_view_shows_only_the_top_of_each_talon_and_pairs_as_two_cards() -> None:
    g = position({"tr": "3H 4H 5D", "a3": "5H", "n7": "9S"})
    g.play("a3-n7")
    v = engine.view_of(g)
    piles = {p["id"]: p for p in v["piles"]}
    assert [c["c"] for c in piles["tr"]["cards"]] == [None, "4H"]   # 5D refilled a3
    assert [c["c"] for c in piles["n7"]["cards"]] == ["9S", "5H"]
    assert piles["n7"]["fan"] == "down"
    assert [c["c"] for c in piles["stock"]["cards"]][-1] is None
    assert {piles[k]["rotate"] for k in GUARD} == {0, 90}
    assert {piles[g]["rotate"] for g in GENERALS} == {0, 90, 45, -45}


@pytest.mark.parametrize("options", ["", "deal_out:all"])
def test_view_hides_the_pack_and_all_but_each_talon_top_while_dealing(options: str) -> None:
    """EM-6: a talon is a face-up packet whose top alone is seen; the pack is face down;
    every other card, a pair's two included, lies face up."""
    g = engine.new_game(SLUG, 3, options=options)
    g.play(next(m for m in g.legal_moves() if len(m.steps) == 1))      # a pair, too
    for _ in range(6):
        now = piles_of(g)
        v = {p["id"]: [c["c"] for c in p["cards"]] for p in engine.view_of(g)["piles"]}
        assert v["stock"] == [None] * len(now["stock"])
        for t in ("tr", "tb"):
            top = [str(c) for c in now[t][-1:]]
            assert v[t] == [None] * (len(now[t]) - len(top)) + top
        for pid, cs in now.items():
            if pid not in ("stock", "tr", "tb"):
                assert v[pid] == [str(c) for c in cs]
        if "deal" not in legal(g):
            break
        g.play("deal")


def test_layouts_name_real_piles() -> None:
    ids = {p.id for p in CLS.PILES}
    names = [lay.name for lay in CLS.LAYOUTS]
    assert len(names) == len(set(names))
    for lay in CLS.LAYOUTS:
        assert set(lay.at) <= ids and set(lay.hidden) <= ids, lay.name
    for fig in CLS.FIGURES:
        assert fig.layout is None or fig.layout in names
        assert fig.piles is not None and set(fig.piles) <= ids
    v = engine.view_of(engine.new_game(SLUG, 1))
    (narrow,) = v["layouts"]
    assert narrow["max_width"] and set(narrow["piles"]) | set(narrow["hidden"]) == ids
    # no two piles overlap in the narrow layout (cards one slot apart at least)
    spots = [(p["x"], p["y"]) for p in narrow["piles"].values()]
    for i, (x1, y1) in enumerate(spots):
        for x2, y2 in spots[i + 1:]:
            assert abs(x1 - x2) >= 1 or abs(y1 - y2) >= 1.15


def test_the_wide_layout_keeps_the_piles_apart() -> None:
    """Boxes of the cards as drawn (rotation included, a card 0.9 of a slot wide and 0.93
    of a slot high, a pair one quarter-card taller) must not overlap."""
    import math

    boxes = []
    for spec in CLS.PILES:
        w, h = 0.9, 0.93
        if spec.fan.value == "down":
            h *= 1.25
        a = math.radians(spec.rotate)
        # the rotated card's extent, converting between the grid's two units (1.36 : 1)
        bw = abs(math.cos(a)) * w + abs(math.sin(a)) * h * 1.36
        bh = abs(math.cos(a)) * h + abs(math.sin(a)) * w / 1.36
        cx, cy = spec.x + 0.5, spec.y + 0.93 / 2
        boxes.append((spec.id, cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2))
        assert cx + bw / 2 <= CLS.GRID[0] + 0.05 and cy + bh / 2 <= CLS.GRID[1] + 0.05
    for i, (n1, x1, y1, x2, y2) in enumerate(boxes):
        for n2, u1, v1, u2, v2 in boxes[i + 1:]:
            overlap = min(x2, u2) - max(x1, u1) > 0.02 and min(y2, v2) - max(y1, v1) > 0.02
            # a 45-degree card's box is larger than the card: allow its corners
            tilted = {n1, n2} & {p.id for p in CLS.PILES if p.rotate % 90}
            assert not overlap or tilted, (n1, n2)


def test_describe_says_what_a_move_does() -> None:
    g = position({"a3": "QH", "n5": "2S"})
    gh = next(f for f in GENERALS if SUIT[f].value == "H")
    sp = next(f for f in ADMIRALS if SUIT[f].value == "S")
    text = g.describe(g.state, Move.parse(f"a3-{gh}+n5-{sp}"))
    assert "queen of hearts" in text and "two of spades" in text
    assert "paired" in g.describe(g.state, Move.parse("a3-n5"))
    assert "is dealt onto the" in g.describe(g.state, Move.parse("deal"))


# --------------------------------------------------------------------------- random play

PLAYOUT = settings(max_examples=30, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])
OPTIONS = st.sampled_from(["", "pair_play:stacked", "pack_refill:wait",
                           "deal_out_time:stuck,pairing_time:no-pair",
                           "pack_refill:wait,pair_play:stacked", "deal_out:all",
                           "deal_out:all,pack_refill:wait"])


def check_invariants(g: engine.Game, full: Counter[Card]) -> None:
    p = piles_of(g)
    assert Counter(g.state.all_cards()) == full                   # 208, each once
    assert p["out"] == cards("QS QS QS QS QC QC QC")              # the 7 thrown aside
    assert p["emp"] == cards("QC") and all(len(p[k]) == 1 for k in GUARD)
    for pid in PLACES:
        cs = p[pid]
        assert len(cs) <= 2
        if len(cs) == 1:
            assert cs[0].red == (pid in ARMY)
        if len(cs) == 2:
            assert cs[0].red == (pid in ARMY) and cs[1].red != cs[0].red
    wait = "pack_refill:wait" in engine.options_to_text(g.options)
    for body, talon in ((ARMY, "tr"), (NAVY, "tb")):
        if any(not p[x] for x in body):                           # Rule II, at once
            assert not p[talon]
            if not wait:
                assert not any(c.red == (talon == "tr") for c in p["stock"])
    for f in FOUNDATIONS:
        cs = p[f]
        for a, b in itertools.pairwise(cs):
            assert b.suit is a.suit and b.rank == next_rank(f in GENERALS, a.rank)


def _pick(moves: list[Move], p: int, prefer_plays: bool) -> Move:
    plays = [m for m in moves if len(m.steps) == 2]
    pool = plays if prefer_plays and plays else moves
    return pool[p % len(pool)]


@PLAYOUT
@given(seed=st.integers(0, 2**53 - 1), options=OPTIONS,
       picks=st.lists(st.tuples(st.integers(0, 10**6), st.booleans()), max_size=150))
def test_random_play_keeps_all_208_cards_and_the_rules(seed: int, options: str,
                                                       picks: list[tuple[int, bool]]) -> None:
    g = engine.new_game(SLUG, seed=seed, options=options)
    full = CLS.full_pack()
    check_invariants(g, full)
    for p, prefer in picks:
        moves = g.legal_moves()
        if not moves:
            assert g.outcome() is not None
            break
        for m in moves:   # legal_moves skips the refusal check: it must agree
            assert g.refusal(g.state, m) is None, m
        g.play(_pick(moves, p, prefer))
        check_invariants(g, full)


@PLAYOUT
@given(seed=st.integers(0, 2**53 - 1), options=OPTIONS,
       picks=st.lists(st.tuples(st.integers(0, 10**6), st.booleans()), max_size=100))
def test_undo_and_positions_round_trip(seed: int, options: str,
                                       picks: list[tuple[int, bool]]) -> None:
    g = engine.new_game(SLUG, seed=seed, options=options)
    texts = [g.state_text()]
    for p, prefer in picks:
        moves = g.legal_moves()
        if not moves:
            break
        g.play(_pick(moves, p, prefer))
        texts.append(g.state_text())
    for compact in (False, True):
        h = engine.load_position(g.position(compact=compact))
        assert h.state_text() == g.state_text() and h.position() == g.position()
    for i in range(len(texts) - 1, 0, -1):
        assert g.state_text() == texts[i]
        g.undo()
        assert g.state_text() == texts[i - 1]
    h = engine.load_position(g.position())
    assert h.redo_stack == g.redo_stack
    while g.redo() is not None:
        pass
    assert g.state_text() == texts[-1]


ANCHORS = None


def _page_anchors() -> set[str]:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / f"{SLUG}.md")
    if not text.exists():  # e.g. inside Pyodide, where only engine/ and tests/ are copied
        return set()
    src = text.read_text(encoding="utf-8")
    return set(re.findall(r'\bid="([^"]+)"', src)) | set(re.findall(r"\{\s*#([\w-]+)", src))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**53 - 1),
       steps=st.lists(st.tuples(st.sampled_from([p.id for p in CLS.PILES]),
                                st.integers(-1, 2),
                                st.sampled_from([p.id for p in CLS.PILES])),
                      min_size=1, max_size=2))
def test_any_move_is_played_or_refused_with_an_anchored_rule(
        seed: int, steps: list[tuple[str, int, str]]) -> None:
    g = engine.new_game(SLUG, seed=seed)
    text = "+".join(f"{s}{'' if k < 0 else f':{k}'}-{d}" for s, k, d in steps)
    legal_now = {str(m) for m in g.legal_moves()}
    before = g.position()
    try:
        g.play(text)
    except IllegalMove as e:
        assert g.position() == before
        assert e.rule.startswith(SLUG + "-") and e.message
        anchors = _page_anchors()
        assert not anchors or e.rule in anchors, e.rule
        assert text not in legal_now
    else:
        # played: it was legal (possibly written with an explicit top index)
        assert text in legal_now or ":" in text
