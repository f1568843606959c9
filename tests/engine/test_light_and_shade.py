"""Light and Shade: every rule, every refusal (with the rule id it cites), the options, the
end of the game. Positions are written by hand and loaded through ``engine.load_position``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Outcome
from engine.light_and_shade import ACE_SUITS, AUX, FOUNDS, RIVALS, STOCK, LightAndShade
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "light-and-shade"
ACES = {f"f{j}": f"A{s.value}" for j, s in enumerate(ACE_SUITS)}


def game(piles: dict[str, str], options: str = "", rest_to: str = "stock") -> LightAndShade:
    made = make_game(SLUG, ACES | piles, options=options or None, rest_to=rest_to)
    text = made.position()
    assert "start=" in text
    g = engine.load_position(text)
    assert isinstance(g, LightAndShade)
    return g


def pile(g: LightAndShade, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


# ------------------------------------------------------------------------ the deal

@pytest.mark.rules("light-and-shade-aces", "light-and-shade-rows")
def test_the_aces_are_withdrawn_and_eight_cards_dealt_in_two_rows() -> None:
    g = engine.new_game(SLUG, seed=5)
    assert [g.state.piles[f] for f in FOUNDS] == [(Card(1, s),) for s in ACE_SUITS]
    assert all(len(g.state.piles[i]) == 1 for i in (*AUX, *RIVALS))
    assert len(g.state.piles[STOCK]) == 88
    assert not any(c.rank == 1 for c in g.state.piles[STOCK])
    assert Counter(g.state.all_cards()) == LightAndShade.full_pack()
    again = engine.new_game(SLUG, seed=5)
    assert again.position() == g.position()


@pytest.mark.rules("light-and-shade-talon")
def test_the_pack_is_turned_one_card_at_a_time_onto_the_talon() -> None:
    g = game({"a0": "9S", "stock": "9C 4H"})
    g.play("deal")
    assert pile(g, "talon")[-1] == Card.parse("4H")
    assert refusal_rule(g, "stock-r0") == "light-and-shade-talon"
    assert refusal_rule(g, "a0-talon") == "light-and-shade-talon"


# ------------------------------------------------------------------------ foundations

@pytest.mark.rules("light-and-shade-rule-1", "light-and-shade-first-plays")
def test_foundations_ascend_in_alternate_colours_any_suit() -> None:
    g = game({"a0": "2S", "a1": "2H", "a2": "3D", "r0": "9C"})
    g.play("a0-f2")            # black two on a red ace (hearts)
    assert refusal_rule(g, "a1-f3") == "light-and-shade-rule-1"   # red two on a red ace
    g.play("a1-f4")            # red two on a black ace (spades)
    g.play("a2-f2")            # red three (diamonds) on the black two, on the hearts ace
    assert [str(c) for c in pile(g, "f2")] == ["AH", "2S", "3D"]


@pytest.mark.rules("light-and-shade-rule-1")
def test_a_foundation_is_complete_at_the_king_and_cards_stay_there() -> None:
    run = "AH 2S 3H 4C 5D 6S 7H 8C 9D 10S JH QC KD"
    g = game({"f2": run, "a0": "2S"}, rest_to="stock")
    assert refusal_rule(g, "f2-a0") == "light-and-shade-rule-1"
    assert refusal_rule(g, "a0-f2") == "light-and-shade-rule-1"


@pytest.mark.rules("light-and-shade-only-auxiliaries")
def test_nothing_is_played_to_a_foundation_but_from_an_auxiliary() -> None:
    g = game({"r0": "2S", "stock": "2C"})
    assert refusal_rule(g, "r0-f2") == "light-and-shade-only-auxiliaries"
    g.play("deal")
    assert refusal_rule(g, "talon-f2") == "light-and-shade-only-auxiliaries"
    assert refusal_rule(g, "stock-f2") == "light-and-shade-talon"


# ------------------------------------------------------------------------ the Auxiliaries

@pytest.mark.rules("light-and-shade-rule-2", "light-and-shade-sequences")
def test_rival_cards_build_down_in_alternate_colours_on_the_auxiliaries() -> None:
    g = game({"a0": "9H", "r0": "8S", "r1": "8D", "r2": "7C"})
    assert refusal_rule(g, "r1-a0") == "light-and-shade-rule-2"   # same colour
    assert refusal_rule(g, "r2-a0") == "light-and-shade-rule-2"   # two ranks lower
    g.play("r0-a0")
    assert refusal_rule(g, "r2-a0") == "light-and-shade-rule-2"   # black on black
    assert [str(c) for c in pile(g, "a0")] == ["9H", "8S"]


@pytest.mark.rules("light-and-shade-sequences")
def test_only_the_top_of_an_auxiliary_moves_and_only_to_a_foundation() -> None:
    g = game({"a0": "3H 2S", "a1": "4C", "r0": "KD"})
    assert refusal_rule(g, "a0:0-f4") == "light-and-shade-sequences"
    assert refusal_rule(g, "a0-a1") == "light-and-shade-sequences"
    assert refusal_rule(g, "a0-r1") == "light-and-shade-rule-3"
    g.play("a0-f2")
    g.play("a0-f2")
    assert [str(c) for c in pile(g, "f2")] == ["AH", "2S", "3H"]


@pytest.mark.rules("light-and-shade-sequences")
def test_talon_cards_do_not_build_on_the_auxiliaries_by_default() -> None:
    g = game({"a0": "9H", "stock": "8S"})
    g.play("deal")
    assert refusal_rule(g, "talon-a0") == "light-and-shade-sequences"


@pytest.mark.rules("light-and-shade-rule-2", "light-and-shade-rule-3")
def test_the_other_reading_lets_the_talon_build_but_not_fill_vacancies() -> None:
    g = game({"a0": "9H", "a1": "", "stock": "7C 8S"}, options="talon_builds:talon-too")
    g.play("deal")
    g.play("talon-a0")
    assert [str(c) for c in pile(g, "a0")] == ["9H", "8S"]
    g.play("deal")
    assert refusal_rule(g, "talon-a0") == "light-and-shade-rule-2"
    assert refusal_rule(g, "talon-a1") == "light-and-shade-rule-3"


# ------------------------------------------------------------------------ vacancies

@pytest.mark.rules("light-and-shade-rule-3", "light-and-shade-first-plays")
def test_an_auxiliary_vacancy_takes_any_rival_card_at_the_players_choice() -> None:
    g = game({"a0": "", "r0": "5D", "r2": "KC", "stock": "2H"})
    g.play("deal")
    assert refusal_rule(g, "talon-a0") == "light-and-shade-rule-3"
    g.play("r2-a0")            # a king enters by a vacancy
    assert [str(c) for c in pile(g, "a0")] == ["KC"]


@pytest.mark.rules("light-and-shade-rule-3")
def test_the_same_column_reading() -> None:
    g = game({"a1": "", "r0": "5D", "r1": "6C"}, options="rival_source:same-column")
    assert refusal_rule(g, "r0-a1") == "light-and-shade-rule-3"
    g.play("r1-a1")


@pytest.mark.rules("light-and-shade-rule-3", "light-and-shade-talon")
def test_a_rival_vacancy_takes_only_the_talon_top_and_may_wait() -> None:
    g = game({"a0": "9H", "r0": "8S", "r1": "7D", "stock": "5C 4H"})
    g.play("r0-a0")
    assert refusal_rule(g, "r1-r0") == "light-and-shade-rule-3"
    g.play("deal")               # the 4H goes to the talon; the place may wait
    g.play("deal")               # the 5C covers it
    assert refusal_rule(g, "talon-r1") == "light-and-shade-rule-3"   # not empty
    g.play("talon-r0")
    assert pile(g, "r0") == (Card.parse("5C"),)
    assert refusal_rule(g, "talon-r0") == "light-and-shade-rule-3"


@pytest.mark.rules("light-and-shade-rule-3")
def test_at_once_the_vacancy_must_be_filled_before_anything_else() -> None:
    g = game({"a0": "2S", "a1": "9H", "a2": "9C", "a3": "9D", "r0": "8S", "r1": "5C",
              "r2": "5C", "r3": "5D", "stock": "3C 4H"}, options="refill:at-once")
    g.play("a0-f2")
    assert refusal_rule(g, "a1-f3") == "light-and-shade-rule-3"
    assert refusal_rule(g, "deal") == "light-and-shade-rule-3"
    g.play("r0-a0")
    assert refusal_rule(g, "r1-a1") == "light-and-shade-rule-3"  # the Rival place first
    g.play("deal")
    assert refusal_rule(g, "deal") == "light-and-shade-rule-3"
    g.play("talon-r0")
    g.play("deal")


# ------------------------------------------------------------------------ the end

@pytest.mark.rules("light-and-shade-no-redeal")
def test_no_redeal_and_the_game_is_lost_when_nothing_can_move() -> None:
    g = game({"a0": "KS", "a1": "KH", "a2": "KC", "a3": "KD", "r0": "QS", "r1": "QH",
              "r2": "QC", "r3": "QD", "talon": "9S"}, rest_to="talon")
    assert refusal_rule(g, "deal") == "light-and-shade-no-redeal"
    assert g.outcome() is None            # the QS can go on the KH
    g.play("r0-a1")
    assert g.outcome() is None            # the talon top fills the Rival place
    g.play("talon-r0")
    assert g.outcome() in (None, Outcome.LOST)


@pytest.mark.rules("light-and-shade-no-redeal")
def test_lost_when_the_pack_is_out_and_no_move_is_left() -> None:
    g = game({"a0": "KS", "a1": "KS", "a2": "KC", "a3": "KC", "r0": "QS", "r1": "QS",
              "r2": "QC", "r3": "QC"}, rest_to="talon")
    assert not g.legal_moves()
    assert g.outcome() is Outcome.LOST


def test_won_when_all_104_cards_are_on_the_foundations() -> None:
    def run(even: str, odd: str) -> str:
        return " ".join(f"{r}{even if r % 2 == 0 else odd}" if r <= 10 else
                        f"{'JQK'[r - 11]}{even if r % 2 == 0 else odd}" for r in range(2, 14))
    suits = {"C": ("H", "C"), "S": ("D", "S"), "H": ("S", "H"), "D": ("C", "D")}
    piles = {f"f{j}": f"A{s.value} " + run(*suits[s.value]) for j, s in enumerate(ACE_SUITS)}
    piles["f7"] = piles["f7"].rsplit(" ", 1)[0]
    g = game(piles | {"a0": "KD"}, rest_to="talon")
    assert g.outcome() is None
    g.play("a0-f7")
    assert g.outcome() is Outcome.WON


# ------------------------------------------------------------------------ review: the verdict

def _runs() -> dict[str, list[str]]:
    """Every foundation complete, in the order of ACE_SUITS."""
    def run(even: str, odd: str) -> list[str]:
        return [f"{r if r <= 10 else 'JQK'[r - 11]}{even if r % 2 == 0 else odd}"
                for r in range(2, 14)]
    suits = {"C": ("H", "C"), "S": ("D", "S"), "H": ("S", "H"), "D": ("C", "D")}
    return {f"f{j}": [f"A{s.value}", *run(*suits[s.value])] for j, s in enumerate(ACE_SUITS)}


@pytest.mark.rules("light-and-shade-no-redeal")
@pytest.mark.parametrize("seed", [0, 28, 30, 33, 44])
def test_every_loss_verdict_survives_an_exhaustive_search(seed: int) -> None:
    # The last cards of three foundations, dealt at random to the Auxiliaries, the Rivals,
    # the talon and a short pack; every position reachable is searched, under each reading.
    rng = random.Random(seed)
    runs = _runs()
    loose: list[str] = []
    for f in rng.sample(sorted(runs), 3):
        k = rng.randrange(1, 4)
        loose += runs[f][-k:]
        runs[f] = runs[f][:-k]
    rng.shuffle(loose)
    places: dict[str, list[str]] = {p: [] for p in ("a0", "a1", "a2", "r0", "r1", "talon",
                                                    "stock")}
    for c in loose:
        where = rng.choice(sorted(places))
        if where.startswith("r") and places[where]:
            where = "talon"
        places[where].append(c)
    options = rng.choice(["", "talon_builds:talon-too", "refill:at-once",
                          "rival_source:same-column"])
    piles = {k: " ".join(v) for k, v in runs.items()} | {k: " ".join(v)
                                                          for k, v in places.items()}
    g = game(piles, options=options)
    found = check_verdicts(g)
    assert found.lost      # some line of play loses, and every loss was checked
