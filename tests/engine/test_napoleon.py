"""Napoleon at St. Helena: every rule, every refusal (with the rule id it cites), the deal,
the deal-out and the end."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome
from engine.core import State
from engine.napoleon import (
    COLS, FOUNDS, PILES, STOCK, TALON_PILE, LaneFill, NapoleonAtStHelena, NapoleonOptions,
    TalonUse, TurnedCard, Turning,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "napoleon-at-st-helena"
R = f"{SLUG}-"


def game(piles: dict[str, str], fresh: int = 0, options: str | None = None,
         rest_to: str = "stock") -> NapoleonAtStHelena:
    """A position holding the cards given (bottom to top); every other card lies under
    ``rest_to``'s cards (by default the pack, so that the pack is not exhausted)."""
    g = make_game(SLUG, piles, vars={"fresh": fresh}, options=options, rest_to=rest_to)
    assert isinstance(g, NapoleonAtStHelena)
    return g


def exhausted(piles: dict[str, str], rest_to: str = "c9", fresh: int = 0,
              options: str | None = None) -> NapoleonAtStHelena:
    """A position with the pack exhausted: the other cards lie under ``rest_to``'s."""
    return game({**piles, "stock": ""}, fresh=fresh, options=options, rest_to=rest_to)


def tops(g: NapoleonAtStHelena, ids: str) -> list[str]:
    return [str(g.card_at(g.state, i) or "") for i in ids.split()]


def pile(g: NapoleonAtStHelena, pid: str) -> list[str]:
    return [str(c) for c in g.state.piles[g.pile_index(pid)]]


def legal(g: NapoleonAtStHelena) -> set[str]:
    return {str(m) for m in g.legal_moves()}


# Column tops that can neither be played on empty foundations nor married to each other.
KINGS = {f"c{j}": k for j, k in enumerate("KS KS KH KH KD KD KC KC".split())}


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("napoleon-at-st-helena-deal")
def test_four_rows_of_ten_dealt_from_left_to_right_the_rest_is_the_pack() -> None:
    g = engine.new_game(SLUG, seed=5)
    s = g.state
    assert [len(s.piles[j]) for j in COLS] == [4] * 10
    assert len(s.piles[STOCK]) == 64
    assert not s.piles[TALON_PILE] and all(not s.piles[f] for f in FOUNDS)
    assert Counter(s.all_cards()) == Counter(engine.pack(2))
    # The pack is dealt from its top: row by row (uppermost first), each left to right.
    from engine.deal import shuffled
    order = shuffled(engine.pack(2), 5)[::-1]
    for row in range(4):
        for j in range(10):
            assert s.piles[j][row] == order[10 * row + j]


def test_same_deal_number_same_deal() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (8, 8, 9))
    assert a == b and a != c


def test_the_view_shows_the_tableau_and_only_the_talons_top() -> None:
    g = game({"c0": "5H", "talon": "2S 3S 4S"})
    view = engine.view_of(g)
    faces = {p["id"]: p["cards"] for p in view["piles"]}
    assert faces["talon"] == [{"c": None}, {"c": None}, {"c": "4S"}]
    assert all(c == {"c": None} for c in faces["stock"])
    assert all(c["c"] for j in range(10) for c in faces[f"c{j}"])


# ----------------------------------------------------------------------------- Rule I

@pytest.mark.rules("napoleon-at-st-helena-rule-1")
def test_rule_1_only_the_card_in_the_lowest_row_is_available() -> None:
    g = game({"c0": "AS 9H 8H 4C", "c1": "5C"})
    assert refusal_rule(g, "c0:0-f0") == R + "rule-1"
    assert refusal_rule(g, "c0:2-c1") == R + "rule-1"
    assert Move.parse("c0:0-f0") not in g.legal_moves()
    g.play("c0-c1")  # the 4C is married below the 5C: the 8H is released
    assert tops(g, "c0") == ["8H"]


