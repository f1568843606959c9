"""The Sultan: every rule, every refusal (with the rule id it cites)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.deal import shuffled
from engine.sultan import (
    BASES, DIVAN_PILES, FOUNDATION_PILES, STOCK, SULTAN_PILE, TALON_PILE, TURNED, SultanOptions,
    TheSultan,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-sultan"
R = f"{SLUG}-"
FIXED = {"sultan": "KH", **{f"f{j}": str(b) for j, b in enumerate(BASES)}}
# Eight Divan cards that fit nowhere at the start (no ace, no two of hearts).
FULL_DIVAN = {f"d{i}": c for i, c in enumerate("5S 6S 7S 8S 5D 6D 7D 8D".split())}
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q".split()


def game(piles: dict[str, str], **kw: object) -> TheSultan:
    """A position with the fixed cards in place, the given piles, the rest in ``rest_to``."""
    g = make_game(SLUG, {**FIXED, **piles}, **kw)  # type: ignore[arg-type]
    assert isinstance(g, TheSultan)
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def up_to(base: str, last: str) -> str:
    """A foundation built from its base card up to rank ``last`` in the base's suit."""
    suit = base[-1]
    start = 0 if base.startswith("K") else 1
    ranks = RANKS[start:RANKS.index(last) + 1]
    return " ".join([base] + [r + suit for r in ranks])


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-sultan-sultan", "the-sultan-foundations", "the-sultan-divan")
def test_deal_places_sultan_foundations_divan_and_pack() -> None:
    g = engine.new_game(SLUG, seed=11)
    s = g.state
    assert s.piles[SULTAN_PILE] == cards("KH")
    assert [s.piles[f] for f in FOUNDATION_PILES] == [(b,) for b in BASES]
    assert sorted(str(b) for b in BASES) == sorted("KC KC KD KD KS KS KH AH".split())
    assert [len(s.piles[i]) for i in DIVAN_PILES] == [1] * 8
    assert len(s.piles[STOCK]) == 104 - 9 - 8
    assert not s.piles[TALON_PILE] and not s.piles[TURNED]
    assert Counter(s.all_cards()) == Counter(engine.pack(2))
    # the kings and one ace of hearts are withdrawn: none of them is dealt
    dealt = [c for i in (*DIVAN_PILES, STOCK) for c in s.piles[i]]
    assert not any(c.rank == 13 for c in dealt)
    assert sum(1 for c in dealt if c == Card.parse("AH")) == 1


def test_same_deal_number_same_deal_and_different_numbers_differ() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (5, 5, 6))
    assert a == b
    assert a != c


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("the-sultan-rule-1")
def test_rule_1_foundations_follow_suit() -> None:
    g = game({"d0": "AS", "d1": "AC"})
    assert refusal_rule(g, "d0-f0") == R + "rule-1"  # f0 is a king of clubs
    g.play("d1-f0")
    assert g.state.piles[FOUNDATION_PILES[0]] == cards("KC AC")


@pytest.mark.rules("the-sultan-foundations")
def test_kings_begin_with_ace_and_ascend_to_queen() -> None:
    g = game({"d0": "2C", "d1": "AC", "d2": "3C"})
    assert refusal_rule(g, "d0-f0") == R + "foundations"
    g.play("d1-f0")
    assert refusal_rule(g, "d2-f0") == R + "foundations"
    g.play("d0-f0")
    g.play("d2-f0")
    assert g.state.piles[FOUNDATION_PILES[0]] == cards("KC AC 2C 3C")


@pytest.mark.rules("the-sultan-foundations")
def test_ace_of_hearts_ascends_the_same_way() -> None:
    g = game({"d0": "2H", "d1": "3H"})
    assert refusal_rule(g, "d1-f1") == R + "foundations"
    g.play("d0-f1")
    g.play("d1-f1")
    assert g.state.piles[FOUNDATION_PILES[1]] == cards("AH 2H 3H")


@pytest.mark.rules("the-sultan-foundations")
def test_second_ace_of_hearts_goes_only_on_the_king_of_hearts() -> None:
    g = game({"d0": "AH"})
    assert refusal_rule(g, "d0-f1") == R + "foundations"
    g.play("d0-f6")
    assert g.state.piles[FOUNDATION_PILES[6]] == cards("KH AH")


@pytest.mark.rules("the-sultan-foundations")
def test_a_foundation_ends_with_the_queen() -> None:
    g = game({"f0": up_to("KC", "Q"), "d0": "AC"})
    assert refusal_rule(g, "d0-f0") == R + "foundations"
    why = g.refusal(g.state, Move.parse("d0-f0"))
    assert why is not None and "complete" in why.message
    g.play("d0-f2")


