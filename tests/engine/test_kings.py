"""The Kings: every rule, every refusal (with the rule id it cites), the deal and after."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome
from engine.kings import (
    FOUNDS, LINES, PILES, ROW_SUITS, STOCK, DealAvailability, KingsOptions, Lanes,
    LineFoundations, RuleIII, TheKings, place_of,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-kings"
R = f"{SLUG}-"
ACES = {"f0": "AD", "f4": "AD", "f1": "AC", "f5": "AC", "f2": "AH", "f6": "AH",
        "f3": "AS", "f7": "AS"}
ALL_FRESH = 0xFF
L0, L1, L2, L3, R0, R1, R2, R3 = LINES


def game(piles: dict[str, str], **kw: object) -> TheKings:
    g = make_game(SLUG, {**ACES, **piles}, **kw)  # type: ignore[arg-type]
    assert isinstance(g, TheKings)
    return g


def dealing(piles: dict[str, str], just: int = -1, fresh: int = ALL_FRESH,
            options: str | None = None, stock: str = "") -> TheKings:
    """A position during the deal: the pack holds the rest of the cards (under ``stock``,
    whose last card is the next to be dealt)."""
    return game({**piles, "stock": stock}, vars={"slot": 8, "just": just, "fresh": fresh},
                options=options)


def after_deal(piles: dict[str, str], rest_to: str = "l0", options: str | None = None
               ) -> TheKings:
    """A position after the deal: the rest of the cards lie under ``rest_to``'s cards."""
    return game({**piles, "stock": ""}, rest_to=rest_to, options=options,
                vars={"slot": 24, "just": -1, "fresh": 0})


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def tops(g: TheKings, ids: str) -> list[str]:
    return [str(g.card_at(g.state, i) or "") for i in ids.split()]


# A pack whose next cards are never suitable on aces: no twos.
NO_TWOS = "9C 9D 9H 9S 10C 10D 10H 10S"


# ----------------------------------------------------------------------------- the deal

def test_aces_withdrawn_and_placed_in_two_columns_suit_by_suit() -> None:
    g = engine.new_game(SLUG, seed=9)
    s = g.state
    for r, suit in enumerate(ROW_SUITS):
        assert s.piles[FOUNDS[r]] == s.piles[FOUNDS[4 + r]] == (Card(1, suit),)
    assert len(s.piles[STOCK]) == 96 and all(c.rank != 1 for c in s.piles[STOCK])
    assert all(not s.piles[i] for i in LINES)
    assert Counter(s.all_cards()) == Counter(engine.pack(2))


def test_same_deal_number_same_deal() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (8, 8, 9))
    assert a == b and a != c


def test_columns_dealt_top_to_bottom_first_left_then_alternately() -> None:
    assert [place_of(s) for s in range(12)] == [L0, L1, L2, L3, R0, R1, R2, R3,
                                                L0, L1, L2, L3]
    g = game({"stock": NO_TWOS}, vars={"just": -1})
    g.play("deal")
    assert tops(g, "l0 l1 l2 l3 r0") == ["10S", "10H", "10D", "10C", ""]
    g.play("deal")
    assert tops(g, "r0 r1 r2 r3") == ["9S", "9H", "9D", "9C"]
    g.play("deal")
    assert [len(g.state.piles[i]) for i in LINES] == [2, 2, 2, 2, 1, 1, 1, 1]


def test_suitable_card_pauses_the_deal_and_must_be_played_at_once() -> None:
    g = game({"stock": "5C 5D 2H 5S"}, vars={"just": -1})
    g.play("deal")  # 5S to line 1, 2H to line 2: suitable, the deal stops
    assert tops(g, "l0 l1 l2") == ["5S", "2H", ""]
    assert refusal_rule(g, "deal") == R + "play-at-once"
    assert {str(m) for m in g.legal_moves()} == {"l1-f1", "l1-f5"}
    g.play("l1-f5")
    # replaced at once with the next card of the pack, in the same place
    assert tops(g, "l1 f5") == ["5D", "2H"]
    g.play("deal")  # the column is finished
    assert tops(g, "l2") == ["5C"] and len(g.state.piles[L3]) == 1
    assert not g.state.piles[R0]


def test_a_replacement_that_is_suitable_must_be_played_too() -> None:
    g = game({"stock": "3S 2S"}, vars={"just": -1})
    g.play("deal")
    g.play("l0-f0")
    assert tops(g, "l0") == ["3S"]
    assert refusal_rule(g, "deal") == R + "play-at-once"
    g.play("l0-f0")
    assert [str(c) for c in g.state.piles[FOUNDS[0]]] == ["AD", "2S", "3S"]


