"""The Congress: every rule, every refusal (with the rule id it cites), the option, the deal
and the end. Positions are written by hand and loaded through ``engine.load_position``."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import ACE, SUITS
from engine.congress import (
    COLUMNS, FOUNDS, HELP_PILES, PILES, RIVERS_PILES, STOCK, CongressOptions, TheCongress,
)
from engine.core import Role
from engine.deal import shuffled
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-congress"
R = f"{SLUG}-"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
ACES = {"f0": "AS", "f1": "AH", "f2": "AD", "f3": "AC",
        "f4": "AS", "f5": "AH", "f6": "AD", "f7": "AC"}
#: The suit letter of each foundation (the two of a suit in one row: f0 and f4 spades).
F_SUIT = {f"f{k}": "SHDC"[k % 4] for k in range(8)}


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def up_to(suit: str, last: str) -> str:
    return " ".join(r + suit for r in RANKS[:RANKS.index(last) + 1])


def load(made: engine.Game) -> TheCongress:
    g = engine.load_position(made.position())
    assert isinstance(g, TheCongress) and g.state == made.state
    return g


#: Four queens on the help places where a test says nothing: they neither play nor marry
#: unless a test puts a king or a knave of their suit beside them.
HELPS = {"h0": "QS", "h1": "QH", "h2": "QD", "h3": "QC"}
#: A first row of kings, which neither play nor marry.
FULL = {f"r{c}": k for c, k in enumerate("KS KS KH KH KD KD KC KC".split())}


def game(piles: dict[str, str], rows: int = 1, options: str = "") -> TheCongress:
    """A position while the pack lasts: the aces on the foundations and queens on the first
    four help places unless given, the piles given, every other card in the pack, sorted,
    under any cards given for it (the last card written is the pack's top)."""
    made = make_game(SLUG, {**ACES, **HELPS, **piles}, vars={"rows": rows},
                     options=options or None)
    return load(made)


def exhausted(piles: dict[str, str], rows: int = 3, options: str = "",
              stock: str = "") -> TheCongress:
    """A position late in the game, the pack exhausted unless ``stock`` is given: the piles
    given, and every other card on the foundations, which must be able to hold them (for
    each suit, the cards not given make two runs up from the aces)."""
    given: Counter[Card] = Counter(cards(stock))
    for text in piles.values():
        given.update(cards(text))
    rest = Counter(engine.pack(2)) - given
    found: dict[str, str] = {}
    for k, suit in enumerate("SHDC"):
        runs: list[list[str]] = [[], []]
        for n in (0, 1):
            for r in RANKS:
                c = Card.parse(r + suit)
                if rest[c] == 0:
                    break
                rest[c] -= 1
                runs[n].append(r + suit)
        found[f"f{k}"], found[f"f{k + 4}"] = " ".join(runs[0]), " ".join(runs[1])
    assert not +rest, f"cards left over: {+rest}"
    made = make_game(SLUG, {**found, **piles, "stock": stock}, vars={"rows": rows},
                     options=options or None)
    return load(made)


def pile(g: TheCongress, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def legal(g: TheCongress) -> set[str]:
    return set(map(str, g.legal_moves()))


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-congress-foundations", "the-congress-helps", "the-congress-rivers")
def test_the_aces_are_withdrawn_then_four_helps_then_a_row_of_eight() -> None:
    for seed in range(12):
        g = engine.new_game(SLUG, seed=seed)
        st = g.state
        assert Counter(st.all_cards()) == Counter(engine.pack(2))
        for k in FOUNDS:
            assert st.piles[k] == (Card(ACE, SUITS[k % 4]),)
        rest = [c for c in shuffled(engine.pack(2), seed) if c.rank != ACE]
        helps = [st.piles[h] for h in HELP_PILES]
        assert helps[:4] == [(rest[-1],), (rest[-2],), (rest[-3],), (rest[-4],)]
        assert helps[4:] == [()] * 4
        assert [st.piles[r] for r in RIVERS_PILES] == [(c,) for c in rest[-5:-13:-1]]
        assert st.piles[STOCK] == tuple(rest[:-12])
        assert len(st.piles[STOCK]) == 84 and g.var(st, "rows") == 1
    assert engine.new_game(SLUG, seed=5).state == engine.new_game(SLUG, seed=5).state


@pytest.mark.rules("the-congress-foundations", "the-congress-helps", "the-congress-new-helps")
def test_the_places_lie_as_in_the_plate() -> None:
    rivers = [PILES[i] for i in RIVERS_PILES]
    helps = [PILES[i] for i in HELP_PILES]
    founds = [PILES[i] for i in FOUNDS]
    assert len(rivers) == COLUMNS == 8 and len({p.y for p in rivers}) == 1
    # the helps in one horizontal line below the rivers, the new ones in the same line
    assert len({p.y for p in helps}) == 1 and helps[0].y > rivers[0].y + 3
    # the foundations in two columns of four on the right
    assert len({p.x for p in founds}) == 2 and min(p.x for p in founds) > max(
        p.x for p in rivers + helps)
    assert all(p.role is Role.FOUNDATION for p in founds)


# ----------------------------------------------------------------------------- the rules

@pytest.mark.rules("the-congress-rule-1")
def test_the_foundations_follow_suit() -> None:
    g = game({"r0": "2S", "r1": "2H"})
    assert refusal_rule(g, "r0-f1") == R + "rule-1"
    assert refusal_rule(g, "r1-f0") == R + "rule-1"
    g.play("r0-f4")
    g.play("r1-f1")
    assert pile(g, "f4") == cards("AS 2S") and pile(g, "f1") == cards("AH 2H")


@pytest.mark.rules("the-congress-foundations")
def test_foundations_ascend_in_sequence_to_kings_and_keep_their_cards() -> None:
    g = game({"f0": up_to("S", "4"), "f4": up_to("S", "Q"), "r0": "6S", "r1": "5S",
              "r2": "KS"})
    assert refusal_rule(g, "r0-f0") == R + "foundations"
    g.play("r1-f0")
    g.play("r0-f0")
    g.play("r2-f4")
    assert pile(g, "f4")[-1] == Card.parse("KS")
    assert refusal_rule(g, "f0-h0") == R + "foundations"
    assert refusal_rule(g, "f0-r1") == R + "foundations"
    h = game({"f0": up_to("S", "K"), "f4": up_to("S", "Q"), "r0": "KS", "h0": "KH"})
    assert refusal_rule(h, "r0-f0") == R + "foundations"


@pytest.mark.rules("the-congress-rule-2", "the-congress-rivers")
def test_a_river_card_marries_in_descending_line_on_a_help() -> None:
    g = game({"h0": "8H", "h1": "8S", "r0": "7H", "r1": "9H", "r2": "KD", "h2": "QD"})
    assert refusal_rule(g, "r0-h1") == R + "rule-2"   # not of the suit
    assert refusal_rule(g, "r1-h0") == R + "rule-2"   # ascending
    assert refusal_rule(g, "r2-h2") == R + "rule-2"   # a king marries on nothing
    assert "r0-h0" in legal(g)
    g.play("r0-h0")
    assert pile(g, "h0") == cards("8H 7H") and pile(g, "r0") == ()


@pytest.mark.rules("the-congress-rule-2")
def test_nothing_is_placed_on_the_rivers() -> None:
    g = game({"h0": "7H", "r0": "8H", "r1": "9C", "r2": "8C"})
    assert refusal_rule(g, "h0-r0") == R + "rule-2"   # not vice versâ
    assert refusal_rule(g, "r2-r1") == R + "rule-2"   # nor river on river
    assert not any(m.endswith(("-r0", "-r1")) for m in legal(g))


@pytest.mark.rules("the-congress-rule-3", "the-congress-from-helps")
def test_help_cards_marry_on_each_others_packets_and_play_to_the_foundations() -> None:
    g = game({"h0": "7H", "h1": "8H", "h2": "9S", "h3": "2D", "r0": "KC"})
    assert refusal_rule(g, "h1-h0") == R + "rule-3"   # ascending
    assert refusal_rule(g, "h0-h2") == R + "rule-3"   # not of the suit
    assert {"h0-h1", "h3-f2", "h3-f6"} <= legal(g)
    g.play("h0-h1")
    assert pile(g, "h1") == cards("8H 7H") and pile(g, "h0") == ()
    g.play("h3-f2")
    assert pile(g, "f2") == cards("AD 2D")


@pytest.mark.rules("the-congress-rule-3")
def test_a_help_packet_takes_cards_from_the_rivers_and_from_other_packets() -> None:
    g = game({"h0": "10C", "h2": "8C", "r0": "9C"})
    g.play("r0-h0")          # from the rivers
    g.play("h2-h0")          # from another packet
    assert pile(g, "h0") == cards("10C 9C 8C") and pile(g, "h2") == ()


@pytest.mark.rules("the-congress-rule-4")
def test_only_the_uppermost_card_of_a_help_packet_is_available() -> None:
    g = game({"h0": "9H 8H", "h1": "10H", "r0": "7H", "f1": up_to("H", "7")})
    assert refusal_rule(g, "h0:0-h1") == R + "rule-4"
    assert "h0-f1" in legal(g)
    g.play("h0-f1")          # the eight goes: the nine beneath is released
    assert "h0-h1" in legal(g)
    g.play("h0-h1")
    assert pile(g, "h1") == cards("10H 9H")


@pytest.mark.rules("the-congress-rule-5", "the-congress-next-rows")
def test_each_row_blocks_the_one_before_and_a_removal_releases_the_card_above() -> None:
    g = game({"r0": "2D 3D 2C", "f2": "AD 2D"}, rows=3)
    assert refusal_rule(g, "r0:1-f2") == R + "rule-5"
    assert refusal_rule(g, "r0:0-f6") == R + "rule-5"
    g.play("r0-f3")          # the two of clubs goes: the three of diamonds is released
    assert "r0-f2" in legal(g)
    g.play("r0-f2")          # and then the two of diamonds above it
    g.play("r0-f6")
    assert pile(g, "f2") == cards("AD 2D 3D") and pile(g, "f6") == cards("AD 2D")


@pytest.mark.rules("the-congress-rule-5", "the-congress-refill")
def test_released_cards_are_used_before_the_vacancies_are_refilled() -> None:
    g = game({"r0": "3D 2D 2C", "r1": "KS KH JS", "r2": "KD KC JD", "r3": "KS KH JS",
              "r4": "KD KC JD", "r5": "JH JH JC", "r6": "JC 10S 10S", "r7": "10H 10H 10D"},
             rows=3)
    g.play("r0-f3")
    g.play("r0-f2")          # released by the two of clubs
    g.play("r0-f2")          # and the three above it
    assert pile(g, "r0") == () and len(g.vacancies(g.state)) == 3
    g.play("refill")
    assert len(pile(g, "r0")) == 3 and g.vacancies(g.state) == []


@pytest.mark.rules("the-congress-rivers", "the-congress-refill", "the-congress-uppermost")
def test_vacancies_are_refilled_from_the_pack_the_uppermost_rows_first() -> None:
    # r0 has lost two cards, r1 all three, r2 one; help 3 is empty. The pack's top is 2H.
    g = game({"r0": "KS", "r1": "", "r2": "KH KH", "r3": "KS KD KD", "r4": "KC KC JS",
              "r5": "JS JH JH", "r6": "JD JD JC", "r7": "JC 10S 10S", "h2": "",
              "stock": "9C 8C 7C 6C 5C 4C 3C 2H"}, rows=3)
    assert [PILES[i].id for i in g.vacancies(g.state)] == [
        "r1", "r0", "r1", "r0", "r1", "r2", "h2"]
    g.play("refill")
    assert g.vacancies(g.state) == []
    assert pile(g, "r1") == cards("2H 4C 6C") and pile(g, "r0") == cards("KS 3C 5C")
    assert pile(g, "r2") == cards("KH KH 7C") and pile(g, "h2") == cards("8C")


@pytest.mark.rules("the-congress-refill", "the-congress-uppermost")
def test_the_refill_takes_the_rows_in_order_and_then_the_helps() -> None:
    full = dict(zip([f"r{c}" for c in range(2, 8)],
                    ["KS KH", "KD KC", "KS KH", "KD KC", "QS QH", "QD QC"], strict=True))
    g = game({**full, "r0": "JS", "r1": "", "h1": "", "stock": "5C 4C 3C 2H"}, rows=2)
    assert [PILES[i].id for i in g.vacancies(g.state)] == ["r1", "r0", "r1", "h1"]
    g.play("refill")
    # the pack's top (2H) to row 1 of river 2, then 3C to row 2 of river 1, 4C under the 2H,
    # and 5C to help 2
    assert pile(g, "r1") == cards("2H 4C") and pile(g, "r0") == cards("JS 3C")
    assert pile(g, "h1") == cards("5C")


@pytest.mark.rules("the-congress-refill")
def test_a_refill_stops_when_the_pack_runs_out_and_nothing_else_fills_a_vacancy() -> None:
    g = game({**FULL, "r0": "", "h0": "", "h1": "8H", "r1": "7H"})
    assert refusal_rule(g, "r1-h0") == R + "refill"      # a help place waits for the pack
    assert refusal_rule(g, "stock-r0") == R + "refill"
    assert refusal_rule(g, "deal") == R + "refill"       # the vacancies come first
    none = game(FULL)
    assert refusal_rule(none, "refill") == R + "refill"  # nothing to refill


@pytest.mark.rules("the-congress-next-rows", "the-congress-complete")
def test_the_next_row_is_dealt_whole_one_card_under_each_column() -> None:
    g = game({**FULL, "stock": "9C 8C 7C 6C 5C 4C 3C 2H"})
    g.play("deal")
    assert g.var(g.state, "rows") == 2
    assert [pile(g, f"r{c}")[-1] for c in range(8)] == list(cards("2H 3C 4C 5C 6C 7C 8C 9C"))
    assert len(pile(g, "r0")) == 2
    # the earlier row is blocked by the new one
    assert refusal_rule(g, "r0:0-h0") == R + "rule-5"


@pytest.mark.rules("the-congress-next-rows")
def test_the_next_row_waits_until_all_possible_cards_have_been_played() -> None:
    g = game({**FULL, "h0": "2C", "stock": "QS"})
    assert refusal_rule(g, "deal") == R + "next-rows"
    g.play("h0-f3")
    g.play("refill")
    assert pile(g, "h0") == cards("QS") and "deal" in legal(g)
    free = game({**FULL, "h0": "2C"}, options="play_first:no")
    assert "deal" in legal(free)
    # marriages need not be made first
    wed = game({**FULL, "r0": "QS", "h0": "KS"})
    assert "r0-h0" in legal(wed) and "deal" in legal(wed)


@pytest.mark.rules("the-congress-complete", "the-congress-eight")
def test_the_last_row_is_short_when_the_pack_runs_out() -> None:
    g = exhausted({**FULL, **HELPS}, rows=1, stock="JC JD JH", options="play_first:no")
    g.play("deal")
    assert [pile(g, f"r{c}")[-1] for c in range(3)] == list(cards("JH JD JC"))
    assert [len(pile(g, f"r{c}")) for c in range(8)] == [2, 2, 2, 1, 1, 1, 1, 1]
    assert g.var(g.state, "rows") == 2 and pile(g, "stock") == ()
    assert refusal_rule(g, "deal") == R + "eight"


@pytest.mark.rules("the-congress-eight")
def test_the_new_helps_wait_for_the_pack_to_be_exhausted() -> None:
    g = game({"r0": "7H", "h4": ""})
    assert refusal_rule(g, "r0-h4") == R + "eight"
    assert refusal_rule(g, "r0-h7") == R + "eight"
    bad = make_game(SLUG, {**ACES, "h4": "9C"}, vars={"rows": 1})
    with pytest.raises(PositionError):
        engine.load_position(bad.position())


@pytest.mark.rules("the-congress-eight", "the-congress-new-helps")
def test_once_the_pack_is_out_any_available_river_card_begins_a_new_packet() -> None:
    g = exhausted({"r0": "KH QS", "r1": "KS QD JD 10D 9D", "h0": "KD"}, rows=5)
    assert refusal_rule(g, "refill") == R + "eight"
    assert refusal_rule(g, "deal") == R + "eight"
    assert refusal_rule(g, "r0:0-h4") == R + "rule-5"   # only available cards
    assert {"r0-h4", "r0-h7", "r1-h5"} <= legal(g)
    g.play("r0-h4")
    assert pile(g, "h4") == cards("QS") and pile(g, "r0") == cards("KH")


@pytest.mark.rules("the-congress-new-helps")
def test_the_new_packets_have_all_the_privileges_of_the_original_ones() -> None:
    g = exhausted({"r0": "KH 9D", "r1": "KS 10D", "h0": "JD", "r2": "KC QD", "r3": "KD"},
                  rows=2)
    g.play("r1-h5")          # the ten of diamonds begins a new packet
    g.play("r0-h5")          # a river card marries on it
    assert pile(g, "h5") == cards("10D 9D")
    g.play("r2-h6")          # the queen begins another
    g.play("h0-h6")          # a help card of the old packets marries on it
    assert pile(g, "h6") == cards("QD JD")
    assert refusal_rule(g, "h5:0-h6") == R + "rule-4"
    assert "h5-h6" not in legal(g) and "h5-f6" in legal(g)


@pytest.mark.rules("the-congress-new-helps", "the-congress-played-off")
def test_a_help_card_never_begins_a_packet() -> None:
    g = exhausted({"r0": "KH", "h0": "KD QD", "h1": "KS"}, rows=1)
    assert refusal_rule(g, "h0-h4") == R + "new-helps"
    assert refusal_rule(g, "h0-h2") == R + "played-off"


@pytest.mark.rules("the-congress-played-off")
def test_a_packet_played_off_is_filled_again_from_the_rivers_never_beyond_eight() -> None:
    g = exhausted({"r0": "KS QH", "h0": "KS", "h1": "KD", "h2": "KC", "h3": "KH",
                   "h4": "QC", "h5": "QD", "h6": "QS", "h7": "JS"}, rows=2)
    g.play("r0-f5")
    g.play("h3-f5")          # an original packet is played off
    assert "r0-h3" in legal(g)
    g.play("r0-h3")
    assert pile(g, "h3") == cards("KS")
    # every help place is full: the river card can only marry, and there is no ninth place
    assert len(HELP_PILES) == 8
    assert all(pile(g, f"h{j}") for j in range(8))
    assert not any(m.startswith("r0-h") for m in legal(g))


@pytest.mark.rules("the-congress-discretion")
def test_the_player_need_not_fill_the_new_help_places() -> None:
    g = exhausted({"r0": "KH QS", "r1": "KS KS JS", "h0": "QS"}, rows=3)
    # the knave of spades may marry at once; nothing obliges the queen to a new packet
    assert "r1-h0" in legal(g)
    g.play("r1-h0")
    assert all(not pile(g, f"h{j}") for j in range(4, 8))
    assert g.outcome() is None


@pytest.mark.rules("the-congress-no-redeal")
def test_there_is_no_redeal() -> None:
    g = game({})
    assert refusal_rule(g, "redeal") == R + "no-redeal"
    h = exhausted({"r0": "KH"}, rows=1)
    assert refusal_rule(h, "redeal") == R + "no-redeal"


# ----------------------------------------------------------------------------- the end

#: Spades and hearts complete; the clubs and diamonds foundations at their aces, every two
#: blocked by a three of the other suit, the help places full of cards that neither play
#: nor take a marriage.
DEADLOCK = {
    "r0": "4C 5C 6C 7C 2C 3D", "r1": "4C 5C 6C 7C 2C 3D",
    "r2": "4D 5D 6D 7D 2D 3C", "r3": "4D 5D 6D 7D 2D 3C",
    "r4": "QC JC 9C 8C", "r5": "QC JC 9C 8C", "r6": "QD JD 9D 8D", "r7": "QD JD 9D 8D",
    "h0": "KC", "h1": "KC", "h2": "KD", "h3": "KD",
    "h4": "10C", "h5": "10C", "h6": "10D", "h7": "10D",
}

@pytest.mark.rules("the-congress-foundations")
def test_won_when_all_hundred_and_four_are_on_the_foundations() -> None:
    g = exhausted({"r0": "KH"}, rows=1)
    assert g.outcome() is None
    g.play("r0-f5")
    assert g.outcome() is Outcome.WON
    assert "Won" in g.status_of(g.state)


@pytest.mark.rules("the-congress-no-redeal")
def test_lost_when_the_pack_is_out_and_no_card_can_reach_a_foundation() -> None:
    # Each three blocks the two the other suit needs; every help place is full, and nothing
    # marries: no card can ever be played.
    g = exhausted(DEADLOCK, rows=6)
    assert g.legal_moves() == [] and g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


@pytest.mark.rules("the-congress-no-redeal")
def test_not_lost_while_a_marriage_or_a_new_help_can_release_a_playable_card() -> None:
    # a four of diamonds on a help takes the three, and the two of clubs is released
    g = exhausted({**DEADLOCK, "r3": "5D 6D 7D 2D 3C", "h7": "4D",
                   "r7": "10D QD JD 9D 8D"}, rows=6)
    assert g.outcome() is None
    g.play("r0-h7")
    assert "r0-f3" in legal(g)
    # an empty help place takes the three of clubs, and the two of diamonds is released
    h = exhausted({**DEADLOCK, "h7": "", "r7": "10D QD JD 9D 8D"}, rows=6)
    assert h.outcome() is None


def test_never_lost_while_the_pack_lasts() -> None:
    g = game(FULL)
    assert g.outcome() is None
    assert legal(g) == {"deal"}


def test_random_play_ends_and_every_end_is_judged() -> None:
    rng = random.Random(3)
    ends: Counter[Outcome | None] = Counter()
    for seed in range(10):
        g = engine.new_game(SLUG, seed=seed)
        for _ in range(3000):
            if g.outcome() is not None:
                break
            moves = g.legal_moves()
            plays = [m for m in moves if m.steps and m.steps[0][1].startswith("f")]
            g.play(plays[0] if plays else rng.choice(moves))
        ends[g.outcome()] += 1
    assert ends[None] == 0 and ends[Outcome.LOST] > 0


# ----------------------------------------------------------------------------- positions

def test_positions_round_trip_and_bad_ones_are_refused() -> None:
    g = engine.new_game(SLUG, seed=8, options="play_first:no")
    g.play("deal")
    h = engine.load_position(g.position())
    assert h.state == g.state
    with pytest.raises(PositionError):   # no row dealt
        engine.load_position(g.position().replace("vars=rows:1", "vars=rows:0"))
    with pytest.raises(PositionError):   # a column longer than the rows dealt
        engine.load_position(make_game(SLUG, {**ACES, "r0": "KS KH"},
                                       vars={"rows": 1}).position())
    with pytest.raises(PositionError):   # no aces on the foundations
        engine.load_position(make_game(SLUG, {}, vars={"rows": 1}).position())
    with pytest.raises(PositionError):   # a help packet not married in descending line
        engine.load_position(make_game(SLUG, {**ACES, "h0": "9S 8H"},
                                       vars={"rows": 1}).position())
    with pytest.raises(PositionError):   # a foundation out of order
        engine.load_position(make_game(SLUG, {**ACES, "f0": "AS 3S"},
                                       vars={"rows": 1}).position())


# ----------------------------------------------------------------------------- the board

def test_every_card_of_the_tableau_is_face_up_and_the_pack_face_down() -> None:
    g = engine.new_game(SLUG, seed=9)
    if "deal" in legal(g):
        g.play("deal")
    view = engine.view_of(g)
    for spec, p in zip(PILES, view["piles"], strict=True):
        if spec.role is Role.STOCK:
            assert all(c["c"] is None for c in p["cards"])
        else:
            assert all(c["c"] is not None for c in p["cards"])


def test_the_board_fits_the_grid_and_the_phone_layout_keeps_cards_large() -> None:
    w, h = TheCongress.GRID
    for p in PILES:
        assert 0 <= p.x and p.x + 1 <= w + 1e-9 and 0 <= p.y and p.y + 1 <= h + 1e-9
    narrow = TheCongress.LAYOUTS[0]
    assert narrow.max_width is not None
    nw, nh = narrow.grid
    assert set(narrow.at) == {p.id for p in PILES}
    for x, y, _ in narrow.at.values():
        assert 0 <= x and x + 1 <= nw + 1e-9 and 0 <= y and y + 1 <= nh + 1e-9
    assert 350 / nw * 0.9 >= 36
    places = [(x, y) for x, y, _ in narrow.at.values()]
    assert len(set(places)) == len(places)


def test_a_click_on_the_pack_refills_or_deals() -> None:
    g = game({**FULL, "r0": ""})
    assert g.pack_move(g.state, g.legal_moves()) == Move(action="refill")
    g.play("refill")
    assert g.pack_move(g.state, g.legal_moves()) == Move(action="deal")


def test_status_line_and_describe() -> None:
    g = game({**FULL, "h0": "8H", "r0": "7H"})
    text = g.status_of(g.state)
    assert "1 row of the rivers dealt" in text and "no vacancy" in text and "8 of 104" in text
    assert g.describe(g.state, Move.parse("r0-h0")) == (
        "The seven of hearts from river 1 is married to the eight of hearts on help 1.")
    g.play("r0-h0")
    assert "1 vacancy to refill" in g.status_of(g.state)
    assert "refilled" in g.describe(g.state, Move(action="refill"))
    h = exhausted({"r0": "KH"}, rows=1)
    assert "exhausted" in h.status_of(h.state)
    assert h.describe(h.state, Move.parse("r0-h4")) == "The king of hearts from river 1 begins help 5."


def test_moves_with_bad_notation_are_refused_on_the_board() -> None:
    g = game({"h0": "8H", "r0": "7H"})
    assert refusal_rule(g, "r0-r0") == R + "board"
    assert refusal_rule(g, "r0-stock") == R + "board"
    assert refusal_rule(g, "zz9-f0") == R + "board"
    assert refusal_rule(g, "shuffle") == R + "board"


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = CongressOptions(play_first=False)
    text = engine.options_to_text(o)
    assert text == "play_first:no"
    assert engine.options_from_text(CongressOptions, text) == o
    assert engine.options_to_text(CongressOptions()) == ""


def test_every_option_names_its_note() -> None:
    for d in engine.describe_options(CongressOptions):
        assert d["note"].startswith("note-cg-")
        assert len(d["choices"]) >= 2
    assert {f.name for f in dataclasses.fields(CongressOptions)} == {"play_first"}