@pytest.mark.rules("the-sultan-foundations")
def test_cards_on_the_foundations_stay_there() -> None:
    g = game({"f0": "KC AC", "d0": ""}, rest_to="talon")
    assert refusal_rule(g, "f0-d0") == R + "foundations"
    assert refusal_rule(g, "f0-f2") == R + "foundations"


@pytest.mark.rules("the-sultan-sultan")
def test_the_sultan_remains_alone() -> None:
    g = game({"d0": "AH"})
    assert refusal_rule(g, "d0-sultan") == R + "sultan"
    assert refusal_rule(g, "sultan-f6") == R + "sultan"


# ----------------------------------------------------------------------------- the Divan

@pytest.mark.rules("the-sultan-refill", "the-sultan-talon", "the-sultan-divan")
def test_divan_cards_go_only_to_the_foundations() -> None:
    g = game({**FULL_DIVAN})
    assert refusal_rule(g, "d0-d1") == R + "refill"
    assert refusal_rule(g, "d0-talon") == R + "talon"
    assert refusal_rule(g, "d0-stock") == R + "divan"
    assert refusal_rule(g, "d0-turned") == R + "divan"


@pytest.mark.rules("the-sultan-refill")
def test_divan_vacancy_is_refilled_at_once_from_the_talon() -> None:
    g = game({**FULL_DIVAN, "d3": "AC", "talon": "9H 10H", "stock": "JD"}, rest_to="talon")
    g.play("d3-f0")
    assert g.state.piles[DIVAN_PILES[3]] == cards("10H")
    assert g.state.piles[TALON_PILE][-1] == Card.parse("9H")
    assert g.state.piles[STOCK] == cards("JD")


@pytest.mark.rules("the-sultan-refill")
def test_divan_vacancy_is_refilled_from_the_pack_when_there_is_no_talon() -> None:
    g = game({**FULL_DIVAN, "d3": "AC", "talon": "", "stock": "9H 10H"})
    g.play("d3-f0")
    assert g.state.piles[DIVAN_PILES[3]] == cards("10H")
    assert g.state.piles[STOCK][-1] == Card.parse("9H")
    assert not g.state.piles[TALON_PILE]


@pytest.mark.rules("the-sultan-refill")
def test_divan_vacancy_stays_when_talon_and_pack_are_empty() -> None:
    rest = {"f0": up_to("KC", "Q"), "f2": up_to("KC", "J"), "f3": up_to("KD", "Q"),
            "f4": up_to("KD", "Q"), "f5": up_to("KS", "Q"), "f6": up_to("KH", "Q"),
            "f7": up_to("KS", "Q"), "f1": up_to("AH", "Q"), "stock": "", "talon": ""}
    g = game({**rest, "d0": "QC"}, rest_to="d0")
    assert not g.state.piles[STOCK]
    g.play("d0-f2")
    assert not g.state.piles[DIVAN_PILES[0]]


# ----------------------------------------------------------------------------- dealing

@pytest.mark.rules("the-sultan-talon", "the-sultan-deal")
def test_unsuitable_turned_card_is_laid_on_the_talon() -> None:
    g = game({**FULL_DIVAN, "talon": "", "stock": "9H"})
    g.play("deal")
    assert g.state.piles[TALON_PILE] == cards("9H")
    assert not g.state.piles[TURNED]


@pytest.mark.rules("the-sultan-talon", "the-sultan-rule-1", "the-sultan-deal")
def test_suitable_turned_card_waits_to_be_played() -> None:
    g = game({**FULL_DIVAN, "d0": "AC", "talon": "9H", "stock": "AS"})
    g.play("deal")
    assert g.state.piles[TURNED] == cards("AS")
    assert refusal_rule(g, "turned-talon") == R + "talon"
    assert refusal_rule(g, "d0-f0") == R + "talon"  # the turned card comes first
    assert refusal_rule(g, "talon-f1") == R + "talon"
    assert refusal_rule(g, "deal") == R + "talon"
    assert refusal_rule(g, "turned-f0") == R + "rule-1"
    assert set(g.legal_moves()) == {Move.parse("turned-f5"), Move.parse("turned-f7")}
    g.play("turned-f7")
    assert g.state.piles[FOUNDATION_PILES[7]] == cards("KS AS")
    assert not g.state.piles[TURNED]
    g.play("d0-f0")


