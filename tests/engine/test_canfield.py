"""Canfield or Klondike: every rule, every refusal (with the rule id it cites), the option,
the counters, the end."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.core import State
from engine.solver import Budget, careful_move, solve
from engine.canfield import (
    FOUNDATION_PILES, ROW_PILES, STOCK, TALON_PILE, CanfieldOrKlondike, goes_on,
)
from engine.cards import ACE
from engine.deal import shuffled
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "canfield-or-klondike"
R = f"{SLUG}-"


def game(piles: dict[str, str], down: dict[int, int] | None = None, options: Any = None,
         rest_to: str = "stock") -> CanfieldOrKlondike:
    """A position with the given piles (every other card at the bottom of ``rest_to``, the
    stock by default; ``down`` maps a row's number to its count of face-down cards), loaded
    through ``engine.load_position`` with an explicit start, so that the position itself is
    checked."""
    made = make_game(SLUG, piles, vars={f"down{n}": d for n, d in (down or {}).items()},
                     options=options, rest_to=rest_to)
    g = engine.load_position(made.position())
    assert isinstance(g, CanfieldOrKlondike) and g.state == made.state
    return g


def up_to(suit: str, last: int) -> str:
    names = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    return " ".join(n + suit for n in names[:last])


def faces(g: CanfieldOrKlondike, pid: str) -> list[str | None]:
    view = engine.view_of(g)
    pile = next(p for p in view["piles"] if p["id"] == pid)
    return [c["c"] for c in pile["cards"]]


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("canfield-or-klondike-first-row", "canfield-or-klondike-layout",
                   "canfield-or-klondike-aces")
def test_the_deal_lays_the_staircase_and_picks_out_the_aces_showing() -> None:
    picked_any = False
    for seed in range(40):
        g = engine.new_game(SLUG, seed=seed)
        assert isinstance(g, CanfieldOrKlondike)
        s = g.state
        deck = list(shuffled(sorted(engine.pack(1)), seed))
        # the staircase, dealt line by line from the top of the pack: the first card of each
        # line face up, the rest face down to its right
        rows: list[list[Card]] = [[] for _ in range(7)]
        for line in range(7):
            for j in range(line, 7):
                rows[j].append(deck.pop())
        assert s.piles[STOCK] == tuple(deck) and len(deck) == 24
        assert not s.piles[TALON_PILE]
        aces = [c for f in FOUNDATION_PILES for c in s.piles[f]]
        assert all(c.rank == ACE for c in aces)
        picked_any |= bool(aces)
        for j, i in enumerate(ROW_PILES):
            down = s.vars[j]
            pile = s.piles[i]
            # the row as dealt, less the aces picked from its foot
            assert pile == tuple(rows[j][:len(pile)])
            assert all(c.rank == ACE for c in rows[j][len(pile):])
            assert down == (min(j, len(pile) - 1) if pile else 0)
            assert not pile or pile[-1].rank != ACE          # no ace left showing
            shown = faces(g, f"r{j + 1}")
            assert shown[:down] == [None] * down
            assert shown[down:] == [str(c) for c in pile[down:]]
        if not aces:
            assert [s.vars[j] for j in range(7)] == list(range(7))
            assert sum(len(s.piles[i]) for i in ROW_PILES) == 28
            assert sum(len(s.piles[i]) - s.vars[j] for j, i in enumerate(ROW_PILES)) == 7
        assert Counter(s.all_cards()) == Counter(engine.pack(1))
        assert faces(g, "stock") == [None] * 24
        assert g.outcome() is None
    assert picked_any
    # the notation of a deal: a fresh game is its deal number and nothing else
    g = engine.new_game(SLUG, seed=5)
    assert engine.load_position(g.position(compact=True)).state == g.state


@pytest.mark.rules("canfield-or-klondike-aces", "canfield-or-klondike-turn-up")
def test_an_ace_uncovered_at_the_deal_is_picked_out_too() -> None:
    from engine.canfield import _pick_out_aces
    piles: list[tuple[Card, ...]] = [()] * 13
    piles[ROW_PILES[2]] = tuple(Card.parse(t) for t in "9C AH AS".split())
    down = [0, 0, 2, 0, 0, 0, 0]
    _pick_out_aces(piles, down)
    # the ace of spades showing goes up; the ace of hearts it uncovers is turned up and
    # goes up in its turn; the nine of clubs is turned up and stays
    assert [piles[f] for f in FOUNDATION_PILES] == [(Card.parse("AS"),), (Card.parse("AH"),),
                                                    (), ()]
    assert piles[ROW_PILES[2]] == (Card.parse("9C"),) and down[2] == 0


# ----------------------------------------------------------------------------- counters

@pytest.mark.rules("canfield-or-klondike-stake")
def test_the_status_line_keeps_the_account_of_counters() -> None:
    g = game({"f1": "AS", "r1": "2S"})
    assert "counters: paid 52, won 5 (47 down)" in g.status_of(g.state)
    g.play("r1-f1")
    assert "2 on the foundations" in g.status_of(g.state)
    assert "paid 52, won 10 (42 down)" in g.status_of(g.state)
    assert CanfieldOrKlondike.account(10) == "counters: paid 52, won 50 (2 down)"
    assert CanfieldOrKlondike.account(11) == "counters: paid 52, won 55 (3 ahead)"
    assert CanfieldOrKlondike.account(52) == "counters: paid 52, won 260 (208 ahead)"


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("canfield-or-klondike-aces", "canfield-or-klondike-foundations")
def test_foundations_begin_with_any_ace_and_follow_suit_up_to_the_king() -> None:
    g = game({"f1": "AS", "r1": "2H", "r2": "3S", "r3": "2S", "r4": "AD"})
    assert refusal_rule(g, "r1-f1") == R + "foundations"   # a heart on the spades
    assert refusal_rule(g, "r2-f1") == R + "foundations"   # out of turn
    assert refusal_rule(g, "r3-f2") == R + "aces"          # only an ace begins one
    g.play("r4-f3")                                        # any ace, any empty place
    g.play("r3-f1")
    g.play("r2-f1")
    full = game({"f1": up_to("S", 13), "r1": "AH", "r2": "KH"})
    assert refusal_rule(full, "r2-f1") == R + "foundations"  # complete at the king


@pytest.mark.rules("canfield-or-klondike-foundations")
def test_a_card_on_a_foundation_stays_there_and_cards_go_up_one_at_a_time() -> None:
    g = game({"f1": up_to("S", 3), "f2": "AH", "r1": "4H", "r2": "3H 2C"},
             down={2: 0})
    assert refusal_rule(g, "f1-r1") == R + "foundations"   # never taken back
    assert refusal_rule(g, "r2:0-f2") == R + "foundations"  # two cards at once
    assert g.legal_moves().count(Move.parse("f1-r1")) == 0


@pytest.mark.rules("canfield-or-klondike-foundations")
def test_the_game_is_won_with_all_fifty_two_on_the_foundations() -> None:
    g = game({"f1": up_to("S", 13), "f2": up_to("H", 13), "f3": up_to("D", 13),
              "f4": up_to("C", 12), "talon": "KC"}, rest_to="talon")
    assert g.outcome() is None
    g.play("talon-f4")
    assert g.outcome() is Outcome.WON
    assert g.status_of(g.state).startswith("Won: all fifty-two")
    assert "won 260 (208 ahead)" in g.status_of(g.state)


# ----------------------------------------------------------------------------- the layout

@pytest.mark.rules("canfield-or-klondike-turn-up")
def test_the_next_card_of_a_row_is_turned_up_the_moment_it_is_uncovered() -> None:
    g = game({"f1": "AS", "r1": "9H 5D 2S", "r2": "QH 8C 7D", "r3": "9D"},
             down={1: 2, 2: 1})
    assert faces(g, "r1") == [None, None, "2S"]
    g.play("r1-f1")                     # the two played up: the five turned at once
    assert g.state.vars[0] == 1 and faces(g, "r1") == [None, "5D"]
    g.play("r2:1-r3")                   # the eight and seven moved: the queen turned up
    assert g.state.vars[1] == 0 and faces(g, "r2") == ["QH"]
    assert refusal_rule(g, "r1:0-r2") == R + "turn-up"   # a face-down card cannot move


@pytest.mark.rules("canfield-or-klondike-build")
def test_the_layout_is_built_down_in_alternate_colours() -> None:
    g = game({"f1": "AS", "r1": "9H", "r2": "8C", "r3": "8D", "r4": "7C", "r5": "2H",
              "r6": "AD"})
    assert refusal_rule(g, "r3-r1") == R + "build"     # red on red
    assert refusal_rule(g, "r4-r1") == R + "build"     # not the next lower
    assert refusal_rule(g, "r1-r2") == R + "build"     # upwards
    assert refusal_rule(g, "r6-r5") == R + "build"     # no ace is built on a two
    assert refusal_rule(g, "r5-r6") == R + "build"     # nothing on an ace
    assert not goes_on(Card.parse("AC"), Card.parse("2H"))
    g.play("r2-r1")
    assert g.state.piles[ROW_PILES[0]] == (Card.parse("9H"), Card.parse("8C"))


@pytest.mark.rules("canfield-or-klondike-together", "canfield-or-klondike-build")
def test_the_cards_at_the_bottom_of_a_row_move_together_or_not_at_all() -> None:
    g = game({"f1": "AD", "r1": "5S 9H 8C 7D", "r2": "9D", "r3": "10S", "r4": "8S",
              "r5": "2D"}, down={1: 1})
    assert refusal_rule(g, "r1:2-r4") == R + "together"  # part of the run
    assert refusal_rule(g, "r1-r4") == R + "together"    # its last card alone
    assert refusal_rule(g, "r1:1-r2") == R + "build"     # the whole run, on red
    g.play("r1:1-r3")                                    # the whole run, on the ten
    assert g.state.piles[ROW_PILES[2]] == tuple(Card.parse(t) for t in "10S 9H 8C 7D".split())
    assert faces(g, "r1") == ["5S"]


@pytest.mark.rules("canfield-or-klondike-together", "canfield-or-klondike-foundations")
def test_the_last_card_of_a_run_may_still_be_played_up_alone() -> None:
    g = game({"f1": "AD", "r1": "4S 3D 2C", "f2": "AC"}, down={1: 0})
    assert refusal_rule(g, "r1-r2") in (R + "together",)   # not alone to a row
    g.play("r1-f2")                                        # but alone to its foundation
    assert g.state.piles[ROW_PILES[0]] == (Card.parse("4S"), Card.parse("3D"))


@pytest.mark.rules("canfield-or-klondike-spaces")
def test_spaces_are_filled_with_kings_only() -> None:
    g = game({"r1": "", "r2": "5C KH QS", "r3": "QD", "r4": "KS", "talon": "KD"},
             down={2: 1}, rest_to="stock")
    assert refusal_rule(g, "r3-r1") == R + "spaces"      # a queen into a space
    g.play("r2:1-r1")                                    # a king with its run
    assert faces(g, "r2") == ["5C"]
    g2 = game({"r1": "", "talon": "KD"})
    g2.play("talon-r1")                                  # a king from the talon
    assert g2.state.piles[ROW_PILES[0]] == (Card.parse("KD"),)
    # a space need not be filled: turning the next card is still allowed
    g3 = game({"r1": "", "r2": "KS 9C"}, down={2: 1})
    assert Move(action="deal") in g3.legal_moves()


def swapped(state: State, a: int, b: int) -> State:
    """The state with rows ``a`` and ``b`` (numbered from 1) exchanged, cards and counts of
    cards face down."""
    piles, down = list(state.piles), list(state.vars)
    i, j = ROW_PILES[a - 1], ROW_PILES[b - 1]
    piles[i], piles[j] = piles[j], piles[i]
    down[a - 1], down[b - 1] = down[b - 1], down[a - 1]
    return State(tuple(piles), tuple(down))


@pytest.mark.rules("canfield-or-klondike-spaces")
def test_a_king_already_in_a_space_may_move_to_another() -> None:
    # The text forbids nothing here (CK-4): a king at the head of a row with nothing beneath
    # it may go, alone or with its run, into another space; the position changes only by
    # which row holds it.
    for text, src in (("KS", "r4"), ("KS QH JC", "r4:0")):
        g = game({"r1": "", "r2": "5C KH QS", "r4": text, "talon": "KD"}, down={2: 1})
        before = g.state
        move = Move.parse(f"{src}-r1")
        assert move in g.legal_moves()
        g.play(move)
        assert g.state == swapped(before, 1, 4)
        assert faces(g, "r1") == text.split() and faces(g, "r4") == []
        g.play(f"r1{src[2:]}-r5")                        # and on to another space
        assert g.state == swapped(swapped(before, 1, 4), 1, 5)


def test_the_solver_and_the_careful_player_leave_a_king_where_it_lies() -> None:
    # The rows hold only a king and its queen, the talon's nine goes nowhere, and the stock
    # holds one card more. The board offers the king's six moves into the spaces; neither
    # player tries them, since each gives this position back with two rows exchanged.
    fives = {f"f{n}": up_to(s, 5) for n, s in enumerate("SHDC", 1)}
    g = game({**fives, "r2": "KS QH", "talon": "9D", "stock": "10D"}, rest_to="talon")
    legal = g.legal_moves()
    idle = [Move.parse(f"r2:0-r{n}") for n in (1, 3, 4, 5, 6, 7)]
    assert all(m in legal for m in idle)
    assert g.idle_moves(g.state, legal) == idle
    assert careful_move(g) == Move(action="deal")
    found = solve(g, Budget(nodes=1000, seconds=None))
    # the deal, then nothing but the king's moves: two positions, lost; were the king's
    # moves tried, each of the fourteen places of the run (seven rows, before and after
    # the deal) would be searched
    assert (found.verdict, found.nodes) == ("lost", 2)
    g.play("deal")
    assert g.outcome() is Outcome.LOST
    # where a row holds a card face down beneath its king, the king's move turns it up
    g2 = game({**fives, "r2": "9S KS QH", "talon": "9D", "stock": "10D"}, down={2: 1},
              rest_to="talon")
    assert g2.idle_moves(g2.state, g2.legal_moves()) == []


# ----------------------------------------------------------------------------- the stock

@pytest.mark.rules("canfield-or-klondike-stock")
def test_the_stock_is_turned_one_card_at_a_time_and_the_card_showing_used() -> None:
    g = game({"f1": "AH", "r1": "3S", "stock": "9D 2H"})
    stock = len(g.state.piles[STOCK])
    g.play("deal")
    assert g.state.piles[TALON_PILE] == (Card.parse("2H"),)
    assert len(g.state.piles[STOCK]) == stock - 1
    assert faces(g, "talon") == ["2H"]
    g.play("deal")                                       # the two left showing beneath
    assert faces(g, "talon") == [None, "9D"]
    assert refusal_rule(g, "talon:0-f1") == R + "stock"  # the card beneath: not showing
    assert refusal_rule(g, "stock-r1") == R + "stock"    # straight from the stock
    assert refusal_rule(g, "r1-talon") == R + "stock"    # nothing goes on the talon
    g2 = game({"f1": "AH", "r1": "3S", "talon": "9D 2H"})
    g2.play("talon-r1")                                  # the card showing, on the layout
    g2.play("r1-f1")                                     # and on the foundations
    assert g2.state.piles[ROW_PILES[0]] == (Card.parse("3S"),)


@pytest.mark.rules("canfield-or-klondike-stock")
def test_under_the_other_reading_only_the_card_just_turned_may_be_used() -> None:
    opts = "talon:turned"
    g = game({"f1": "AH", "r1": "3S", "stock": "2H 9D"}, options=opts)
    g.play("deal")                                       # the nine of diamonds
    g.play("deal")                                       # the two covers it
    g.play("talon-f1")
    assert refusal_rule(g, "talon-r1") == R + "stock"    # the nine is out of play
    assert g.dead_cards(g.state) == 1
    # by default the nine shows again once the two has gone
    g3 = game({"f1": "AH", "r1": "10S", "stock": "2H 9D"})
    g3.play("deal")
    g3.play("deal")
    g3.play("talon-f1")
    g3.play("talon-r1")
    with pytest.raises(PositionError):                   # no card just turned by default
        engine.load_position(make_game(SLUG, {"talon": "9D"}, vars={"live": 1}).position())


@pytest.mark.rules("canfield-or-klondike-once")
def test_the_stock_is_run_through_once() -> None:
    g = game({"f1": "AS", "r1": "2S", "talon": "5D"}, rest_to="talon")
    assert not g.state.piles[STOCK]
    assert refusal_rule(g, "deal") == R + "once"
    view = engine.view_of(g)
    assert view["pack"] == {"pile": "stock", "move": "deal", "legal": False}
    assert "stock has been run through" in g.status_of(g.state)


# ----------------------------------------------------------------------------- the end

@pytest.mark.rules("canfield-or-klondike-once")
def test_lost_when_the_stock_is_spent_and_nothing_more_can_go_up() -> None:
    # The foundations want the twos, which lie face down under the kings; the other rows
    # take nothing and go nowhere.
    kings = {"f1": "AS", "f2": "AH", "f3": "AD", "f4": "AC", "r1": "2S KD", "r2": "2H KS",
             "r3": "2D KC", "r4": "2C KH", "r5": "5S", "r6": "7H", "r7": "9C"}
    down = {1: 1, 2: 1, 3: 1, 4: 1}
    lost = game({**kings, "talon": "3S"}, down=down, rest_to="talon")
    assert lost.outcome() is Outcome.LOST
    assert lost.status_of(lost.state).startswith("Nothing more can reach the foundations")
    assert "paid 52, won 20 (32 down)" in lost.status_of(lost.state)
    # the talon's top, a queen, can go on a king, and would show the card beneath it
    assert game({**kings, "talon": "QH"}, down=down, rest_to="talon").outcome() is None
    # a king moved into a space would turn up the two beneath it
    assert game({**kings, "r5": "", "talon": "3S"}, down=down,
                rest_to="talon").outcome() is None
    # with the stock not yet spent, nothing is declared
    assert game({**kings, "stock": "3S"}, down=down).outcome() is None


@pytest.mark.rules("canfield-or-klondike-once", "canfield-or-klondike-stock")
def test_under_the_other_reading_a_card_out_of_play_loses_once_the_stock_is_spent() -> None:
    g = game({"f1": "AS", "r1": "KH", "talon": "9D 2S"}, rest_to="talon",
             options="talon:turned")
    assert g.dead_cards(g.state) == len(g.state.piles[TALON_PILE])
    assert g.outcome() is Outcome.LOST


def test_loss_verdicts_agree_with_the_solver() -> None:
    from engine.solver import Budget, play_careful, solve
    for seed in range(12):
        g = engine.new_game(SLUG, seed=seed)
        play_careful(g)
        if g.outcome() is Outcome.LOST:
            assert solve(g, Budget(nodes=20_000, seconds=None)).verdict != "won"


# ----------------------------------------------------------------------------- the board

def test_safe_moves_are_aces_and_twos() -> None:
    g = game({"f1": "AS", "r1": "2S", "r2": "AH", "r3": "3S"})
    safe = [str(m) for m in g.safe_moves(g.state, g.legal_moves())]
    assert safe == ["r1-f1", "r2-f2"]


def test_positions_are_checked() -> None:
    with pytest.raises(PositionError):      # a row out of sequence face up
        engine.load_position(make_game(SLUG, {"r1": "9H 9C"}).position())
    with pytest.raises(PositionError):      # a row with no card face up
        engine.load_position(make_game(SLUG, {"r1": "9H"}, vars={"down1": 1}).position())
    with pytest.raises(PositionError):      # a foundation out of order
        engine.load_position(make_game(SLUG, {"f1": "AS 3S"}).position())
    g = game({"r1": "9H 8C"}, down={1: 0})
    assert engine.load_position(g.position()).state == g.state


def test_words_for_the_moves() -> None:
    g = game({"f1": "AD", "r1": "5S 9H 8C", "r3": "10S", "stock": "4D"}, down={1: 1})
    assert g.describe(g.state, Move.parse("deal")) == \
        "The four of diamonds is turned from the stock onto the talon."
    assert g.describe(g.state, Move.parse("r1:1-r3")) == (
        "The nine of hearts and the eight of clubs on it are moved together from row 1 to row 3; "
        "the next card of row 1 is turned face up.")
