"""Napoleon's Square: every rule, every refusal (with the rule id it cites), the deal and the
Note on the kings, the play-out, the second way of playing, and the end."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome
from engine.cards import KING, SUITS, parse_cards
from engine.core import State
from engine.deal import shuffled
from engine.napoleons_square import (
    FOUNDS, PILES, SQUARE, STOCK, TALON_PILE, KingRemedy, NapoleonsSquare,
    SLIPS, NapoleonsSquareOptions, Square, TalonUse, TurnedCard, buried_pair, choice_order,
    deal_square, note_choices, note_suits, slipped,
)
from engine.rules import deal_together
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "napoleons-square"
R = f"{SLUG}-"


def game(piles: dict[str, str], fresh: int = 0, options: str | None = None,
         rest_to: str = "stock", vars: dict[str, int] | None = None) -> NapoleonsSquare:
    """A position holding the cards given (bottom to top); every other card lies under
    ``rest_to``'s cards (by default the pack, so that the pack is not exhausted)."""
    g = make_game(SLUG, piles, vars={"fresh": fresh, **(vars or {})}, options=options,
                  rest_to=rest_to)
    assert isinstance(g, NapoleonsSquare)
    return g


def exhausted(piles: dict[str, str], rest_to: str = "p11", fresh: int = 0,
              options: str | None = None) -> NapoleonsSquare:
    """A position with the pack exhausted: the other cards lie under ``rest_to``'s."""
    return game({**piles, "stock": ""}, fresh=fresh, options=options, rest_to=rest_to)


def tops(g: NapoleonsSquare, ids: str) -> list[str]:
    return [str(g.card_at(g.state, i) or "") for i in ids.split()]


def pile(g: NapoleonsSquare, pid: str) -> list[str]:
    return [str(c) for c in g.state.piles[g.pile_index(pid)]]


def legal(g: NapoleonsSquare) -> set[str]:
    return {str(m) for m in g.legal_moves()}


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.replace(" ", "."))


# Packet tops that can neither be played on empty foundations nor married to each other
# (with two more packets of the same kind, p10 and p11, for positions that want no space).
KINGS = {f"p{j}": k for j, k in enumerate("KS KS KH KH KD KD KC KC".split())}
BLOCKED = {**KINGS, "p10": "5S", "p11": "5S"}


def _seeds(cond: object, options: str = "", n: int = 400) -> list[int]:
    out = []
    for seed in range(n):
        g = engine.new_game(SLUG, seed=seed, options=options)
        if cond(g):  # type: ignore[operator]
            out.append(seed)
    return out


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("napoleons-square-deal")
def test_twelve_packets_of_four_dealt_together_the_rest_is_the_pack() -> None:
    seed = next(s for s in range(50) if not note_suits(
        deal_square(shuffled(engine.pack(2), s), Square.PACKETS)[0]))
    g = engine.new_game(SLUG, seed=seed)
    s = g.state
    assert [len(s.piles[j]) for j in SQUARE] == [4] * 12
    assert len(s.piles[STOCK]) == 56
    assert not s.piles[TALON_PILE] and all(not s.piles[f] for f in FOUNDS)
    assert Counter(s.all_cards()) == Counter(engine.pack(2))
    # Each packet is four cards taken off the top of the pack together and turned face up,
    # the pack's top card lying at the bottom of the packet; packet 1 is dealt first.
    stock = tuple(shuffled(engine.pack(2), seed))
    for j in SQUARE:
        packet, stock = deal_together(stock, 4)
        assert s.piles[j] == packet
    assert s.piles[STOCK] == stock
    assert s.vars == (0, 0, 0, 0)


def test_same_deal_number_same_deal() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (8, 8, 9))
    assert a == b and a != c


@pytest.mark.rules("napoleons-square-deal")
def test_the_packets_form_three_sides_of_a_square_round_the_foundations() -> None:
    spec = {p.id: p for p in PILES}
    left = [spec[f"p{j}"] for j in range(4)]
    top = [spec[f"p{j}"] for j in range(4, 8)]
    right = [spec[f"p{j}"] for j in range(8, 12)]
    founds = [spec[f"f{k}"] for k in range(8)]
    fx = {f.x for f in founds}
    assert len(fx) == 4 and len({f.y for f in founds}) == 2    # two rows of four
    assert all(p.x < min(fx) for p in left) and all(p.x > max(fx) for p in right)
    assert all(p.y < min(f.y for f in founds) for p in top)
    assert [p.y for p in left] == sorted((p.y for p in left), reverse=True)  # up the left
    assert [p.x for p in top] == sorted(p.x for p in top)                     # across the top
    assert [p.y for p in right] == sorted(p.y for p in right)                 # down the right
    # The foot of the square is open: the pack and the talon lie there.
    assert spec["talon"].y > max(f.y for f in founds)


def test_the_narrow_layout_keeps_the_square_and_every_pile() -> None:
    narrow = next(lay for lay in NapoleonsSquare.LAYOUTS if lay.name == "narrow")
    assert narrow.max_width and narrow.grid[0] <= 8
    assert set(narrow.at) == {p.id for p in PILES}
    at = narrow.at
    fx = {at[f"f{k}"][0] for k in range(8)}
    assert all(at[f"p{j}"][0] < min(fx) for j in range(4))
    assert all(at[f"p{j}"][0] > max(fx) for j in range(8, 12))