def test_the_last_column_may_be_short_and_the_deal_then_ends() -> None:
    g = game({"stock": "9C 9D"}, rest_to="r3", vars={"slot": 8, "just": -1})
    g.play("deal")
    assert tops(g, "l0 l1") == ["9D", "9C"]
    assert not g.state.piles[STOCK]
    assert refusal_rule(g, "deal") == R + "columns"
    assert "deal is complete" in g.status_of(g.state)


# ----------------------------------------------------------------------------- Rule III

def test_rule_3_during_the_deal_only_the_foundations_of_its_own_line() -> None:
    g = dealing({"l0": "2S", "r1": "2H"}, stock=NO_TWOS)
    assert refusal_rule(g, "l0-f1") == R + "rule-3"
    assert refusal_rule(g, "r1-f0") == R + "rule-3"
    assert {"l0-f0", "l0-f4", "r1-f1", "r1-f5"} <= {str(m) for m in g.legal_moves()}


def test_rule_3_own_side_reading() -> None:
    g = dealing({"l0": "2S", "r1": "2H"}, stock=NO_TWOS,
                options="line_foundations:own-side")
    assert refusal_rule(g, "l0-f4") == R + "rule-3"
    assert refusal_rule(g, "r1-f1") == R + "rule-3"
    g.play("l0-f0")
    g.play("r1-f5")


def test_rule_3_ceases_when_the_deal_is_complete() -> None:
    g = after_deal({"l1": "2S"}, rest_to="r3")
    g.play("l1-f3")
    assert g.state.piles[FOUNDS[3]][-1] == Card.parse("2S")


def test_rule_3_for_the_whole_game_under_the_strict_reading() -> None:
    g = after_deal({"l1": "2S"}, rest_to="r3", options="rule_3:always")
    assert refusal_rule(g, "l1-f3") == R + "rule-3"
    g.play("l1-f5")


def test_inner_columns_are_never_played_during_the_deal_even_if_released() -> None:
    # line 1's card was played from the last column: the card released under it is inner
    g = dealing({"l0": "2C 2S"}, just=R3, stock=NO_TWOS)
    g.play("l0-f0")
    assert tops(g, "l0") == ["2C"]  # not replaced: it had not just turned up
    assert refusal_rule(g, "l0-f4") == R + "dealing"
    g = dealing({"l0": "2C"}, fresh=ALL_FRESH & ~1, stock=NO_TWOS)
    assert refusal_rule(g, "l0-f0") == R + "dealing"


def test_cards_of_the_last_column_may_be_played_later_in_the_deal() -> None:
    g = dealing({"l0": "3S", "f0": "AD 2D"}, just=R3, stock=NO_TWOS)
    g.play("l0-f0")


def test_only_the_card_just_dealt_under_the_stricter_reading() -> None:
    opts = "deal_availability:just-dealt"
    g = dealing({"l0": "2S", "r3": "2C"}, just=R3, stock=NO_TWOS, options=opts)
    assert refusal_rule(g, "l0-f0") == R + "play-at-once"
    g.play("r3-f3")


def test_no_building_or_lanes_during_the_deal() -> None:
    g = dealing({"l0": "5H", "r0": "6C", "l1": ""}, stock=NO_TWOS)
    assert refusal_rule(g, "l0-r0") == R + "sequences"
    assert refusal_rule(g, "l0-l1") == R + "lane"


# ----------------------------------------------------------------------------- Rule I, II

def test_foundations_ascend_to_kings_regardless_of_suit() -> None:
    g = after_deal({"l1": "2S", "l2": "3H", "l3": "4D", "r0": "9C"}, rest_to="r3")
    g.play("l1-f0")   # spade on the diamond ace
    g.play("l2-f0")   # heart on it
    g.play("l3-f0")
    assert refusal_rule(g, "r0-f0") == R + "foundations"
    assert [str(c) for c in g.state.piles[FOUNDS[0]]] == ["AD", "2S", "3H", "4D"]


def test_a_foundation_ends_with_its_king() -> None:
    g = after_deal({"f0": "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD", "l1": "KS"},
                   rest_to="r3")
    assert refusal_rule(g, "l1-f0") == R + "foundations"


def test_rule_2_only_the_outside_card_is_available() -> None:
    g = after_deal({"l1": "2S 9H"}, rest_to="r3")
    assert refusal_rule(g, "l1:0-f0") == R + "rule-2"
    assert Move.parse("l1:0-f0") not in g.legal_moves()