@pytest.mark.rules("napoleon-at-st-helena-rule-1")
def test_a_card_is_released_when_the_cards_below_it_are_removed() -> None:
    g = game({"c0": "AS 9H", "c1": "10H"})
    assert refusal_rule(g, "c0:0-f3") == R + "rule-1"
    g.play("c0-c1")
    g.play("c0-f3")
    assert pile(g, "f3") == ["AS"]


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("napoleon-at-st-helena-aces", "napoleon-at-st-helena-foundations")
def test_an_ace_in_the_lowest_row_goes_to_any_empty_foundation_place() -> None:
    g = game({"c0": "AH", "c1": "2H", "c2": "AH"})
    assert {f"c0-f{k}" for k in range(8)} <= legal(g)
    g.play("c0-f5")
    g.play("c1-f5")  # and upon it a suitable card, continuing the foundation
    g.play("c2-f0")
    assert pile(g, "f5") == ["AH", "2H"] and pile(g, "f0") == ["AH"]


@pytest.mark.rules("napoleon-at-st-helena-foundations")
def test_only_an_ace_begins_a_foundation() -> None:
    g = game({"c0": "2H"})
    assert refusal_rule(g, "c0-f0") == R + "foundations"


@pytest.mark.rules("napoleon-at-st-helena-foundations")
def test_foundations_ascend_in_sequence_to_kings() -> None:
    g = game({"f0": "AS 2S 3S", "c0": "5S", "c1": "4S"})
    assert refusal_rule(g, "c0-f0") == R + "foundations"
    g.play("c1-f0")
    g.play("c0-f0")
    full = "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"
    g = game({"f1": full, "c0": "AD"})
    assert refusal_rule(g, "c0-f1") == R + "foundations"


@pytest.mark.rules("napoleon-at-st-helena-rule-2")
def test_rule_2_the_foundations_must_follow_suit() -> None:
    g = game({"f0": "AS 2S", "c0": "3H"})
    assert refusal_rule(g, "c0-f0") == R + "rule-2"


@pytest.mark.rules("napoleon-at-st-helena-foundations")
def test_a_card_fitting_both_foundations_of_its_suit_goes_where_the_player_chooses() -> None:
    g = game({"f0": "AC 2C", "f4": "AC 2C", "c0": "3C"})
    assert {"c0-f0", "c0-f4"} <= legal(g)
    g.play("c0-f4")
    assert pile(g, "f4") == ["AC", "2C", "3C"]


@pytest.mark.rules("napoleon-at-st-helena-foundations")
def test_foundation_cards_stay_there() -> None:
    g = game({"f0": "AS 2S", "c0": ""})
    assert refusal_rule(g, "f0-c0") == R + "foundations"
    assert refusal_rule(g, "f0-f1") == R + "foundations"


@pytest.mark.rules("napoleon-at-st-helena-aces")
def test_plays_are_never_made_for_the_player() -> None:
    g = game({"c0": "AH", "stock": "9C"})
    g.play("deal")
    assert pile(g, "c0") == ["AH"] and all(not g.state.piles[f] for f in FOUNDS)


# ----------------------------------------------------------------------------- marriages

@pytest.mark.rules("napoleon-at-st-helena-marriages")
def test_marriages_in_descending_line_and_in_suit() -> None:
    g = game({"c0": "8H", "c1": "7H", "c2": "7C", "c3": "9H", "c4": "AD", "c5": "2D"})
    assert refusal_rule(g, "c2-c0") == R + "marriages"   # wrong suit
    assert refusal_rule(g, "c3-c0") == R + "marriages"   # ascending
    assert refusal_rule(g, "c5-c4") == R + "marriages"   # nothing goes below an ace
    g.play("c1-c0")
    assert pile(g, "c0") == ["8H", "7H"] and not g.state.piles[1]