@pytest.mark.rules("napoleons-square-rule-1")
def test_the_whole_square_is_in_view_the_pack_hidden_the_talon_shows_its_top() -> None:
    g = game({"p0": "5H 9C JD 2S", "talon": "2S 3S 4S"})
    faces = {p["id"]: p["cards"] for p in engine.view_of(g)["piles"]}
    assert faces["p0"] == [{"c": "5H"}, {"c": "9C"}, {"c": "JD"}, {"c": "2S"}]
    assert faces["talon"] == [{"c": None}, {"c": None}, {"c": "4S"}]
    assert all(c == {"c": None} for c in faces["stock"])


# ----------------------------------------------------------------------------- Rule I

@pytest.mark.rules("napoleons-square-rule-1")
def test_rule_1_only_the_uppermost_card_of_a_packet_is_available() -> None:
    g = game({"p0": "AS 9H 8H 4C", "p1": "5C", "p2": "10H", "p3": "", "talon": "KD"})
    assert refusal_rule(g, "p0:0-f0") == R + "rule-1"
    assert refusal_rule(g, "p0:2-p1") == R + "rule-1"
    assert refusal_rule(g, "p0:1-p2") == R + "rule-1"
    assert refusal_rule(g, "p0:1-p3") == R + "rule-1"
    assert not any(m.steps and ":" in m.steps[0][0] for m in g.legal_moves())
    g.play("p0-p1")  # the 4C is married on the 5C: the 8H is released
    assert tops(g, "p0") == ["8H"]


@pytest.mark.rules("napoleons-square-rule-1", "napoleons-square-aces")
def test_the_cards_underneath_are_released_by_the_removal_of_those_above() -> None:
    g = game({"p0": "AS 9H", "p1": "10H"})
    assert refusal_rule(g, "p0:0-f3") == R + "rule-1"
    g.play("p0-p1")
    g.play("p0-f3")
    assert pile(g, "f3") == ["AS"] and not g.state.piles[0]


# ----------------------------------------------------------------------------- Rule II

@pytest.mark.rules("napoleons-square-rule-2")
def test_rule_2_a_space_is_filled_from_the_talon_when_the_player_likes() -> None:
    g = game({"p0": "5C", "p1": "6C", "p2": "JD 9H", "stock": "8D 3S"})
    g.play("p0-p1")
    assert not g.state.piles[0] and "10 spaces" in g.status_of(g.state)
    g.play("deal")            # the space need not be filled: the 3S is laid aside
    assert not g.state.piles[0]
    g.play("deal")            # a favourable opportunity: the 8D, just turned
    g.play("talon-p0")
    assert pile(g, "p0") == ["8D"] and pile(g, "talon") == ["3S"]
    assert "9 spaces" in g.status_of(g.state)


@pytest.mark.rules("napoleons-square-rule-2")
def test_a_space_is_never_filled_from_the_square() -> None:
    g = game({"p0": "", "p1": "JD 9H", "p2": "KC", "talon": "8D"})
    assert refusal_rule(g, "p1-p0") == R + "rule-2"
    assert refusal_rule(g, "p2-p0") == R + "rule-2"    # not even a lone king
    assert "p1-p0" not in legal(g) and "talon-p0" in legal(g)


@pytest.mark.rules("napoleons-square-rule-2", "napoleons-square-play-out")
def test_a_card_from_the_pack_is_turned_up_before_it_fills_a_space() -> None:
    g = game({"p0": "", "stock": "8D"})
    assert refusal_rule(g, "stock-p0") == R + "rule-2"
    g.play("deal")
    g.play("talon-p0")
    assert pile(g, "p0") == ["8D"]


@pytest.mark.rules("napoleons-square-rule-2", "napoleons-square-marriages")
def test_a_space_takes_one_card_which_then_begins_a_packet() -> None:
    g = game({"p0": "", "talon": "4C 9H 7H 8H"})
    g.play("talon-p0")
    g.play("talon-p0")      # the 7H is married on the 8H: the space is a packet now
    assert pile(g, "p0") == ["8H", "7H"]
    assert refusal_rule(g, "talon-p0") == R + "marriages"   # one card, not a second


@pytest.mark.rules("napoleons-square-rule-2", "napoleons-square-marriages")
def test_the_card_in_a_space_takes_marriages_is_played_and_moves_on() -> None:
    g = game({"p0": "", "p1": "QS 8H", "p2": "7H", "p3": "10H",
              "talon": "9H", "f0": "AH 2H 3H 4H 5H 6H"})
    g.play("talon-p0")
    g.play("p1-p0")      # the 8H married on the 9H in the space
    g.play("p2-p0")      # and the 7H on it
    assert pile(g, "p0") == ["9H", "8H", "7H"]
    g.play("p0-f0")
    g.play("p0-f0")
    g.play("p0-p3")      # the 9H, the packet's only card, married away: a space again
    assert not g.state.piles[0] and pile(g, "p3") == ["10H", "9H"]


@pytest.mark.rules("napoleons-square-rule-2", "napoleons-square-play-out")
def test_under_the_narrow_reading_laid_aside_cards_still_fill_spaces() -> None:
    g = game({"p0": "", "p2": "3C", "talon": "2C"}, options="talon_use:spaces")
    assert refusal_rule(g, "talon-p2") == R + "play-out"
    g.play("talon-p0")
    assert pile(g, "p0") == ["2C"]


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("napoleons-square-aces", "napoleons-square-foundations")
def test_an_ace_on_the_surface_goes_to_any_empty_place_and_suitable_cards_follow() -> None:
    g = game({"p0": "AH", "p1": "2H", "p2": "AH"})
    assert {f"p0-f{k}" for k in range(8)} <= legal(g)
    g.play("p0-f5")
    g.play("p1-f5")
    g.play("p2-f0")
    assert pile(g, "f5") == ["AH", "2H"] and pile(g, "f0") == ["AH"]


