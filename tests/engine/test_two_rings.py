"""Two Rings: every rule, every refusal (with the rule id it cites), the deal, the bracelet,
the talon, the re-deal and the end of the game."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import SUITS
from engine.deal import shuffled
from engine.two_rings import (
    BRACELET_PILES, SEVENS, SIXES, STOCK, TALON_PILE, TURNED, TwoRings,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "two-rings"
R = f"{SLUG}-"
BASES = {**{f"s{k}": f"7{'SHDC'[k % 4]}" for k in range(8)},
         **{f"x{k}": f"6{'SHDC'[k % 4]}" for k in range(8)}}
#: Eight bracelet cards no bare seven or six takes.
BRACELET = {f"b{i}": c for i, c in enumerate("10S 10H 10D 10C 3S 3H 3D 3C".split())}


def game(piles: dict[str, str], redeals: int = 0, options: str = "",
         rest_to: str = "stock") -> TwoRings:
    """A position: the sevens and sixes in their rings (a foundation given as its cards above
    its seven or six), the bracelet above unless given, the piles given, every other card at
    the bottom of ``rest_to``; loaded through ``engine.load_position`` with an explicit start,
    so that the position itself is checked."""
    given = {**BASES, **BRACELET, **piles}
    for pid, base in BASES.items():
        if pid in piles:
            given[pid] = f"{base} {piles[pid]}".strip()
    made = make_game(SLUG, given, vars={"redeals": redeals}, options=options,
                     rest_to=rest_to)
    g = engine.load_position(made.position())
    assert isinstance(g, TwoRings) and g.state == made.state
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def pile(g: TwoRings, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


UP = "8 9 10 J Q K".split()
DOWN = "5 4 3 2 A".split()


def complete(but: str = "") -> dict[str, str]:
    """Every foundation complete, but the cards named in ``but`` left off their ends."""
    left = but.split()
    out = {}
    for k in range(8):
        s = "SHDC"[k % 4]
        out[f"s{k}"] = " ".join(f"{r}{s}" for r in UP)
        out[f"x{k}"] = " ".join(f"{r}{s}" for r in DOWN)
    for c in left:
        for pid, text in out.items():
            if text.endswith(c):
                out[pid] = text[: -len(c)].strip()
                break
    return out


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("two-rings-withdraw", "two-rings-bracelet")
def test_the_deal_lays_the_two_rings_and_the_bracelet() -> None:
    for seed in range(20):
        g = engine.new_game(SLUG, seed=seed)
        s = g.state
        assert Counter(s.all_cards()) == Counter(engine.pack(2))
        for f in SEVENS:
            assert s.piles[f] == (Card(7, SUITS[f % 4]),)
        for f in SIXES:
            assert s.piles[f] == (Card(6, SUITS[(f - 8) % 4]),)
        assert all(len(s.piles[i]) == 1 for i in BRACELET_PILES)
        assert not s.piles[TURNED] and not s.piles[TALON_PILE]
        rest = [c for c in engine.pack(2) if c.rank not in (6, 7)]
        deck = shuffled(rest, seed)
        assert tuple(deck[:80]) == s.piles[STOCK]
        assert [s.piles[i][0] for i in BRACELET_PILES] == deck[80:][::-1]


@pytest.mark.rules("two-rings-withdraw")
def test_the_sevens_and_sixes_never_move() -> None:
    g = game({})
    assert refusal_rule(g, "s0-b0") == R + "withdraw"
    assert refusal_rule(g, "x3-talon") == R + "withdraw"
    assert refusal_rule(g, "s1-x1") == R + "withdraw"


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("two-rings-rule-1")
def test_the_foundations_follow_suit() -> None:
    g = game({"b0": "8H", "b1": "5D"})
    assert refusal_rule(g, "b0-s0") == R + "rule-1"
    assert refusal_rule(g, "b1-x3") == R + "rule-1"
    g.play("b0-s1")
    g.play("b1-x6")  # the second six of diamonds
    assert pile(g, "s1") == cards("7H 8H") and pile(g, "x6") == cards("6D 5D")


@pytest.mark.rules("two-rings-directions")
def test_the_sevens_ascend_to_kings_and_the_sixes_descend_to_aces() -> None:
    g = game({"s0": "8S 9S 10S JS QS", "x0": "5S 4S 3S 2S", "b0": "KS", "b1": "AS",
              "b2": "9H", "b3": "4H"})
    assert refusal_rule(g, "b2-s1") == R + "directions"   # the seven takes the eight first
    assert refusal_rule(g, "b3-x1") == R + "directions"   # the six takes the five first
    assert refusal_rule(g, "b1-s4") == R + "directions"   # an ace never goes on a seven
    g.play("b0-s0")
    g.play("b1-x0")
    assert pile(g, "s0")[-1] == Card.parse("KS") and pile(g, "x0")[-1] == Card.parse("AS")
    g2 = game({"s0": "8S 9S 10S JS QS KS", "x0": "5S 4S 3S 2S AS", "b0": "KS", "b1": "AS"})
    why = g2.refusal(g2.state, Move.parse("b0-s0"))
    assert why is not None and why.rule == R + "directions" and "complete" in why.message
    assert refusal_rule(g2, "b1-x0") == R + "directions"
    assert refusal_rule(g2, "s0-b0") == R + "directions"   # a card played stays there


# ----------------------------------------------------------------------------- the bracelet

@pytest.mark.rules("two-rings-play")
def test_bracelet_cards_are_played_and_their_places_refilled_at_once() -> None:
    g = game({"b3": "8C", "stock": "QD 9C"})
    assert Move.parse("b3-s3") in g.legal_moves() and Move.parse("b3-s7") in g.legal_moves()
    g.play("b3-s7")
    assert pile(g, "b3") == cards("9C")          # the pack's top card, face up
    assert pile(g, "stock")[-1] == Card.parse("QD")
    g.play("b3-s7")
    assert pile(g, "b3") == cards("QD")


@pytest.mark.rules("two-rings-play")
def test_bracelet_cards_go_only_to_the_foundations() -> None:
    g = game({"b0": "8S"})
    assert refusal_rule(g, "b0-b1") == R + "play"
    assert refusal_rule(g, "b0-talon") == R + "talon"
    assert refusal_rule(g, "b0-turned") == R + "play"
    assert refusal_rule(g, "b0-stock") == R + "play"
    assert refusal_rule(g, "stock-b0") == R + "talon"


@pytest.mark.rules("two-rings-play")
def test_with_the_pack_exhausted_a_vacancy_stays_empty_and_takes_nothing() -> None:
    g = game({"b0": "8S", "talon": "9S"}, rest_to="talon")
    g.play("b0-s0")
    assert pile(g, "b0") == ()
    assert refusal_rule(g, "talon-b0") == R + "play"
    # the re-deal fills it at once
    g.play("redeal")
    assert len(pile(g, "b0")) == 1


# ----------------------------------------------------------------------------- the talon

@pytest.mark.rules("two-rings-talon")
def test_unsuitable_cards_go_to_the_talon_and_a_suitable_one_waits() -> None:
    g = game({"stock": "QH 8D KC"})
    g.play("deal")                               # a king: no foundation takes it
    assert pile(g, "talon")[-1] == Card.parse("KC") and not pile(g, "turned")
    g.play("deal")                               # an eight of diamonds: suitable
    assert pile(g, "turned") == cards("8D")
    assert refusal_rule(g, "deal") == R + "talon"
    assert refusal_rule(g, "turned-talon") == R + "talon"
    assert refusal_rule(g, "turned-s0") == R + "rule-1"
    assert g.safe_moves(g.state, g.legal_moves()) == [Move.parse("turned-s2")]
    g.play("turned-s6")
    g.play("deal")
    assert pile(g, "talon")[-1] == Card.parse("QH")
    assert refusal_rule(g, "talon-turned") == R + "talon"
    assert refusal_rule(g, "b0-talon") == R + "talon"


@pytest.mark.rules("two-rings-talon")
def test_the_talon_s_top_card_may_be_played_unless_the_other_reading() -> None:
    g = game({"talon": "9S 8H 5C"})
    g.play("talon-x3")
    assert refusal_rule(g, "talon:0-s0") == R + "talon"   # only the top card
    g.play("talon-s5")
    g = game({"talon": "9S 8H 5C"}, options="talon_play:no")
    assert refusal_rule(g, "talon-x3") == R + "talon"


@pytest.mark.rules("two-rings-talon")
def test_a_card_waiting_whose_place_its_twin_took_goes_to_the_talon_with_the_next_turn() -> None:
    # The nine of hearts turned up waits for the seven of hearts built to the eight; the
    # bracelet's own nine of hearts is played there first, and the other seven wants an eight.
    g = game({"s1": "8H", "b7": "9H", "stock": "KS KD 9H"})
    g.play("deal")
    assert pile(g, "turned") == cards("9H")
    g.play("b7-s1")
    assert Move(action="deal") in g.legal_moves()               # it no longer holds up the deal
    assert refusal_rule(g, "turned-s1") == R + "directions"
    assert g.outcome() is None and refusal_rule(g, "redeal") == R + "redeal"
    assert "play the" not in engine.view_of(g)["status"]
    g.play("deal")                  # no longer suitable: it goes to the talon, the game goes on
    assert pile(g, "talon")[-2:] == cards("9H KS") and not pile(g, "turned")
    g = game({"s1": "8H 9H", "turned": "9H"})     # such a position is a legal one to load
    assert refusal_rule(g, "turned-talon") == R + "talon"
    assert Move(action="deal") in g.legal_moves()


@pytest.mark.rules("two-rings-talon")
def test_by_default_an_unsuitable_card_goes_to_the_talon_over_a_top_card_still_unplayed() -> None:
    g = game({"s1": "8H", "talon": "9H", "stock": "KD 10H"})
    g.play("deal")                  # the ten goes on the nine: neither can now be played
    assert pile(g, "talon")[-2:] == cards("9H 10H") and not pile(g, "turned")
    assert [str(m) for m in g.legal_moves()] == ["deal"]


@pytest.mark.rules("two-rings-talon", "two-rings-redeal")
def test_under_the_other_reading_an_unsuitable_card_waits_the_talon_s_top_still_in_play() -> None:
    opts = "unsuitable_to_talon:no"
    g = game({"s1": "8H", "talon": "9H", "stock": "KD 10H"}, options=opts)
    g.play("deal")
    assert pile(g, "turned") == cards("10H") and pile(g, "talon")[-1:] == cards("9H")
    g.play("talon-s1")
    assert refusal_rule(g, "deal") == R + "talon"              # now suitable: it is played
    g.play("turned-s1")
    g.play("deal")                  # a king: it waits in its place too
    assert pile(g, "turned") == cards("KD")
    assert g.describe(g.state, Move(action="deal")).startswith(
        "The king of diamonds is laid on the talon, and the ")
    g = game({"stock": "KD"}, options=opts, rest_to="talon")
    g.play("deal")
    talon = pile(g, "talon") + cards("KD")
    g.play("redeal")                # the card waiting joins the talon first
    assert pile(g, "stock") == talon[::-1] and not pile(g, "turned")
    with pytest.raises(PositionError):
        game({"turned": "KS"})
    assert pile(game({"turned": "KS"}, options=opts), "turned") == cards("KS")


# ----------------------------------------------------------------------------- re-deal

@pytest.mark.rules("two-rings-redeal")
def test_the_talon_may_be_re_dealt_once_when_the_pack_is_out() -> None:
    g = game({"stock": "KD"}, rest_to="talon")
    assert refusal_rule(g, "redeal") == R + "redeal"     # the pack is not yet out
    g.play("deal")
    talon = pile(g, "talon")
    g.play("redeal")
    assert pile(g, "stock") == talon[::-1] and not pile(g, "talon")
    assert pile(g, "stock")[-1] == talon[0]              # first laid, first dealt again
    while pile(g, "stock") or pile(g, "turned"):
        legal = g.legal_moves()
        g.play(next((m for m in legal if m.steps and m.steps[0][0] == "turned"),
                    Move(action="deal")))
    assert refusal_rule(g, "redeal") == R + "redeal"     # once only
    assert refusal_rule(g, "deal") == R + "redeal"


@pytest.mark.rules("two-rings-redeal")
def test_no_re_deal_while_a_card_turned_up_waits() -> None:
    g = game({"stock": "8S"}, rest_to="talon")
    g.play("deal")
    assert refusal_rule(g, "redeal") == R + "talon"


# ----------------------------------------------------------------------------- the end

@pytest.mark.rules("two-rings-success")
def test_the_game_is_won_when_the_rings_are_kings_and_aces() -> None:
    piles = complete("KS AH")
    left = Counter(engine.pack(2)) - Counter(Card.parse(c) for c in
                                             " ".join([*BASES.values(), *piles.values()])
                                             .split())
    assert sorted(map(str, left.elements())) == ["AH", "KS"]
    g = game({**piles, **{b: "" for b in BRACELET}, "b0": "KS", "b1": "AH"})
    assert g.outcome() is None
    g.play("b0-s0" if pile(g, "s0")[-1].rank == 12 else "b0-s4")
    g.play("b1-x1" if pile(g, "x1")[-1].rank == 2 else "b1-x5")
    assert g.outcome() is Outcome.WON
    assert g.status_of(g.state).startswith("Won")


@pytest.mark.rules("two-rings-success", "two-rings-redeal")
def test_the_game_is_lost_when_no_move_is_left() -> None:
    piles = complete("KS QS")
    g = game({**piles, **{b: "" for b in BRACELET}, "talon": "QS KS"}, redeals=1)
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)
    g = game({**piles, **{b: "" for b in BRACELET}, "talon": "QS KS"}, redeals=0)
    assert g.outcome() is None                        # the re-deal is still to come
    g.play("redeal")
    # the turned-over talon fills the empty bracelet at once, first laid first
    assert pile(g, "b0") == cards("QS") and pile(g, "b1") == cards("KS")
    g.play("b0-s0")
    g.play("b1-s0")
    assert g.outcome() is Outcome.WON


# ----------------------------------------------------------------------------- positions

def test_positions_are_checked() -> None:
    with pytest.raises(PositionError):
        game({"s0": "9S"})                         # not built in order
    with pytest.raises(PositionError):
        game({"b0": "8S 9S"})                      # a place of the bracelet holds one card
    with pytest.raises(PositionError):
        game({"b0": ""})                           # a vacancy with cards in the pack
    with pytest.raises(PositionError):
        game({"turned": "KS"})                     # an unsuitable card turned up
    with pytest.raises(PositionError):
        game({}, redeals=2)


def test_moves_are_described() -> None:
    g = game({"b0": "8S", "stock": "QH 8D KC"})
    assert g.describe(g.state, Move.parse("b0-s0")) == (
        "The eight of spades from the bracelet is played on the first seven of spades.")
    assert g.describe(g.state, Move(action="deal")) == (
        "The king of clubs is turned up and laid on the talon.")
    assert g.describe_ahead(g.state, Move(action="deal")) == "Turn up the next card"
