"""The Carpet: every rule, every refusal (with the rule id it cites), the options, the end of
the game. Positions are written by hand and loaded through ``engine.load_position``."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Outcome, PositionError
from engine.cards import ACE, KING, SUITS, pack
from engine.carpet import (
    ACE_PILES,
    CARPET_PILES,
    FOUNDATION_PILES,
    KING_PILES,
    PILES,
    STOCK,
    TALON_PILE,
    Lane,
    TheCarpet,
    free_places,
    pile_at,
    upright,
)
from engine.core import Move
from engine.deal import shuffled
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-carpet"
R = f"{SLUG}-"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
LANES = ("", "lane:adjacent", "lane:open")

#: The sixteen cards the plate marks with crosses: (row, column) from 0.
CROSSES = {(0, 0), (0, 2), (0, 4), (0, 6), (7, 1), (7, 3), (7, 5), (7, 7),
           (1, 0), (3, 0), (5, 0), (7, 0), (0, 7), (2, 7), (4, 7), (6, 7)}

BASE = {"a0": "AS", "a1": "AH", "a2": "AD", "a3": "AC",
        "k0": "KS", "k1": "KH", "k2": "KD", "k3": "KC"}


def pid(row: int, col: int) -> str:
    return f"c{row}{col}"


def game(carpet: dict[tuple[int, int], str] | None = None,
         empty: set[tuple[int, int]] | None = None, piles: dict[str, str] | None = None,
         options: str = "", redeals: int = 0, fill: bool = True,
         rest_to: str = "stock") -> TheCarpet:
    """A position: the foundations of ``BASE`` unless ``piles`` says otherwise, the carpet
    cards given at their places, every other place filled (the border first, with middle
    cards, sixes to nines, which no foundation here takes) unless it is in ``empty`` or
    ``fill`` is False; every other card in pile ``rest_to``."""
    given = BASE | (piles or {})
    given |= {pid(r, c): card for (r, c), card in (carpet or {}).items()}
    used: Counter[Card] = Counter()
    for text in given.values():
        used.update(Card.parse(t) for t in text.split())
    pool = sorted((Counter(pack(2)) - used).elements(),
                  key=lambda c: (not 6 <= c.rank <= 9, c.rank, c.suit.value))
    if fill:  # the border first, so that it gets the middle cards
        for r, c in sorted(((r, c) for r in range(8) for c in range(8)),
                           key=lambda rc: (0 < rc[0] < 7 and 0 < rc[1] < 7, rc)):
            if pid(r, c) not in given and (r, c) not in (empty or set()):
                given[pid(r, c)] = str(pool.pop(0))
    made = make_game(SLUG, given, vars={"redeals": redeals}, options=options or None,
                     rest_to=rest_to)
    text = made.position()
    assert "start=" in text
    g = engine.load_position(text)
    assert isinstance(g, TheCarpet) and g.state == made.state
    return g


def run(suit: str, first: str, last: str) -> str:
    a, b = RANKS.index(first), RANKS.index(last)
    step = 1 if b >= a else -1
    return " ".join(RANKS[i] + suit for i in range(a, b + step, step))


def pile(g: TheCarpet, name: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(name)]


def available(g: TheCarpet) -> set[tuple[int, int]]:
    return {divmod(i - CARPET_PILES.start, 8) for i in g.available(g.state)}


def steps(g: TheCarpet) -> set[str]:
    return {str(m) for m in g.legal_moves() if m.steps}


# ------------------------------------------------------------------------ the deal

@pytest.mark.rules("the-carpet-foundations", "the-carpet-carpet")
def test_the_deal_withdraws_the_foundations_and_lays_sixty_four_cards() -> None:
    for seed in range(10):
        g = engine.new_game(SLUG, seed=seed)
        s = g.state
        assert Counter(s.all_cards()) == Counter(pack(2))
        for j, suit in enumerate(SUITS):
            assert s.piles[ACE_PILES[j]] == (Card(ACE, suit),)
            assert s.piles[KING_PILES[j]] == (Card(KING, suit),)
        rest = pack(2)
        for suit in SUITS:
            rest.remove(Card(ACE, suit))
            rest.remove(Card(KING, suit))
        deck = shuffled(rest, seed)
        for k, i in enumerate(CARPET_PILES):  # row by row, left to right, from the top
            assert s.piles[i] == (deck[-1 - k],)
        assert s.piles[STOCK] == tuple(deck[:32])
        assert not s.piles[TALON_PILE]
        assert g.var(s, "redeals") == 0


@pytest.mark.rules("the-carpet-carpet", "the-carpet-rule-2")
def test_the_carpet_lies_upright_and_across_by_turns_as_on_the_plate() -> None:
    for r in range(8):
        for c in range(8):
            spec = PILES[pile_at(r, c)]
            assert spec.id == pid(r, c)
            assert spec.rotate == (0 if upright(r, c) else 90)
            assert upright(r, c) == ((r + c) % 2 == 0)
    assert upright(0, 0) and not upright(0, 1) and not upright(1, 0)


@pytest.mark.rules("the-carpet-rule-2", "the-carpet-narrow-ends", "the-carpet-first-plays")
@pytest.mark.parametrize("options", LANES)
def test_after_the_deal_exactly_the_sixteen_crossed_cards_are_available(options: str) -> None:
    for seed in range(5):
        g = engine.new_game(SLUG, seed=seed, options=options or None)
        assert isinstance(g, TheCarpet)
        assert available(g) == CROSSES
    full = [[True] * 8 for _ in range(8)]
    for lane in Lane:
        assert free_places(full, lane) == CROSSES


@pytest.mark.rules("the-carpet-first-plays", "the-carpet-rule-1")
def test_an_available_card_of_the_carpet_is_played_on_a_foundation() -> None:
    g = game({(0, 0): "2S", (7, 0): "QH"})
    assert {"c00-a0", "c70-k1"} <= steps(g)
    g.play("c00-a0")
    assert pile(g, "a0") == (Card.parse("AS"), Card.parse("2S"))
    assert not pile(g, "c00")
    g.play("c70-k1")
    assert pile(g, "k1")[-1] == Card.parse("QH")


@pytest.mark.rules("the-carpet-narrow-ends", "the-carpet-rule-2", "the-carpet-strictly")
@pytest.mark.parametrize("options", LANES)
def test_a_card_with_both_narrow_ends_blocked_is_refused_everywhere(options: str) -> None:
    # (1, 1) is upright: its top touches (0, 1), its bottom (2, 1); (0, 3) is upright
    # too, in the first row, but its top is the carpet's edge.
    g = game({(1, 1): "2S", (4, 4): "3H"}, piles={"talon": "3S"}, options=options)
    assert refusal_rule(g, "c11-a0") == R + "narrow-ends"
    assert refusal_rule(g, "c11-talon") == R + "narrow-ends"
    assert refusal_rule(g, "c44-talon") == R + "narrow-ends"


@pytest.mark.rules("the-carpet-rule-3", "the-carpet-rule-2")
@pytest.mark.parametrize("options", LANES)
def test_removing_a_card_does_not_free_the_next_one_in_its_line(options: str) -> None:
    g = game({(0, 0): "2S", (1, 0): "3S", (0, 1): "2H"}, options=options)
    assert (1, 0) in available(g)   # across: its left end is the edge
    g.play("c00-a0")                # the upright corner card, played
    # (1, 0) lay below (0, 0), touching it with its long side: no narrow end freed
    # (it was free already by its left end); (2, 0), upright, below (1, 0), stays blocked;
    # (0, 1), across, had its left end against (0, 0): that end is now free.
    assert (0, 1) in available(g)
    assert (2, 0) not in available(g)
    g2 = game({(0, 2): "2S", (1, 2): "3S"}, options=options)
    g2.play("c02-a0")               # upright, in the first row
    assert (1, 2) not in available(g2)  # across: the card beyond it gained nothing
    assert refusal_rule(g2, "c12-a0") == R + "narrow-ends"


@pytest.mark.rules("the-carpet-lane", "the-carpet-rule-2", "the-carpet-rule-3")
def test_a_straight_lane_frees_an_inner_card_by_default() -> None:
    # (3, 3) is upright: its top faces (2, 3), then (1, 3), then (0, 3).
    lane = {(0, 3), (1, 3), (2, 3)}
    g = game({(3, 3): "2S"}, empty=lane)
    assert (3, 3) in available(g)
    g.play("c33-a0")
    # only the place next to it empty: not free by default, free under the second reading
    for options, free in (("", False), ("lane:adjacent", True), ("lane:open", False)):
        g = game({(3, 3): "2S"}, empty={(2, 3)}, options=options)
        assert ((3, 3) in available(g)) is free, options
        if not free:
            assert refusal_rule(g, "c33-a0") == R + "narrow-ends"
    # a card across is freed along its row: (3, 4)'s right end faces (3, 5), (3, 6), (3, 7)
    g = game({(3, 4): "2S"}, empty={(3, 5), (3, 6), (3, 7)})
    assert (3, 4) in available(g)
    # a lane down its column does not free a card across
    g = game({(3, 4): "2S"}, empty={(0, 4), (1, 4), (2, 4)})
    assert (3, 4) not in available(g)
    assert refusal_rule(g, "c34-a0") == R + "narrow-ends"


@pytest.mark.rules("the-carpet-lane", "the-carpet-rule-2")
def test_a_lane_that_turns_frees_a_card_only_under_the_third_reading() -> None:
    # (3, 3)'s top faces (2, 3); from there a lane runs along row 2 to the left edge.
    turn = {(2, 3), (2, 2), (2, 1), (2, 0)}
    for options, free in (("", False), ("lane:adjacent", True), ("lane:open", True)):
        g = game({(3, 3): "2S"}, empty=turn, options=options)
        assert ((3, 3) in available(g)) is free, options
    # a pocket of spaces cut off from the edge frees nothing under the third reading
    g = game({(3, 3): "2S"}, empty={(2, 3), (2, 2)}, options="lane:open")
    assert (3, 3) not in available(g)
    g = game({(3, 3): "2S"}, empty={(2, 3), (2, 2)}, options="lane:adjacent")
    assert (3, 3) in available(g)


# ------------------------------------------------------------------------ foundations

@pytest.mark.rules("the-carpet-rule-1", "the-carpet-foundations")
def test_the_foundations_follow_suit_ace_up_and_king_down() -> None:
    g = game({(0, 0): "2H", (0, 2): "3S", (0, 4): "2S", (0, 6): "QS", (7, 1): "JS"})
    assert refusal_rule(g, "c00-a0") == R + "rule-1"
    assert refusal_rule(g, "c02-a0") == R + "foundations"   # the two comes first
    assert refusal_rule(g, "c06-a0") == R + "foundations"
    assert refusal_rule(g, "c71-k0") == R + "foundations"   # the queen comes first
    g.play("c04-a0")
    g.play("c02-a0")
    g.play("c06-k0")
    g.play("c71-k0")
    assert [str(c) for c in pile(g, "a0")] == ["AS", "2S", "3S"]
    assert [str(c) for c in pile(g, "k0")] == ["KS", "QS", "JS"]


@pytest.mark.rules("the-carpet-foundations")
def test_a_finished_foundation_takes_nothing_and_cards_stay_on_the_foundations() -> None:
    g = game({(0, 0): "QH"}, piles={"a1": run("H", "A", "K"), "k0": "KS QS"})
    assert refusal_rule(g, "c00-a1") == R + "foundations"
    assert refusal_rule(g, "a1-k1") == R + "foundations"
    assert refusal_rule(g, "k0-talon") == R + "foundations"
    assert refusal_rule(g, "k0-c00") == R + "foundations"


# ------------------------------------------------------------------------ the talon

@pytest.mark.rules("the-carpet-rule-4", "the-carpet-examine")
def test_available_cards_go_on_the_talon_in_suit_one_above_or_below() -> None:
    g = game({(0, 0): "6H", (0, 2): "4H", (0, 4): "6S", (0, 6): "7H", (7, 1): "5D"},
             piles={"talon": "5H"})
    legal = steps(g)
    assert {"c00-talon", "c02-talon"} <= legal
    assert refusal_rule(g, "c04-talon") == R + "rule-4"     # another suit
    assert refusal_rule(g, "c06-talon") == R + "rule-4"     # not next in sequence
    assert refusal_rule(g, "c71-talon") == R + "rule-4"
    g.play("c00-talon")
    g.play("c06-talon")     # ascending on: 5, 6, 7 of hearts, one card after another
    assert [str(c) for c in pile(g, "talon")] == ["5H", "6H", "7H"]


@pytest.mark.rules("the-carpet-rule-4")
def test_nothing_is_placed_on_an_empty_talon_and_no_sequence_turns_from_king_to_ace() -> None:
    g = game({(0, 0): "6H"})
    assert refusal_rule(g, "c00-talon") == R + "rule-4"
    g = game({(0, 0): "AH", (0, 2): "QH"}, piles={"talon": "KH"})
    assert refusal_rule(g, "c00-talon") == R + "rule-4"
    assert "c02-talon" in steps(g)


@pytest.mark.rules("the-carpet-rule-4", "the-carpet-care")
def test_a_sequence_on_the_talon_keeps_its_direction_by_default() -> None:
    # the five, six of hearts ascend: the seven continues them, the other five turns back
    g = game({(0, 0): "5H", (0, 2): "7H"}, piles={"talon": "5H 6H"})
    assert refusal_rule(g, "c00-talon") == R + "rule-4"
    assert "c02-talon" in steps(g)
    g = game({(0, 0): "5H", (0, 2): "7H"}, piles={"talon": "5H 6H"}, options="runs:either")
    assert {"c00-talon", "c02-talon"} <= steps(g)
    # a sequence at its end: queen, king ascending takes nothing more by default
    g = game({(0, 0): "QH"}, piles={"talon": "QH KH", "k1": "KH"})
    assert refusal_rule(g, "c00-talon") == R + "rule-4"
    # two top cards not in sequence leave the direction free
    g = game({(0, 0): "4H", (0, 2): "6H"}, piles={"talon": "9C 5H"})
    assert {"c00-talon", "c02-talon"} <= steps(g)
    # CARE is advice: an ascending sequence may be built even in the third deal
    g = game({(0, 0): "6H"}, piles={"talon": "5H", "k1": run("H", "K", "A")}, redeals=2)
    assert "c00-talon" in steps(g)


@pytest.mark.rules("the-carpet-deal", "the-carpet-not-obliged")
def test_the_pack_is_dealt_onto_the_talon_where_a_suitable_card_may_be_played_or_kept() -> None:
    g = game({(0, 0): "3S"}, piles={"stock": "2S"})
    assert refusal_rule(g, "stock-a0") == R + "deal"
    g.play("deal")
    assert pile(g, "talon") == (Card.parse("2S"),)
    assert "talon-a0" in steps(g)
    assert "c00-talon" in steps(g)          # not obliged: the two may stay and be built on
    g.play("c00-talon")
    assert [str(c) for c in pile(g, "talon")] == ["2S", "3S"]
    g.play("deal")                          # and the next card is dealt on it
    assert len(pile(g, "talon")) == 3


@pytest.mark.rules("the-carpet-deal", "the-carpet-examine")
def test_only_the_talons_top_is_used_and_it_goes_only_to_a_foundation() -> None:
    g = game({(0, 0): "3S"}, piles={"talon": "2S 9C"}, empty={(0, 2)})
    assert refusal_rule(g, "talon:0-a0") == R + "deal"
    assert refusal_rule(g, "talon-c02") == R + "carpet"
    assert refusal_rule(g, "c00-c02") == R + "carpet"
    assert refusal_rule(g, "c00-stock") == R + "deal"


@pytest.mark.rules("the-carpet-redeal", "the-carpet-two-redeals")
def test_the_talon_is_taken_up_shuffled_and_dealt_again_twice() -> None:
    g = game(piles={"talon": "9C 8C 7C", "stock": ""}, fill=True)
    # every card not given went to the pack; empty it onto the talon first
    while pile(g, "stock"):
        assert refusal_rule(g, "redeal") == R + "redeal"
        g.play("deal")
    talon = pile(g, "talon")
    g.play("redeal")
    assert not pile(g, "talon")
    assert sorted(pile(g, "stock")) == sorted(talon)
    assert pile(g, "stock") == tuple(shuffled(sorted(talon), 0, stream=1))
    while pile(g, "stock"):
        g.play("deal")
    g.play("redeal")
    while pile(g, "stock"):
        g.play("deal")
    assert refusal_rule(g, "redeal") == R + "two-redeals"
    assert refusal_rule(g, "deal") == R + "two-redeals"
    assert g.var(g.state, "redeals") == 2


@pytest.mark.rules("the-carpet-redeal", "the-carpet-deal")
def test_an_empty_talon_is_not_re_dealt() -> None:
    # 32 cards on the foundations, 64 on the carpet: nothing in the pack or the talon
    g = game(piles={"a0": run("S", "A", "K"), "a1": run("H", "A", "K"),
                    "a2": run("D", "A", "9")})
    assert not pile(g, "stock") and not pile(g, "talon")
    assert refusal_rule(g, "redeal") == R + "redeal"
    assert refusal_rule(g, "deal") == R + "deal"


# ------------------------------------------------------------------------ the end

def won_position() -> TheCarpet:
    piles = {f"a{j}": run(s, "A", "K") for j, s in enumerate("SHDC")}
    piles |= {f"k{j}": run(s, "K", "2") for j, s in enumerate("SHDC")}
    return game({(0, 0): "AS", (0, 2): "AH", (0, 4): "AD", (0, 6): "AC"}, piles=piles,
                fill=False)


@pytest.mark.rules("the-carpet-foundations")
def test_the_game_is_won_with_all_cards_on_the_foundations() -> None:
    g = won_position()
    assert g.outcome() is None
    for m in ("c00-k0", "c02-k1", "c04-k2", "c06-k3"):
        assert g.outcome() is None
        g.play(m)
    assert g.outcome() is Outcome.WON
    assert g.status_of(g.state).startswith("Won")


@pytest.mark.rules("the-carpet-two-redeals", "the-carpet-narrow-ends")
def test_lost_only_when_no_move_is_left() -> None:
    # The pack out, both re-deals made; the talon's top a king of spades that its foundation
    # has passed; the border of the carpet all sixes to nines: no move is left.
    g = game(redeals=2, rest_to="talon")
    assert pile(g, "talon")[-1] == Card.parse("KS") and not pile(g, "stock")
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)
    # with a re-deal left, or a card of the carpet to place on the talon, play goes on
    assert game(redeals=1, rest_to="talon").outcome() is None
    g = game({(0, 0): "QS"}, piles={"k0": "KS QS"}, redeals=2, rest_to="talon")
    assert g.legal_moves() == [Move.step("c00", "talon")]
    assert g.outcome() is None
    g.play("c00-talon")
    assert g.outcome() is Outcome.LOST


def test_positions_are_checked() -> None:
    good = game().position()
    engine.load_position(good)
    bad = good.replace("a0:AS|", "a0:|", 1)
    with pytest.raises(PositionError):
        engine.load_position(bad)
    with pytest.raises(PositionError):
        engine.load_position(good.replace("redeals:0", "redeals:3"))


def test_the_deal_and_its_notation_round_trip() -> None:
    g = engine.new_game(SLUG, seed=7)
    g.play("deal")
    text = g.position()
    h = engine.load_position(text)
    assert h.state == g.state and h.position() == text
    assert Move.parse("c07-a0").steps == (("c07", "a0"),)


def test_the_view_hides_the_pack_and_shows_the_talon_whole() -> None:
    """The talon's run keeps its direction (CP-3), read from the card beneath its top: the
    reader laid that card face up and must see it, or the moves refused would tell it."""
    g = game(piles={"talon": "9C 8C"})
    view = engine.view_of(g)
    by = {p["id"]: p for p in view["piles"]}
    assert all(c["c"] is None for c in by["stock"]["cards"])
    assert [c["c"] for c in by["talon"]["cards"]] == ["9C", "8C"]
    assert all(by[pid(r, c)]["cards"][0]["c"] for r in range(8) for c in range(8))


@pytest.mark.parametrize("options", ["", "lane:adjacent", "lane:open", "runs:either"])
def test_fast_legal_moves_match_the_rules(options: str) -> None:
    import random
    rnd = random.Random(3)
    for seed in range(1):
        g = engine.new_game(SLUG, seed=seed, options=options or None)
        for _ in range(12):
            legal = {str(m) for m in g.legal_in(g.state)}
            ids = [p.id for p in PILES]
            for src in ids:
                for dst in ids:
                    if src == dst:
                        continue
                    m = Move.step(src, dst)
                    ok = g.refusal(g.state, m) is None
                    assert ok == (str(m) in legal), (str(m), options)
            for a in ("deal", "redeal"):
                assert (g.refusal(g.state, Move(action=a)) is None) == (a in legal)
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rnd.choice(moves))


def test_a_click_on_the_pack_deals_or_re_deals() -> None:
    g = engine.new_game(SLUG, seed=1)
    view = engine.view_of(g)
    assert view["pack"]["move"] == "deal" and view["pack"]["legal"]
    while g.state.piles[STOCK]:
        g.play("deal")
    assert engine.view_of(g)["pack"]["move"] == "redeal"


def test_the_foundation_piles_are_eight() -> None:
    assert len(FOUNDATION_PILES) == 8 and len(CARPET_PILES) == 64