@pytest.mark.rules("napoleons-square-foundations")
def test_only_an_ace_begins_a_foundation() -> None:
    g = game({"p0": "2H"})
    assert refusal_rule(g, "p0-f0") == R + "foundations"


@pytest.mark.rules("napoleons-square-foundations")
def test_foundations_ascend_in_sequence_to_kings() -> None:
    g = game({"f0": "AS 2S 3S", "p0": "5S", "p1": "4S"})
    assert refusal_rule(g, "p0-f0") == R + "foundations"
    g.play("p1-f0")
    g.play("p0-f0")
    full = "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"
    g = game({"f1": full, "p0": "AD"})
    assert refusal_rule(g, "p0-f1") == R + "foundations"


@pytest.mark.rules("napoleons-square-rule-3")
def test_rule_3_all_the_foundations_must_follow_suit() -> None:
    g = game({"f0": "AS 2S", "p0": "3H"})
    assert refusal_rule(g, "p0-f0") == R + "rule-3"


@pytest.mark.rules("napoleons-square-foundations")
def test_a_card_fitting_both_foundations_of_its_suit_goes_where_the_player_chooses() -> None:
    g = game({"f0": "AC 2C", "f4": "AC 2C", "p0": "3C"})
    assert {"p0-f0", "p0-f4"} <= legal(g)
    g.play("p0-f4")
    assert pile(g, "f4") == ["AC", "2C", "3C"]


@pytest.mark.rules("napoleons-square-foundations")
def test_foundation_cards_stay_there() -> None:
    g = game({"f0": "AS 2S", "p0": ""})
    assert refusal_rule(g, "f0-p0") == R + "foundations"
    assert refusal_rule(g, "f0-f1") == R + "foundations"
    assert refusal_rule(g, "f0-talon") == R + "foundations"


@pytest.mark.rules("napoleons-square-aces")
def test_plays_are_never_made_for_the_player() -> None:
    g = game({"p0": "AH", "stock": "9C"})
    g.play("deal")
    assert pile(g, "p0") == ["AH"] and all(not g.state.piles[f] for f in FOUNDS)


# ----------------------------------------------------------------------------- marriages

@pytest.mark.rules("napoleons-square-marriages")
def test_marriages_in_a_descending_line_and_in_suit() -> None:
    g = game({"p0": "8H", "p1": "7H", "p2": "7C", "p3": "9H", "p4": "AD", "p5": "2D",
              "p6": "KS", "p7": "QS"})
    assert refusal_rule(g, "p2-p0") == R + "marriages"   # wrong suit
    assert refusal_rule(g, "p3-p0") == R + "marriages"   # ascending
    assert refusal_rule(g, "p5-p4") == R + "marriages"   # nothing goes on an ace
    assert refusal_rule(g, "p6-p7") == R + "marriages"   # a king goes on nothing
    g.play("p7-p6")                                       # but a queen goes on its king
    g.play("p1-p0")
    assert pile(g, "p0") == ["8H", "7H"] and not g.state.piles[1]


@pytest.mark.rules("napoleons-square-marriages", "napoleons-square-rule-1")
def test_a_sequence_moves_one_card_at_a_time() -> None:
    g = game({"p0": "9S 8S", "p1": "9S", "p2": "10S"})
    assert refusal_rule(g, "p0:0-p2") == R + "rule-1"
    assert refusal_rule(g, "p0-p1+p0-p2") == R + "board"
    g.play("p0-p1")     # the eight alone, on the other nine
    g.play("p0-p2")     # then the nine, released, on the ten
    g.play("p1-p2")     # and the eight after it
    assert pile(g, "p2") == ["10S", "9S", "8S"] and not g.state.piles[0]


@pytest.mark.rules("napoleons-square-marriages")
def test_two_packs_give_two_targets_and_a_card_may_shuttle() -> None:
    g = game({"p0": "6D", "p1": "6D", "p2": "5D"})
    g.play("p2-p0")
    g.play("p0-p1")
    assert pile(g, "p1") == ["6D", "5D"] and pile(g, "p0") == ["6D"]


# ----------------------------------------------------------------------------- the Note

def _packets(*texts: str) -> list[tuple[Card, ...]]:
    rest = list(texts) + ["2S 3S 4S 5S"] * (12 - len(texts))
    return [cards(t) for t in rest]


@pytest.mark.rules("napoleons-square-note")
def test_the_note_applies_when_both_kings_of_a_suit_lie_above_smaller_cards() -> None:
    from engine.cards import Suit
    assert note_suits(_packets("5D 9C KD 2H", "3D KD")) == [Suit.DIAMONDS]
    # directly on the smaller card or higher; one king alone is not the Note's case
    assert note_suits(_packets("5D 9C KD 2H", "3D 8C 7C KD")) == [Suit.DIAMONDS]
    assert note_suits(_packets("5D 9C KD 2H", "KD 3D 4D")) == []
    assert note_suits(_packets("5H 9C KD 2H", "3C KD")) == []
    # a king above the other king and a smaller card: both block it
    assert note_suits(_packets("5D KD KD")) == [Suit.DIAMONDS]


def _note_deals(n: int = 200) -> list[int]:
    """The deals below ``n`` whose square, as dealt, needs the Note."""
    return [s for s in range(n) if note_suits(deal_square(shuffled(engine.pack(2), s),
                                                          Square.PACKETS)[0])]


