"""La Belle Lucie: every rule, every refusal (with the rule id it cites)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.belle_lucie import (
    DEAL_ORDER, FOUNDATION_PILES, PACKETS, PILES, TWO_DEAL_ORDER, BelleLucieOptions,
    HouseInTheWoodOptions, HouseOnTheHillOptions, LaBelleLucie, Lines, Packets, RedealTiming,
    TheHouseInTheWood, TheHouseOnTheHill, code, deal_packets,
)
from engine.core import Fan
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "la-belle-lucie"
R = f"{SLUG}-"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()


def game(piles: dict[str, str], rest_to: str = "p17", **kw: object) -> LaBelleLucie:
    """The cards given, every other card in packet 18 (``rest_to``), sorted, so that its top
    is the highest card left (a king, mostly, which neither plays nor marries)."""
    g = make_game(SLUG, piles, rest_to=rest_to, **kw)  # type: ignore[arg-type]
    assert isinstance(g, LaBelleLucie)
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def up_to(suit: str, last: str) -> str:
    """A foundation built from the ace of ``suit`` up to ``last`` (a rank)."""
    return " ".join(r + suit for r in RANKS[:RANKS.index(last) + 1])


def tableau(g: LaBelleLucie) -> list[tuple[Card, ...]]:
    return [g.state.piles[i] for i in PACKETS]


# A tableau with no card that can be played or married: every packet's top is a king, or a
# card whose next higher card of its suit lies buried. Used with rest_to to hold the others.
STUCK = {"p0": "2H KS", "p1": "3H KH"}


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("la-belle-lucie-deal")
def test_deal_seventeen_packets_of_three_and_one_single_card() -> None:
    g = engine.new_game(SLUG, seed=7)
    s = g.state
    sizes = [len(s.piles[i]) for i in PACKETS]
    assert sizes.count(3) == 17 and sizes.count(1) == 1
    assert sizes[15] == 1  # the plate's single card: the middle of the bottom row
    assert all(not s.piles[f] for f in FOUNDATION_PILES)
    assert Counter(s.all_cards()) == Counter(engine.pack(1))
    assert g.var(s, "redeals") == 0


@pytest.mark.rules("la-belle-lucie-deal")
def test_same_deal_number_same_deal_and_different_numbers_differ() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (5, 5, 6))
    assert a == b
    assert a != c


@pytest.mark.rules("la-belle-lucie-deal")
def test_three_cards_dealt_together_row_by_row_the_single_card_last() -> None:
    # The pack's top is its last card: the first three leave together and are turned up,
    # so the card that was on top lies at the bottom of the packet.
    pack = tuple(engine.pack(1))
    packets = deal_packets(pack)
    assert packets[0] == (pack[-1], pack[-2], pack[-3])
    assert DEAL_ORDER[-1] == 15 and sorted(DEAL_ORDER) == list(range(18))
    assert packets[15] == (pack[0],)  # the last card of the pack is the single card
    assert packets[DEAL_ORDER[-2]] == (pack[3], pack[2], pack[1])


@pytest.mark.rules("la-belle-lucie-deal")
def test_the_packets_lie_as_in_the_plate() -> None:
    rows: dict[float, list[float]] = {}
    for i in PACKETS:
        rows.setdefault(PILES[i].y, []).append(PILES[i].x)
    assert [len(rows[y]) for y in sorted(rows)] == [5, 5, 3, 5]
    bottom = sorted(rows)[-1]
    assert PILES[15].y == bottom and PILES[15].x == sorted(rows[bottom])[2]
    assert all(PILES[i].fan is Fan.RIGHT for i in PACKETS)
    assert len({PILES[f].y for f in FOUNDATION_PILES}) == 1
    assert min(PILES[f].y for f in FOUNDATION_PILES) > bottom


@pytest.mark.parametrize("cls", [LaBelleLucie, TheHouseInTheWood, TheHouseOnTheHill])
def test_a_grown_fan_stays_clear_of_its_neighbour_and_inside_the_board(
        cls: type[LaBelleLucie]) -> None:
    """A slot is a card (0.9) and a gap; a fan spreads at most fan_limit card widths."""
    piles, packets = cls.PILES, cls.PACKET_PILES
    for layout_grid, places in (
            (cls.GRID, {p.id: (p.x, p.y) for p in piles}),
            (cls.LAYOUTS[0].grid,
             {k: (x, y) for k, (x, y, _) in cls.LAYOUTS[0].at.items()})):
        width = 0.9 * (1 + piles[0].fan_limit)  # type: ignore[operator]
        for i in packets:
            x, y = places[piles[i].id]
            assert x + 0.05 + width <= layout_grid[0]
            for j in packets:
                xj, yj = places[piles[j].id]
                if j != i and yj == y and xj > x:
                    assert x + 0.05 + width + 0.1 <= xj + 0.05
        assert set(places) >= {p.id for p in piles}


# ----------------------------------------------------------------------------- Rule I

@pytest.mark.rules("la-belle-lucie-rule-1")
def test_rule_1_only_the_uppermost_card_is_available() -> None:
    g = game({"p0": "AS 9D 5C", "p1": "6C"})
    assert refusal_rule(g, "p0:0-f0") == R + "rule-1"
    assert refusal_rule(g, "p0:1-p1") == R + "rule-1"
    assert Move.parse("p0:0-f0") not in g.legal_moves()


@pytest.mark.rules("la-belle-lucie-rule-1", "la-belle-lucie-marriages")
def test_rule_1_removing_the_top_releases_the_card_beneath() -> None:
    g = game({"p0": "AS 10D 5C", "p1": "6C", "p2": "JD"})
    g.play("p0-p1")  # the five of clubs married onto the six
    g.play("p0-p2")  # the ten of diamonds, now uppermost, onto the knave
    g.play("p0-f0")  # and the ace of spades, released, to its foundation
    assert g.state.piles[FOUNDATION_PILES[0]] == cards("AS")
    assert not g.state.piles[0]


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("la-belle-lucie-rule-2")
def test_rule_2_the_foundations_follow_suit() -> None:
    g = game({"p0": "AH", "p1": "2S", "f0": "AS"})
    assert refusal_rule(g, "p0-f0") == R + "rule-2"  # f0 is the spades foundation
    assert refusal_rule(g, "p0-f2") == R + "rule-2"
    g.play("p0-f1")
    assert g.state.piles[FOUNDATION_PILES[1]] == cards("AH")
    g = game({"p0": "2H", "f0": "AS", "f1": "AH"})
    assert refusal_rule(g, "p0-f0") == R + "rule-2"
    g.play("p0-f1")


@pytest.mark.rules("la-belle-lucie-foundations")
def test_foundations_begin_with_the_ace_and_ascend_one_at_a_time() -> None:
    g = game({"p0": "2S", "p1": "3S", "p2": "AS"})
    assert refusal_rule(g, "p0-f0") == R + "foundations"
    g.play("p2-f0")
    assert refusal_rule(g, "p1-f0") == R + "foundations"
    g.play("p0-f0")
    g.play("p1-f0")
    assert g.state.piles[FOUNDATION_PILES[0]] == cards("AS 2S 3S")


@pytest.mark.rules("la-belle-lucie-foundations")
def test_foundations_ascend_to_the_king() -> None:
    g = game({"f3": up_to("C", "Q"), "p4": "KC"})
    g.play("p4-f3")
    assert len(g.state.piles[FOUNDATION_PILES[3]]) == 13
    assert g.state.piles[FOUNDATION_PILES[3]][-1] == Card.parse("KC")


@pytest.mark.rules("la-belle-lucie-foundations")
def test_cards_on_the_foundations_stay_there() -> None:
    g = game({"f0": "AS 2S", "p0": "3S", "p1": ""}, rest_to="p2")
    assert refusal_rule(g, "f0-p0") == R + "foundations"
    assert refusal_rule(g, "f0-p1") == R + "foundations"
    assert refusal_rule(g, "f0-f1") == R + "foundations"


# ----------------------------------------------------------------------------- play

@pytest.mark.rules("la-belle-lucie-aces")
def test_aces_and_suitable_cards_are_played_from_the_surface() -> None:
    g = game({"p0": "7D AD", "p1": "9C 2D", "p2": "3D"})
    legal = set(map(str, g.legal_moves()))
    assert "p0-f2" in legal
    g.play("p0-f2")
    g.play("p1-f2")
    g.play("p2-f2")
    assert g.state.piles[FOUNDATION_PILES[2]] == cards("AD 2D 3D")


@pytest.mark.rules("la-belle-lucie-aces")
def test_nothing_is_played_for_the_player() -> None:
    # An ace on the surface stays there until the player plays it (BL-3).
    g = engine.new_game(SLUG, seed=1)
    for m in g.legal_moves():
        if m.steps and m.steps[0][1].startswith("p"):
            g.play(m)
            break
    assert all(not g.state.piles[f] for f in FOUNDATION_PILES)
    g = game({"p0": "AS", "p1": "2S"})
    assert refusal_rule(g, "p1-f0") == R + "foundations"
    assert g.state.piles[0] == cards("AS")


@pytest.mark.rules("la-belle-lucie-aces", "la-belle-lucie-marriages")
def test_plays_and_marriages_may_come_in_any_order() -> None:
    # "When all available cards have been played, you proceed ..." describes the order of
    # good play, not a condition: a marriage is allowed while a play is possible (BL-3).
    g = game({"p0": "AH", "p1": "5C", "p2": "6C"})
    assert Move.parse("p0-f1") in g.legal_moves()
    g.play("p1-p2")
    g.play("p0-f1")


# ----------------------------------------------------------------------------- marriages

@pytest.mark.rules("la-belle-lucie-marriages")
def test_marriage_onto_the_same_suit_one_higher() -> None:
    g = game({"p0": "2H 9S", "p1": "4D 10S"})
    assert Move.parse("p0-p1") in g.legal_moves()
    g.play("p0-p1")
    assert g.state.piles[1] == cards("4D 10S 9S")
    assert g.state.piles[0] == cards("2H")


@pytest.mark.rules("la-belle-lucie-marriages")
def test_marriage_must_be_of_the_same_suit() -> None:
    g = game({"p0": "9S", "p1": "10H", "p2": "10C"})
    assert refusal_rule(g, "p0-p1") == R + "marriages"
    assert refusal_rule(g, "p0-p2") == R + "marriages"


@pytest.mark.rules("la-belle-lucie-marriages")
def test_marriages_only_in_a_descending_line() -> None:
    g = game({"p0": "9S", "p1": "8S", "p2": "JS", "p3": "9D"})
    assert refusal_rule(g, "p0-p1") == R + "marriages"  # onto one lower: ascending
    assert refusal_rule(g, "p0-p2") == R + "marriages"  # two higher
    g2 = game({"p0": "8D", "p1": "9D"})
    assert refusal_rule(g2, "p1-p0") == R + "marriages"


@pytest.mark.rules("la-belle-lucie-marriages")
def test_a_king_is_never_married() -> None:
    g = game({"p0": "KS", "p1": "QS", "p2": "AS"})
    assert refusal_rule(g, "p0-p1") == R + "marriages"
    assert refusal_rule(g, "p0-p2") == R + "marriages"
    assert not [m for m in g.legal_moves() if m.steps and m.steps[0][0] == "p0"]


@pytest.mark.rules("la-belle-lucie-marriages")
def test_an_ace_may_be_married_though_it_could_be_played() -> None:
    g = game({"p0": "AS", "p1": "2S"})
    g.play("p0-p1")
    assert g.state.piles[1] == cards("2S AS")


@pytest.mark.rules("la-belle-lucie-marriages")
def test_an_empty_place_stays_empty() -> None:
    g = game({"p0": "", "p1": "9S", "p2": "10S"}, rest_to="p3")
    assert refusal_rule(g, "p1-p0") == R + "marriages"
    assert not [m for m in g.legal_moves() if m.steps and m.steps[0][1] == "p0"]


@pytest.mark.rules("la-belle-lucie-marriages", "la-belle-lucie-rule-1")
def test_one_card_at_a_time_so_a_married_line_does_not_move_whole() -> None:
    g = game({"p0": "KD QD JD", "p1": "9C QH"})
    # the knave of diamonds is the only card of p0 that may move; nothing takes it but the
    # queen beneath it, so the line stays where it is
    assert refusal_rule(g, "p0:1-p1") == R + "rule-1"
    assert refusal_rule(g, "p0-p1") == R + "marriages"


def test_moves_onto_the_same_packet_and_bad_notation_are_refused_on_the_board() -> None:
    g = game({"p0": "9S", "p1": "10S"})
    assert refusal_rule(g, "p0-p0") == R + "board"
    assert refusal_rule(g, "zz9-f0") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"
    assert refusal_rule(g, "p0-p1+p1-f0") == R + "board"
    assert refusal_rule(g, "deal") == R + "board"
    assert refusal_rule(g, "p0-p1:0") == R + "board"
    g = game({"p0": ""}, rest_to="p1")
    assert refusal_rule(g, "p0-f0") == R + "board"


# ----------------------------------------------------------------------------- re-deal

def _redeal_game(**kw: object) -> LaBelleLucie:
    """Foundations partly built, fourteen cards left in three packets, nothing to play:
    the knave of diamonds and the three of clubs, wanted next, lie buried."""
    piles = {"f0": up_to("S", "K"), "f1": up_to("H", "K"), "f2": up_to("D", "10"),
             "f3": "AC 2C", "p3": "9C KD", "p7": "QD 5C 10C", "p9": "JD 3C JC 4C QC"}
    return game(piles, rest_to="p9", **kw)  # type: ignore[arg-type]


@pytest.mark.rules("la-belle-lucie-redeal")
def test_redeal_takes_up_shuffles_and_deals_again_in_threes() -> None:
    g = _redeal_game(deal=31)
    founds = [g.state.piles[f] for f in FOUNDATION_PILES]
    left = Counter(c for p in tableau(g) for c in p)
    assert sum(left.values()) == 14
    assert g.legal_moves() == [Move(action="redeal")]
    g.play("redeal")
    s = g.state
    assert Counter(c for p in tableau(g) for c in p) == left
    assert [s.piles[f] for f in FOUNDATION_PILES] == founds  # the foundations stay
    # packets of three from the first place on, the last taking the two left over
    sizes = [len(s.piles[i]) for i in DEAL_ORDER]
    assert sizes == [3, 3, 3, 3, 2] + [0] * 13
    assert g.var(s, "redeals") == 1


@pytest.mark.rules("la-belle-lucie-redeal")
def test_the_shuffle_is_fixed_by_the_deal_number_and_differs_each_time() -> None:
    a, b, c = (_redeal_game(deal=n, options="redeal_timing:choice") for n in (31, 31, 32))
    for x in (a, b, c):
        x.play("redeal")
    assert a.state == b.state
    assert a.state != c.state
    first = a.state
    a.play("redeal")
    assert a.state.piles != first.piles
    assert a.var(a.state, "redeals") == 2


@pytest.mark.rules("la-belle-lucie-redeal")
def test_redeal_only_when_no_card_can_be_played() -> None:
    g = _redeal_game()
    g2 = game({"p0": "JD", "f2": up_to("D", "10")}, rest_to="p9")
    assert refusal_rule(g2, "redeal") == R + "redeal"
    g2.play("p0-f2")
    g2.play("redeal")
    g.play("redeal")


@pytest.mark.rules("la-belle-lucie-redeal")
def test_redeal_whenever_the_player_chooses_under_the_other_reading() -> None:
    g = game({"p0": "JD", "f2": up_to("D", "10")}, rest_to="p9", options="redeal_timing:choice")
    g.play("redeal")
    assert g.var(g.state, "redeals") == 1


@pytest.mark.rules("la-belle-lucie-redeal")
def test_redeal_while_marriages_remain() -> None:
    # Only plays to the foundations stand in the way of a re-deal, not marriages.
    g = game({"p0": "9S", "p1": "10S"}, rest_to="p2")
    assert Move.parse("p0-p1") in g.legal_moves()
    assert g.playable(g.state) is None
    g.play("redeal")


@pytest.mark.rules("la-belle-lucie-redeal")
def test_only_two_redeals() -> None:
    g = _redeal_game(deal=5, options="redeal_timing:choice")
    g.play("redeal")
    g.play("redeal")
    assert refusal_rule(g, "redeal") == R + "redeal"
    g = _redeal_game(vars={"redeals": 2})
    assert refusal_rule(g, "redeal") == R + "redeal"


@pytest.mark.rules("la-belle-lucie-redeal")
def test_nothing_to_redeal_when_the_tableau_is_empty() -> None:
    done = {f"f{j}": up_to(s, "K") for j, s in enumerate("SHDC")}
    g = game(done, rest_to="p0")
    assert refusal_rule(g, "redeal") == R + "redeal"


@pytest.mark.rules("la-belle-lucie-redeal", "la-belle-lucie-deal")
def test_a_full_tableau_redealt_fills_the_plate_again() -> None:
    g = engine.new_game(SLUG, seed=3, options="redeal_timing:choice")
    g.play("redeal")
    sizes = [len(g.state.piles[i]) for i in DEAL_ORDER]
    assert sizes == [3] * 17 + [1]


@pytest.mark.rules("la-belle-lucie-redeal")
def test_position_restores_the_redeals_exactly() -> None:
    g = engine.new_game(SLUG, seed=4242, options="redeal_timing:choice")
    rng = random.Random(1)
    for _ in range(60):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(rng.choice(moves))
    assert g.var(g.state, "redeals") >= 1
    for compact in (False, True):
        h = engine.load_position(g.position(compact=compact))
        assert h.state == g.state


# ----------------------------------------------------------------------------- outcome

@pytest.mark.rules("la-belle-lucie-foundations")
def test_won_when_all_fifty_two_are_on_the_foundations() -> None:
    done = {f"f{j}": up_to(s, "K") for j, s in enumerate("SHDC")}
    g = game({**done, "f3": up_to("C", "Q")}, rest_to="p15")
    assert g.outcome() is None
    g.play("p15-f3")
    assert g.outcome() is Outcome.WON
    assert "Won" in g.status_of(g.state)


@pytest.mark.rules("la-belle-lucie-redeal")
def test_lost_when_nothing_can_move_and_the_redeals_are_spent() -> None:
    g = game(STUCK, rest_to="p2", vars={"redeals": 2})
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


@pytest.mark.rules("la-belle-lucie-redeal")
def test_not_lost_while_a_redeal_remains() -> None:
    g = game(STUCK, rest_to="p2", vars={"redeals": 1})
    assert [str(m) for m in g.legal_moves()] == ["redeal"]
    assert g.outcome() is None


@pytest.mark.rules("la-belle-lucie-marriages")
def test_not_lost_while_a_marriage_remains() -> None:
    g = game({**STUCK, "p2": "9S", "p3": "10S"}, rest_to="p4", vars={"redeals": 2})
    assert g.outcome() is None
    g.play("p2-p3")


def test_random_play_always_ends_and_every_end_is_judged() -> None:
    rng = random.Random(7)
    ends: Counter[Outcome | None] = Counter()
    for seed in range(40):
        g = engine.new_game(SLUG, seed=seed)
        for _ in range(400):
            if g.outcome() is not None:
                break
            g.play(rng.choice(g.legal_moves()))
        assert g.outcome() is not None
        ends[g.outcome()] += 1
    assert ends[Outcome.LOST] > 0


# ----------------------------------------------------------------------------- the variants

def test_la_belle_lucie_itself_keeps_to_one_pack() -> None:
    # The two-pack games of the last two paragraphs have boards of their own (BL-9).
    assert LaBelleLucie.packs == 1 and sum(LaBelleLucie.full_pack().values()) == 52
    assert len(PACKETS) == 18 and len(FOUNDATION_PILES) == 4
    fields = {f.name for f in dataclasses.fields(BelleLucieOptions)}
    assert fields == {"redeal_timing"}
    for timing in RedealTiming:
        g = engine.new_game(SLUG, seed=2, options=BelleLucieOptions(redeal_timing=timing))
        assert sum(len(p) for p in g.state.piles) == 52


WOOD = "the-house-in-the-wood"
HILL = "the-house-on-the-hill"
TWO_PACKETS = range(36)
#: The foundations of the two-pack games: f0-f3 the first column (spades, hearts, diamonds,
#: clubs), f4-f7 the second.
F = {f"f{n}": 36 + n for n in range(8)}


def two(slug: str, piles: dict[str, str], rest_to: str = "p35", **kw: object) -> LaBelleLucie:
    """A two-pack position: the cards given, every other card of the two packs in packet 36
    (``rest_to``), sorted, so that its top is a king of spades."""
    g = make_game(slug, piles, rest_to=rest_to, **kw)  # type: ignore[arg-type]
    assert isinstance(g, TheHouseInTheWood)
    return g


def packet_sizes(g: LaBelleLucie) -> list[int]:
    return [len(g.state.piles[i]) for i in TWO_PACKETS]


class TestTheHouseInTheWood:
    @pytest.mark.rules("la-belle-lucie-house-in-the-wood", "la-belle-lucie-deal")
    def test_two_packs_dealt_in_thirty_six_packets_each_pack_as_la_belle_lucie(self) -> None:
        g = engine.new_game(WOOD, seed=7)
        assert type(g).packs == 2
        assert Counter(g.state.all_cards()) == Counter(engine.pack(2))
        sizes = packet_sizes(g)
        assert sizes.count(3) == 34 and sizes.count(1) == 2 and len(sizes) == 36
        assert sizes[15] == 1 and sizes[33] == 1  # each plate's single card, as in the plate
        assert all(not g.state.piles[f] for f in F.values())
        # the pack's top half makes the upper plate, dealt exactly as La Belle Lucie's
        cards = tuple(engine.pack(2))
        packets = TheHouseInTheWood.first_deal(cards, HouseInTheWoodOptions())
        assert packets[:18] == deal_packets(cards[52:])
        assert packets[18:] == deal_packets(cards[:52])

    @pytest.mark.rules("la-belle-lucie-house-in-the-wood", "la-belle-lucie-deal")
    def test_under_the_other_reading_thirty_five_packets_the_last_of_two(self) -> None:
        g = engine.new_game(WOOD, seed=7, options="packets:35")
        sizes = packet_sizes(g)
        assert sizes.count(3) == 34 and sizes.count(2) == 1 and sizes.count(0) == 1
        assert [sizes[i] for i in TWO_DEAL_ORDER][-2:] == [2, 0]  # the lower plate's single
        assert Counter(g.state.all_cards()) == Counter(engine.pack(2))

    @pytest.mark.rules("la-belle-lucie-house-in-the-wood", "la-belle-lucie-rule-2",
                       "la-belle-lucie-aces")
    def test_eight_aces_two_foundations_to_a_suit_a_card_to_either(self) -> None:
        g = two(WOOD, {"p0": "AH", "p1": "AH", "p2": "2H", "p3": "AS"})
        legal = set(map(str, g.legal_moves()))
        assert {"p0-f1", "p0-f5", "p1-f1", "p1-f5", "p3-f0", "p3-f4"} <= legal
        assert refusal_rule(g, "p0-f0") == R + "rule-2"  # the spades' foundations
        assert refusal_rule(g, "p0-f6") == R + "rule-2"
        assert refusal_rule(g, "p2-f1") == R + "house-in-the-wood"  # begun only by an ace
        g.play("p0-f1")
        g.play("p1-f5")
        g.play("p2-f5")  # the two goes on the second hearts foundation
        assert g.state.piles[F["f1"]] == cards("AH")
        assert g.state.piles[F["f5"]] == cards("AH 2H")

    @pytest.mark.rules("la-belle-lucie-house-in-the-wood", "la-belle-lucie-foundations")
    def test_each_foundation_ascends_in_sequence_to_its_king(self) -> None:
        g = two(WOOD, {"f2": up_to("D", "Q"), "f6": up_to("D", "4"), "p0": "KD", "p1": "6D",
                       "p2": "5D"})
        assert refusal_rule(g, "p1-f6") == R + "house-in-the-wood"  # the five first
        assert refusal_rule(g, "p0-f6") == R + "house-in-the-wood"
        assert refusal_rule(g, "p1-f2") == R + "house-in-the-wood"
        g.play("p0-f2")
        g.play("p2-f6")
        g.play("p1-f6")
        assert len(g.state.piles[F["f2"]]) == 13
        assert refusal_rule(g, "f2-p3") == R + "foundations"  # cards there stay there

    @pytest.mark.rules("la-belle-lucie-house-in-the-wood", "la-belle-lucie-rule-1")
    def test_only_the_uppermost_card_of_a_packet(self) -> None:
        g = two(WOOD, {"p0": "AS 9D 5C", "p1": "6C"})
        assert refusal_rule(g, "p0:0-f0") == R + "rule-1"
        assert refusal_rule(g, "p0:1-p1") == R + "rule-1"

    @pytest.mark.rules("la-belle-lucie-house-in-the-wood", "la-belle-lucie-marriages")
    def test_marriages_descend_on_either_card_of_the_suit_one_higher(self) -> None:
        g = two(WOOD, {"p0": "4C 7D", "p1": "8D", "p2": "8D", "p3": "6D", "p4": "7S"})
        legal = set(map(str, g.legal_moves()))
        assert {"p0-p1", "p0-p2"} <= legal
        assert refusal_rule(g, "p0-p3") == R + "marriages"  # on one lower: ascending
        assert refusal_rule(g, "p4-p1") == R + "marriages"  # another suit
        assert refusal_rule(g, "p1-p2") == R + "marriages"  # the same value
        g.play("p0-p1")
        g.play("p1-p2")  # and on to the other eight, releasing the first
        assert g.state.piles[2] == cards("8D 7D") and g.state.piles[1] == cards("8D")
        g.play("p3-p2")
        assert g.state.piles[2] == cards("8D 7D 6D")

    @pytest.mark.rules("la-belle-lucie-house-in-the-wood", "la-belle-lucie-marriages")
    def test_an_empty_place_stays_empty(self) -> None:
        g = two(WOOD, {"p0": "", "p1": "9S", "p2": "10S"})
        assert refusal_rule(g, "p1-p0") == R + "marriages"

    @pytest.mark.rules("la-belle-lucie-house-in-the-wood", "la-belle-lucie-redeal")
    def test_redeals_in_threes_through_both_plates_twice_at_most(self) -> None:
        piles = {f"f{n}": up_to("SHDC"[n % 4], "K") for n in range(6)}
        piles |= {"f6": up_to("D", "5"), "f7": up_to("C", "5")}
        # sixteen cards left, 6D to KD and 6C to KC; the six of diamonds uppermost
        g = two(WOOD, piles | {"p35": "6D"}, rest_to="p35", deal=3)
        assert g.playable(g.state) == Card.parse("6D")
        assert refusal_rule(g, "redeal") == R + "redeal"  # a card can still be played
        g = two(WOOD, piles | {"p35": "KC"}, rest_to="p20", deal=3)
        left = Counter(c for i in TWO_PACKETS for c in g.state.piles[i])
        g.play("redeal")
        assert Counter(c for i in TWO_PACKETS for c in g.state.piles[i]) == left
        sizes = [len(g.state.piles[i]) for i in TWO_DEAL_ORDER]
        assert sizes == [3] * 5 + [1] + [0] * 30
        assert g.state.piles[F["f6"]] == cards(up_to("D", "5"))  # the foundations stay
        g = two(WOOD, {}, vars={"redeals": 2}, options="redeal_timing:choice")
        assert refusal_rule(g, "redeal") == R + "redeal"

    @pytest.mark.rules("la-belle-lucie-house-in-the-wood", "la-belle-lucie-redeal")
    def test_a_full_tableau_redealt_makes_thirty_five_packets(self) -> None:
        g = engine.new_game(WOOD, seed=3, options="redeal_timing:choice")
        g.play("redeal")
        sizes = [len(g.state.piles[i]) for i in TWO_DEAL_ORDER]
        assert sizes == [3] * 34 + [2, 0]

    @pytest.mark.rules("la-belle-lucie-house-in-the-wood", "la-belle-lucie-foundations")
    def test_won_when_all_hundred_and_four_are_on_the_foundations(self) -> None:
        piles = {f"f{n}": up_to("SHDC"[n % 4], "K") for n in range(7)}
        g = two(WOOD, piles | {"f7": up_to("C", "Q")}, rest_to="p4")
        assert g.outcome() is None
        g.play("p4-f7")
        assert g.outcome() is Outcome.WON
        assert "all 104 cards" in g.status_of(g.state)

    @pytest.mark.rules("la-belle-lucie-house-in-the-wood", "la-belle-lucie-redeal")
    def test_lost_when_no_marriage_can_bring_a_card_up_though_moves_remain(self) -> None:
        # The seven of diamonds can pass to and fro between the two eights for ever, and
        # releases nothing a foundation wants: the aces lie buried in packet 36.
        stuck = {"p0": "3C 8D", "p1": "3C 8D", "p2": "10S 7D"}
        g = two(WOOD, stuck, vars={"redeals": 2})
        assert g.legal_moves()
        assert g.outcome() is Outcome.LOST
        assert "failed" in g.status_of(g.state)
        g = two(WOOD, stuck, vars={"redeals": 1})  # a re-deal remains
        assert g.outcome() is None
        g = two(WOOD, stuck | {"p2": "AS 7D"}, vars={"redeals": 2})  # marrying frees an ace
        assert g.outcome() is None
        g.play("p2-p0")
        g.play("p2-f4")

    def test_not_lost_when_the_search_gives_up(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import engine.belle_lucie as bl
        monkeypatch.setattr(bl, "SEARCH_LIMIT", 1)
        g = two(WOOD, {"p0": "3C 8D", "p1": "3C 8D", "p2": "10S 7D"}, vars={"redeals": 2})
        assert g.play_reachable(g.state) is None
        assert g.outcome() is None

    def test_the_board_and_its_notation(self) -> None:
        g = two(WOOD, {"p0": "9S", "p1": "10S"})
        assert refusal_rule(g, "p0-p0") == R + "house-in-the-wood-board"
        assert refusal_rule(g, "deal") == R + "house-in-the-wood-board"
        assert refusal_rule(g, "zz9-f0") == R + "house-in-the-wood-board"
        text = engine.new_game(WOOD, seed=9).status_of(engine.new_game(WOOD, seed=9).state)
        assert "tableau: 36 packets" in text and "0 of 104" in text
        assert TheHouseInTheWood.chapter() == SLUG
        # short labels in the places (they show while a place is empty); full names in words
        assert [p.label for p in TheHouseInTheWood.PILES[36:38]] == ["spades 1", "hearts 1"]
        g2 = two(WOOD, {"p0": "2H", "p1": "AS"})
        with pytest.raises(engine.IllegalMove, match="second hearts foundation must begin"):
            g2.play("p0-f5")
        said = g2.describe(g2.state, Move.parse("p1-f4"))
        assert said == "The ace of spades from packet 2 is played to the second spades foundation."
        h = engine.load_position(g.position())
        assert h.state == g.state and type(h) is TheHouseInTheWood


def _naive_reachable(g: TheHouseInTheWood) -> bool:
    """Every series of marriages, lone cards moved too, until a card a foundation takes is
    uppermost: the plain search that ``play_reachable`` must agree with."""
    state = g.state
    start = tuple(state.piles[i] for i in TWO_PACKETS)
    seen, todo = {start}, [start]
    while todo:
        packets = todo.pop()
        if any(p and g.foundations_for(state, p[-1]) for p in packets):
            return True
        for a, p in enumerate(packets):
            for b, q in enumerate(packets):
                if p and q and a != b and g.marries([code(c) for c in q], code(p[-1])):
                    nxt = list(packets)
                    nxt[a], nxt[b] = p[:-1], q + (p[-1],)
                    key = tuple(nxt)
                    if key not in seen:
                        seen.add(key)
                        todo.append(key)
    return False


@pytest.mark.parametrize("slug, opts", [(WOOD, ""), (HILL, ""), (HILL, "marriage_lines:keep")])
def test_the_search_for_a_play_agrees_with_trying_every_marriage(slug: str, opts: str) -> None:
    # Small tableaux of hearts and spades, the foundations wanting the aces (and on the
    # Hill the tens too, the kings' foundations of spades and hearts being down to the
    # knaves): the search, which never moves a packet's last card, finds a play exactly
    # when the plain search does.
    rng = random.Random(slug + opts)
    pool = [f"{r}{s}" for r in RANKS[1:10] for s in "HS"] * 2  # two to ten
    wanted = ["AH", "AS"]
    found: Counter[bool] = Counter()
    for _ in range(150):
        rng.shuffle(pool)
        cards_ = pool[:11] + [rng.choice(wanted)]
        rng.shuffle(cards_)
        cuts = sorted(rng.sample(range(1, 12), 4))
        packets = [cards_[i:j] for i, j in zip([0, *cuts], [*cuts, 12])]
        piles = {f"p{k}": " ".join(p) for k, p in enumerate(packets)}
        if slug == HILL:
            piles |= {"f4": "KS QS JS", "f5": "KH QH JH"}
        g = two(slug, piles, rest_to="p30", options=opts or None)
        if g.foundations_for(g.state, g.state.piles[30][-1]):
            continue  # the packet holding the rest offers a play: not a small tableau
        want = _naive_reachable(g)
        assert g.play_reachable(g.state) is want, g.position()
        found[want] += 1
    assert found[True] and found[False]


class TestTheHouseOnTheHill:
    @pytest.mark.rules("la-belle-lucie-house-on-the-hill", "la-belle-lucie-house-in-the-wood")
    def test_the_packets_of_the_house_in_the_wood(self) -> None:
        for packets in Packets:
            o = f"packets:{packets.value}"
            a, b = engine.new_game(HILL, seed=11, options=o), engine.new_game(WOOD, seed=11,
                                                                             options=o)
            assert a.state.piles[:36] == b.state.piles[:36]

    @pytest.mark.rules("la-belle-lucie-house-on-the-hill", "la-belle-lucie-rule-2")
    def test_an_ace_and_a_king_of_each_suit_the_aces_rising_the_kings_falling(self) -> None:
        g = two(HILL, {"p0": "AH", "p1": "KH", "p2": "2H", "p3": "QH", "p4": "KS"})
        legal = set(map(str, g.legal_moves()))
        assert "p0-f1" in legal and "p1-f5" in legal and "p4-f4" in legal
        assert refusal_rule(g, "p0-f5") == R + "house-on-the-hill"  # the king's place
        assert refusal_rule(g, "p1-f1") == R + "house-on-the-hill"  # the ace's place
        assert refusal_rule(g, "p0-f0") == R + "rule-2"
        assert refusal_rule(g, "p1-f4") == R + "rule-2"
        g.play("p0-f1")
        g.play("p1-f5")
        g.play("p2-f1")
        g.play("p3-f5")
        assert g.state.piles[F["f1"]] == cards("AH 2H")
        assert g.state.piles[F["f5"]] == cards("KH QH")

    @pytest.mark.rules("la-belle-lucie-house-on-the-hill", "la-belle-lucie-foundations")
    def test_the_second_ace_ends_the_kings_foundation_the_second_king_the_aces(self) -> None:
        high = " ".join(reversed(up_to("C", "K").split()))  # KC down to AC
        g = two(HILL, {"f3": up_to("C", "Q"), "f7": high.rsplit(" ", 1)[0], "p0": "AC",
                       "p1": "KC"})
        assert refusal_rule(g, "p0-f3") == R + "house-on-the-hill"
        assert refusal_rule(g, "p1-f7") == R + "house-on-the-hill"
        g.play("p0-f7")
        g.play("p1-f3")
        assert g.state.piles[F["f7"]][-1] == Card.parse("AC")
        assert g.state.piles[F["f3"]][-1] == Card.parse("KC")

    @pytest.mark.rules("la-belle-lucie-house-on-the-hill")
    def test_marriages_both_in_ascending_and_descending_lines(self) -> None:
        g = two(HILL, {"p0": "7H", "p1": "8H", "p2": "6H", "p3": "9H", "p4": "7S",
                       "p5": "QD", "p6": "KD", "p7": "AD", "f4": "KS"})
        legal = set(map(str, g.legal_moves()))
        assert {"p0-p1", "p0-p2", "p1-p0", "p2-p0", "p6-p5", "p5-p6"} <= legal
        assert refusal_rule(g, "p0-p3") == R + "house-on-the-hill"  # two apart
        assert refusal_rule(g, "p4-p1") == R + "house-on-the-hill"  # another suit
        assert refusal_rule(g, "p6-p7") == R + "house-on-the-hill"  # king and ace: not next
        g.play("p0-p1")   # 7H on 8H: the line falls
        g.play("p2-p1")   # 6H on 7H
        assert refusal_rule(g, "p3-p0") == R + "marriages"  # an emptied place stays empty
        g.play("p1-p0" if g.state.piles[0] else "p6-p5")  # a king on a queen
        assert g.state.piles[1] == cards("8H 7H 6H")

    @pytest.mark.rules("la-belle-lucie-house-on-the-hill")
    def test_a_line_may_turn_back_or_not_under_the_other_reading(self) -> None:
        piles = {"p0": "2C 9H 8H", "p1": "9H", "p2": "7H", "p3": "5S 6S", "p4": "5S",
                 "p7": "7S", "p5": "3D", "p6": "4D", "f4": "KS"}
        free = two(HILL, piles)
        assert Move.parse("p1-p0") in free.legal_moves()  # the other 9H on 9H 8H: turns back
        keep = two(HILL, piles, options="marriage_lines:keep")
        assert refusal_rule(keep, "p1-p0") == R + "house-on-the-hill"
        keep.play("p2-p0")  # 7H goes on down the line 9H 8H
        assert refusal_rule(keep, "p4-p3") == R + "house-on-the-hill"  # 5S 6S rises: not 5S
        assert Move.parse("p7-p3") in keep.legal_moves()  # but the seven
        assert Move.parse("p5-p6") in keep.legal_moves()  # a single card: either way
        assert Move.parse("p6-p5") in keep.legal_moves()
        keep.play("p6-p5")  # 4D on 3D: a new line, rising

    @pytest.mark.rules("la-belle-lucie-house-on-the-hill", "la-belle-lucie-redeal")
    def test_lost_when_no_marriage_either_way_can_bring_a_card_up(self) -> None:
        # The eights and the seven of diamonds may go on one another either way for ever;
        # beneath them nothing any foundation wants (the aces, the queen of spades and the
        # other kings lie buried in packet 36, under the second king of spades).
        stuck = {"p0": "3C 8D", "p1": "3C 8D", "p2": "10S 7D", "f4": "KS"}
        g = two(HILL, stuck, vars={"redeals": 2})
        assert g.legal_moves()
        assert g.outcome() is Outcome.LOST
        g = two(HILL, stuck | {"p2": "KD 7D"}, vars={"redeals": 2})  # frees a king
        assert g.outcome() is None
        g = two(HILL, stuck | {"p0": "AS 8D"}, vars={"redeals": 2},
                options="marriage_lines:keep")  # 8D on 7D frees the ace
        assert g.outcome() is None

    def test_the_board_and_its_options(self) -> None:
        g = two(HILL, {"p0": "9S", "f4": "KS"})
        assert refusal_rule(g, "p0-p0") == R + "house-on-the-hill-board"
        assert TheHouseOnTheHill.chapter() == SLUG
        assert [p.label for p in TheHouseOnTheHill.PILES[36:45:4]] == ["spades A–K",
                                                                       "spades K–A"]
        with pytest.raises(engine.IllegalMove, match="descending spades foundation needs the "
                           "queen of spades next"):
            g.play("p0-f4")  # the nine of spades; the king is down
        o = HouseOnTheHillOptions(packets=Packets.THREES, marriage_lines=Lines.KEEP)
        text = engine.options_to_text(o)
        assert text == "packets:35,marriage_lines:keep"
        assert engine.options_from_text(HouseOnTheHillOptions, text) == o
        names = [d["name"] for d in engine.describe_options(HouseOnTheHillOptions)]
        assert names == ["redeal_timing", "packets", "marriage_lines"]


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


def test_more_than_two_redeals_is_not_a_position() -> None:
    g = game({}, rest_to="p0")
    text = g.position().replace("vars=redeals:0", "vars=redeals:3")
    with pytest.raises(PositionError):
        engine.load_position(text)


# ----------------------------------------------------------------------------- the board

def test_every_card_of_the_tableau_is_shown() -> None:
    g = engine.new_game(SLUG, seed=9)
    for i in PACKETS:
        assert all(f["c"] is not None for f in g.card_faces(g.state, i))


def test_status_line_counts_deals_packets_and_foundations() -> None:
    g = engine.new_game(SLUG, seed=9)
    text = g.status_of(g.state)
    assert "First deal" in text and "re-deals left: 2" in text
    assert "tableau: 18 packets" in text and "0 of 52" in text


def test_describe_says_what_a_marriage_and_a_redeal_do() -> None:
    g = game({"p0": "9S", "p1": "10S"})
    said = g.describe(g.state, Move.parse("p0-p1"))
    assert said == ("The nine of spades from packet 1 is married to the ten of spades on "
                    "packet 2.")
    assert "shuffled" in g.describe(g.state, Move(action="redeal"))
    # a foundation's place is labelled by its suit alone (the label shows in the empty
    # place); sentences name it in full
    assert [p.label for p in PILES[18:]] == ["spades", "hearts", "diamonds", "clubs"]
    g = game({"p0": "2S", "p1": "AH"})
    assert g.describe(g.state, Move.parse("p1-f1")) == (
        "The ace of hearts from packet 2 is played to the hearts foundation.")
    with pytest.raises(engine.IllegalMove, match="The spades foundation must begin with an ace"):
        g.play("p0-f0")


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = BelleLucieOptions(redeal_timing=RedealTiming.CHOICE)
    text = engine.options_to_text(o)
    assert text == "redeal_timing:choice"
    assert engine.options_from_text(BelleLucieOptions, text) == o
    assert engine.options_to_text(BelleLucieOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(BelleLucieOptions, "redeal_timing:never")


@pytest.mark.parametrize("options", [BelleLucieOptions, HouseInTheWoodOptions,
                                     HouseOnTheHillOptions])
def test_every_option_names_its_note(options: type) -> None:
    for d in engine.describe_options(options):
        assert d["note"].startswith("note-bl-")
        assert len(d["choices"]) >= 2
        assert d["default"] in {c["value"] for c in d["choices"]}
