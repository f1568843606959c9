"""General Sedgewick: every rule, every refusal (with the rule id it cites), the options, the
end of the game. Positions are written by hand and loaded through ``engine.load_position``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Outcome, PositionError
from engine.core import Game
from engine.general_sedgewick import (
    CROSS_PILES,
    FOUNDATION_PILES,
    STOCK,
    TALON_PILE,
    TURNED,
    GeneralSedgewick,
)
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "general-sedgewick"


def game(piles: dict[str, str], options: str = "", rest_to: str = "stock") -> GeneralSedgewick:
    made = make_game(SLUG, {"f0": "7H"} | piles, options=options or None, rest_to=rest_to)
    text = made.position()
    assert "start=" in text
    g = engine.load_position(text)
    assert isinstance(g, GeneralSedgewick)
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def pile(g: GeneralSedgewick, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


# ------------------------------------------------------------------------ the deal

@pytest.mark.rules("general-sedgewick-cross", "general-sedgewick-foundations")
def test_the_deal_lays_a_cross_of_five_and_the_first_foundation() -> None:
    g = engine.new_game(SLUG, seed=7)
    stock = GeneralSedgewick.initial_state(7, g.options).piles[STOCK]
    assert [len(g.state.piles[c]) for c in CROSS_PILES] == [1] * 5
    assert len(pile(g, "f0")) == 1
    assert [len(g.state.piles[f]) for f in FOUNDATION_PILES] == [1, 0, 0, 0]
    assert len(stock) == 52 - 6
    assert not g.state.piles[TURNED] and not g.state.piles[TALON_PILE]
    # every card of the pack once
    assert Counter(g.state.all_cards()) == GeneralSedgewick.full_pack()


# ------------------------------------------------------------------------ foundations

@pytest.mark.rules("general-sedgewick-rule-2", "general-sedgewick-ascend")
def test_foundations_follow_suit_and_ascend_past_the_king() -> None:
    g = game({"f0": "QH", "c0": "KC", "c1": "KH", "c2": "AH", "c3": "3H", "c4": "2S"})
    assert refusal_rule(g, "c0-f0") == "general-sedgewick-rule-2"     # another suit
    assert refusal_rule(g, "c3-f0") == "general-sedgewick-ascend"     # not the next rank
    g.play("c1-f0")
    g.play("c2-f0")                                                    # the ace after the king
    assert pile(g, "f0") == cards("QH KH AH")
    assert refusal_rule(g, "f0-c2") == "general-sedgewick-ascend"     # nothing comes back


@pytest.mark.rules("general-sedgewick-ascend")
def test_a_foundation_is_complete_with_thirteen_cards() -> None:
    # A foundation begun on the eight ends with the seven; nothing goes on it after.
    g = game({"f0": "8H 9H 10H JH QH KH AH 2H 3H 4H 5H 6H 7H", "c0": "8S", "c1": "6S"})
    assert refusal_rule(g, "c0-f0") == "general-sedgewick-rule-2"
    g = game({"f0": "8H 9H 10H JH QH KH AH 2H 3H 4H 5H 6H", "c0": "7H"})
    g.play("c0-f0")
    assert len(pile(g, "f0")) == 13
    assert "complete" in (g.foundation_refusal(g.state, 0, Card.parse("8H")) or
                          engine.IllegalMove("", "")).message


@pytest.mark.rules("general-sedgewick-foundations", "general-sedgewick-first-plays")
def test_the_other_cards_of_the_rank_begin_the_other_corners() -> None:
    g = game({"f0": "7H", "c0": "7S", "c1": "8S", "turned": "7D", "talon": "2C 7C"})
    assert refusal_rule(g, "c1-f1") == "general-sedgewick-foundations"  # not the rank
    g.play("c0-f3")                          # any empty corner, from the cross
    g.play("turned-f1")                      # from the card turned up
    g.play("talon-f2")                       # from the talon's top
    assert pile(g, "f3") == cards("7S") and pile(g, "f1") == cards("7D")
    assert pile(g, "f2") == cards("7C")
    g.play("c1-f3")                          # and each then follows its own suit
    assert pile(g, "f3") == cards("7S 8S")


@pytest.mark.rules("general-sedgewick-foundations")
def test_a_card_of_the_rank_need_not_be_played_at_once() -> None:
    g = game({"f0": "7H", "c0": "8D", "turned": "7S", "stock": "2C"})
    g.play("turned-c0")                      # it may serve on the cross a while
    assert pile(g, "c0") == cards("8D 7S")
    g.play("c0-f1")
    assert pile(g, "f1") == cards("7S")


# ------------------------------------------------------------------------ the cross

@pytest.mark.rules("general-sedgewick-rule-1", "general-sedgewick-first-plays")
def test_only_the_uppermost_card_of_a_packet_is_available() -> None:
    g = game({"f0": "7H", "c0": "8H 5C", "c1": "6D", "c2": "9S"})
    assert refusal_rule(g, "c0:0-f0") == "general-sedgewick-rule-1"   # covered
    g.play("c0-c1")                                                    # its removal releases it
    g.play("c0-f0")
    assert pile(g, "f0") == cards("7H 8H")
    assert refusal_rule(g, "c1:0-c2") == "general-sedgewick-rule-1"


@pytest.mark.rules("general-sedgewick-rule-3", "general-sedgewick-rule-4",
                   "general-sedgewick-transfer")
def test_cards_on_the_cross_go_one_lower_in_any_suit() -> None:
    g = game({"f0": "2H", "c0": "9C", "c1": "8C", "c2": "7D", "c3": "10H", "c4": "8S"})
    assert refusal_rule(g, "c2-c0") == "general-sedgewick-rule-3"     # two lower
    assert refusal_rule(g, "c0-c1") == "general-sedgewick-rule-3"     # one higher
    g.play("c1-c0")                          # the same suit
    g.play("c2-c4")                          # another suit
    assert pile(g, "c0") == cards("9C 8C") and pile(g, "c4") == cards("8S 7D")


@pytest.mark.rules("general-sedgewick-rule-3", "general-sedgewick-rule-4",
                   "general-sedgewick-transfer", "general-sedgewick-advice")
def test_transfers_any_suit_back_and_forth() -> None:
    g = game({"f0": "2H", "c0": "9C", "c1": "9D", "c2": "8S", "c3": "10H", "c4": "7D"})
    g.play("c2-c1")                          # black on red: suits need not follow
    g.play("c1-c0")                          # and back across, as often as one likes
    g.play("c0-c1")
    assert pile(g, "c1") == cards("9D 8S") and pile(g, "c0") == cards("9C")
    g.play("c4-c1")
    assert pile(g, "c1") == cards("9D 8S 7D")   # a packet of mixed suits is allowed
    assert refusal_rule(g, "c1:1-c0") == "general-sedgewick-rule-1"  # no run moves whole
    assert refusal_rule(g, "c3-c0") == "general-sedgewick-rule-3"


@pytest.mark.rules("general-sedgewick-rule-3")
def test_no_king_on_an_ace_on_the_cross_unless_the_option() -> None:
    pos = {"f0": "2H", "c0": "AH", "c1": "KS", "turned": "KD"}
    g = game(pos)
    assert refusal_rule(g, "c1-c0") == "general-sedgewick-rule-3"
    assert refusal_rule(g, "turned-c0") == "general-sedgewick-rule-3"
    g = game(pos, options="cross_wrap:yes")
    g.play("c1-c0")
    assert pile(g, "c0") == cards("AH KS")
    assert refusal_rule(g, "turned-c0") == "general-sedgewick-rule-3"  # KD on KS


@pytest.mark.rules("general-sedgewick-rule-3", "general-sedgewick-talon",
                   "general-sedgewick-deal")
def test_the_card_turned_up_and_the_talon_top_go_on_the_cross() -> None:
    g = game({"f0": "2H", "c0": "9C", "c1": "7S", "talon": "4S 3D 6D", "turned": "8H",
              "stock": "5C"})
    g.play("talon-c1")                       # the talon's top, while a card is in hand
    g.play("turned-c0")
    assert pile(g, "c0") == cards("9C 8H") and pile(g, "c1") == cards("7S 6D")
    assert refusal_rule(g, "talon:0-c4") == "general-sedgewick-talon"
    assert refusal_rule(g, "stock-c1") == "general-sedgewick-deal"   # turn it up first
    assert refusal_rule(g, "stock-f0") == "general-sedgewick-deal"


# ------------------------------------------------------------------------ vacancies

@pytest.mark.rules("general-sedgewick-first-plays", "general-sedgewick-deal")
def test_vacancies_are_filled_from_pack_or_talon_when_the_player_chooses() -> None:
    pos = {"f0": "2H", "c0": "9C", "c1": "", "c2": "", "c3": "", "c4": "3S", "talon": "3D",
           "turned": "JS", "stock": "4D 5C"}
    g = game(pos)
    assert refusal_rule(g, "c0-c1") == "general-sedgewick-first-plays"  # not from the cross
    g.play("stock-c1")                       # the pack's next card
    g.play("turned-c2")                      # the card turned up
    g.play("talon-c3")                       # the talon's top
    assert [pile(g, c) for c in ("c1", "c2", "c3")] == [cards("5C"), cards("JS"), cards("3D")]
    g = game(pos)
    g.play("deal")                           # a vacancy may be left open
    assert not pile(g, "c1") and pile(g, "turned") == cards("5C")


@pytest.mark.rules("general-sedgewick-first-plays", "general-sedgewick-deal",
                   "general-sedgewick-talon")
def test_the_packs_next_card_fills_a_vacancy_while_the_card_turned_up_waits() -> None:
    # GS-4: “filling the vacancies from pack or talon” names the cards still in the pack, and
    # no sentence makes the player dispose of the card turned up first. The 8D turned up
    # could go on the 9C, so it may not be laid on the talon (GS-5); the pack's next card may
    # still be dealt into the empty place, and the 8D keeps its own place, the talon untouched.
    pos = {"f0": "2H", "c0": "9C", "c1": "", "c2": "4S", "c3": "KD", "c4": "QS",
           "talon": "3D", "turned": "8D", "stock": "5C 7S"}
    g = game(pos)
    assert refusal_rule(g, "deal") == "general-sedgewick-talon"
    assert "stock-c1" in map(str, g.legal_moves())
    g.play("stock-c1")
    assert pile(g, "c1") == cards("7S")
    assert pile(g, "turned") == cards("8D") and pile(g, "talon") == cards("3D")
    assert pile(g, "stock")[-1] == Card.parse("5C")
    assert refusal_rule(g, "deal") == "general-sedgewick-talon"   # the 8D still waits
    g.play("turned-c0")
    g.play("c1-c0")                          # the card dealt into the place, on the 8D
    assert pile(g, "c0") == cards("9C 8D 7S") and not pile(g, "c1")
    g.play("deal")
    assert pile(g, "turned") == cards("5C") and pile(g, "talon") == cards("3D")


@pytest.mark.rules("general-sedgewick-first-plays")
def test_vacancies_filled_at_once_under_the_other_reading() -> None:
    pos = {"f0": "2H", "c0": "3H", "c1": "", "c4": "QS", "talon": "3D", "turned": "JS",
           "stock": "4D 5C"}
    g = game(pos, options="refill_at_once:yes")
    assert refusal_rule(g, "c0-f0") == "general-sedgewick-first-plays"
    assert refusal_rule(g, "deal") == "general-sedgewick-first-plays"
    assert refusal_rule(g, "turned-c4") == "general-sedgewick-first-plays"
    assert refusal_rule(g, "c0-c1") == "general-sedgewick-first-plays"
    assert sorted(map(str, g.legal_moves())) == sorted(
        [f"{s}-{c}" for s in ("turned", "talon", "stock") for c in ("c1", "c2", "c3")])
    g.play("talon-c1")
    g.play("stock-c2")
    g.play("turned-c3")
    g.play("c0-f0")                          # nothing empty: play goes on
    # with nothing left to fill it from, a vacancy does not stop play
    g = game({"f0": "2H", "c0": "3H", "c1": "", "c2": "", "c3": "", "c4": ""},
             options="refill_at_once:yes", rest_to="c4")
    g.play("c0-f0")


# ------------------------------------------------------------------------ the pack, the talon

@pytest.mark.rules("general-sedgewick-deal", "general-sedgewick-talon")
def test_turning_a_card_lays_the_last_one_on_the_talon() -> None:
    g = game({"f0": "2H", "c0": "9C", "turned": "JS", "stock": "4D 5C"})
    g.play("deal")
    assert pile(g, "turned") == cards("5C")
    assert pile(g, "talon")[-1] == Card.parse("JS")
    assert refusal_rule(g, "c0-talon") == "general-sedgewick-talon"
    assert refusal_rule(g, "turned-talon") == "general-sedgewick-talon"
    assert refusal_rule(g, "talon-turned") == "general-sedgewick-board"


@pytest.mark.rules("general-sedgewick-talon", "general-sedgewick-deal")
def test_a_suitable_card_turned_up_is_used_before_the_next_is_turned() -> None:
    # The 8D could go on the 9C of the cross: only non-suitable cards form the talon.
    pos = {"f0": "2H", "c0": "9C", "c1": "4S", "turned": "8D", "stock": "5C"}
    g = game(pos)
    assert refusal_rule(g, "deal") == "general-sedgewick-talon"
    assert "deal" not in map(str, g.legal_moves())
    g.play("turned-c0")
    g.play("deal")
    # A card that could go to a foundation must be played too.
    g = game(pos | {"turned": "3H", "c0": "9C"})
    assert refusal_rule(g, "deal") == "general-sedgewick-talon"
    # A card that could only fill a vacancy may be laid aside.
    g = game(pos | {"turned": "JD", "c1": ""})
    g.play("deal")
    assert pile(g, "talon") == cards("JD")
    # Under GS-5's other reading any card may be laid on the talon.
    g = game(pos, options="turned_card:no")
    g.play("deal")
    assert pile(g, "talon") == cards("8D")


@pytest.mark.rules("general-sedgewick-talon", "general-sedgewick-rule-2")
def test_the_talon_top_may_be_played_to_a_foundation() -> None:
    g = game({"f0": "2H", "talon": "9S 3H", "stock": "5C"})
    g.play("talon-f0")
    assert pile(g, "f0") == cards("2H 3H")
    assert refusal_rule(g, "talon-f0") == "general-sedgewick-rule-2"


# ------------------------------------------------------------------------ the end

FULL_RUNS = ("7H 8H 9H 10H JH QH KH AH 2H 3H 4H 5H 6H", "7C 8C 9C 10C JC QC KC AC 2C 3C 4C 5C 6C",
             "7D 8D 9D 10D JD QD KD AD 2D 3D 4D 5D 6D", "7S 8S 9S 10S JS QS KS AS 2S 3S 4S 5S 6S")


def _end(cross: dict[str, str], talon: str = "", turned: str = "",
         options: str = "") -> GeneralSedgewick:
    """The pack out; the foundations full but for the cards given elsewhere."""
    given = Counter(Card.parse(x) for text in [*cross.values(), talon, turned]
                    for x in text.split())
    piles: dict[str, str] = {}
    for j in range(4):
        run = FULL_RUNS[j].split()
        while len(run) > 1 and given[Card.parse(run[-1])] > 0:
            given[Card.parse(run[-1])] -= 1
            run.pop()
        piles[f"f{j}"] = " ".join(run)
    assert not +given, f"cards not taken from the ends of the foundations: {+given}"
    made = make_game(SLUG, piles | cross | {"talon": talon, "turned": turned},
                     options=options or None)
    g = engine.load_position(made.position())
    assert isinstance(g, GeneralSedgewick) and not g.state.piles[STOCK]
    return g


def test_the_game_is_won_with_all_cards_on_the_foundations() -> None:
    g = _end({})
    assert g.outcome() is Outcome.WON
    assert "Won" in g.status_of(g.state)


@pytest.mark.rules("general-sedgewick-no-redeal")
def test_there_is_no_redeal() -> None:
    g = _end({"c0": "6H"})
    assert refusal_rule(g, "redeal") == "general-sedgewick-no-redeal"
    assert refusal_rule(g, "deal") == "general-sedgewick-no-redeal"
    g = game({"f0": "2H", "stock": "5C"})
    assert refusal_rule(g, "redeal") == "general-sedgewick-no-redeal"


@pytest.mark.rules("general-sedgewick-no-redeal", "general-sedgewick-rule-3")
def test_lost_when_only_shifts_on_the_cross_remain() -> None:
    # The foundations want the four of hearts and the fives of clubs, spades and diamonds,
    # all buried; the 5H only passes from six to six, the 6D from the talon into the empty
    # place, and no card of the cross may go there to release the 4H. Lost, though moves
    # remain.
    cross = {"c0": "5C 6S", "c1": "5S 6H", "c2": "", "c3": "5D 4H 6C", "c4": "5H"}
    g = _end(cross, talon="6D")
    assert sorted(map(str, g.legal_moves())) == ["c4-c0", "c4-c1", "c4-c3", "talon-c2"]
    assert refusal_rule(g, "c3-c2") == "general-sedgewick-first-plays"
    assert g.play_reachable(g.state) is False
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)
    # When a shift releases a wanted card, the game goes on.
    g = _end(cross | {"c3": "5D 4H 5H", "c4": "6C"}, talon="6D")
    assert g.play_reachable(g.state) is True and g.outcome() is None


@pytest.mark.rules("general-sedgewick-no-redeal")
def test_not_lost_while_the_pack_holds_cards() -> None:
    g = game({"f0": "2H", "c0": "AH", "c1": "AS", "c2": "AD", "c3": "AC", "c4": "KS"})
    assert g.outcome() is None


@pytest.mark.rules("general-sedgewick-no-redeal")
@pytest.mark.parametrize("seed", [1, 7, 8, 11, 13, 38])
def test_every_loss_verdict_survives_an_exhaustive_search(seed: int) -> None:
    # The last cards of the four foundations, dealt at random onto the cross and the talon;
    # every position reachable is searched, under each reading.
    rng = random.Random(seed)
    loose = [c for run in FULL_RUNS for c in run.split()[-rng.randrange(1, 4):]]
    rng.shuffle(loose)
    cross: dict[str, list[str]] = {f"c{k}": [] for k in range(5)}
    talon: list[str] = []
    for c in loose:
        (talon if rng.random() < 0.3 else cross[f"c{rng.randrange(5)}"]).append(c)
    for opts in ("", "cross_wrap:yes", "refill_at_once:yes", "turned_card:no"):
        g = _end({k: " ".join(v) for k, v in cross.items()}, talon=" ".join(talon),
                 options=opts)
        found = check_verdicts(g, limit=5000)
        assert found.lost or opts


@pytest.mark.rules("general-sedgewick-no-redeal")
@pytest.mark.parametrize("seed", [1, 2, 7, 43, 51])
def test_loss_verdicts_with_a_card_turned_up_survive_an_exhaustive_search(seed: int) -> None:
    # As above, with the last card turned up still in hand when the pack runs out: it may
    # still go onto the cross or into an empty place, and the verdict must allow for it.
    rng = random.Random(seed)
    loose = [c for run in FULL_RUNS for c in run.split()[-rng.randrange(1, 4):]]
    rng.shuffle(loose)
    turned = loose.pop()
    cross: dict[str, list[str]] = {f"c{k}": [] for k in range(5)}
    talon: list[str] = []
    for c in loose:
        (talon if rng.random() < 0.3 else cross[f"c{rng.randrange(5)}"]).append(c)
    for opts in ("", "cross_wrap:yes", "refill_at_once:yes"):
        g = _end({k: " ".join(v) for k, v in cross.items()}, talon=" ".join(talon),
                 turned=turned, options=opts)
        found = check_verdicts(g, limit=5000)
        assert found.lost or opts


# ------------------------------------------------------------------------ positions, views

def test_positions_are_checked() -> None:
    with pytest.raises(PositionError):      # a corner begun with another rank
        engine.load_position(make_game(SLUG, {"f0": "7H", "f1": "8C"}).position())
    with pytest.raises(PositionError):      # a foundation out of order
        engine.load_position(make_game(SLUG, {"f0": "7H 9H"}).position())
    with pytest.raises(PositionError):      # no first foundation
        engine.load_position(make_game(SLUG, {"f0": ""}).position())


def test_the_deal_and_its_notation_round_trip() -> None:
    g = engine.new_game(SLUG, seed=123)
    g.play("deal")
    g.play("deal")
    same = engine.load_position(g.position())
    assert same.position() == g.position()
    assert engine.load_position(g.position(compact=True)).state == g.state
    assert g.state.piles[TURNED] and len(g.state.piles[TALON_PILE]) == 1


def test_the_view_hides_the_pack_and_the_talon_beneath_its_top() -> None:
    g = game({"f0": "2H", "talon": "9S 3D", "stock": "5C"})
    view = engine.view_of(g)
    piles = {p["id"]: p for p in view["piles"]}
    assert all(c["c"] is None for c in piles["stock"]["cards"])
    talon = piles["talon"]["cards"]
    assert talon[-1]["c"] == "3D" and all(c["c"] is None for c in talon[:-1])


@pytest.mark.parametrize("options", ["", "cross_wrap:yes", "refill_at_once:yes",
                                     "turned_card:no"])
def test_fast_legal_moves_match_the_rules(options: str) -> None:
    for seed in range(12):
        g = engine.new_game(SLUG, seed=seed, options=options)
        rng = random.Random(seed)
        for _ in range(120):
            fast = g.legal_moves()
            assert fast == Game.legal_in(g, g.state), (seed, g.position())
            if not fast:
                break
            g.play(rng.choice(fast))


@pytest.mark.rules("general-sedgewick-deal", "general-sedgewick-first-plays")
def test_a_click_on_the_pack_turns_a_card_and_never_fills_a_vacancy_unasked() -> None:
    pos = {"f0": "2H", "c0": "9C", "c1": "", "c2": "KS", "c3": "KD", "c4": "KC",
           "turned": "8D", "stock": "5C"}
    g = game(pos)
    view = engine.view_of(g)
    assert view["pack"]["move"] == "deal" and not view["pack"]["legal"]   # the 8D is suitable
    g = game(pos, options="refill_at_once:yes")
    view = engine.view_of(g)
    assert view["pack"] == {"pile": "stock", "move": "stock-c1", "legal": True}