def test_outside_means_leftmost_on_the_left_and_rightmost_on_the_right() -> None:
    spec = {p.id: p for p in PILES}
    assert spec["l0"].fan.value == "left" and spec["r0"].fan.value == "right"
    assert spec["l0"].x < spec["f0"].x < spec["f4"].x < spec["r0"].x


# ----------------------------------------------------------------------------- sequences, lanes

def test_sequences_up_or_down_any_suit_on_the_outside_cards() -> None:
    g = after_deal({"l1": "5H", "r2": "6C", "r1": "7D", "l2": "8S"}, rest_to="r3")
    g.play("l1-r2")   # 5H on 6C: down
    assert refusal_rule(g, "r1-r2") == R + "sequences"  # 7D on 5H
    g.play("r1-l2")   # 7D on 8S
    assert tops(g, "r2 l2") == ["5H", "7D"]


def test_sequences_reversed_by_transferring_card_by_card() -> None:
    g = after_deal({"l1": "10S 9S 8H 7C", "r2": "6D"}, rest_to="r3")
    for _ in range(3):
        g.play("l1-r2")
    # read outwards, 9S 8H 7C on the left has become 7C 8H 9S on the right
    assert [str(c) for c in g.state.piles[R2]] == ["6D", "7C", "8H", "9S"]
    assert tops(g, "l1") == ["10S"]


def test_building_refused_when_not_one_apart() -> None:
    g = after_deal({"l1": "5H", "r2": "8C", "l2": "5S"}, rest_to="r3")
    assert refusal_rule(g, "l1-r2") == R + "sequences"
    assert refusal_rule(g, "l1-l2") == R + "sequences"


def test_lane_takes_any_available_card() -> None:
    g = after_deal({"l1": "", "r1": "QH", "l2": "7S"}, rest_to="r3")
    g.play("l2-l1")
    assert tops(g, "l1") == ["7S"]
    g = after_deal({"l1": "", "r1": "QH", "l2": "7S"}, rest_to="r3",
                   options="lanes:both-groups")
    assert refusal_rule(g, "l2-l1") == R + "lane"
    g = after_deal({"l1": "", "r1": "", "l2": "7S"}, rest_to="r3",
                   options="lanes:both-groups")
    g.play("l2-r1")
    assert tops(g, "r1") == ["7S"]


def test_sequences_placed_on_a_lane_card() -> None:
    g = after_deal({"l1": "", "l2": "7S", "l3": "8H"}, rest_to="r3")
    g.play("l2-l1")
    g.play("l3-l1")
    assert [str(c) for c in g.state.piles[L1]] == ["7S", "8H"]


# ----------------------------------------------------------------------------- refusals

def test_foundation_cards_stay_and_pack_is_only_dealt() -> None:
    g = dealing({"l0": "5H"}, stock=NO_TWOS)
    assert refusal_rule(g, "f0-l0") == R + "foundations"
    assert refusal_rule(g, "stock-f0") == R + "columns"
    assert refusal_rule(g, "stock-l0") == R + "columns"


def test_no_redeal_and_board_refusals() -> None:
    g = after_deal({"l1": "5H"}, rest_to="r3")
    assert refusal_rule(g, "redeal") == R + "no-redeal"
    assert refusal_rule(g, "shuffle") == R + "board"
    assert refusal_rule(g, "q1-f0") == R + "board"
    assert refusal_rule(g, "l1-q1") == R + "board"
    assert refusal_rule(g, "l1-l1") == R + "board"
    assert refusal_rule(g, "l1-stock") == R + "board"
    assert refusal_rule(g, "l1-r3:0") == R + "board"
    assert refusal_rule(g, "l0-f0+l1-f1") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"
    g = after_deal({"l1": ""}, rest_to="r3")
    assert refusal_rule(g, "l1-f0") == R + "board"


# ----------------------------------------------------------------------------- outcome

def test_won_when_every_foundation_reaches_its_king() -> None:
    piles = {}
    order = "2 3 4 5 6 7 8 9 10 J Q K".split()
    for n, (fid, ace) in enumerate(ACES.items()):
        suit = ace[-1]
        piles[fid] = ace + " " + " ".join(r + suit for r in order)
    g = after_deal({**piles, "l0": ""}, rest_to="l0")
    assert g.outcome() is Outcome.WON
    assert g.status_of(g.state).startswith("Won")