@pytest.mark.rules("napoleon-at-st-helena-marriages", "napoleon-at-st-helena-rule-1")
def test_a_sequence_moves_one_card_at_a_time() -> None:
    g = game({"c0": "9S 8S", "c1": "", "c2": "10S"})
    assert refusal_rule(g, "c0:0-c2") == R + "rule-1"
    assert refusal_rule(g, "c0-f0+c0-f1") == R + "board"
    g.play("c0-c1")     # the eight alone goes to the lane
    g.play("c0-c2")     # then the nine, released, is married on its own
    assert pile(g, "c1") == ["8S"] and pile(g, "c2") == ["10S", "9S"]
    g.play("c1-c2")     # and the eight follows it: the sequence is whole again
    assert pile(g, "c2") == ["10S", "9S", "8S"] and not g.state.piles[1]


@pytest.mark.rules("napoleon-at-st-helena-marriages")
def test_two_packs_give_two_targets_and_a_card_may_shuttle() -> None:
    g = game({"c0": "6D", "c1": "6D", "c2": "5D"})
    g.play("c2-c0")
    g.play("c0-c1")
    assert pile(g, "c1") == ["6D", "5D"] and pile(g, "c0") == ["6D"]


# ----------------------------------------------------------------------------- lanes

@pytest.mark.rules("napoleon-at-st-helena-lane", "napoleon-at-st-helena-refill")
def test_a_column_emptied_to_its_uppermost_row_is_a_lane_filled_when_the_player_likes(
) -> None:
    g = game({"c0": "5C", "c1": "6C", "c2": "JD 9H", "stock": "3S"})
    g.play("c0-c1")
    assert not g.state.piles[0]
    assert "lanes" in g.status_of(g.state)
    g.play("deal")  # not obliged to refill it: the game goes on with the lane open
    assert not g.state.piles[0]
    g.play("c2-c0")  # any available card of the tableau
    assert pile(g, "c0") == ["9H"]


@pytest.mark.rules("napoleon-at-st-helena-refill")
def test_a_lane_may_be_refilled_from_the_talon() -> None:
    g = game({"c0": "", "talon": "2S 8D"})
    g.play("talon-c0")
    assert pile(g, "c0") == ["8D"] and pile(g, "talon") == ["2S"]


@pytest.mark.rules("napoleon-at-st-helena-note")
def test_the_notes_reading_fills_lanes_only_from_the_talon() -> None:
    g = game({"c0": "", "c1": "JD 9H", "talon": "8D"}, options="lane_fill:talon")
    assert refusal_rule(g, "c1-c0") == R + "note"
    g.play("talon-c0")
    assert pile(g, "c0") == ["8D"]


@pytest.mark.rules("napoleon-at-st-helena-privileges")
def test_the_card_in_a_lane_is_treated_like_the_original_card() -> None:
    g = game({"c0": "", "c1": "QS 9H", "c2": "8H", "c3": "10H", "f0": "AH 2H 3H 4H 5H 6H 7H"})
    g.play("c1-c0")
    g.play("c2-c0")   # it takes marriages
    assert pile(g, "c0") == ["9H", "8H"]
    g.play("c0-f0")   # its cards may be played
    g.play("c0-f0")
    assert not g.state.piles[0]
    g.play("c3-c0")
    g.play("c0-c2")   # and it may move on again, to another lane
    assert pile(g, "c2") == ["10H"]


# ----------------------------------------------------------------------------- the deal-out

@pytest.mark.rules("napoleon-at-st-helena-deal-out", "napoleon-at-st-helena-talon")
def test_turning_lays_the_card_on_the_talon_where_it_may_be_used() -> None:
    g = game({"c0": "9S", "f0": "AC", "stock": "4H 2C 8S"})
    g.play("deal")
    assert pile(g, "talon") == ["8S"] and tops(g, "stock") == ["2C"]
    g.play("talon-c0")   # placed on a sequence of the tableau
    g.play("deal")
    g.play("talon-f0")   # played on a foundation
    g.play("deal")       # not employed: laid aside, forming the talon
    assert pile(g, "talon") == ["4H"]
    assert pile(g, "c0") == ["9S", "8S"] and pile(g, "f0") == ["AC", "2C"]


