"""Red and Black: every rule, every refusal (with the rule id it cites), the re-deal, the end."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import ACE
from engine.deal import shuffled
from engine.red_and_black import (
    ACE_SUITS, FOUNDATION_PILES, STOCK, TALON_PILE, TURNED, VOLUNTEER_PILES, RedAndBlack,
    goes_on,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "red-and-black"
R = f"{SLUG}-"
ACES = {f"f{j}": f"A{s.value}" for j, s in enumerate(ACE_SUITS)}
# Eight Volunteers on which nothing below goes by chance, and which go nowhere.
KINGS = {f"v{j}": k for j, k in enumerate("KS KC KH KD KS KC KH KD".split())}


def game(piles: dict[str, str], **kw: object) -> RedAndBlack:
    """A position with the given piles (every other card at the bottom of ``rest_to``, the
    pack by default), loaded through ``engine.load_position`` with an explicit start, so that
    the position itself is checked."""
    made = make_game(SLUG, {**ACES, **KINGS, **piles}, **kw)  # type: ignore[arg-type]
    g = engine.load_position(made.position())
    assert isinstance(g, RedAndBlack) and g.state == made.state
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def up_to(suit: str, last: int) -> str:
    names = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    return " ".join(n + suit for n in names[:last])


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("red-and-black-aces", "red-and-black-volunteers", "red-and-black-foundations")
def test_deal_lays_the_aces_in_pairs_and_eight_volunteers_beneath() -> None:
    for seed in range(20):
        g = engine.new_game(SLUG, seed=seed)
        s = g.state
        # the eight aces withdrawn, in pairs of alternate colours as in the plate
        aces = [s.piles[f] for f in FOUNDATION_PILES]
        assert aces == [(Card(ACE, suit),) for suit in ACE_SUITS]
        colours = [a[0].suit.red for a in aces]
        assert colours == [True, True, False, False, True, True, False, False]
        # the rest shuffled; the first eight cards dealt face up as the Volunteers
        deck = shuffled(sorted(c for c in engine.pack(2) if c.rank != ACE), seed)
        assert [s.piles[v] for v in VOLUNTEER_PILES] == [(c,) for c in deck[::-1][:8]]
        assert s.piles[STOCK] == tuple(deck[:-8])
        assert not s.piles[TURNED] and not s.piles[TALON_PILE]
        assert Counter(s.all_cards()) == Counter(engine.pack(2))
        view = engine.view_of(g)
        vols = [p for p in view["piles"] if p["id"].startswith("v")]
        assert all(p["cards"][0]["c"] for p in vols)  # face up
        assert g.outcome() is None
    # the notation of a deal: a fresh game is its deal number and nothing else
    g = engine.new_game(SLUG, seed=5)
    assert engine.load_position(g.position(compact=True)).state == g.state


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("red-and-black-rule-1")
def test_the_foundations_follow_suit() -> None:
    g = game({"v0": "2H", "v1": "2D"})
    assert refusal_rule(g, "v0-f0") == R + "rule-1"     # a heart on the ace of diamonds
    assert refusal_rule(g, "v1-f2") == R + "rule-1"     # a diamond on the ace of clubs
    g.play("v1-f0")
    g.play("v0-f5")
    assert g.state.piles[0][-1] == Card.parse("2D")


@pytest.mark.rules("red-and-black-foundations")
def test_the_foundations_ascend_one_at_a_time_to_the_king_and_keep_their_cards() -> None:
    g = game({"v0": "3D", "v1": "KS", "f6": up_to("S", 12)})
    assert refusal_rule(g, "v0-f0") == R + "foundations"   # the two of diamonds comes first
    g.play("v1-f6")                                          # the king completes it
    assert len(g.state.piles[6]) == 13
    assert refusal_rule(g, "f6-v2") == R + "foundations"   # cards on a foundation stay there
    g2 = game({"v0": "QS", "f6": up_to("S", 13), "f7": up_to("S", 11)})
    assert refusal_rule(g2, "v0-f6") == R + "foundations"  # complete at its king
    g2.play("v0-f7")


# ----------------------------------------------------------------------------- Rule II

@pytest.mark.rules("red-and-black-rule-2")
def test_on_the_black_four_a_red_three_then_a_black_deuce() -> None:
    g = game({"v0": "4S", "v1": "3H", "v2": "2C", "v3": "3S", "v4": "2H", "v5": "5C"})
    g.play("v1-v0")
    g.play("v2-v0")
    assert g.state.piles[8] == cards("4S 3H 2C")
    assert refusal_rule(g, "v3-v0") == R + "rule-2"     # up, not down
    assert refusal_rule(g, "v4-v0") == R + "rule-2"     # a red deuce on a black deuce


@pytest.mark.rules("red-and-black-rule-2")
def test_alternate_colours_and_one_lower_only() -> None:
    g = game({"v0": "4H", "v1": "3D", "v2": "2S", "v3": "4C"})
    assert refusal_rule(g, "v1-v0") == R + "rule-2"     # red on red
    assert refusal_rule(g, "v2-v0") == R + "rule-2"     # two lower
    assert refusal_rule(g, "v3-v0") == R + "rule-2"     # the same value
    g.play("v2-v1")
    for card, top, ok in (("3H", "4S", True), ("3C", "4D", True), ("3S", "4C", False),
                          ("QH", "KC", True), ("KH", "AS", False), ("4H", "3S", False)):
        assert goes_on(Card.parse(card), Card.parse(top)) is ok


@pytest.mark.rules("red-and-black-rule-2", "red-and-black-deal", "red-and-black-talon")
def test_the_card_turned_up_and_the_talons_top_may_be_placed_on_a_volunteer() -> None:
    g = game({"v0": "9S", "v1": "9C", "talon": "8D 8H", "stock": "8H"})
    g.play("deal")                                    # the eight of hearts is suitable
    assert g.state.piles[TURNED] == cards("8H")
    g.play("turned-v0")
    g.play("talon-v1")                                # the talon's top card
    assert g.state.piles[9] == cards("9C 8H")
    assert refusal_rule(g, "talon-v0") == R + "rule-2"  # the 8D on the 8H


# ----------------------------------------------------------------------------- the Volunteers

@pytest.mark.rules("red-and-black-sequences")
def test_only_the_top_card_of_a_volunteer_moves_one_at_a_time() -> None:
    g = game({"v0": "6S 5H", "v1": "7D", "v2": "6C"})
    assert refusal_rule(g, "v0:0-v1") == R + "sequences"   # the six beneath the five
    assert refusal_rule(g, "v0:0-v0") in (R + "sequences", R + "board")
    g.play("v0-v2")                                         # the five alone, onto the six
    g.play("v0-v1")                                         # then the six
    assert g.state.piles[9] == cards("7D 6S")


@pytest.mark.rules("red-and-black-play", "red-and-black-sequences", "red-and-black-deal")
def test_a_vacancy_is_filled_at_once_from_the_pack() -> None:
    g = game({"v0": "2D", "v1": "5S", "v2": "6H", "stock": "9C JD"})
    g.play("v0-f0")                                         # played: v0 takes the JD at once
    assert g.state.piles[8] == cards("JD")
    g.play("v1-v2")                                         # placed: v1 takes the 9C at once
    assert g.state.piles[9] == cards("9C")
    assert all(g.state.piles[v] for v in VOLUNTEER_PILES)


@pytest.mark.rules("red-and-black-play")
def test_with_the_pack_exhausted_a_vacancy_stays_empty() -> None:
    g = game({"v0": "2D", "v1": "5S", "v2": "6H", "talon": "QH"}, rest_to="talon")
    assert not g.state.piles[STOCK]
    g.play("v0-f0")
    assert g.state.piles[8] == ()
    for src in ("v1", "talon"):                            # nothing goes into the vacancy
        assert refusal_rule(g, f"{src}-v0") == R + "play"
    with pytest.raises(PositionError):                     # a vacancy beside a pack
        game({"v0": ""})


@pytest.mark.rules("red-and-black-play", "red-and-black-deal")
def test_nothing_is_taken_from_the_pack_but_by_turning() -> None:
    g = game({"stock": "3D"})
    assert refusal_rule(g, "stock-v0") == R + "deal"
    assert refusal_rule(g, "stock-f0") == R + "deal"
    assert refusal_rule(g, "v0-turned") == R + "deal"
    assert refusal_rule(g, "v0-stock") == R + "board"


# ----------------------------------------------------------------------------- dealing, talon

@pytest.mark.rules("red-and-black-deal", "red-and-black-talon")
def test_a_suitable_card_turned_up_must_be_used_before_the_next() -> None:
    g = game({"stock": "5C 2D"})
    g.play("deal")
    assert g.state.piles[TURNED] == cards("2D")
    assert refusal_rule(g, "deal") == R + "deal"          # place the two first
    assert refusal_rule(g, "turned-talon") == R + "talon"  # suitable: not for the talon
    g.play("turned-f1")
    g.play("deal")                                          # the five of clubs goes nowhere
    assert g.state.piles[TALON_PILE][-1] == Card.parse("5C")
    assert not g.state.piles[TURNED]


@pytest.mark.rules("red-and-black-talon")
def test_under_the_other_reading_a_suitable_card_may_be_laid_aside() -> None:
    g = game({"stock": "2D"}, options="lay_aside:yes")
    g.play("deal")
    g.play("turned-talon")
    assert g.state.piles[TALON_PILE][-1] == Card.parse("2D")
    g.play("talon-f0")                                     # and used again from the talon


@pytest.mark.rules("red-and-black-talon")
def test_only_the_talons_top_is_used_and_only_turned_cards_go_there() -> None:
    g = game({"talon": "2D 9S", "v0": "QH"})
    assert refusal_rule(g, "talon:0-f0") == R + "talon"
    assert refusal_rule(g, "v0-talon") == R + "talon"
    view = engine.view_of(g)
    talon = next(p for p in view["piles"] if p["id"] == "talon")
    assert [c["c"] for c in talon["cards"]] == [None, "9S"]
    stock = next(p for p in view["piles"] if p["id"] == "stock")
    assert all(c["c"] is None for c in stock["cards"])


# ----------------------------------------------------------------------------- the order of play

@pytest.mark.rules("red-and-black-sequences", "red-and-black-deal")
def test_by_default_no_order_of_play_is_enforced() -> None:
    """RB-6's default: a sequence may be formed, and the next card turned up, while a card
    could still be played on a foundation."""
    g = game({"v0": "2D", "v1": "5S", "v2": "6H", "stock": "3C 9C"})
    g.play("v1-v2")                                     # the two of diamonds waits
    g.play("deal")
    assert g.state.piles[8] == cards("2D")


@pytest.mark.rules("red-and-black-play", "red-and-black-sequences", "red-and-black-deal")
def test_under_the_other_reading_every_play_comes_first() -> None:
    """RB-6's other reading: “When no more can be played, proceed to form sequences … then
    again play all that are suitable and proceed to deal”."""
    g = game({"v0": "2D", "v1": "5S", "v2": "6H", "stock": "3C 9C"},
             options="plays_first:yes")
    assert refusal_rule(g, "v1-v2") == R + "sequences"  # the two of diamonds goes up first
    assert refusal_rule(g, "deal") == R + "deal"
    assert refusal_rule(g, "v2-v1") == R + "rule-2"     # a placing Rule II forbids anyway
    g.play("v0-f0")                                       # played; the nine of clubs fills
    assert g.state.piles[8] == cards("9C")
    g.play("v1-v2")                                       # no more can be played: place
    g.play("deal")                                        # and deal


@pytest.mark.rules("red-and-black-sequences", "red-and-black-deal", "red-and-black-talon")
def test_under_the_other_reading_the_card_turned_up_and_the_talons_top_count_too() -> None:
    # the two of diamonds turned up fits the black three and its foundation: it goes up
    g = game({"v0": "3S", "stock": "9C 2D"}, options="plays_first:yes")
    g.play("deal")
    assert g.state.piles[TURNED] == cards("2D")
    assert refusal_rule(g, "turned-v0") == R + "sequences"
    g.play("turned-f0")
    # the talon's top card, a two of diamonds, holds up a placing and the next card
    g = game({"v1": "5S", "v2": "6H", "talon": "2D", "stock": "9C"},
             options="plays_first:yes")
    assert refusal_rule(g, "v1-v2") == R + "sequences"
    assert refusal_rule(g, "deal") == R + "deal"
    g.play("talon-f0")
    g.play("v1-v2")
    # and the re-deal waits for the plays too
    g = game({"v0": "2D", "talon": "9S"}, rest_to="talon", options="plays_first:yes")
    assert refusal_rule(g, "redeal") == R + "deal"
    g.play("v0-f0")
    g.play("redeal")


# ----------------------------------------------------------------------------- the re-deal

@pytest.mark.rules("red-and-black-redeal")
def test_the_talon_is_re_dealt_once_shuffled_when_the_pack_is_exhausted() -> None:
    g = game({"stock": "5C"})
    assert refusal_rule(g, "redeal") == R + "redeal"      # not while the pack lasts
    g2 = make_game(SLUG, {**ACES, **KINGS, "v0": "2D", "talon": "9S"}, rest_to="talon",
                   deal=7)
    g2 = engine.load_position(g2.position())
    assert isinstance(g2, RedAndBlack)
    talon = g2.state.piles[TALON_PILE]
    assert refusal_rule(g2, "deal") == R + "deal"          # the pack is exhausted
    g2.play("v0-f0")                                        # a vacancy, left empty
    assert g2.state.piles[8] == ()
    g2.play("redeal")
    s = g2.state
    assert not s.piles[TALON_PILE]
    assert Counter(s.piles[STOCK] + s.piles[8]) == Counter(talon)
    assert s.piles[8] and s.vars == (1,)                    # the vacancy took the first card
    expected = shuffled(talon, 7, stream=1)
    assert s.piles[8] == (expected[-1],) and s.piles[STOCK] == tuple(expected[:-1])
    # dealt as before, then no second re-deal
    while g2.state.piles[STOCK]:
        if g2.state.piles[TURNED]:
            g2.play(next(m for m in g2.legal_moves() if m.steps
                         and m.steps[0][0] == "turned"))
        else:
            g2.play("deal")
    if g2.state.piles[TURNED]:
        g2.play(next(m for m in g2.legal_moves() if m.steps and m.steps[0][0] == "turned"))
    assert refusal_rule(g2, "redeal") == R + "redeal"


@pytest.mark.rules("red-and-black-redeal", "red-and-black-deal")
def test_the_re_deal_waits_for_the_card_turned_up_and_needs_a_talon() -> None:
    g = game({"turned": "2D", "talon": "9S"}, rest_to="talon")
    assert refusal_rule(g, "redeal") == R + "redeal"
    g.play("turned-f0")
    g.play("redeal")
    # no pack and no talon: every other card on the foundations or the Volunteers
    full = {f"f{j}": up_to(s.value, 13) for j, s in enumerate(ACE_SUITS)}
    vols = {f"v{j}": f"{r}D" for j, r in enumerate("K Q J 10 9 8 7 6".split())}
    g3 = game({**full, "f0": up_to("D", 5), **vols})
    assert not g3.state.piles[STOCK] and not g3.state.piles[TALON_PILE]
    assert refusal_rule(g3, "redeal") == R + "redeal"
    assert g3.outcome() is None                            # the six of diamonds goes up


# ----------------------------------------------------------------------------- the end

@pytest.mark.rules("red-and-black-foundations")
def test_the_game_is_won_when_every_foundation_reaches_its_king() -> None:
    full = {f"f{j}": up_to(s.value, 13) for j, s in enumerate(ACE_SUITS)}
    g = game({**full, **{f"v{j}": "" for j in range(8)}})
    assert g.outcome() is Outcome.WON
    assert "Won" in engine.view_of(g)["status"]


def _end(vols: dict[str, str], talon_top: str, redeals: int) -> RedAndBlack:
    return game({**vols, "f2": up_to("C", 4), "talon": talon_top}, rest_to="talon",
                vars={"redeals": redeals})


@pytest.mark.rules("red-and-black-redeal")
def test_lost_only_when_the_re_deal_is_spent_and_nothing_can_reach_a_foundation() -> None:
    stuck = {"v0": "6H 5C 4H", "v1": "5H"}            # the 4H can go nowhere
    g = _end(stuck, "9D", 1)
    assert g.outcome() is Outcome.LOST
    assert "failed" in engine.view_of(g)["status"]
    assert _end(stuck, "9D", 0).outcome() is None       # the talon can still be re-dealt
    # moving the 4H onto a black five brings the wanted 5C to the top
    g2 = _end({"v0": "6H 5C 4H", "v1": "5S"}, "9D", 1)
    assert g2.outcome() is None
    g2.play("v0-v1")
    g2.play("v0-f2")
    # placing the talon's top card can bring one too: the 3S on the 4H uncovers a 5C
    assert _end(stuck, "5C 3S", 1).outcome() is None
    assert _end(stuck, "5C 9D", 1).outcome() is Outcome.LOST
    # while a card can still be turned up, nothing is declared
    g4 = game({**stuck, "f2": up_to("C", 4), "stock": "QD"}, vars={"redeals": 1})
    assert g4.outcome() is None


@pytest.mark.rules("red-and-black-talon")
def test_a_card_turned_up_keeps_the_game_open() -> None:
    g = game({"v0": "6H 5C 4H", "v1": "5H", "f2": up_to("C", 4), "turned": "QD"},
             rest_to="talon", vars={"redeals": 1}, options="lay_aside:yes")
    assert g.outcome() is None
    g.play("turned-talon")
    assert g.outcome() is Outcome.LOST


# ----------------------------------------------------------------------------- positions

def test_positions_that_could_not_arise_are_refused() -> None:
    with pytest.raises(PositionError):
        game({"v0": "5H 4D"})                          # same colours in a Volunteer
    with pytest.raises(PositionError):
        game({"v0": "5H 3S"})                          # not one lower
    with pytest.raises(PositionError):
        game({"f0": "AH", "f4": "AD"})                 # the aces out of the plate's order
    with pytest.raises(PositionError):
        game({"f0": "AD 3D"})                          # a foundation out of order
    with pytest.raises(PositionError):
        game({"turned": "5H 6H"})
    with pytest.raises(PositionError):
        game({}, vars={"redeals": 2})


def test_moves_are_described_in_words() -> None:
    g = game({"v0": "2D", "v1": "5S", "v2": "6H", "stock": "3C 9C"})
    assert "played" in g.describe(g.state, Move.parse("v0-f0"))
    assert "placed" in g.describe(g.state, Move.parse("v1-v2"))
    assert "laid on the talon" in g.describe(g.state, Move(action="deal"))


@pytest.mark.rules("red-and-black-talon", "red-and-black-deal")
def test_a_card_turned_up_that_has_lost_its_place_may_go_to_the_talon() -> None:
    g = game({"v0": "9S", "talon": "8D", "stock": "8H"})
    g.play("deal")
    assert refusal_rule(g, "turned-talon") == R + "talon"   # it could go on the nine
    g.play("talon-v0")                                         # the other eight takes it
    g.play("turned-talon")
    assert g.state.piles[TALON_PILE][-1] == Card.parse("8H")
    g.play("deal")


# ----------------------------------------------------------------------------- the solver

def _near_the_end(piles: dict[str, str], redeals: int, options: str = "") -> RedAndBlack:
    """Every card on its foundation but those given (the second spades foundation stops at
    the knave, the first diamonds foundation where ``piles`` says)."""
    full = {f"f{j}": up_to(s.value, 13) for j, s in enumerate(ACE_SUITS)}
    given = {**full, "f7": up_to("S", 11), **{f"v{j}": "" for j in range(8)}, **piles}
    made = make_game(SLUG, given, vars={"redeals": redeals}, options=options)
    g = engine.load_position(made.position())
    assert isinstance(g, RedAndBlack)
    return g


EIGHT_DIAMONDS = {f"v{j}": f"{r}D" for j, r in enumerate("K Q J 10 9 8 7 6".split())}


#: An end where the order of play decides: the queen of clubs on the talon must be placed on
#: the king of hearts before the king goes up, to free the knave of clubs beneath it.
ORDER_MATTERS = {"f2": up_to("C", 10), "f4": up_to("H", 12), "f7": up_to("S", 13),
                 "v0": "KH", "talon": "KC JC QC"}


@pytest.mark.parametrize("make, want", [
    (lambda: _near_the_end(ORDER_MATTERS, 1), True),
    (lambda: _near_the_end(ORDER_MATTERS, 1, "plays_first:yes"), False),
    (lambda: _near_the_end({"v0": "KS", "v1": "QS"}, 1, "plays_first:yes"), True),
    (lambda: _near_the_end({"talon": "QS KS"}, 0, "plays_first:yes"), True),
    (lambda: _near_the_end({"f0": up_to("D", 5), **EIGHT_DIAMONDS, "stock": "QS KS"}, 1,
                           "plays_first:yes"), True),
    (lambda: _near_the_end({"v0": "KS", "v1": "QS"}, 1), True),
    (lambda: _near_the_end({"talon": "QS KS"}, 1), False),       # the king on top, no re-deal
    (lambda: _near_the_end({"talon": "QS KS"}, 0), True),        # the re-deal frees both
    (lambda: _near_the_end({"f0": up_to("D", 12), "v0": "KD QS", "talon": "KS"}, 1), True),
    (lambda: _near_the_end({"f0": up_to("D", 12), "talon": "KD QS KS"}, 1), False),
    (lambda: _near_the_end({"f0": up_to("D", 12), "v0": "KD", "talon": "QS KS"}, 1),
     False),
    (lambda: _near_the_end({"f0": up_to("D", 5), **EIGHT_DIAMONDS, "stock": "KS QS"}, 1),
     True),
    (lambda: _near_the_end({"f0": up_to("D", 5), **EIGHT_DIAMONDS, "stock": "QS KS"}, 1),
     True),
])
def test_the_solver_agrees_with_an_exhaustive_search_near_the_end(make: object,
                                                                   want: bool) -> None:
    """Hand-made positions with a few cards to go (random games seldom reach the end of the
    pack): the solver's verdict is the exhaustive search's, and a win replays."""
    from engine.solver import Budget, solve
    from tests.engine.test_solver import exhaustive
    g = make()  # type: ignore[operator]
    found = solve(g, Budget(nodes=5000))
    assert found.verdict == ("won" if want else "lost")
    assert exhaustive(g, 100_000) is want
    if want:
        h = g.copy()
        for m in found.line:
            h.play(m)
        assert h.outcome() is Outcome.WON


@pytest.mark.rules("red-and-black-redeal", "red-and-black-play")
def test_no_position_declared_lost_can_still_be_won() -> None:
    """A second reader's check of RB-9: end positions drawn at random (the pack exhausted, a
    few cards left on the Volunteers and the talon, the re-deal spent or not), every position
    reachable from each searched exhaustively; none the engine declares lost can be won, and
    some are declared lost, so the check bites."""
    import random

    from tests.engine.exhaustive import check_verdicts
    rng = random.Random(1914)
    names = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    checked = lost = 0
    while checked < 40:
        piles: dict[str, str] = {}
        left: list[str] = []
        for j, s in enumerate(ACE_SUITS):
            height = rng.choice([11, 12, 12, 13, 13, 13])
            piles[f"f{j}"] = up_to(s.value, height)
            left += [n + s.value for n in names[height:]]
        rng.shuffle(left)
        vols: list[list[str]] = [[] for _ in range(8)]
        talon: list[str] = []
        for c in left:
            card = Card.parse(c)
            fits = [v for v in vols if v and goes_on(card, Card.parse(v[-1]))]
            if fits and rng.random() < 0.3:
                rng.choice(fits).append(c)
            elif rng.random() < 0.4:
                vols[rng.randrange(8)].append(c)
            else:
                talon.append(c)
        if any(not goes_on(Card.parse(v[k]), Card.parse(v[k - 1]))
               for v in vols for k in range(1, len(v))):
            continue
        piles |= {f"v{j}": " ".join(v) for j, v in enumerate(vols)}
        piles["talon"] = " ".join(talon)
        made = make_game(SLUG, piles, vars={"redeals": rng.choice([0, 1])}, rest_to="talon")
        g = engine.load_position(made.position())
        search = check_verdicts(g, 20_000)   # asserts that nothing lost is winnable
        checked += 1
        lost += search.lost
    assert lost > 0