@pytest.mark.rules("napoleons-square-note")
def test_the_player_chooses_the_king_exactly_when_the_note_applies() -> None:
    needs = _note_deals()
    assert needs and len(needs) < 40          # about one deal in thirteen
    for seed in range(200):
        g = engine.new_game(SLUG, seed=seed)
        dealt, _ = deal_square(shuffled(engine.pack(2), seed), Square.PACKETS)
        assert list(g.state.piles[:12]) == dealt     # nothing slipped by the board itself
        if seed in needs:
            assert legal(g) == set(SLIPS), seed      # the choice, and nothing else
            assert g.outcome() is None and "choose which" in g.status_of(g.state)
        else:
            assert not set(SLIPS) & legal(g) and g.state.vars == (0, 0, 0, 0)
            assert refusal_rule(g, "slip_first") == R + "note"
    for options in ("remedy:redeal", "square:single"):
        g = engine.new_game(SLUG, seed=needs[0], options=options)
        assert not set(SLIPS) & legal(g)
        assert refusal_rule(g, "slip_second") == R + "note"


@pytest.mark.rules("napoleons-square-note")
def test_each_choice_slips_its_own_king_underneath_its_packet() -> None:
    # Both kings of diamonds block: the first dealt in packet 1, the second in packet 2.
    g = game({"p0": "5D 9C KD 2H", "p1": "3D 8C 7C KD"}, vars={"choosing": 1})
    assert note_choices(g.state.piles[:12]) == [(0, 2), (1, 3)]
    assert "the king dealt first, in packet 1, or the one dealt second, in packet 2" in \
        g.status_of(g.state)
    g.play("slip_first")
    assert pile(g, "p0") == ["KD", "5D", "9C", "2H"] and pile(g, "p1") == ["3D", "8C", "7C", "KD"]
    assert g.state.vars[1:] == (1, 0, 0) and g.outcome() is None
    assert "the king of diamonds has been slipped underneath packet 1" in g.status_of(g.state)
    g.undo()
    g.play("slip_second")
    assert pile(g, "p0") == ["5D", "9C", "KD", "2H"] and pile(g, "p1") == ["KD", "3D", "8C", "7C"]
    assert g.state.vars[1:] == (1 << 1, 0, 0)
    assert g.move_stack[-1] == Move.parse("slip_second")
    assert g.describe(g.state, Move.parse("deal")).startswith("The ")


@pytest.mark.rules("napoleons-square-note")
def test_both_kings_in_one_packet_the_lower_is_dealt_first() -> None:
    g = game({"p3": "5D KD 9C KD"}, vars={"choosing": 1})
    assert "the lower of the two in packet 4" in g.status_of(g.state)
    g.play("slip_first")
    assert pile(g, "p3") == ["KD", "5D", "9C", "KD"]
    g.undo()
    g.play("slip_second")
    assert pile(g, "p3") == ["KD", "5D", "KD", "9C"]


@pytest.mark.rules("napoleons-square-note")
def test_two_suits_concerned_are_chosen_for_in_turn() -> None:
    g = game({"p0": "5D KD", "p1": "3D KD", "p2": "2S KS", "p3": "4S 9C KS"},
             vars={"choosing": 1})
    assert "kings of spades" in g.status_of(g.state)           # spades come first
    g.play("slip_second")                                      # the K♠ of packet 4
    assert pile(g, "p3") == ["KS", "4S", "9C"]
    assert legal(g) == set(SLIPS) and "kings of diamonds" in g.status_of(g.state)
    assert refusal_rule(g, "deal") == R + "note"
    g.play("slip_first")                                       # the K♦ of packet 1
    assert pile(g, "p0") == ["KD", "5D"] and g.state.vars[1:] == (0b1001, 0, 0)
    assert "deal" in legal(g) and not set(SLIPS) & legal(g)
    assert g.status_of(g.state).count("has been slipped") == 2
    g.undo()
    g.undo()
    assert pile(g, "p3") == ["4S", "9C", "KS"] and g.state.vars[3] == 1


@pytest.mark.rules("napoleons-square-note")
def test_while_the_choice_is_pending_every_other_move_is_refused_by_the_note() -> None:
    g = game({"p0": "5D 9C KD 2H", "p1": "3D 8C 7C KD", "p2": "AH", "p3": "3H"},
             vars={"choosing": 1})
    for move in ("deal", "p2-f0", "p0-p3", "stock-p5", "redeal"):
        try:
            g.play(move)
        except engine.IllegalMove as e:
            assert e.rule == R + "note" and "Choose the king to slip" in e.message, move
        else:
            raise AssertionError(f"{move} was played while the Note's choice is pending")
    assert engine.view_of(g)["pack"] == {"pile": "stock", "move": "deal", "legal": False}
    g.play("slip_first")
    g.play("p2-f0")                     # the ace, once the king is chosen
    assert g.status_of(g.state).count("slipped") == 0   # told until the first move of play


@pytest.mark.rules("napoleons-square-note")
def test_the_board_offers_the_choice_as_its_buttons() -> None:
    seed = _note_deals()[0]
    view = engine.view_of(engine.new_game(SLUG, seed=seed))
    acts = {a["move"]: a for a in view["actions"]}
    assert acts["slip_first"]["enabled"] and acts["slip_second"]["enabled"]
    assert not acts["deal"]["enabled"] and not view["movable"] and not view["safe"]
    assert acts["slip_first"]["rule"] == R + "note"


