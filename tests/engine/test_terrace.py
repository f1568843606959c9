"""The Terrace: every rule, every refusal (with the rule id it cites), the options, the end of
the game. Positions are written by hand and loaded through ``engine.load_position``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Outcome, PositionError
from engine.terrace import STOCK, TALON_PILE, TERRACE_PILES, TURNED, VALLEY_PILES, TheTerrace
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-terrace"
# A Terrace of thirteen cards that never fit the foundations used below.
TERRACE = {f"t{i}": c for i, c in enumerate("2S 3S 4S 5S 6S 9S 10S JS QS KS 2C 3C 4C".split())}


def game(piles: dict[str, str], options: str = "", terrace: bool = True,
         rest_to: str = "stock") -> TheTerrace:
    made = make_game(SLUG, (TERRACE if terrace else {}) | piles, options=options or None,
                     rest_to=rest_to)
    text = made.position()
    assert "start=" in text
    g = engine.load_position(text)
    assert isinstance(g, TheTerrace)
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def pile(g: TheTerrace, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


# ------------------------------------------------------------------------ the opening

@pytest.mark.rules("the-terrace-terrace", "the-terrace-choice")
def test_the_deal_lays_thirteen_terrace_cards_and_turns_three() -> None:
    g = engine.new_game(SLUG, seed=7)
    assert all(len(g.state.piles[t]) == 1 for t in TERRACE_PILES)
    assert [len(g.state.piles[v]) for v in VALLEY_PILES] == [1, 1, 1, 0, 0, 0, 0, 0, 0]
    assert len(g.state.piles[STOCK]) == 104 - 16
    assert sorted(map(str, g.legal_moves())) == ["v0-f0", "v1-f0", "v2-f0"]
    assert refusal_rule(g, "deal") == "the-terrace-choice"
    assert refusal_rule(g, "v0-f1") == "the-terrace-choice"
    assert refusal_rule(g, "t12-f0") == "the-terrace-choice"


@pytest.mark.rules("the-terrace-valley", "the-terrace-choice-advice", "the-terrace-foundations")
def test_the_choice_keeps_the_rejected_pair_on_the_left_and_deals_seven() -> None:
    for chosen in range(3):
        g = engine.new_game(SLUG, seed=7)
        three = [g.state.piles[v][0] for v in VALLEY_PILES[:3]]
        top7 = g.state.piles[STOCK][-7:][::-1]
        g.play(f"v{chosen}-f0")          # any of the three may be chosen (advice only)
        assert pile(g, "f0") == (three[chosen],)
        rejected = [c for k, c in enumerate(three) if k != chosen]
        assert [pile(g, f"v{k}")[0] for k in range(2)] == rejected
        assert tuple(pile(g, f"v{k}")[0] for k in range(2, 9)) == top7
        assert len(g.state.piles[STOCK]) == 81


# ------------------------------------------------------------------------ foundations

@pytest.mark.rules("the-terrace-rule-2")
def test_foundations_ascend_in_alternate_colours_past_the_king() -> None:
    g = game({"f0": "QH", "v0": "KC", "v1": "KD", "v2": "AD", "v3": "2H", "v4": "AH"})
    assert refusal_rule(g, "v1-f0") == "the-terrace-rule-2"     # red on red
    assert refusal_rule(g, "v3-f0") == "the-terrace-rule-2"     # wrong rank
    g.play("v0-f0")
    g.play("v2-f0")                                              # the ace after the king
    assert pile(g, "f0") == cards("QH KC AD")
    assert refusal_rule(g, "f0-v5") == "the-terrace-rule-2"     # nothing leaves a foundation


@pytest.mark.rules("the-terrace-rule-2")
def test_a_foundation_is_complete_with_thirteen_cards() -> None:
    full = "7H 8C 9H 10C JH QC KH AC 2H 3C 4H 5C 6H"
    g = game({"f0": full, "v0": "7C"})
    assert refusal_rule(g, "v0-f0") == "the-terrace-rule-2"


@pytest.mark.rules("the-terrace-foundations", "the-terrace-first-plays")
def test_base_rank_cards_take_the_next_place_in_the_line() -> None:
    g = game({"f0": "7H", "v0": "7S", "v1": "8S", "v2": "7D"})
    assert refusal_rule(g, "v1-f1") == "the-terrace-foundations"  # not the base rank
    assert refusal_rule(g, "v0-f3") == "the-terrace-foundations"  # the leftmost place first
    g.play("v0-f1")
    g.play("v2-f2")
    assert pile(g, "f1") == cards("7S") and pile(g, "f2") == cards("7D")
    g.play("v1-f2")                                                 # black on the red seven
    assert pile(g, "f2") == cards("7D 8S")


# ------------------------------------------------------------------------ the Terrace

@pytest.mark.rules("the-terrace-rule-1", "the-terrace-terrace")
def test_only_the_right_hand_card_of_the_terrace_is_available() -> None:
    t = dict(TERRACE) | {"t11": "9C", "t12": "8D"}
    g = game(t | {"f0": "7C", "v0": "5H"}, terrace=False)
    assert refusal_rule(g, "t11-f0") == "the-terrace-rule-1"
    g.play("t12-f0")
    g.play("t11-f0")
    assert pile(g, "f0") == cards("7C 8D 9C")
    assert refusal_rule(g, "v0-t12") == "the-terrace-rule-1"     # nothing goes onto it


@pytest.mark.rules("the-terrace-rule-3", "the-terrace-rule-1")
def test_the_terrace_card_goes_only_to_a_foundation_unless_the_option() -> None:
    t = dict(TERRACE) | {"t12": "8D"}
    g = game(t | {"f0": "2H", "v0": "9C"}, terrace=False)
    assert refusal_rule(g, "t12-v0") == "the-terrace-rule-3"
    g = game(t | {"f0": "2H", "v0": "9C"}, options="terrace_to_valley:yes", terrace=False)
    g.play("t12-v0")
    assert pile(g, "v0") == cards("9C 8D")


@pytest.mark.rules("the-terrace-preference")
def test_the_terrace_preference_is_advice_or_a_rule() -> None:
    t = dict(TERRACE) | {"t12": "8D"}
    pos = t | {"f0": "7C", "f1": "7S", "v0": "8H"}
    g = game(pos, terrace=False)
    g.play("v0-f1")                                   # advice: another play is allowed
    g = game(pos, options="terrace_first:yes", terrace=False)
    assert refusal_rule(g, "v0-f1") == "the-terrace-preference"
    assert refusal_rule(g, "deal") == "the-terrace-preference"
    g.play("t12-f0")
    g.play("v0-f1")


# ------------------------------------------------------------------------ the valley

@pytest.mark.rules("the-terrace-rule-3", "the-terrace-rule-4")
def test_valley_cards_move_one_at_a_time_in_alternate_descending_sequence() -> None:
    g = game({"f0": "2H", "v0": "9C", "v1": "5S 8D", "v2": "8C", "v3": "10H 7H"})
    assert refusal_rule(g, "v2-v0") == "the-terrace-rule-3"     # same colour
    assert refusal_rule(g, "v3-v0") == "the-terrace-rule-3"     # not one lower
    assert refusal_rule(g, "v1:0-v4") == "the-terrace-rule-4"   # buried
    g.play("v1-v0")
    assert pile(g, "v0") == cards("9C 8D")
    assert refusal_rule(g, "v0:0-v5") == "the-terrace-rule-4"


@pytest.mark.rules("the-terrace-rule-3")
def test_no_king_on_an_ace_in_the_valley_unless_the_option() -> None:
    pos = {"f0": "2H", "v0": "AH", "v1": "KS"}
    assert refusal_rule(game(pos), "v1-v0") == "the-terrace-rule-3"
    g = game(pos, options="valley_wrap:yes")
    g.play("v1-v0")
    assert pile(g, "v0") == cards("AH KS")


@pytest.mark.rules("the-terrace-rule-3", "the-terrace-deal")
def test_the_turned_card_and_the_talon_top_go_on_the_valley() -> None:
    g = game({"f0": "2H", "v0": "9C", "v1": "7S", "talon": "4S 3D 6D", "turned": "8H",
              "stock": "5C"})
    g.play("turned-v0")
    g.play("talon-v1")
    assert pile(g, "v0") == cards("9C 8H") and pile(g, "v1") == cards("7S 6D")
    assert refusal_rule(g, "talon:0-v4") == "the-terrace-rule-3"


@pytest.mark.rules("the-terrace-refill", "the-terrace-deal")
def test_vacancies_are_filled_from_the_pack_when_the_player_chooses() -> None:
    g = game({"f0": "2H", "v0": "9C", "v1": "", "talon": "3D", "turned": "JS",
              "stock": "4D 5C"})
    assert refusal_rule(g, "v0-v1") == "the-terrace-refill"
    assert refusal_rule(g, "t12-v1") == "the-terrace-refill"
    g.play("stock-v1")
    assert pile(g, "v1") == cards("5C")
    g = game({"f0": "2H", "v0": "9C", "v1": "", "v2": "", "talon": "3D", "turned": "JS"})
    g.play("turned-v1")
    assert pile(g, "v1") == cards("JS")
    g.play("deal")                      # a vacancy may be left, and the pack turned on
    assert not pile(g, "v2")


@pytest.mark.rules("the-terrace-refill", "the-terrace-deal")
def test_the_packs_next_card_fills_a_vacancy_while_the_card_turned_up_waits() -> None:
    # TE-6: the vacancies are refilled “from the pack in hand”, and nothing asks for the card
    # turned up to be disposed of first. The pack's next card goes into one place; the JS
    # turned up keeps its own, not laid on the talon, and may still fill another place
    # (which the talon's top may not, by default).
    g = game({"f0": "2H", "v0": "9C", "v1": "", "v2": "", "talon": "3D", "turned": "JS",
              "stock": "4D 8H"})
    assert "stock-v1" in map(str, g.legal_moves())
    g.play("stock-v1")
    assert pile(g, "v1") == cards("8H")
    assert pile(g, "turned") == cards("JS") and pile(g, "talon") == cards("3D")
    assert pile(g, "stock")[-1] == Card.parse("4D")
    assert refusal_rule(g, "talon-v2") == "the-terrace-refill"
    g.play("turned-v2")
    g.play("v1-v0")                      # the card dealt into the place, on the 9C
    assert pile(g, "v0") == cards("9C 8H") and pile(g, "v2") == cards("JS")
    assert not pile(g, "turned") and pile(g, "talon") == cards("3D")


@pytest.mark.rules("the-terrace-deal")
def test_turning_a_card_lays_the_last_one_on_the_talon() -> None:
    g = game({"f0": "2H", "v0": "9C", "turned": "JS", "stock": "4D 5C"})
    g.play("deal")
    assert pile(g, "turned") == cards("5C")
    assert pile(g, "talon")[-1] == Card.parse("JS")
    assert refusal_rule(g, "stock-f0") == "the-terrace-deal"
    assert refusal_rule(g, "v0-talon") == "the-terrace-deal"


# ------------------------------------------------------------------------ the end

@pytest.mark.rules("the-terrace-no-redeal")
def test_there_is_no_redeal_and_a_dead_position_is_lost() -> None:
    # The pack is out; every card not given lies in valley packet 1 under the king of hearts;
    # the foundation wants a black three and the Terrace card is the four of clubs.
    g = game({"f0": "2H", "v1": "KH"}, rest_to="v0")
    g = game({"f0": "2H"} | {f"v{k}": "" for k in range(9)}, rest_to="v0")
    assert not g.state.piles[STOCK]
    top = g.state.piles[VALLEY_PILES[0]][-1]
    assert refusal_rule(g, "deal") == "the-terrace-no-redeal"
    assert refusal_rule(g, "redeal") == "the-terrace-no-redeal"
    if g.legal_moves():
        assert g.outcome() is None, top
    else:
        assert g.outcome() is Outcome.LOST


@pytest.mark.rules("the-terrace-no-redeal")
def test_a_position_with_no_move_left_is_lost() -> None:
    # Eight aces and a king in the valley, the rest in the talon under a king of hearts: no
    # card fits anywhere (no king on an ace, and the foundation wants a black three).
    aces = {f"v{k}": a for k, a in enumerate("AS AH AD AC AS AH AD AC KD".split())}
    g = game({"f0": "2H", "talon": "KH"} | aces, rest_to="talon")
    assert not g.state.piles[STOCK]
    assert [str(m) for m in g.legal_moves()] == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


def test_the_game_is_won_with_all_cards_on_the_foundations() -> None:
    full = ["7H 8C 9H 10C JH QC KH AC 2H 3C 4H 5C 6H", "7C 8H 9C 10H JC QH KC AH 2C 3H 4C 5H 6C",
            "7D 8S 9D 10S JD QS KD AS 2D 3S 4D 5S 6D", "7S 8D 9S 10D JS QD KS AD 2S 3D 4S 5D 6S"]
    piles = {f"f{j}": full[j % 4] for j in range(8)}
    g = make_game(SLUG, piles, rest_to="stock")
    assert g.outcome() is Outcome.WON


def test_positions_are_checked() -> None:
    g = game({"f0": "7H 8H"}) if False else None
    assert g is None
    made = make_game(SLUG, TERRACE | {"f0": "7H", "f1": "8C"})
    text = made.position()
    with pytest.raises(PositionError):
        engine.load_position(text)


def test_the_deal_and_its_notation_round_trip() -> None:
    g = engine.new_game(SLUG, seed=123)
    g.play("v1-f0")
    g.play("deal")
    same = engine.load_position(g.position())
    assert same.position() == g.position()
    assert engine.load_position(g.position(compact=True)).state == g.state
    assert g.state.piles[TURNED] and not g.state.piles[TALON_PILE]


# ------------------------------------------------------------------------ review: vacancies

@pytest.mark.rules("the-terrace-refill", "the-terrace-deal")
def test_a_vacancy_is_refilled_from_the_pack_in_hand_not_from_the_talon() -> None:
    # “refilled the vacancies in the valley from the pack in hand”: the next card of the pack
    # or the card just turned up, but not the talon's top, unless TE-6's other reading.
    pos = {"f0": "2H", "v0": "9C", "v1": "", "talon": "3D", "turned": "JS", "stock": "4D"}
    g = game(pos)
    assert refusal_rule(g, "talon-v1") == "the-terrace-refill"
    g.play("turned-v1")
    assert pile(g, "v1") == cards("JS")
    g = game(pos, options="talon_fills:yes")
    g.play("talon-v1")
    assert pile(g, "v1") == cards("3D")


# ------------------------------------------------------------------------ review: the verdict

FULL_RUNS = ("7H 8C 9H 10C JH QC KH AC 2H 3C 4H 5C 6H", "7C 8H 9C 10H JC QH KC AH 2C 3H 4C 5H 6C",
             "7D 8S 9D 10S JD QS KD AS 2D 3S 4D 5S 6D", "7S 8D 9S 10D JS QD KS AD 2S 3D 4S 5D 6S")


def _end(valley: dict[str, str], talon: str = "", turned: str = "", terrace: str = "",
         options: str = "") -> TheTerrace:
    """The pack out; the foundations full but for the cards given elsewhere."""
    given = Counter(Card.parse(x) for text in [*valley.values(), talon, turned, terrace]
                    for x in text.split())
    piles: dict[str, str] = {}
    for j in range(8):
        run = FULL_RUNS[j % 4].split()
        while run and given[Card.parse(run[-1])] > 0:
            given[Card.parse(run[-1])] -= 1
            run.pop()
        piles[f"f{j}"] = " ".join(run)
    assert not +given, f"cards not taken from the ends of the foundations: {+given}"
    terr = {f"t{i}": c for i, c in enumerate(terrace.split())}
    made = make_game(SLUG, piles | valley | terr | {"talon": talon, "turned": turned},
                     options=options or None)
    g = engine.load_position(made.position())
    assert isinstance(g, TheTerrace) and not g.state.piles[STOCK]
    return g


@pytest.mark.rules("the-terrace-no-redeal", "the-terrace-rule-3")
def test_lost_when_only_valley_shifts_remain_and_none_frees_a_wanted_card() -> None:
    # The foundations want a black six, a black three and red fours and sixes, all buried;
    # the 5H can only pass between the 6S and the 6C, and back. Lost, though moves remain.
    g = _end({"v0": "4S 5S 5H", "v1": "6S", "v2": "4D 5D 6C", "v3": "6H 5C"},
             talon="4C 4H 6D")
    assert [str(m) for m in g.legal_moves()] == ["v0-v1", "v0-v2"]
    assert g.play_reachable(g.state) is False
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)
    # With an empty place that the talon's top may fill (TE-6's other reading), the talon
    # opens and a wanted card comes within reach: not lost.
    g2 = _end({"v0": "4S 5S 5H", "v1": "6S", "v2": "4D 5D 6C", "v3": "6H 5C", "v4": ""},
              talon="4C 4H 6D", options="talon_fills:yes")
    assert g2.play_reachable(g2.state) is True and g2.outcome() is None


@pytest.mark.rules("the-terrace-no-redeal")
@pytest.mark.parametrize("seed", [1, 11, 18, 24, 31, 38])
def test_every_loss_verdict_survives_an_exhaustive_search(seed: int) -> None:
    # The last cards of four foundations, dealt at random into five valley packets and the
    # talon; every position reachable is searched.
    rng = random.Random(seed)
    tails = [run.split()[-4:] for run in FULL_RUNS] * 2
    loose = [c for tail in rng.sample(tails, 4) for c in tail[rng.randrange(4):]]
    rng.shuffle(loose)
    valley: dict[str, list[str]] = {f"v{k}": [] for k in range(5)}
    talon: list[str] = []
    for c in loose:
        (talon if rng.random() < 0.2 else valley[f"v{rng.randrange(5)}"]).append(c)
    g = _end({k: " ".join(v) for k, v in valley.items()}, talon=" ".join(talon))
    found = check_verdicts(g)
    assert found.lost and found.lost_with_moves