def test_suitable_turned_card_may_be_laid_aside_under_the_other_reading() -> None:
    g = game({**FULL_DIVAN, "talon": "9H", "stock": "AS"}, options="must_play:no")
    g.play("deal")
    assert Move.parse("turned-talon") in g.legal_moves()
    g.play("turned-talon")
    assert g.state.piles[TALON_PILE] == cards("9H AS")


@pytest.mark.rules("the-sultan-deal")
def test_pack_cards_are_only_turned_up() -> None:
    g = game({**FULL_DIVAN, "stock": "AS"})
    assert refusal_rule(g, "stock-f5") == R + "deal"
    assert refusal_rule(g, "stock-talon") == R + "deal"


@pytest.mark.rules("the-sultan-deal")
def test_nothing_to_turn_when_the_pack_is_used_up() -> None:
    g = game({**FULL_DIVAN, "stock": ""}, rest_to="talon")
    assert refusal_rule(g, "deal") == R + "deal"


@pytest.mark.rules("the-sultan-talon", "the-sultan-refill")
def test_only_turned_cards_go_to_the_talon() -> None:
    g = game({**FULL_DIVAN, "talon": "9H 10H"})
    assert refusal_rule(g, "talon-talon") == R + "talon"
    assert refusal_rule(g, "talon-d0") == R + "refill"


# ----------------------------------------------------------------------------- the talon

@pytest.mark.rules("the-sultan-talon", "the-sultan-divan")
def test_talon_top_may_be_played() -> None:
    g = game({**FULL_DIVAN, "talon": "AC 9H AS"})
    assert refusal_rule(g, "talon:0-f0") == R + "talon"
    g.play("talon-f5")
    assert g.state.piles[TALON_PILE] == cards("AC 9H")


@pytest.mark.rules("the-sultan-talon")
def test_talon_not_played_under_the_strict_reading() -> None:
    g = game({**FULL_DIVAN, "talon": "AS"}, options="talon_play:no")
    assert refusal_rule(g, "talon-f5") == R + "talon"
    assert Move.parse("talon-f5") not in g.legal_moves()


# ----------------------------------------------------------------------------- re-deals

def _ready_to_redeal(**kw: object) -> TheSultan:
    return game({**FULL_DIVAN, "stock": ""}, rest_to="talon", deal=17, **kw)


@pytest.mark.rules("the-sultan-redeal")
def test_redeal_only_when_the_pack_is_dealt_out() -> None:
    g = game({**FULL_DIVAN, "stock": "9H"})
    assert refusal_rule(g, "redeal") == R + "redeal"


@pytest.mark.rules("the-sultan-redeal")
def test_redeal_shuffles_the_talon_into_a_new_pack() -> None:
    g = _ready_to_redeal()
    talon = g.state.piles[TALON_PILE]
    g.play("redeal")
    s = g.state
    assert not s.piles[TALON_PILE]
    assert s.piles[STOCK] == tuple(shuffled(talon, 17, stream=1))
    assert s.piles[STOCK] != talon and sorted(s.piles[STOCK]) == sorted(talon)
    assert g.var(s, "redeals") == 1


@pytest.mark.rules("the-sultan-redeal")
def test_the_shuffle_is_the_same_every_time_and_differs_by_deal() -> None:
    a, b = _ready_to_redeal(), _ready_to_redeal()
    a.play("redeal")
    b.play("redeal")
    assert a.state == b.state
    c = game({**FULL_DIVAN, "stock": ""}, rest_to="talon", deal=18)
    c.play("redeal")
    assert c.state.piles[STOCK] != a.state.piles[STOCK]


@pytest.mark.rules("the-sultan-redeal")
def test_the_talon_is_redealt_twice_at_most() -> None:
    g = _ready_to_redeal()
    for _ in range(2):
        g.play("redeal")
        while g.state.piles[STOCK] or g.state.piles[TURNED]:
            if g.state.piles[TURNED]:
                g.play(g.legal_moves()[0])
            else:
                g.play("deal")
    assert g.var(g.state, "redeals") == 2
    assert g.state.piles[TALON_PILE]
    assert refusal_rule(g, "redeal") == R + "redeal"


@pytest.mark.rules("the-sultan-redeal")
def test_one_redeal_under_the_other_count() -> None:
    g = _ready_to_redeal(options="redeals:1")
    g.play("redeal")
    while g.state.piles[STOCK] or g.state.piles[TURNED]:
        g.play(g.legal_moves()[0] if g.state.piles[TURNED] else Move(action="deal"))
    assert refusal_rule(g, "redeal") == R + "redeal"


@pytest.mark.rules("the-sultan-redeal")
def test_no_redeal_without_a_talon() -> None:
    g = game({"stock": "", "talon": ""}, rest_to="d0")
    assert refusal_rule(g, "redeal") == R + "redeal"