@pytest.mark.rules("napoleon-at-st-helena-talon")
def test_laid_aside_cards_stay_available_from_the_top_of_the_talon() -> None:
    g = game({"c0": "8D", "talon": "7D 3C", "f0": "AC 2C"})
    assert refusal_rule(g, "talon:0-c0") == R + "talon"
    g.play("talon-f0")
    g.play("talon-c0")
    assert not g.state.piles[TALON_PILE]


@pytest.mark.rules("napoleon-at-st-helena-talon")
def test_only_turned_cards_go_to_the_talon() -> None:
    g = game({"c0": "8D", "talon": "3C", "f0": "AC 2C 3C"})
    assert refusal_rule(g, "c0-talon") == R + "talon"
    assert refusal_rule(g, "f0-talon") == R + "foundations"


@pytest.mark.rules("napoleon-at-st-helena-deal-out")
def test_the_pack_is_only_turned_card_by_card() -> None:
    g = game({"c0": "", "stock": "3S"})
    assert refusal_rule(g, "stock-c0") == R + "deal-out"
    assert refusal_rule(g, "stock-f0") == R + "deal-out"
    assert refusal_rule(g, "stock-talon") == R + "deal-out"


@pytest.mark.rules("napoleon-at-st-helena-deal-out")
def test_by_default_the_pack_may_be_turned_while_a_play_is_open() -> None:
    g = game({"c0": "AS", "stock": "9C"})
    assert "deal" in legal(g) and "c0-f0" in legal(g)
    g.play("deal")


@pytest.mark.rules("napoleon-at-st-helena-deal-out")
def test_strict_reading_turns_the_pack_only_when_nothing_can_be_played() -> None:
    opts = "turning:no-play"
    g = game({"c0": "AS", "c1": "6H", "stock": "9C 4D"}, options=opts)
    assert refusal_rule(g, "deal") == R + "deal-out"
    g.play("c0-f0")
    g.play("deal")          # marriages remain possible (none here), plays do not
    assert tops(g, "talon") == ["4D"]
    g = game({"c0": "5H", "c1": "6H", "stock": "9C"}, options=opts)
    g.play("deal")          # a marriage open does not stop the turn
    g = game({"f0": "AD 2D 3D", "talon": "4D", "stock": "9C"}, options=opts)
    assert refusal_rule(g, "deal") == R + "deal-out"  # the talon's top counts
    g = game({"f0": "AD 2D 3D", "talon": "4D", "stock": "9C"},
             options=opts + ",talon_use:lanes")
    g.play("deal")          # unless, laid aside, it may not be played (NA-1)


@pytest.mark.rules("napoleon-at-st-helena-talon", "napoleon-at-st-helena-deal-out")
def test_a_turned_card_that_can_be_employed_is_not_laid_aside() -> None:
    # "playing all suitable ones on the foundations, or placing them on the sequences of the
    # tableau. The cards that cannot be so employed are laid aside": the card just turned is
    # not covered by the next while it could be played or married (NA-4).
    g = game({"c0": "6H", "f0": "AC 2C", "talon": "3C", "stock": "9S"}, fresh=1)
    assert refusal_rule(g, "deal") == R + "talon"            # it could be played
    g = game({"c0": "6H", "talon": "5H", "stock": "9S"}, fresh=1)
    with pytest.raises(engine.IllegalMove, match="five of hearts.*cannot be so employed"):
        g.play("deal")                                       # it could be married
    g.play("talon-c0")
    g.play("deal")                                           # the 9S cannot: laid aside
    g.play("deal")                                           # and so on
    g = game({"c0": "", "talon": "5H", "stock": "9S"}, fresh=1)
    g.play("deal")              # a lane is not a sequence: the 5H may be laid aside
    g = game({"c0": "6H", "talon": "5H", "stock": "9S"}, fresh=0)
    g.play("deal")              # laid aside before, it is not turned again
    g = game({"c0": "6H", "c1": "9C 5H", "talon": "5H", "stock": "9S"}, fresh=1)
    g.play("c1-c0")             # the other five takes the only six free: the turned five
    g.play("deal")              # can no longer be employed, and is laid aside
    g = game({"c0": "6H", "talon": "5H", "stock": "9S"}, fresh=1,
             options="turned_card:free")
    g.play("deal")              # the other reading: any turned card may be laid aside
    g = game({"c0": "6H", "talon": "5H", "stock": "9S"}, fresh=1,
             options="talon_use:lanes")
    assert refusal_rule(g, "deal") == R + "talon"            # under NA-1's reading too