@pytest.mark.rules("napoleons-square-note")
def test_a_position_mid_choice_round_trips_and_a_false_choice_is_refused() -> None:
    seed = _note_deals()[0]
    g = engine.new_game(SLUG, seed=seed)
    for text in (g.position(), g.position(compact=True)):
        h = engine.load_position(text)
        assert h.state == g.state and legal(h) == set(SLIPS)
    g.play("slip_second")
    h = engine.load_position(g.position())
    assert h.state == g.state and h.move_stack == [Move.parse("slip_second")]
    h.undo()
    assert h.state.vars[3] == 1 and legal(h) == set(SLIPS)
    # A choice pending where the Note does not apply, or after play has begun, or under
    # the other remedy, is corrupt.
    clean = engine.new_game(SLUG, seed=next(s for s in range(50) if s not in _note_deals(50)))
    with pytest.raises(engine.PositionError):
        engine.load_position(clean.position().replace("choosing:0", "choosing:1"))
    text = engine.new_game(SLUG, seed=seed).position()
    with pytest.raises(engine.PositionError):
        engine.load_position(text.replace("choosing:1", "choosing:2"))
    with pytest.raises(engine.PositionError):
        engine.load_position(text.replace("opts=", "opts=remedy:redeal"))
    with pytest.raises(engine.PositionError):
        engine.load_position(text.replace("moves=", "moves=deal"))   # refused mid-choice
    kings = {"p0": "5D 9C KD 2H", "p1": "3D 8C 7C KD"}
    engine.load_position(game(kings, vars={"choosing": 1}).position())
    with pytest.raises(engine.PositionError):
        engine.load_position(game({**kings, "talon": "4S"}, vars={"choosing": 1}).position())


@pytest.mark.rules("napoleons-square-note")
def test_the_likelier_king_is_listed_first_for_the_careful_player() -> None:
    # Neither leaves a sure loss: the king covering more cards first (packet 2's).
    packets = _packets("5D 9C KD 2H", "3D 8C 7C KD")
    assert choice_order(packets) == [1, 0]
    # The king of packet 1 covers both fives of diamonds: it comes first, though it covers
    # fewer cards than the other.
    packets = _packets("5D 5D KD", "3D 8C 7C KD")
    assert buried_pair(packets) is not None
    assert choice_order(packets) == [0, 1]
    assert buried_pair([slipped(packets[0], 2), *packets[1:]]) is None


@pytest.mark.rules("napoleons-square-note")
def test_the_other_remedy_takes_up_the_square_and_deals_it_again() -> None:
    seed = _note_deals()[0]
    g = engine.new_game(SLUG, seed=seed, options="remedy:redeal")
    dealt, rest = deal_square(shuffled(engine.pack(2), seed), Square.PACKETS)
    assert g.state.vars[1] == 0 and g.state.vars[2] >= 1 and g.state.vars[3] == 0
    assert not note_suits(g.state.piles[:12])
    assert [len(g.state.piles[j]) for j in SQUARE] == [4] * 12
    assert Counter(c for j in SQUARE for c in g.state.piles[j]) == Counter(
        c for p in dealt for c in p)                 # the same forty-eight cards
    assert g.state.piles[STOCK] == rest               # the pack untouched
    assert "dealt again" in g.status_of(g.state)


@pytest.mark.rules("napoleons-square-note")
def test_deals_the_note_does_not_touch_are_left_as_dealt() -> None:
    for seed in range(30):
        g = engine.new_game(SLUG, seed=seed)
        dealt, _ = deal_square(shuffled(engine.pack(2), seed), Square.PACKETS)
        if not note_suits(dealt):
            assert list(g.state.piles[:12]) == dealt and g.state.vars == (0, 0, 0, 0)


@pytest.mark.rules("napoleons-square-note", "napoleons-square-no-redeal")
def test_two_blocking_kings_lose_the_game_whenever_they_are_found() -> None:
    g = game({"p0": "5D 9C KD", "p1": "3D KD", "stock": "9C"})
    assert g.outcome() is Outcome.LOST
    assert "both kings of diamonds" in g.status_of(g.state)
    g = game({"p0": "5D 9C KD", "p1": "KD 3D", "stock": "9C"})   # one slipped underneath
    assert g.outcome() is None


@pytest.mark.rules("napoleons-square-no-redeal")
def test_a_king_above_both_cards_of_a_smaller_rank_loses_the_game() -> None:
    g = game({"p0": "5D 2C 5D KD", "stock": "9C"})
    assert g.outcome() is Outcome.LOST
    assert "above both fives of diamonds" in g.status_of(g.state)
    g = game({"p0": "5D 2C KD 5D", "stock": "9C"})
    assert g.outcome() is None


# ----------------------------------------------------------------------------- the play-out

@pytest.mark.rules("napoleons-square-play-out")
def test_turned_cards_go_to_the_talon_where_they_may_be_used() -> None:
    g = game({"p0": "9S", "f0": "AC", "stock": "4H 2C 8S"})
    g.play("deal")
    assert pile(g, "talon") == ["8S"] and tops(g, "stock") == ["2C"]
    g.play("talon-p0")   # for the sequences of the square
    g.play("deal")
    g.play("talon-f0")   # for the foundations
    g.play("deal")       # not suitable: placed in the talon
    assert pile(g, "talon") == ["4H"]
    assert pile(g, "p0") == ["9S", "8S"] and pile(g, "f0") == ["AC", "2C"]


