"""The Constitution: every rule, every refusal (with the rule id it cites)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import pack
from engine.constitution import (
    ACES, COMMONS, DISCARD, FOUNDATION_PILES, KING_PILES, KINGS, LORDS, PEOPLE, PRIVY, ROWS,
    SOVEREIGN, STOCK, TALON, THROWN_ASIDE, Column, ConstitutionOptions, TheConstitution,
)
from engine.deal import shuffled
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-constitution"
R = f"{SLUG}-"
FIXED = {"sovereign": "QD", "discard": " ".join(map(str, THROWN_ASIDE)),
         **{f"k{k}": str(c) for k, c in enumerate(KINGS)},
         **{f"f{k}": str(c) for k, c in enumerate(ACES)}}
RANKS = "A 2 3 4 5 6 7 8 9 10 J".split()


#: Every place of the four divisions filled, one card of each: nothing can be built, nothing
#: played (People 4s and 9s, Commons 7s and knaves, Lords 3s and 10s, Privy Council 6s and 8s).
BASE = {f"{row}{c}": f"{rank}{'SCHD'[c % 4]}"
        for row, ranks in (("pp", "44449999"), ("hc", "7777JJJJ"), ("hl", "3333TTTT"),
                           ("pc", "66668888"))
        for c, rank in enumerate(ranks)}


def game(piles: dict[str, str], **kw: object) -> TheConstitution:
    """A position with the fixed cards in place, the four divisions as in ``BASE`` unless
    given, the given piles, and the rest in ``rest_to`` (the pack unless told otherwise)."""
    g = make_game(SLUG, {**FIXED, **BASE, **piles}, **kw)  # type: ignore[arg-type]
    assert isinstance(g, TheConstitution)
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def up_to(ace: str, last: str) -> str:
    suit = ace[-1]
    return " ".join(r + suit for r in RANKS[:RANKS.index(last) + 1])


def pile(g: TheConstitution, ref: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(ref)]


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-constitution-withdraw", "the-constitution-deal")
def test_deal_places_government_and_four_divisions() -> None:
    g = engine.new_game(SLUG, seed=9)
    s = g.state
    assert s.piles[SOVEREIGN] == cards("QD")
    assert [s.piles[i] for i in KING_PILES] == [(k,) for k in KINGS]
    assert [s.piles[f] for f in FOUNDATION_PILES] == [(a,) for a in ACES]
    assert Counter(s.piles[DISCARD]) == Counter(cards("QS QS QH QH QC QC QD"))
    assert all(len(s.piles[i]) == 1 for row in ROWS for i in row)
    assert len(s.piles[STOCK]) == 48 and not s.piles[TALON]
    assert Counter(s.all_cards()) == Counter(pack(2))
    in_play = [c for row in ROWS for i in row for c in s.piles[i]] + list(s.piles[STOCK])
    assert all(2 <= c.rank <= 11 for c in in_play)
    # the bishops are black, the judges red
    assert sorted(str(k) for k in KINGS) == sorted("KS KS KC KC KH KH KD KD".split())


@pytest.mark.rules("the-constitution-deal", "the-constitution-rows")
def test_rows_are_dealt_beginning_with_the_lowest() -> None:
    g = engine.new_game(SLUG, seed=9)
    rest = Counter(pack(2))
    rest.subtract(cards("QD") + KINGS + ACES + THROWN_ASIDE)
    order = shuffled(sorted(rest.elements()), 9)
    dealt = order[::-1][:32]  # the top of the pack first
    s = g.state
    assert [s.piles[i][0] for i in ROWS[PEOPLE]] == dealt[:8]
    assert [s.piles[i][0] for i in ROWS[COMMONS]] == dealt[8:16]
    assert [s.piles[i][0] for i in ROWS[PRIVY]] == dealt[24:32]


def test_same_deal_number_same_deal_and_different_numbers_differ() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (5, 5, 6))
    assert a == b
    assert a != c


# ----------------------------------------------------------------------------- Rule I and VI

@pytest.mark.rules("the-constitution-rule-1", "the-constitution-play-them")
def test_rule_1_only_the_privy_council_plays_to_the_foundations() -> None:
    g = game({"pc0": "2S", "hl0": "2S", "hc0": "2H", "pp0": "2H"})
    assert refusal_rule(g, "hl0-f0") == R + "rule-1"
    assert refusal_rule(g, "hc0-f1") == R + "rule-1"
    assert refusal_rule(g, "pp0-f1") == R + "rule-1"
    g.play("pc0-f0")
    assert pile(g, "f0") == cards("AS 2S")


@pytest.mark.rules("the-constitution-rule-6")
def test_rule_6_foundations_follow_suit() -> None:
    g = game({"pc0": "2S"})
    assert refusal_rule(g, "pc0-f2") == R + "rule-6"   # f2 is an ace of clubs


@pytest.mark.rules("the-constitution-foundations")
def test_foundations_ascend_in_sequence_to_knaves() -> None:
    g = game({"pc0": "3H", "pc1": "2H", "f4": up_to("AS", "J"), "pc2": "5S", "hl1": "4H 3C"})
    assert refusal_rule(g, "pc0-f1") == R + "foundations"
    assert refusal_rule(g, "pc2-f4") == R + "foundations"
    why = g.refusal(g.state, Move.parse("pc2-f4"))
    assert why is not None and "complete" in why.message
    g.play("pc1-f1")
    g.play("hl1-pc1")  # the vacancy first (Rule V)
    g.play("pc0-f1")
    assert pile(g, "f1") == cards("AH 2H 3H")


@pytest.mark.rules("the-constitution-foundations")
def test_cards_on_the_foundations_stay_there() -> None:
    g = game({"f0": "AS 2S", "pc0": "3H"})
    assert refusal_rule(g, "f0-pc0") == R + "foundations"
    assert refusal_rule(g, "f0-f4") == R + "foundations"


@pytest.mark.rules("the-constitution-withdraw")
def test_government_figures_never_move_or_take_cards() -> None:
    g = game({"pc0": "JH"})
    assert refusal_rule(g, "sovereign-pc0") == R + "withdraw"
    assert refusal_rule(g, "k0-pc0") == R + "withdraw"
    assert refusal_rule(g, "discard-pc0") == R + "withdraw"
    assert refusal_rule(g, "pc0-k0") == R + "withdraw"
    assert refusal_rule(g, "pc0-sovereign") == R + "withdraw"
    assert refusal_rule(g, "pc0-discard") == R + "withdraw"


# ----------------------------------------------------------------------------- Rules II-IV

@pytest.mark.rules("the-constitution-rule-2")
def test_rule_2_cards_go_up_to_the_next_division() -> None:
    g = game({"pp0": "9H", "hc0": "10S", "hc1": "10C", "hl0": "JH", "pc0": "5D"})
    assert refusal_rule(g, "hc0-hc1") == R + "rule-2"     # same division
    assert refusal_rule(g, "hl0-hc1") == R + "rule-2"     # downwards
    assert refusal_rule(g, "pp0-hl0") == R + "rule-2"     # two divisions up
    g.play("pp0-hc1")                                     # any place of the next division
    assert pile(g, "hc1") == cards("10C 9H")
    g.play("hc0-hl0")
    assert pile(g, "hl0") == cards("JH 10S")


@pytest.mark.rules("the-constitution-rule-2")
def test_rule_2_same_column_reading() -> None:
    piles = {"pp0": "9H", "hc0": "10S", "hc1": "10C"}
    g = game(piles, options="build_to:same")
    assert refusal_rule(g, "pp0-hc1") == R + "rule-2"
    g.play("pp0-hc0")
    assert Move.parse("pp0-hc1") not in game(piles, options="build_to:same").legal_moves()


@pytest.mark.rules("the-constitution-rule-3")
def test_rule_3_only_the_top_card_of_a_sequence_is_available() -> None:
    g = game({"hc0": "10S 9H", "hl1": "10C"})
    assert refusal_rule(g, "hc0:0-hl1") == R + "rule-3"
    g.play("hc0-hl1")
    assert pile(g, "hc0") == cards("10S")
    assert pile(g, "hl1") == cards("10C 9H")


@pytest.mark.rules("the-constitution-rule-4")
def test_rule_4_sequences_descend_in_alternate_colours() -> None:
    g = game({"pp0": "9D", "pp1": "8S", "pp2": "9S", "hc0": "10H", "hc1": "10C"})
    assert refusal_rule(g, "pp0-hc0") == R + "rule-4"   # same colour
    assert refusal_rule(g, "pp1-hc1") == R + "rule-4"   # two lower
    assert refusal_rule(g, "pp2-hc1") == R + "rule-4"   # same colour, same rank gap
    g.play("pp2-hc0")
    g.play("pp0-hc1")
    assert pile(g, "hc0") == cards("10H 9S")
    assert pile(g, "hc1") == cards("10C 9D")


@pytest.mark.rules("the-constitution-rule-2", "the-constitution-rule-4")
def test_any_number_of_cards_may_be_placed_and_carried_up() -> None:
    g = game({"pp0": "8C", "pp1": "7H", "hc0": "9H", "hc1": "8S", "hl0": "10S", "pc0": "JD"},
             rest_to="talon")
    g.play("pp0-hc0")
    g.play("pp1-hc0")
    assert pile(g, "hc0") == cards("9H 8C 7H")
    g.play("hl0-pc0")
    assert pile(g, "pc0") == cards("JD 10S")


# ----------------------------------------------------------------------------- Rule V

@pytest.mark.rules("the-constitution-rule-5")
def test_rule_5_a_vacancy_in_the_privy_council_must_be_filled_at_once() -> None:
    g = game({"pc0": "2S", "hl3": "8C", "pp0": "10H"})
    g.play("pc0-f0")
    assert not pile(g, "pc0")
    assert refusal_rule(g, "deal") == R + "rule-5"
    assert refusal_rule(g, "pp0-hc0") == R + "rule-5"
    assert "fill the vacancy in the Privy Council" in g.status_of(g.state)
    # any card of the House of Lords may fill it (CO-3), and only those
    assert {str(m) for m in g.legal_moves()} == {f"hl{c}-pc0" for c in range(8)}
    g.play("hl3-pc0")
    assert pile(g, "pc0") == cards("8C")


@pytest.mark.rules("the-constitution-rule-5")
def test_rule_5_the_cascade_reaches_the_people_which_take_the_talon() -> None:
    g = game({"pc0": "2S", "hl0": "8C", "hc0": "4H", "pp0": "10H", "stock": "10D",
              "talon": "9D 9H"}, rest_to="talon")
    g.play("pc0-f0")
    g.play("hl0-pc0")          # Lords vacancy now
    assert refusal_rule(g, "pp1-hc1") == R + "rule-5"
    g.play("hc0-hl0")          # Commons vacancy now
    g.play("pp0-hc0")          # People vacancy: filled at once from the talon
    assert pile(g, "pp0") == cards("9H")
    assert pile(g, "talon")[-1] == Card.parse("9D")
    assert pile(g, "stock") == cards("10D")  # the pack is not touched while a talon exists
    assert g.open_vacancies(g.state) == []


@pytest.mark.rules("the-constitution-rule-5")
def test_rule_5_the_people_take_from_the_pack_when_there_is_no_talon() -> None:
    g = game({"pc0": "2S", "hl0": "8C", "hc0": "4H", "pp0": "10H", "talon": "",
              "stock": "9D 9H"})
    for m in ("pc0-f0", "hl0-pc0", "hc0-hl0", "pp0-hc0"):
        g.play(m)
    assert pile(g, "pp0") == cards("9H")
    assert pile(g, "stock")[-1] == Card.parse("9D")


@pytest.mark.rules("the-constitution-rule-5")
def test_people_vacancy_stays_when_talon_and_pack_are_empty() -> None:
    g = game({"pc0": "2S", "hl0": "8C", "hc0": "4H", "pp0": "10H", "talon": "",
              "stock": ""}, rest_to="discard")
    for m in ("pc0-f0", "hl0-pc0", "hc0-hl0", "pp0-hc0"):
        g.play(m)
    assert not pile(g, "pp0")


@pytest.mark.rules("the-constitution-rule-3", "the-constitution-rule-5")
def test_moving_the_top_of_a_sequence_leaves_no_vacancy() -> None:
    g = game({"hc0": "10H 9S", "hl0": "10D"})
    g.play("hc0-hl0")
    assert pile(g, "hc0") == cards("10H")
    assert g.open_vacancies(g.state) == []


@pytest.mark.rules("the-constitution-rule-5")
def test_filling_from_the_same_column_only_under_the_other_reading() -> None:
    g = game({"pc0": "2S", "hl3": "8C"}, options="fill_from:same")
    g.play("pc0-f0")
    assert refusal_rule(g, "hl3-pc0") == R + "rule-5"
    assert {str(m) for m in g.legal_moves()} == {"hl0-pc0"}
    g.play("hl0-pc0")


@pytest.mark.rules("the-constitution-rule-2")
def test_a_vacancy_with_nothing_below_stays_open() -> None:
    # the House of Lords is empty: the Privy Council vacancy cannot be filled (CO-4)
    lords_empty = {f"hl{c}": "" for c in range(8)}
    g = game({"pc0": "2S", "pc1": "4D", **lords_empty, "hc0": "3S", "hc1": "3C"},
             rest_to="talon")
    # the Lords are empty, so their own vacancies are filled from the Commons first
    assert g.open_vacancies(g.state)
    g2 = game({"pc0": "2S", "pc1": "4D", **lords_empty,
               **{f"hc{c}": "" for c in range(8)}, **{f"pp{c}": "" for c in range(8)},
               "stock": "", "talon": ""}, rest_to="discard")
    g2.play("pc0-f0")
    assert not pile(g2, "pc0") and g2.open_vacancies(g2.state) == []
    assert refusal_rule(g2, "pc1-pc0") == R + "rule-2"


@pytest.mark.rules("the-constitution-rule-5")
def test_vacancy_under_same_column_reading_waits_for_the_card_below() -> None:
    g = game({"pc0": "2S", "hl0": ""}, options="fill_from:same")
    # the Lords' vacancy is filled from the Commons directly below first
    assert {str(m) for m in g.legal_moves()} == {"hc0-hl0"}
    g.play("hc0-hl0")
    assert {str(m) for m in g.legal_moves()} == {"pp0-hc0"}


# ----------------------------------------------------------------------------- the talon

@pytest.mark.rules("the-constitution-deal")
def test_deal_turns_the_pack_onto_the_talon() -> None:
    g = game({"stock": "9D 9H"})
    g.play("deal")
    assert pile(g, "talon") == cards("9H")
    g.play("deal")
    assert pile(g, "talon") == cards("9H 9D")


@pytest.mark.rules("the-constitution-play-them", "the-constitution-deal")
def test_a_suitable_privy_council_card_need_not_be_played_first() -> None:
    """CO-12: “play them” is not compulsory; the player may build or deal instead."""
    two = f"2{ACES[0].suit.value}"
    g = game({"pc0": two, "stock": "9D"})
    legal = set(g.legal_moves())
    assert Move.parse("pc0-f0") in legal and Move.parse("deal") in legal
    g.play("deal")
    assert pile(g, "pc0") == cards(two) and g.outcome() is None
    g.play("pc0-f0")
    assert pile(g, "f0")[-1] == Card.parse(two)


@pytest.mark.rules("the-constitution-deal")
def test_no_deal_when_the_pack_is_used_up() -> None:
    g = game({"stock": ""}, rest_to="talon")
    assert refusal_rule(g, "deal") == R + "deal"


@pytest.mark.rules("the-constitution-deal", "the-constitution-rule-1")
def test_pack_and_talon_cards_do_not_enter_directly() -> None:
    g = game({"pp0": "9H", "pc0": "2S", "stock": "10S", "talon": "2S 8S"},
             rest_to="discard")
    assert refusal_rule(g, "stock-pp0") == R + "deal"
    assert refusal_rule(g, "talon-f0") == R + "rule-1"
    assert refusal_rule(g, "talon-pp0") == R + "rule-1"
    assert refusal_rule(g, "talon-hc0") == R + "rule-1"
    assert refusal_rule(g, "pp0-talon") == R + "deal"
    assert refusal_rule(g, "pp0-stock") == R + "deal"


@pytest.mark.rules("the-constitution-rule-4", "the-constitution-rule-1")
def test_talon_may_build_on_the_people_under_the_other_reading() -> None:
    piles = {"pp0": "9H", "pp1": "9S", "stock": "", "talon": "2S 8S"}
    g = game(piles, options="talon_builds:yes", rest_to="discard")
    assert refusal_rule(g, "talon-pp1") == R + "rule-4"
    assert refusal_rule(g, "talon-hc0") == R + "rule-1"
    assert refusal_rule(g, "talon-f0") == R + "rule-1"
    g.play("talon-pp0")
    assert pile(g, "pp0") == cards("9H 8S")


# ----------------------------------------------------------------------------- outcome

@pytest.mark.rules("the-constitution-foundations")
def test_won_when_every_foundation_reaches_the_knave() -> None:
    done = {f"f{k}": up_to(str(a), "J") for k, a in enumerate(ACES)}
    done["f0"] = up_to("AS", "10")
    g = game({**done, **{f"{r}{c}": "" for r in ("pp", "hc", "hl", "pc") for c in range(8)},
              "stock": "", "talon": "", "pc3": "JS"}, rest_to="discard")
    assert g.outcome() is None
    g.play("pc3-f0")
    assert g.outcome() is Outcome.WON
    assert "knave" in g.status_of(g.state)


def test_lost_when_nothing_more_can_be_done() -> None:
    g = game({"stock": ""}, rest_to="talon")
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


def test_not_lost_while_the_pack_lasts() -> None:
    g = game({"stock": "9H"}, rest_to="talon")
    assert g.legal_moves() == [Move(action="deal")]
    assert g.outcome() is None


def test_random_games_end() -> None:
    for seed in range(10):
        g = engine.new_game(SLUG, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if g.outcome() is not None:
                break
            g.play(rng.choice(g.legal_moves()))
        assert g.outcome() is not None


def test_status_line_counts_pack_and_talon() -> None:
    g = game({"stock": "9H 9D", "talon": "2S"}, rest_to="talon")
    text = g.status_of(g.state)
    assert "Pack: 2 cards" in text and "talon:" in text


# ----------------------------------------------------------------------------- the board

def test_notation_errors_are_refused_on_the_board_rule() -> None:
    g = game({"pc0": ""}, rest_to="talon")
    assert refusal_rule(g, "pc0-f0") == R + "board"
    assert refusal_rule(g, "zz9-f0") == R + "board"
    assert refusal_rule(g, "pc1-zz9") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"
    assert refusal_rule(g, "hl1-pc0+hl2-pc1") == R + "board"
    assert refusal_rule(g, "hl1:0-pc0") == R + "board"   # the top card, written as buried
    assert refusal_rule(g, "hl1-pc0:0") == R + "board"
    assert refusal_rule(g, "redeal") == R + "board"


def test_corrupt_positions_are_refused() -> None:
    text = engine.new_game(SLUG, seed=3).position()
    for a, b in (("sovereign:QD", "sovereign:QH"), ("f0:AS", "f0:AH"), ("k0:KH", "k0:KD")):
        bad = text.replace(a, b, 1)
        assert bad != text
        with pytest.raises(PositionError):
            engine.load_position(bad)


def test_position_round_trip_mid_game() -> None:
    g = engine.new_game(SLUG, seed=21)
    rng = random.Random(21)
    for _ in range(60):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(rng.choice(moves))
    h = engine.load_position(g.position())
    assert h.state == g.state and h.move_stack == g.move_stack


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = ConstitutionOptions(build_to=Column.SAME, fill_from=Column.SAME, talon_builds=True)
    text = engine.options_to_text(o)
    assert engine.options_from_text(ConstitutionOptions, text) == o
    assert engine.options_to_text(ConstitutionOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(ConstitutionOptions, "fill_from:above")


def test_every_option_names_its_note() -> None:
    for d in engine.describe_options(ConstitutionOptions):
        assert d["note"].startswith("note-co-")
        assert len(d["choices"]) >= 2
        assert d["default"] in {c["value"] for c in d["choices"]}


def test_rows_constants_match_the_pile_ids() -> None:
    prefixes = {PEOPLE: "pp", COMMONS: "hc", LORDS: "hl", PRIVY: "pc"}
    for r, row in enumerate(ROWS):
        assert [TheConstitution.PILES[i].id for i in row] == [f"{prefixes[r]}{c}"
                                                              for c in range(8)]