@pytest.mark.rules("napoleon-at-st-helena-talon", "napoleon-at-st-helena-deal-out")
def test_narrow_talon_reading_uses_a_card_only_as_it_is_turned() -> None:
    opts = "talon_use:lanes,turned_card:free"  # a playable card may be laid aside (NA-4)
    g = game({"c0": "9S", "c1": "", "f0": "AC", "stock": "4H 2C 8S"}, options=opts)
    g.play("deal")
    g.play("talon-c0")   # the card just turned may be placed on a sequence
    g.play("deal")
    g.play("deal")       # the 2C is laid aside under the 4H just turned
    g.play("talon-c1")   # the 4H fills the lane
    assert g.state.vars[0] == 0
    assert refusal_rule(g, "talon-f0") == R + "talon"   # the 2C may only fill a lane now
    g = game({"c0": "", "c2": "3C", "talon": "2C"}, options=opts)
    assert refusal_rule(g, "talon-c2") == R + "talon"
    g.play("talon-c0")


@pytest.mark.rules("napoleon-at-st-helena-talon", "napoleon-at-st-helena-deal-out")
def test_narrow_talon_reading_the_turned_card_waits_for_other_moves() -> None:
    g = game({"c0": "10D", "c1": "9D", "c2": "8H", "stock": "8D"}, options="talon_use:lanes")
    g.play("deal")
    g.play("c1-c0")      # the tableau may be rearranged while the card is in hand
    assert refusal_rule(g, "talon-c2") == R + "marriages"
    g.play("talon-c0")
    assert pile(g, "c0") == ["10D", "9D", "8D"]


@pytest.mark.rules("napoleon-at-st-helena-no-redeal")
def test_no_redeal() -> None:
    g = exhausted({"c0": "5H", "talon": "3C"})
    assert refusal_rule(g, "deal") == R + "no-redeal"
    assert refusal_rule(g, "redeal") == R + "no-redeal"
    assert "deal" not in legal(g)
    assert "exhausted" in g.status_of(g.state)


# ----------------------------------------------------------------------------- refusals

def test_board_refusals() -> None:
    g = game({"c0": "5H", "c1": ""})
    assert refusal_rule(g, "shuffle") == R + "board"
    assert refusal_rule(g, "q1-f0") == R + "board"
    assert refusal_rule(g, "c0-q1") == R + "board"
    assert refusal_rule(g, "c0-c0") == R + "board"
    assert refusal_rule(g, "c0-stock") == R + "board"
    assert refusal_rule(g, "c1-f0") == R + "board"
    assert refusal_rule(g, "talon-f0") == R + "board"
    assert refusal_rule(g, "c0-c1:0") == R + "board"
    assert refusal_rule(g, "c0-f0+c0-f1") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"


# ----------------------------------------------------------------------------- the end

def _won_foundations() -> dict[str, str]:
    order = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    suits = "S S H H D D C C".split()
    return {f"f{k}": " ".join(r + s for r in order) for k, s in enumerate(suits)}