@pytest.mark.rules("napoleons-square-play-out")
def test_a_turned_card_that_can_be_used_is_not_placed_in_the_talon() -> None:
    # the 2C just turned fits the foundation: the next card is not turned over it
    g = game({"f0": "AC", "p0": "9S", "p1": "", "talon": "2C", "stock": "4D 5D 8S"},
             fresh=1)
    before = g.position()
    assert refusal_rule(g, "deal") == R + "play-out"
    assert g.position() == before
    g.play("talon-f0")
    g.play("deal")
    # the 8S just turned may be married to the 9S: the same
    assert refusal_rule(g, "deal") == R + "play-out"
    g.play("talon-p0")
    g.play("deal")
    # the 5D can go nowhere but a space, which is no sequence: it may be laid aside
    assert "talon-p1" in legal(g)
    g.play("deal")
    assert pile(g, "talon") == ["5D", "4D"]
    # a card laid aside before (not the one just turned) does not hold the pack back
    h = game({"f0": "AC", "talon": "2C", "stock": "5D"}, fresh=0)
    assert "deal" in legal(h)
    # under the other reading any turned card may be laid aside
    free = game({"f0": "AC", "talon": "2C", "stock": "5D 8S"}, fresh=1,
                options="turned_card:free")
    free.play("deal")
    assert pile(free, "talon") == ["2C", "8S"]


@pytest.mark.rules("napoleons-square-play-out")
def test_the_top_card_of_the_talon_stays_available() -> None:
    g = game({"p0": "8D", "talon": "7D 3C", "f0": "AC 2C"})
    assert refusal_rule(g, "talon:0-p0") == R + "play-out"
    g.play("talon-f0")
    g.play("talon-p0")
    assert not g.state.piles[TALON_PILE]


@pytest.mark.rules("napoleons-square-play-out")
def test_only_turned_cards_go_to_the_talon_and_the_pack_is_only_turned() -> None:
    g = game({"p0": "8D", "p1": "", "talon": "3C", "f0": "AC 2C 3C", "stock": "5S"})
    assert refusal_rule(g, "p0-talon") == R + "play-out"
    assert refusal_rule(g, "stock-f1") == R + "play-out"
    assert refusal_rule(g, "stock-talon") == R + "play-out"
    assert refusal_rule(g, "stock-p0") == R + "play-out"


@pytest.mark.rules("napoleons-square-play-out")
def test_the_pack_may_be_turned_while_other_moves_are_open() -> None:
    g = game({"p0": "AS", "p1": "5H", "p2": "6H", "stock": "9C"})
    assert {"deal", "p0-f0", "p1-p2"} <= legal(g)
    g.play("deal")


@pytest.mark.rules("napoleons-square-play-out")
def test_narrow_talon_reading_uses_a_card_only_as_it_is_turned() -> None:
    opts = "talon_use:spaces,turned_card:free"  # a playable card may be laid aside (NS-7)
    g = game({"p0": "9S", "p1": "", "f0": "AC", "stock": "4H 2C 8S"}, options=opts)
    g.play("deal")
    g.play("talon-p0")   # the card just turned may be married
    g.play("deal")
    g.play("deal")       # the 2C is laid aside under the 4H just turned
    g.play("talon-p1")   # the 4H fills the space
    assert g.state.vars[0] == 0
    assert refusal_rule(g, "talon-f0") == R + "play-out"  # the 2C may only fill a space now


@pytest.mark.rules("napoleons-square-play-out")
def test_narrow_talon_reading_the_turned_card_waits_for_other_moves() -> None:
    g = game({"p0": "10D", "p1": "9D", "p2": "8H", "stock": "8D"},
             options="talon_use:spaces")
    g.play("deal")
    g.play("p1-p0")      # the square may be rearranged while the card is in hand
    assert refusal_rule(g, "talon-p2") == R + "marriages"
    g.play("talon-p0")
    assert pile(g, "p0") == ["10D", "9D", "8D"]


@pytest.mark.rules("napoleons-square-no-redeal")
def test_no_redeal() -> None:
    g = exhausted({"p0": "5H", "talon": "3C"}, rest_to="talon")
    assert refusal_rule(g, "deal") == R + "no-redeal"
    assert refusal_rule(g, "redeal") == R + "no-redeal"
    assert "deal" not in legal(g)
    assert "exhausted" in g.status_of(g.state)


# ----------------------------------------------------------------------------- the variant

@pytest.mark.rules("napoleons-square-variant")
def test_the_second_way_deals_a_square_of_twelve_single_cards() -> None:
    g = engine.new_game(SLUG, seed=4, options="square:single")
    s = g.state
    assert [len(s.piles[j]) for j in SQUARE] == [1] * 12
    assert len(s.piles[STOCK]) == 92
    order = shuffled(engine.pack(2), 4)[::-1]
    assert [s.piles[j][0] for j in SQUARE] == order[:12]
    assert s.vars == (0, 0, 0, 0)


@pytest.mark.rules("napoleons-square-variant")
def test_the_second_way_plays_marries_and_fills_vacancies_as_the_first() -> None:
    g = game({"p0": "9H", "p1": "KS", "p2": "8H", "f0": "AC", "stock": "3C 10H 2C"},
             options="square:single")
    g.play("deal")
    g.play("talon-f0")             # suitable cards played on the foundations
    g.play("p2-p0")                # or married on those of the square
    assert refusal_rule(g, "p0-p2") == R + "rule-2"   # vacancies: from talon or pack only
    g.play("deal")
    g.play("talon-p2")             # in the usual manner, when the player likes
    assert pile(g, "p2") == ["10H"] and pile(g, "p0") == ["9H", "8H"]
    g = game({"p0": "3D 9C KD", "p1": "2D KD", "stock": "9C"}, options="square:single")
    assert g.outcome() is Outcome.LOST   # (no such square can be dealt single)
    assert engine.new_game(SLUG, seed=1, options="square:single").outcome() is None


# ----------------------------------------------------------------------------- refusals