@pytest.mark.rules("the-sultan-redeal")
def test_position_restores_the_shuffled_redeal_exactly() -> None:
    g = engine.new_game(SLUG, seed=4242)
    rng = random.Random(1)
    while g.var(g.state, "redeals") < 2 and g.outcome() is None:
        g.play(rng.choice(g.legal_moves()))
    assert g.var(g.state, "redeals") >= 1
    for compact in (True, False):
        h = engine.load_position(g.position(compact=compact))
        assert h.state == g.state


# ----------------------------------------------------------------------------- outcome

def _complete() -> dict[str, str]:
    return {f"f{j}": up_to(str(b), "Q") for j, b in enumerate(BASES)}


@pytest.mark.rules("the-sultan-foundations")
def test_won_when_eight_queens_surround_the_sultan() -> None:
    done = _complete()
    g = game({**done, "f0": up_to("KC", "J"), "stock": "", "talon": ""}, rest_to="d0")
    assert g.outcome() is None
    g.play("d0-f0")
    assert g.outcome() is Outcome.WON
    assert all(g.state.piles[f][-1].rank == 12 for f in FOUNDATION_PILES)
    assert "queens" in g.status_of(g.state)


def test_lost_when_nothing_more_can_be_done() -> None:
    g = game({**FULL_DIVAN, "stock": ""}, rest_to="talon", vars={"redeals": 2},
             options="talon_play:no")
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


@pytest.mark.rules("the-sultan-redeal")
def test_not_lost_while_a_redeal_remains() -> None:
    g = game({**FULL_DIVAN, "stock": ""}, rest_to="talon", vars={"redeals": 1},
             options="talon_play:no")
    assert g.legal_moves() == [Move(action="redeal")]
    assert g.outcome() is None


def test_random_games_end() -> None:
    for seed in range(20):
        g = engine.new_game(SLUG, seed=seed)
        rng = random.Random(seed)
        for _ in range(2000):
            if g.outcome() is not None:
                break
            g.play(rng.choice(g.legal_moves()))
        assert g.outcome() is not None


def test_status_line_counts_pack_talon_and_redeals() -> None:
    g = game({**FULL_DIVAN, "stock": "2C 3C", "talon": "9H"}, rest_to="talon",
             vars={"redeals": 1})
    text = g.status_of(g.state)
    assert "Pack: 2 cards" in text and "re-deals left: 1" in text


# ----------------------------------------------------------------------------- the board

def test_notation_errors_are_refused_on_the_board_rule() -> None:
    g = game({**FULL_DIVAN, "d0": ""}, rest_to="talon")
    assert refusal_rule(g, "d0-f0") == R + "board"      # an empty place
    assert refusal_rule(g, "zz9-f0") == R + "board"
    assert refusal_rule(g, "d1-zz9") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"
    assert refusal_rule(g, "d1-f0+d2-f0") == R + "board"
    assert refusal_rule(g, "d1:0-f0") == R + "board"
    assert refusal_rule(g, "d1-f0:0") == R + "board"
    assert refusal_rule(g, "shuffle") == R + "board"
    assert refusal_rule(g, "talon-stock") == R + "board"


def test_corrupt_positions_are_refused() -> None:
    g = engine.new_game(SLUG, seed=3)
    text = g.position()
    bad = text.replace("sultan:KH", "sultan:KC").replace("f0:KC", "f0:KH", 1)
    assert bad != text
    with pytest.raises(PositionError):
        engine.load_position(bad)
    with pytest.raises(PositionError):
        engine.load_position(text.replace("vars=redeals:0", "vars=redeals:9"))


def test_describe_says_what_a_turn_does() -> None:
    g = game({**FULL_DIVAN, "stock": "AS 9H"})
    assert "laid on the talon" in g.describe(g.state, Move(action="deal"))
    g.play("deal")
    assert "suitable" in g.describe(g.state, Move(action="deal"))


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = SultanOptions(talon_play=False, redeals=1, must_play=False)
    text = engine.options_to_text(o)
    assert engine.options_from_text(SultanOptions, text) == o
    assert engine.options_to_text(SultanOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(SultanOptions, "redeals:5")
    with pytest.raises(ValueError):
        engine.options_from_text(SultanOptions, "talon_play:maybe")


def test_every_option_names_its_note() -> None:
    for d in engine.describe_options(SultanOptions):
        assert d["note"].startswith("note-su-")
        assert len(d["choices"]) >= 2
        assert d["default"] in {c["value"] for c in d["choices"]}