@pytest.mark.rules("napoleon-at-st-helena-foundations")
def test_won_when_every_foundation_reaches_its_king() -> None:
    piles = _won_foundations()
    piles["f7"] = piles["f7"].rsplit(" ", 1)[0]
    g = game({**piles, "c3": "KC", "stock": ""}, rest_to="c3")
    assert g.outcome() is None
    g.play("c3-f7")
    assert g.outcome() is Outcome.WON
    assert g.status_of(g.state).startswith("Won")


@pytest.mark.rules("napoleon-at-st-helena-no-redeal")
def test_lost_when_nothing_can_move() -> None:
    g = exhausted({**KINGS, "c8": "5H", "c9": "5H"})
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


@pytest.mark.rules("napoleon-at-st-helena-no-redeal", "napoleon-at-st-helena-marriages")
def test_lost_when_marriages_go_round_in_circles_without_a_play() -> None:
    g = exhausted({**KINGS, "c8": "6H", "c9": "AS 6H", "c7": "KC 5H"})
    assert g.legal_moves()
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("napoleon-at-st-helena-no-redeal", "napoleon-at-st-helena-lane")
def test_not_lost_while_moves_can_release_a_play() -> None:
    g = exhausted({**KINGS, "c8": "6H", "c9": "AS 5H"})
    assert not any(g.pile_index(m.steps[0][1]) in FOUNDS for m in g.legal_moves())
    assert g.outcome() is None
    g.play("c9-c8")
    g.play("c9-f0")
    # a lane that can take a blocking card counts too
    g = exhausted({**KINGS, "c8": "", "c9": "AS 9C"})
    assert g.outcome() is None
    g = exhausted({**KINGS, "c8": "", "c9": "AS 9C"}, options="lane_fill:talon")
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("napoleon-at-st-helena-talon", "napoleon-at-st-helena-no-redeal")
def test_the_talon_counts_in_the_verdict_under_each_reading() -> None:
    # the other cards lie at the bottom of the talon
    piles = {**KINGS, "c8": "5H", "c9": "5H", "f0": "AD 2D 3D", "talon": "4D 9S"}
    assert exhausted(piles, rest_to="talon").outcome() is Outcome.LOST  # the 9S blocks
    g = exhausted({**piles, "c8": ""}, rest_to="talon")
    assert g.outcome() is None                 # the 9S fills the lane, the 4D is played
    g = exhausted({**piles, "c8": ""}, rest_to="talon", options="talon_use:lanes")
    assert g.outcome() is Outcome.LOST         # the 4D was laid aside: lanes only
    g = exhausted({**piles, "c8": "", "talon": "9S 4D"}, rest_to="talon", fresh=1,
                  options="talon_use:lanes")
    assert g.outcome() is None                 # the 4D has just been turned


@pytest.mark.rules("napoleon-at-st-helena-deal-out")
def test_never_lost_while_the_pack_holds_cards() -> None:
    g = game({**KINGS, "c8": "5H", "c9": "5H", "stock": "9C"}, rest_to="c9")
    assert g.outcome() is None
    assert Move(action="deal") in g.legal_moves()


def _is_play(g: NapoleonAtStHelena, m: Move) -> bool:
    return bool(m.steps) and g.pile_index(m.steps[0][1]) in FOUNDS


def _moves_to_a_play(g: NapoleonAtStHelena) -> list[Move] | None:
    """The shortest series of moves after which a card can be played (the pack being
    exhausted), by breadth-first search over the game's own legal moves."""
    paths: dict[State, list[Move]] = {g.state: []}
    queue = [g.state]
    while queue:
        state = queue.pop(0)
        h = NapoleonAtStHelena(state, g.options, None)
        for m in h.legal_moves():
            if _is_play(h, m):
                return paths[state]
            nxt = h.apply(state, m)
            if nxt not in paths:
                paths[nxt] = paths[state] + [m]
                queue.append(nxt)
            if len(paths) > 20000:
                raise AssertionError("search too large for the test")
    return None