def test_board_refusals() -> None:
    g = game({"p0": "5H", "p1": ""})
    assert refusal_rule(g, "shuffle") == R + "board"
    assert refusal_rule(g, "q1-f0") == R + "board"
    assert refusal_rule(g, "p0-q1") == R + "board"
    assert refusal_rule(g, "p0-p0") == R + "board"
    assert refusal_rule(g, "p0-stock") == R + "board"
    assert refusal_rule(g, "p1-f0") == R + "board"
    assert refusal_rule(g, "talon-f0") == R + "board"
    assert refusal_rule(g, "p0-p1:0") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"


# ----------------------------------------------------------------------------- the end

def _won_foundations() -> dict[str, str]:
    order = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    suits = "S S H H D D C C".split()
    return {f"f{k}": " ".join(r + s for r in order) for k, s in enumerate(suits)}


@pytest.mark.rules("napoleons-square-foundations")
def test_won_when_every_foundation_reaches_its_king() -> None:
    piles = _won_foundations()
    piles["f7"] = piles["f7"].rsplit(" ", 1)[0]
    g = game({**piles, "p3": "KC", "stock": ""}, rest_to="p3")
    assert g.outcome() is None
    g.play("p3-f7")
    assert g.outcome() is Outcome.WON
    assert g.status_of(g.state).startswith("Won")


@pytest.mark.rules("napoleons-square-no-redeal")
def test_lost_when_nothing_can_move() -> None:
    g = exhausted({**BLOCKED, "p8": "5H", "p9": "5H"})
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


@pytest.mark.rules("napoleons-square-no-redeal", "napoleons-square-marriages")
def test_lost_when_marriages_go_round_in_circles_without_a_play() -> None:
    g = exhausted({**BLOCKED, "p8": "6H", "p9": "AS 6H", "p7": "KC 5H"})
    assert g.legal_moves()
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("napoleons-square-no-redeal", "napoleons-square-rule-2")
def test_not_lost_while_moves_can_release_a_play_and_spaces_take_no_square_card() -> None:
    g = exhausted({**BLOCKED, "p8": "6H", "p9": "AS 5H"})
    assert not any(g.pile_index(m.steps[0][1]) in FOUNDS for m in g.legal_moves())
    assert g.outcome() is None
    g.play("p9-p8")
    g.play("p9-f0")
    # A space cannot take the card that blocks the ace: it is a card of the square.
    g = exhausted({**BLOCKED, "p8": "", "p9": "AS 9C"})
    assert g.outcome() is Outcome.LOST


@pytest.mark.rules("napoleons-square-play-out", "napoleons-square-no-redeal")
def test_the_talon_counts_in_the_verdict_under_each_reading() -> None:
    # the other cards lie at the bottom of the talon
    piles = {**BLOCKED, "p8": "5H", "p9": "5H", "f0": "AD 2D 3D", "talon": "4D 9S"}
    assert exhausted(piles, rest_to="talon").outcome() is Outcome.LOST  # the 9S blocks
    g = exhausted({**piles, "p8": ""}, rest_to="talon")
    assert g.outcome() is None                 # the 9S fills the space, the 4D is played
    g = exhausted({**piles, "p8": ""}, rest_to="talon", options="talon_use:spaces")
    assert g.outcome() is Outcome.LOST         # the 4D was laid aside: spaces only
    g = exhausted({**piles, "p8": "", "talon": "9S 4D"}, rest_to="talon", fresh=1,
                  options="talon_use:spaces")
    assert g.outcome() is None                 # the 4D has just been turned


def end_position(piles: dict[str, str], options: str = "") -> NapoleonsSquare:
    """The pack exhausted, the cards given in the square and the talon, and every other card
    on the foundations: each suit's two foundations built as far as the cards left allow."""
    left = Counter(c for text in piles.values() for c in cards(text))
    founds: dict[str, str] = {}
    k = 0
    for suit in SUITS:
        for copy in (1, 2):  # up to the lowest rank with fewer than ``copy`` copies out
            top = min((r for r in range(1, 14) if left[Card(r, suit)] >= copy), default=14)
            founds[f"f{k}"] = " ".join(str(Card(r, suit)) for r in range(1, top))
            k += 1
    return game({**piles, **founds, "stock": ""}, options=options)


@pytest.mark.rules("napoleons-square-no-redeal", "napoleons-square-marriages",
                   "napoleons-square-rule-2")
@pytest.mark.parametrize("opts", ["", "talon_use:spaces"])
def test_a_search_of_every_line_of_play_agrees_with_each_loss_verdict(opts: str) -> None:
    # Small end positions whose every line of play an exhaustive search visits: each
    # position the board calls lost must be one from which no series of moves wins.
    ends = ({"p0": "KC QC", "p1": "QC", "p2": "JC KC", "talon": "10C"},
            {"p0": "KS", "p1": "JS QS", "p2": "10S KS"},
            {"p0": "KS QC KH", "p1": "QS KS", "p2": "KC"})
    for piles in ends:
        g = end_position(piles, opts)
        assert sum(len(g.state.piles[f]) for f in FOUNDS) == 104 - len(
            [c for text in piles.values() for c in cards(text)])
        found = check_verdicts(g)
        assert found.winnable and found.lost  # some line of play loses; each loss checked


@pytest.mark.rules("napoleons-square-play-out")
def test_never_lost_while_the_pack_holds_cards_but_for_the_kings() -> None:
    g = game({**KINGS, "p8": "5H", "p9": "5H", "stock": "9C"}, rest_to="p9")
    assert g.outcome() is None
    assert Move(action="deal") in g.legal_moves()


def _is_play(g: NapoleonsSquare, m: Move) -> bool:
    return bool(m.steps) and g.pile_index(m.steps[0][1]) in FOUNDS