def test_the_last_king_wins() -> None:
    piles = {}
    order = "2 3 4 5 6 7 8 9 10 J Q K".split()
    for fid, ace in ACES.items():
        piles[fid] = ace + " " + " ".join(r + ace[-1] for r in order)
    piles["f0"] = "AD " + " ".join(r + "D" for r in order[:-1])
    g = after_deal({**piles, "r2": "KD"}, rest_to="r2")
    assert g.outcome() is None
    g.play("r2-f0")
    assert g.outcome() is Outcome.WON


LOCKED = {"l0": "KS", "l1": "KH", "l2": "KD", "l3": "KC", "r0": "3D 9S", "r1": "3H 9H",
          "r2": "3S 9D"}


def test_lost_when_nothing_can_move() -> None:
    g = after_deal({**LOCKED, "r3": "7C"})
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


def test_lost_when_building_goes_round_in_circles_without_a_play() -> None:
    # 8C and the nines can shuttle about for ever, but nothing ever reaches a foundation
    g = after_deal({**LOCKED, "r3": "5C 8C"})
    assert g.legal_moves()
    assert g.outcome() is Outcome.LOST


def test_not_lost_while_building_can_release_a_play() -> None:
    g = after_deal({**LOCKED, "r3": "2C 8C"})
    assert not any(g.pile_index(m.steps[0][1]) in FOUNDS for m in g.legal_moves())
    assert g.outcome() is None
    g.play("r3-r0")
    g.play("r3-f0")


def test_never_lost_during_the_deal() -> None:
    g = dealing({**LOCKED, "r3": "7C"}, stock="9C")
    assert g.outcome() is None
    assert Move(action="deal") in g.legal_moves()


def _is_play(g: TheKings, m: Move) -> bool:
    return bool(m.steps) and g.pile_index(m.steps[0][1]) in FOUNDS


def _builds_to_a_play(g: TheKings) -> list[Move] | None:
    """The shortest series of builds and lanes after which a card can be played."""
    paths: dict[object, list[Move]] = {g.state: []}
    queue = [g.state]
    while queue:
        state = queue.pop(0)
        h = TheKings(state, g.options, None)
        for m in h.legal_moves():
            if _is_play(h, m):
                return paths[state]
            nxt = h.apply(state, m)
            if nxt not in paths:
                paths[nxt] = paths[state] + [m]
                queue.append(nxt)
    return None


def test_played_out_games_end_won_or_lost() -> None:
    # plays first, then the deal, else the builds that lead to a play; the game must then
    # be declared lost exactly when no such builds exist
    outcomes = set()
    for seed in (0, 3, 9, 10, 11):  # deals that end quickly, won and lost
        g = engine.new_game(SLUG, seed=seed)
        assert isinstance(g, TheKings)
        while g.outcome() is None:
            moves = g.legal_moves()
            plays = [m for m in moves if _is_play(g, m)]
            deal = [m for m in moves if m.action]
            if plays or deal:
                g.play((plays or deal)[0])
                continue
            path = _builds_to_a_play(g)
            assert path, "not declared lost, yet no play can be reached"
            for m in path:
                g.play(m)
        total = sum(len(g.state.piles[f]) for f in FOUNDS)
        assert (g.outcome() is Outcome.WON) == (total == 104)
        if g.outcome() is Outcome.LOST:
            assert _builds_to_a_play(g) is None
        outcomes.add(g.outcome())
    assert outcomes == {Outcome.WON, Outcome.LOST}


# ----------------------------------------------------------------------------- options

def test_options_round_trip_as_text() -> None:
    o = KingsOptions(rule_3=RuleIII.ALWAYS, line_foundations=LineFoundations.OWN_SIDE,
                     deal_availability=DealAvailability.JUST_DEALT,
                     lanes=Lanes.BOTH_GROUPS)
    text = engine.options_to_text(o)
    assert engine.options_from_text(KingsOptions, text) == o
    assert engine.options_to_text(KingsOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(KingsOptions, "rule_3:sometimes")


def test_every_option_names_its_note_and_rule_3_defaults_to_the_books_advice() -> None:
    assert KingsOptions().rule_3 is RuleIII.DEAL
    for d in engine.describe_options(KingsOptions):
        assert d["note"].startswith("note-ki-")
        assert len(d["choices"]) >= 2


def test_position_restores_the_deal_state_exactly() -> None:
    g = engine.new_game(SLUG, seed=21)
    for _ in range(12):
        moves = g.legal_moves()
        plays = [m for m in moves if m.steps]
        g.play((plays or moves)[0])
    h = engine.load_position(g.position())
    assert h.state == g.state
    assert h.position() == g.position()
