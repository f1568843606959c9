"""The Salic Law: every rule, every refusal (with the rule id it cites), the option, the
outcome and the deal. Positions are built as text and loaded with ``engine.load_position``,
so each is checked as a real position would be."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import ACE, KING, KNAVE, QUEEN, format_cards, pack
from engine.deal import shuffled
from engine.salic_law import (
    FIRST_KING, FOUNDS, PACKETS, PILES, QUEENS, STOCK, FreedKing, SalicLawOptions, TheSalicLaw,
)
from tests.engine.fixtures import refusal_rule

SLUG = "the-salic-law"
R = f"{SLUG}-"
ROOT = Path(__file__).resolve().parents[2]
SUITS = "SHDC"


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def load(piles: dict[str, tuple[Card, ...]], used: int = 0, options: str = "") -> TheSalicLaw:
    start = "|".join(f"{p.id}:{format_cards(piles.get(p.id, ()))}" for p in PILES)
    g = engine.load_position(f"game={SLUG};opts={options};start={start};vars=used:{used};"
                             "moves=;redo=")
    assert isinstance(g, TheSalicLaw)
    return g


def dealing(piles: dict[str, str], stock_top: str = "", options: str = "") -> TheSalicLaw:
    """A position during the deal: the piles given (kings included), the pack's next cards
    ``stock_top`` (the last written is dealt first) above every other card of the game."""
    given = {pid: cards(text) for pid, text in piles.items()}
    top = cards(stock_top)
    used = Counter(c for p in given.values() for c in p) + Counter(top)
    rest = Counter(pack(2)) - used
    assert not used - Counter(pack(2)), "too many copies"
    given["stock"] = tuple(sorted(rest.elements())) + top
    return load(given, options=options)


def ended(packets: dict[int, str], heights: tuple[int, ...] = (1,) * 8, rest_to: int = 0,
          used: int = 0, options: str = "") -> TheSalicLaw:
    """A position after the deal: the eight queens and the eight kings in their rows; the
    foundations built to ``heights`` (1: the ace alone), of whatever suits come first; on
    each king the cards given in ``packets`` (bottom to top); every other card of the game
    buried at the bottom of packet ``rest_to``, just above its king."""
    on_kings = {c: cards(t) for c, t in packets.items()}
    pool = Counter(pack(2)) - Counter(c for p in on_kings.values() for c in p)
    piles: dict[str, tuple[Card, ...]] = {}
    for c, h in enumerate(heights):
        f: list[Card] = []
        for rank in range(ACE, h + 1):
            card = min(x for x in pool.elements() if x.rank == rank)
            pool[card] -= 1
            f.append(card)
        piles[f"f{c}"] = tuple(f)
    queens = [x for x in sorted(pool.elements()) if x.rank == QUEEN]
    kings = sorted((x for x in pool.elements() if x.rank == KING),
                   key=lambda x: x != FIRST_KING)   # the first king first
    pool -= Counter(queens) + Counter(kings)
    assert not any(x.rank == ACE for x in pool.elements()), "every ace is on a foundation"
    rest = tuple(sorted(pool.elements()))
    for c in range(8):
        piles[f"q{c}"] = (queens[c],)
        piles[f"k{c}"] = (kings[c],) + (rest if c == rest_to else ()) + on_kings.get(c, ())
    return load(piles, used=used, options=options)


def pile(g: TheSalicLaw, ref: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(ref)]


def legal(g: TheSalicLaw) -> set[str]:
    return {str(m) for m in g.legal_moves()}


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-salic-law-kings")
def test_the_game_begins_with_one_king_and_the_pack() -> None:
    g = engine.new_game(SLUG, seed=9)
    s = g.state
    assert s.piles[PACKETS.start] == (FIRST_KING,) == cards("KH")
    assert all(not s.piles[i] for i in [*QUEENS, *FOUNDS, *PACKETS[1:]])
    assert len(s.piles[STOCK]) == 103
    assert Counter(s.all_cards()) == Counter(pack(2))
    rest = Counter(pack(2))
    rest[FIRST_KING] -= 1
    assert list(s.piles[STOCK]) == shuffled(sorted(rest.elements()), 9)
    assert legal(g) == {"deal", "deal_on"}


def test_same_deal_number_same_deal_and_different_numbers_differ() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (5, 5, 6))
    assert a == b
    assert a != c


@pytest.mark.rules("the-salic-law-heaping")
def test_cards_dealt_are_heaped_on_the_last_king() -> None:
    g = dealing({"k0": "KH 5S", "k1": "KD 9C", "f0": "AS"}, stock_top="10H 7D 3C")
    g.play("deal")
    assert pile(g, "k1") == cards("KD 9C 3C")
    g.play("deal")
    assert pile(g, "k1") == cards("KD 9C 3C 7D")
    assert pile(g, "k0") == cards("KH 5S")   # an earlier king takes nothing more


@pytest.mark.rules("the-salic-law-kings", "the-salic-law-heaping")
def test_a_king_dealt_takes_the_next_place_and_the_cards_that_follow() -> None:
    g = dealing({"k0": "KH 5S", "f0": "AS"}, stock_top="9H KC")
    g.play("deal")
    assert pile(g, "k1") == cards("KC")
    g.play("deal")
    assert pile(g, "k1") == cards("KC 9H")
    assert pile(g, "k0") == cards("KH 5S")


@pytest.mark.rules("the-salic-law-heaping")
def test_cards_go_on_the_last_king_even_when_its_packet_is_emptied() -> None:
    g = dealing({"k0": "KH 5S", "k1": "KD 2C", "f0": "AS"}, stock_top="8D")
    g.play("k1-f0")
    assert pile(g, "k1") == cards("KD")
    g.play("deal")
    assert pile(g, "k1") == cards("KD 8D")
    assert pile(g, "k0") == cards("KH 5S")


@pytest.mark.rules("the-salic-law-aces-queens")
def test_aces_and_queens_are_placed_at_once_in_their_rows() -> None:
    g = dealing({"k0": "KH 5S", "f0": "AS", "q0": "QD"}, stock_top="QC AH AD")
    g.play("deal")
    assert pile(g, "f1") == cards("AD") and pile(g, "k0") == cards("KH 5S")
    g.play("deal")
    assert pile(g, "f2") == cards("AH")
    g.play("deal")
    assert pile(g, "q1") == cards("QC") and pile(g, "k0") == cards("KH 5S")


@pytest.mark.rules("the-salic-law-heaping")
def test_deal_on_deals_until_a_card_can_be_played() -> None:
    g = dealing({"k0": "KH 5S", "f0": "AS 2S 3S"}, stock_top="4D 9D 4H 8C 7C")
    g.play("deal_on")
    assert pile(g, "k0") == cards("KH 5S 7C 8C 4H")   # the four can go up: it stops
    assert "k0-f0" in legal(g)
    g.play("deal_on")                                # at least one card, even so
    assert pile(g, "k0") == cards("KH 5S 7C 8C 4H 9D 4D")


@pytest.mark.rules("the-salic-law-heaping")
def test_deal_on_is_a_run_of_deals_with_nothing_to_play_between() -> None:
    for seed in range(6):
        g = engine.new_game(SLUG, seed=seed)
        while g.state.piles[STOCK]:
            one = g.copy()
            g.play("deal_on")
            dealt = len(one.state.piles[STOCK]) - len(g.state.piles[STOCK])
            for k in range(dealt):   # the same as that many single deals ...
                if k:                # ... with no card playable between them
                    assert {str(m) for m in one.legal_moves()} == {"deal", "deal_on"}
                one.play("deal")
            assert one.state == g.state
            assert not g.state.piles[STOCK] or TheSalicLaw.playable(g.state)
        assert all(len(g.state.piles[i]) == 1 for i in QUEENS)


@pytest.mark.rules("the-salic-law-no-redeal")
def test_there_is_no_re_deal() -> None:
    g = ended({})
    assert refusal_rule(g, "deal") == R + "no-redeal"
    assert refusal_rule(g, "deal_on") == R + "no-redeal"
    assert "deal" not in legal(g) and "deal_on" not in legal(g)


# ----------------------------------------------------------------------------- Rules I, II

@pytest.mark.rules("the-salic-law-rule-1")
def test_rule_1_only_the_surface_card_is_available() -> None:
    g = dealing({"k0": "KH 2S 9D", "f0": "AS"}, stock_top="9C")
    assert refusal_rule(g, "k0:1-f0") == R + "rule-1"
    g2 = ended({3: "2S 9D"}, rest_to=1)
    assert refusal_rule(g2, "k3:1-f0") == R + "rule-1"
    g2.play("k3-k2")     # the nine goes to a freed king, which releases the two
    g2.play("k3-f0")
    assert pile(g2, "f0")[-1] == Card.parse("2S")


@pytest.mark.rules("the-salic-law-rule-1")
def test_rule_1_every_card_of_every_packet_may_be_examined() -> None:
    g = dealing({"k0": "KH 2S 9D 4C", "k1": "KS 7H", "f0": "AS"})
    view = engine.view_of(g)
    faces = {p["id"]: [c["c"] for c in p["cards"]] for p in view["piles"]}
    assert faces["k0"] == ["KH", "2S", "9D", "4C"]
    assert faces["k1"] == ["KS", "7H"]
    assert set(faces["stock"]) == {None}          # the pack is face down


@pytest.mark.rules("the-salic-law-rule-2")
def test_rule_2_the_foundations_do_not_follow_suit() -> None:
    g = dealing({"k0": "KH 2H", "k1": "KD 3C", "f0": "AS"})
    g.play("k0-f0")
    g.play("k1-f0")
    assert pile(g, "f0") == cards("AS 2H 3C")


@pytest.mark.rules("the-salic-law-foundations")
def test_foundations_ascend_in_sequence_to_knaves() -> None:
    g = dealing({"k0": "KH 4D", "k1": "KD 2C", "f0": "AS", "f1": "AH 2H 3H"})
    assert refusal_rule(g, "k0-f0") == R + "foundations"    # the ace takes a two
    why = g.refusal(g.state, Move.parse("k0-f0"))
    assert why is not None and "needs a two" in why.message
    g.play("k0-f1")
    assert pile(g, "f1") == cards("AH 2H 3H 4D")
    assert refusal_rule(g, "k1-f1") == R + "foundations"


@pytest.mark.rules("the-salic-law-foundations")
def test_a_foundation_ends_with_its_knave() -> None:
    g = ended({0: "2D", 1: "2C"}, heights=(11, 1, 1, 1, 1, 1, 1, 1), rest_to=2)
    assert refusal_rule(g, "k0-f0") == R + "foundations"
    why = g.refusal(g.state, Move.parse("k0-f0"))
    assert why is not None and "complete" in why.message


@pytest.mark.rules("the-salic-law-foundations")
def test_an_empty_foundation_place_waits_for_its_ace() -> None:
    g = dealing({"k0": "KH 2S", "f0": "AS"})
    assert refusal_rule(g, "k0-f1") == R + "foundations"


@pytest.mark.rules("the-salic-law-foundations")
def test_cards_on_the_foundations_stay_there() -> None:
    g = ended({1: "3C"}, heights=(2, 1, 1, 1, 1, 1, 1, 1), rest_to=2)
    assert refusal_rule(g, "f0-f1") == R + "foundations"
    assert refusal_rule(g, "f0-k0") == R + "foundations"
    assert refusal_rule(g, "f0-k1") == R + "foundations"


# ----------------------------------------------------------------------------- kings, queens

@pytest.mark.rules("the-salic-law-kings")
def test_the_kings_never_move_and_wait_for_their_places() -> None:
    g = dealing({"k0": "KH 5S", "k1": "KD", "f0": "AS 2S 3S 4S"}, stock_top="7C")
    assert refusal_rule(g, "k1-f0") == R + "kings"       # a bare king is not a card to play
    assert refusal_rule(g, "k0-k2") == R + "kings"       # no king there yet
    g2 = ended({}, heights=(11, 11, 11, 11, 11, 11, 11, 10), rest_to=0)
    assert refusal_rule(g2, "k3-f7") == R + "kings"


@pytest.mark.rules("the-salic-law-final-tableau")
def test_the_queens_never_move() -> None:
    g = ended({}, rest_to=1)
    assert refusal_rule(g, "q0-k0") == R + "final-tableau"
    assert refusal_rule(g, "q3-f0") == R + "final-tableau"
    assert refusal_rule(g, "q3-q4") == R + "final-tableau"


@pytest.mark.rules("the-salic-law-aces-queens")
def test_nothing_else_goes_to_the_queens_row() -> None:
    g = dealing({"k0": "KH 5S", "f0": "AS"})
    assert refusal_rule(g, "k0-q0") == R + "aces-queens"
    g2 = ended({2: "5S"}, rest_to=1)
    assert refusal_rule(g2, "k2-q0") == R + "aces-queens"


# ----------------------------------------------------------------------------- playing

@pytest.mark.rules("the-salic-law-surface")
def test_during_the_deal_any_packet_surface_may_be_played() -> None:
    g = dealing({"k0": "KH 2S", "k1": "KD 9C", "k2": "KC 3H", "f0": "AS"}, stock_top="8D")
    assert legal(g) == {"k0-f0", "deal", "deal_on"}   # the first packet, not the last
    g.play("k0-f0")
    g.play("k2-f0")
    assert pile(g, "f0") == cards("AS 2S 3H")


@pytest.mark.rules("the-salic-law-surface")
def test_playing_is_never_compulsory() -> None:
    g = dealing({"k0": "KH 2S", "f0": "AS"}, stock_top="8D")
    g.play("deal")     # the two may wait
    assert pile(g, "k0") == cards("KH 2S 8D")


@pytest.mark.rules("the-salic-law-surface", "the-salic-law-rule-2")
def test_a_card_may_go_to_any_foundation_that_takes_it() -> None:
    g = ended({1: "2D"}, rest_to=0)
    assert {m for m in legal(g) if m.endswith(tuple(f"f{c}" for c in range(8)))} == {
        f"k1-f{c}" for c in range(8)}


# ----------------------------------------------------------------------------- freed kings

@pytest.mark.rules("the-salic-law-free-kings")
def test_no_card_is_placed_on_a_freed_king_during_the_deal() -> None:
    g = dealing({"k0": "KH", "k1": "KD 9C", "f0": "AS"}, stock_top="8D")
    assert refusal_rule(g, "k1-k0") == R + "free-kings"
    why = g.refusal(g.state, Move.parse("k1-k0"))
    assert why is not None and "deal is ended" in why.message


@pytest.mark.rules("the-salic-law-free-kings")
def test_after_the_deal_a_freed_king_takes_one_card_from_another_packet() -> None:
    g = ended({3: "2S 9D"}, rest_to=1)
    assert {m for m in legal(g) if m.startswith("k3-k")} == {
        f"k3-k{c}" for c in (0, 2, 4, 5, 6, 7)}
    g.play("k3-k5")
    assert pile(g, "k5")[-1] == Card.parse("9D") and len(pile(g, "k5")) == 2
    # one card only: the king now holds one and takes no other
    g.play("k3-f0")
    assert refusal_rule(g, "k1-k5") == R + "free-kings"


@pytest.mark.rules("the-salic-law-free-kings", "the-salic-law-entire-play")
def test_cards_are_never_placed_on_cards_in_the_packets() -> None:
    g = ended({2: "8C", 3: "9D"}, rest_to=1)
    assert refusal_rule(g, "k2-k3") == R + "free-kings"   # a nine takes nothing
    assert refusal_rule(g, "k2-k1") == R + "free-kings"
    assert refusal_rule(g, "k2-k2") == R + "entire-play"
    assert refusal_rule(g, "k2-stock") == R + "entire-play"


@pytest.mark.rules("the-salic-law-free-kings")
def test_a_card_alone_on_a_king_may_go_to_another_freed_king() -> None:
    g = ended({3: "9D"}, rest_to=1)
    g.play("k3-k5")
    assert len(pile(g, "k3")) == 1
    g.play("k5-k6")
    assert pile(g, "k6")[-1] == Card.parse("9D")


@pytest.mark.rules("the-salic-law-free-kings")
def test_a_king_freed_again_takes_another_card_by_default() -> None:
    g = ended({2: "7C 2S", 3: "3D"}, rest_to=1)
    g.play("k3-k0")            # the three on the first king
    g.play("k2-f0")            # the two goes up ...
    g.play("k0-f0")            # ... and the three after it: the king is free again
    g.play("k2-k0")
    assert pile(g, "k0")[-1] == Card.parse("7C")


@pytest.mark.rules("the-salic-law-free-kings")
def test_each_king_takes_one_card_in_the_game_under_the_other_reading() -> None:
    g = ended({2: "7C 2S", 3: "3D"}, rest_to=1, options="freed_king:once")
    g.play("k3-k0")
    assert g.state.vars == (1,)
    g.play("k2-f0")
    g.play("k0-f0")
    assert refusal_rule(g, "k2-k0") == R + "free-kings"
    why = g.refusal(g.state, Move.parse("k2-k0"))
    assert why is not None and "reading chosen" in why.message
    g.play("k2-k3")            # a king emptied of its own cards has not had its card
    assert g.state.vars == (1 | 1 << 3,)


# ----------------------------------------------------------------------------- the rest

@pytest.mark.rules("the-salic-law-entire-play", "the-salic-law-heaping")
def test_nothing_comes_from_or_goes_to_the_pack_but_by_dealing() -> None:
    g = dealing({"k0": "KH 5S", "f0": "AS 2S 3S 4S"}, stock_top="5H")
    assert refusal_rule(g, "stock-f0") == R + "heaping"
    assert refusal_rule(g, "stock-k0") == R + "heaping"
    assert refusal_rule(g, "k0-stock") == R + "entire-play"


def test_notation_errors_are_refused_on_the_board_rule() -> None:
    g = ended({2: "5S"}, rest_to=1)
    assert refusal_rule(g, "zz9-f0") == R + "board"
    assert refusal_rule(g, "k2-zz9") == R + "board"
    assert refusal_rule(g, "not a move") == R + "board"
    assert refusal_rule(g, "k2-k0+k1-k3") == R + "board"
    assert refusal_rule(g, "k2:1-k0") == R + "board"     # the top card, written as buried
    assert refusal_rule(g, "k2-k0:0") == R + "board"
    assert refusal_rule(g, "redeal") == R + "board"
    assert refusal_rule(g, "f0:0-k0") == R + "board"


# ----------------------------------------------------------------------------- the outcome

@pytest.mark.rules("the-salic-law-final-tableau", "the-salic-law-foundations")
def test_won_when_eight_knaves_finish_the_foundations() -> None:
    g = ended({5: "JC"}, heights=(11, 11, 11, 11, 11, 11, 11, 10), rest_to=9)
    assert g.outcome() is None
    g.play("k5-f7")
    assert g.outcome() is Outcome.WON
    assert "Won" in g.status_of(g.state)
    assert all(len(g.state.piles[i]) == 1 for i in PACKETS)
    assert all(len(g.state.piles[f]) == KNAVE for f in FOUNDS)


#: Seven foundations at the five and one at its ace: the foundations want twos and sixes.
#: The one two left lies in packet 2 under the cards given; every packet holds a card, the
#: other cards of the game lie deep in packet 4.
HEIGHTS = (1, 5, 5, 5, 5, 5, 5, 5)
STUCK = {1: "2S 9D 9H", 2: "7S", 3: "7H", 4: "7D 7C", 5: "8S", 6: "8H", 7: "8D"}


@pytest.mark.rules("the-salic-law-no-redeal")
def test_lost_when_no_wanted_card_can_be_uncovered() -> None:
    g = ended({**STUCK, 0: "8C"}, heights=HEIGHTS, rest_to=4)
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


@pytest.mark.rules("the-salic-law-no-redeal", "the-salic-law-free-kings")
def test_not_lost_while_freed_kings_can_uncover_a_wanted_card() -> None:
    g = ended({**STUCK, 1: "2S 9D"}, heights=HEIGHTS, rest_to=4)
    assert g.outcome() is None                      # the first king is free: one card
    g.play("k1-k0")
    assert "k1-f0" in legal(g)
    g2 = ended(STUCK, heights=HEIGHTS, rest_to=4)    # one freed king, two cards to lift
    assert g2.outcome() is Outcome.LOST
    g3 = ended({k: v for k, v in STUCK.items() if k != 7}, heights=HEIGHTS, rest_to=4)
    assert g3.outcome() is None                     # two freed kings: enough


@pytest.mark.rules("the-salic-law-no-redeal", "the-salic-law-free-kings")
def test_the_loss_verdict_follows_the_reading_of_the_freed_kings() -> None:
    packets = {**STUCK, 1: "2S 9D"}
    g = ended(packets, heights=HEIGHTS, rest_to=4, used=1, options="freed_king:once")
    assert g.outcome() is Outcome.LOST              # the first king has had its card
    g2 = ended(packets, heights=HEIGHTS, rest_to=4, used=1)
    assert g2.outcome() is None


def test_never_lost_during_the_deal() -> None:
    g = dealing({"k0": "KH 9D 9H 9S 9C 2S 8D 8H", "f0": "AS"}, stock_top="9C")
    assert g.outcome() is None


def _play_reachable(g: TheSalicLaw) -> bool:
    """Search every sequence of placements on freed kings for a foundation play."""
    todo, seen = [g.state], {g.state}
    while todo:
        s = todo.pop()
        for m in g.candidate_moves(s):
            if g.refusal(s, m) is not None:
                continue
            if g.pile_index(m.steps[0][1]) in FOUNDS:
                return True
            t = g.apply(s, m)
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return False


@pytest.mark.parametrize("options", ["", "freed_king:once"])
@pytest.mark.rules("the-salic-law-no-redeal")
def test_the_loss_verdict_is_exact_after_the_deal(options: str) -> None:
    """After the deal the game is LOST exactly when no foundation play can be reached."""
    checked = 0
    for seed in range(40):
        g = engine.new_game(SLUG, seed=seed, options=options)
        rng = random.Random(seed)
        while g.state.piles[STOCK]:
            g.play(rng.choice(sorted(legal(g))))
        for _ in range(200):
            lost = g.outcome() is Outcome.LOST
            if g.outcome() is Outcome.WON:
                break
            assert lost == (not _play_reachable(g)), g.position()
            checked += 1
            moves = g.legal_moves()
            if lost or not moves:
                break
            plays = [m for m in moves if g.pile_index(m.steps[0][1]) in FOUNDS]
            g.play(rng.choice(plays or moves))
    assert checked > 40


def test_random_games_end() -> None:
    for seed in range(10):
        g = engine.new_game(SLUG, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if g.outcome() is not None:
                break
            moves = g.legal_moves()
            plays = [m for m in moves if m.steps and g.pile_index(m.steps[0][1]) in FOUNDS]
            g.play(rng.choice(plays or moves))
        assert g.outcome() is not None


# ----------------------------------------------------------------------------- the board

def test_status_line_during_and_after_the_deal() -> None:
    g = dealing({"k0": "KH 5S", "k1": "KD", "f0": "AS 2S"}, stock_top="9D 9C")
    text = g.status_of(g.state)
    assert "Dealing" in text and "king packet 2" in text and "2 of 88" in text
    g2 = ended({3: "2S 9D"}, rest_to=1)
    assert "The deal is ended" in g2.status_of(g2.state)
    assert "6 freed kings may take a card" in g2.status_of(g2.state)


def test_describe_says_where_each_card_dealt_goes() -> None:
    g = dealing({"k0": "KH 5S", "f0": "AS 2S 3S"}, stock_top="9D 4H 8C 7C AH QD KC")
    said = []
    for _ in range(4):
        said.append(g.describe(g.state, Move.parse("deal")))
        g.play("deal")
    assert "king of clubs" in said[0] and "line of kings" in said[0]
    assert "queens’ row" in said[1]
    assert "foundations" in said[2]
    assert "heaped on king packet 2" in said[3]
    assert g.describe(g.state, Move.parse("deal_on")) == "2 cards are dealt."
    g.play("deal_on")
    assert "played from king packet 2 to foundation 1" in g.describe(
        g.state, Move.parse("k1-f0"))
    g2 = ended({3: "9D"}, rest_to=1)
    assert "freed king of king packet 1" in g2.describe(g2.state, Move.parse("k3-k0"))


@pytest.mark.parametrize("piles", [
    {"k0": "KH QS"},                      # a queen goes to her row, not on a king
    {"k0": "KH AS"},                      # an ace goes to the foundations
    {"k0": "KH 5S KC"},                   # a king begins a packet
    {"k0": "5S"},                         # a packet is built on a king
    {"k1": "KC"},                         # the first king is missing
    {"k0": "KH", "k2": "KC"},             # the kings fill the row from the left
    {"k0": "KH", "q1": "QS"},             # and so do the queens
    {"k0": "KH", "f1": "AS"},             # and the aces
    {"k0": "KH", "q0": "QS QH"},          # one queen to a place
    {"k0": "KH", "q0": "JS"},             # only queens in the top row
    {"k0": "KH", "f0": "2S"},             # a foundation begins with its ace
    {"k0": "KH", "f0": "AS 3S"},          # and rises one rank at a time
    {"k0": "KH", "f0": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"},   # to the knave
])
def test_corrupt_positions_are_refused(piles: dict[str, str]) -> None:
    with pytest.raises(PositionError):
        dealing(piles)


def test_a_bad_record_of_used_kings_is_refused() -> None:
    good = ended({}, rest_to=1).position()
    bad = good.replace("vars=used:0", "vars=used:256")
    assert bad != good
    with pytest.raises(PositionError):
        engine.load_position(bad)


def test_position_round_trip_mid_game() -> None:
    g = engine.new_game(SLUG, seed=21)
    rng = random.Random(21)
    for _ in range(80):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(rng.choice(moves))
    h = engine.load_position(g.position())
    assert h.state == g.state and h.move_stack == g.move_stack


def test_narrow_layout_fits_eight_columns() -> None:
    (lay,) = TheSalicLaw.LAYOUTS
    assert lay.max_width and lay.grid[0] == 8.0
    assert set(lay.at) == {p.id for p in PILES}
    assert all(0 <= x <= lay.grid[0] - 1 for x, _, _ in lay.at.values())


# ----------------------------------------------------------------------------- options, ledger

def test_options_round_trip_as_text() -> None:
    o = SalicLawOptions(freed_king=FreedKing.ONCE)
    text = engine.options_to_text(o)
    assert text == "freed_king:once"
    assert engine.options_from_text(SalicLawOptions, text) == o
    assert engine.options_to_text(SalicLawOptions()) == ""
    with pytest.raises(ValueError):
        engine.options_from_text(SalicLawOptions, "freed_king:twice")
    for d in engine.describe_options(SalicLawOptions):
        assert d["note"].startswith("note-sl-")
        assert d["default"] in {c["value"] for c in d["choices"]}


def test_row_constants_match_the_pile_ids() -> None:
    assert [PILES[i].id for i in QUEENS] == [f"q{c}" for c in range(8)]
    assert [PILES[i].id for i in FOUNDS] == [f"f{c}" for c in range(8)]
    assert [PILES[i].id for i in PACKETS] == [f"k{c}" for c in range(8)]
    assert PILES[STOCK].id == "stock"


def test_the_ledger_covers_every_rule_anchor_and_each_is_tested() -> None:
    doc = ROOT / "docs" / f"{SLUG}.md"
    if not doc.exists():
        pytest.skip("the chapter page is not here (the engine tests inside Pyodide)")
    page = doc.read_text(encoding="utf-8")
    anchors = set(re.findall(r'class="rule" id="(the-salic-law-[\w-]+)"', page))
    anchors |= set(re.findall(r"\{ #(the-salic-law-[\w-]+) \.rule \}", page))
    assert anchors == set(TheSalicLaw.LEDGER)
    cited = set(re.findall(r'"(the-salic-law-[\w-]+)"',
                           " ".join(re.findall(r"@pytest\.mark\.rules\(([^)]*)\)",
                                               Path(__file__).read_text(encoding="utf-8")))))
    assert cited == anchors