def _moves_to_a_play(g: NapoleonsSquare) -> list[Move] | None:
    """The shortest series of moves after which a card can be played (the pack being
    exhausted), by breadth-first search over the game's own legal moves."""
    paths: dict[State, list[Move]] = {g.state: []}
    queue = [g.state]
    while queue:
        state = queue.pop(0)
        h = NapoleonsSquare(state, g.options, None)
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


def _greedy(g: NapoleonsSquare, limit: int = 3000) -> None:
    """A simple player: plays whenever it can, then marriages not tried before from the
    same position, then a high talon card into a space, then the pack; at the end, the
    shortest series of moves to a play. Checks on the way that the game is never declared
    lost while a play can still be reached."""
    seen: set[tuple[State, str]] = set()
    for _ in range(limit):
        if g.outcome() is not None:
            return
        moves = g.legal_moves()
        s = g.state
        plays = [m for m in moves if _is_play(g, m)]
        if plays:
            g.play(plays[0])
            continue
        marry = [m for m in moves if m.steps and s.piles[g.pile_index(m.steps[0][1])]
                 and (s, str(m)) not in seen]
        if marry:
            seen.add((s, str(marry[0])))
            g.play(marry[0])
            continue
        fills = [m for m in moves if m.steps and m.steps[0][0] == "talon"]
        if fills and s.piles[TALON_PILE][-1].rank >= 10:
            g.play(fills[0])
            continue
        if Move(action="deal") in moves:
            g.play("deal")
            continue
        if fills:
            g.play(fills[0])
            continue
        path = _moves_to_a_play(g)
        assert path, "not declared lost, yet no play can be reached"
        for m in path:
            g.play(m)
    raise AssertionError("the game did not end")


@pytest.mark.rules("napoleons-square-no-redeal")
def test_played_out_games_end_won_or_lost_and_lost_only_when_no_play_can_follow() -> None:
    outcomes = set()
    for seed in range(8):
        g = engine.new_game(SLUG, seed=seed)
        assert isinstance(g, NapoleonsSquare)
        _greedy(g)
        total = sum(len(g.state.piles[f]) for f in FOUNDS)
        assert (g.outcome() is Outcome.WON) == (total == 104)
        if g.outcome() is Outcome.LOST and not g.hopeless(g.state):
            assert _moves_to_a_play(g) is None
        outcomes.add(g.outcome())
    assert Outcome.LOST in outcomes


@pytest.mark.rules("napoleons-square-foundations", "napoleons-square-play-out")
def test_a_deal_played_to_a_win_by_the_rules_is_never_declared_lost_on_the_way() -> None:
    g = engine.new_game(SLUG, seed=65)
    assert isinstance(g, NapoleonsSquare)
    _greedy(g)    # stops at the first verdict: a false loss on the way would stop it early
    assert g.outcome() is Outcome.WON
    assert all(len(g.state.piles[f]) == 13 for f in FOUNDS)


# ----------------------------------------------------------------------------- options, positions

def test_options_round_trip_as_text() -> None:
    o = NapoleonsSquareOptions(talon_use=TalonUse.SPACES, remedy=KingRemedy.REDEAL,
                               square=Square.SINGLE, turned_card=TurnedCard.FREE)
    text = engine.options_to_text(o)
    assert engine.options_from_text(NapoleonsSquareOptions, text) == o
    assert engine.options_to_text(NapoleonsSquareOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(NapoleonsSquareOptions, "square:round")


def test_every_option_names_its_note_and_defaults_to_the_recommended_reading() -> None:
    o = NapoleonsSquareOptions()
    assert (o.talon_use, o.remedy, o.square, o.turned_card) == (
        TalonUse.ANY, KingRemedy.SLIP, Square.PACKETS, TurnedCard.EMPLOY)
    for d in engine.describe_options(NapoleonsSquareOptions):
        assert d["note"].startswith("note-ns-")
        assert len(d["choices"]) == 2


def test_position_restores_the_turned_card_exactly() -> None:
    g = engine.new_game(SLUG, seed=21, options="talon_use:spaces,turned_card:free")
    for _ in range(30):
        moves = g.legal_moves()
        steps = [m for m in moves if m.steps]
        g.play((steps or moves)[0])
    g.play("deal")
    h = engine.load_position(g.position())
    assert h.state == g.state and h.state.vars[0] == 1
    assert h.position() == g.position()


def test_corrupt_positions_are_refused() -> None:
    g = game({"f0": "AS 2S", "talon": "3C"}, fresh=1)
    text = g.position()
    engine.load_position(text)
    with pytest.raises(engine.PositionError):
        engine.load_position(text.replace("f0:AS.2S", "f0:2S.AS"))
    with pytest.raises(engine.PositionError):
        engine.load_position(text.replace("fresh:1", "fresh:2"))
    with pytest.raises(engine.PositionError):
        engine.load_position(text.replace("slipped:0", "slipped:1"))  # no king under p0
    with pytest.raises(engine.PositionError):
        engine.load_position(text.replace("redealt:0", "redealt:-1"))
    g = game({"talon": ""}, fresh=0)
    with pytest.raises(engine.PositionError):
        engine.load_position(g.position().replace("fresh:0", "fresh:1"))


def test_the_slips_are_occasional_actions_shown_only_while_offered() -> None:
    # The board shows an occasional action only while it is enabled (NS-8's choice is
    # rare); the turn-up is always shown.
    for deal in (1, 2):
        actions = {a["move"]: a for a in engine.view_of(engine.new_game(SLUG, deal))["actions"]}
        assert actions["deal"]["occasional"] is False
        for m in SLIPS:
            assert actions[m]["occasional"] is True
            assert actions[m]["enabled"] is (deal == 2)