@pytest.mark.rules("napoleon-at-st-helena-no-redeal")
def test_played_out_games_end_won_or_lost_and_lost_only_when_no_play_can_follow() -> None:
    outcomes = set()
    for seed in range(12):
        g = engine.new_game(SLUG, seed=seed)
        assert isinstance(g, NapoleonAtStHelena)
        while g.outcome() is None:
            moves = g.legal_moves()
            plays = [m for m in moves if _is_play(g, m)]
            talon = [m for m in moves if m.steps and m.steps[0][0] == "talon"
                     and not _is_play(g, m)]
            if plays:
                g.play(plays[0])
            elif talon and any(g.state.piles[g.pile_index(m.steps[0][1])] for m in talon):
                g.play(next(m for m in talon if g.state.piles[g.pile_index(m.steps[0][1])]))
            elif Move(action="deal") in moves:
                g.play("deal")
            else:
                path = _moves_to_a_play(g)
                assert path, "not declared lost, yet no play can be reached"
                for m in path:
                    g.play(m)
        total = sum(len(g.state.piles[f]) for f in FOUNDS)
        assert (g.outcome() is Outcome.WON) == (total == 104)
        if g.outcome() is Outcome.LOST:
            assert _moves_to_a_play(g) is None
        outcomes.add(g.outcome())
    assert Outcome.LOST in outcomes


# ----------------------------------------------------------------------------- options, positions

def test_options_round_trip_as_text() -> None:
    o = NapoleonOptions(talon_use=TalonUse.LANES, lane_fill=LaneFill.TALON,
                        turning=Turning.NO_PLAY, turned_card=TurnedCard.FREE)
    text = engine.options_to_text(o)
    assert engine.options_from_text(NapoleonOptions, text) == o
    assert engine.options_to_text(NapoleonOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(NapoleonOptions, "lane_fill:anything")


def test_every_option_names_its_note_and_defaults_to_the_text() -> None:
    o = NapoleonOptions()
    assert (o.talon_use, o.lane_fill, o.turning, o.turned_card) == (
        TalonUse.ANY, LaneFill.TABLEAU_OR_TALON, Turning.ANY_TIME, TurnedCard.EMPLOY)
    for d in engine.describe_options(NapoleonOptions):
        assert d["note"].startswith("note-na-")
        assert len(d["choices"]) == 2


def test_position_restores_the_turned_card_exactly() -> None:
    g = engine.new_game(SLUG, seed=21, options="talon_use:lanes")
    for _ in range(30):
        moves = g.legal_moves()
        steps = [m for m in moves if m.steps]
        g.play((steps or moves)[0])
    g.play("deal")
    h = engine.load_position(g.position())
    assert h.state == g.state and h.state.vars == (1,)
    assert h.position() == g.position()


def test_corrupt_positions_are_refused() -> None:
    g = game({"f0": "AS 2S", "talon": "3C"}, fresh=1)
    text = g.position()
    engine.load_position(text)
    with pytest.raises(engine.PositionError):
        engine.load_position(text.replace("f0:AS.2S", "f0:2S.AS"))
    with pytest.raises(engine.PositionError):
        engine.load_position(text.replace("vars=fresh:1", "vars=fresh:2"))
    g = game({"talon": ""}, fresh=0)
    with pytest.raises(engine.PositionError):
        engine.load_position(g.position().replace("vars=fresh:0", "vars=fresh:1"))


def test_the_layout_follows_the_plate_and_has_a_narrow_form() -> None:
    spec = {p.id: p for p in PILES}
    assert [spec[f"c{j}"].x for j in range(10)] == [float(j) for j in range(10)]
    assert all(spec[f"f{k}"].y > spec["c0"].y for k in range(8))
    narrow = next(lay for lay in NapoleonAtStHelena.LAYOUTS if lay.name == "narrow")
    assert narrow.max_width and narrow.grid[0] <= 8
    assert set(narrow.at) == {p.id for p in PILES}
