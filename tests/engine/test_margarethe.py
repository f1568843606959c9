"""Margarethe: every rule, every refusal (with the rule id it cites), the deal, the re-deal and
the end of the game."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import ACE, KING, KNAVE, QUEEN, SUITS
from engine.deal import shuffled
from engine.margarethe import (
    ACES_PILE, FOUNDATION_PILES, HELP_PILES, PILES, STOCK, TALON_PILE, TURNED, Margarethe,
    home,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "margarethe"
R = f"{SLUG}-"
#: The twelve courts in their places of the M.
COURTS = {f"{'kjq'[g]}{j}": f"{'KJQ'[g]}{'SHDC'[j]}" for g in range(3) for j in range(4)}
#: Nine help cards none of which a bare court takes (tens, sevens and fours come first).
HELP = {f"a{i}": c for i, c in enumerate("9S 9H 9D 9C 6S 6H 6D 6C 3S".split())}


def game(piles: dict[str, str], **kw: object) -> Margarethe:
    """A position: the courts in their places, the nine help cards above unless given, the
    piles given, the aces not given in their packet, every other card at the bottom of
    ``rest_to`` (the pack unless told);
    loaded through ``engine.load_position`` with an explicit start, so that the position
    itself is checked."""
    given = {**COURTS, **HELP, **piles}
    for pid, court in COURTS.items():  # a foundation given as its cards above the court
        if pid in piles:
            given[pid] = f"{court} {piles[pid]}".strip()
    if "aces" not in piles:  # the aces not placed elsewhere lie in their packet
        named = " ".join(piles.values()).split()
        given["aces"] = " ".join(a for a in ("AS", "AH", "AD", "AC") if a not in named)
    made = make_game(SLUG, given, **kw)  # type: ignore[arg-type]
    g = engine.load_position(made.position())
    assert isinstance(g, Margarethe) and g.state == made.state
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def pile(g: Margarethe, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def finished() -> dict[str, str]:
    """Every foundation complete but the queen of clubs's, which lacks its two."""
    return {"k0": "10S 9S 8S", "k1": "10H 9H 8H", "k2": "10D 9D 8D", "k3": "10C 9C 8C",
            "j0": "7S 6S 5S", "j1": "7H 6H 5H", "j2": "7D 6D 5D", "j3": "7C 6C 5C",
            "q0": "4S 3S 2S", "q1": "4H 3H 2H", "q2": "4D 3D 2D", "q3": "4C 3C"}


NO_HELP = {f"a{i}": "" for i in range(9)}


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("margarethe-courts", "margarethe-help", "margarethe-aces")
def test_the_deal_lays_the_m_and_the_a() -> None:
    for seed in range(40):
        g = engine.new_game(SLUG, seed=seed)
        s = g.state
        assert Counter(s.all_cards()) == Counter(engine.pack(1))
        for f in FOUNDATION_PILES:  # kings, knaves, queens, each in SUITS order
            assert s.piles[f] == (Card((KING, KNAVE, QUEEN)[f // 4], SUITS[f % 4]),)
        assert all(len(s.piles[i]) == 1 and s.piles[i][0].rank != ACE for i in HELP_PILES)
        assert all(c.rank == ACE for c in s.piles[ACES_PILE])
        assert not s.piles[TURNED] and not s.piles[TALON_PILE]
        # the nine came off the top of the shuffled forty, any ace among them set aside
        rest = [c for c in engine.pack(1) if c.rank not in (KING, KNAVE, QUEEN)]
        deck = shuffled(rest, seed)
        taken = deck[len(s.piles[STOCK]):][::-1]
        assert [c for c in taken if c.rank != ACE] == [s.piles[i][0] for i in HELP_PILES]
        assert [c for c in taken if c.rank == ACE] == list(s.piles[ACES_PILE])
        assert tuple(deck[:len(s.piles[STOCK])]) == s.piles[STOCK]


@pytest.mark.rules("margarethe-aces", "margarethe-help")
def test_aces_met_in_dealing_the_a_go_to_their_packet() -> None:
    seen = 0
    for seed in range(60):
        g = engine.new_game(SLUG, seed=seed)
        if g.state.piles[ACES_PILE]:
            seen += 1
            assert len(g.state.piles[STOCK]) == 31 - len(g.state.piles[ACES_PILE])
    assert seen > 10


@pytest.mark.rules("margarethe-courts")
def test_the_courts_never_move() -> None:
    g = game({"stock": "5D"})
    assert refusal_rule(g, "k0-a0") == R + "courts"
    assert refusal_rule(g, "q3-talon") == R + "courts"
    assert refusal_rule(g, "j1-k1") == R + "courts"


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("margarethe-rule-1")
def test_the_foundations_follow_suit() -> None:
    g = game({"a0": "10H", "a1": "7D", "a2": "4C", "stock": "5D"})
    assert refusal_rule(g, "a0-k0") == R + "rule-1"
    assert refusal_rule(g, "a1-j3") == R + "rule-1"
    assert refusal_rule(g, "a2-q0") == R + "rule-1"
    g.play("a0-k1")
    g.play("a1-j2")
    g.play("a2-q3")


@pytest.mark.rules("margarethe-rule-2", "margarethe-play-help")
def test_kings_descend_from_ten_to_eight() -> None:
    g = game({"a0": "10S", "a1": "9S", "a2": "8S", "stock": "5D 2H 3H"})
    assert refusal_rule(g, "a1-k0") == R + "play-help"   # the first on a king is a ten
    assert refusal_rule(g, "a2-k0") == R + "play-help"
    g.play("a0-k0")
    assert refusal_rule(g, "a2-k0") == R + "rule-2"      # the nine comes first
    g.play("a1-k0")
    g.play("a2-k0")
    assert pile(g, "k0") == cards("KS 10S 9S 8S")


@pytest.mark.rules("margarethe-rule-2", "margarethe-play-help")
def test_knaves_descend_from_seven_to_five_and_queens_from_four_to_two() -> None:
    g = game({"a0": "7H", "a1": "6H", "a2": "5H", "a3": "4D", "a4": "3D", "a5": "2D",
              "stock": "5D 2H 3H 9C 8C 10C"}, rest_to="talon")
    assert refusal_rule(g, "a0-q1") == R + "play-help"   # a seven is no queen's card
    assert refusal_rule(g, "a1-j1") == R + "play-help"
    assert refusal_rule(g, "a4-q2") == R + "play-help"
    for m in ("a0-j1", "a1-j1", "a2-j1", "a3-q2", "a4-q2", "a5-q2"):
        g.play(m)
    assert pile(g, "j1") == cards("JH 7H 6H 5H")
    assert pile(g, "q2") == cards("QD 4D 3D 2D")


@pytest.mark.rules("margarethe-rule-2")
def test_a_card_of_the_wrong_group_is_refused_and_a_full_foundation_takes_nothing() -> None:
    g = game({"k0": "10S 9S 8S", "a0": "7S", "a1": "5D", "stock": "2D 2H 3H"},
             rest_to="talon")
    assert refusal_rule(g, "a0-k0") == R + "rule-2"      # complete with its three cards
    why = g.refusal(g.state, Move.parse("a0-k0"))
    assert why is not None and "complete" in why.message
    assert refusal_rule(g, "a1-j2") == R + "play-help"   # a five is no first card
    assert refusal_rule(g, "a1-q2") == R + "play-help"


@pytest.mark.rules("margarethe-rule-2")
def test_cards_on_the_foundations_stay_there() -> None:
    g = game({"k0": "10S", "stock": "5D"})
    assert refusal_rule(g, "k0-a0") == R + "rule-2"
    assert refusal_rule(g, "k0-talon") == R + "rule-2"
    assert refusal_rule(g, "k0-k1") == R + "rule-2"


@pytest.mark.rules("margarethe-rule-1", "margarethe-rule-2")
def test_each_card_from_two_to_ten_has_one_foundation() -> None:
    for c in engine.pack(1):
        f = home(c)
        if c.rank == ACE or c.rank > 10:
            assert f is None
            continue
        assert f is not None
        court = Card((KING, KNAVE, QUEEN)[f // 4], SUITS[f % 4])
        assert court.suit is c.suit
        assert c.rank in {KING: (8, 9, 10), KNAVE: (5, 6, 7), QUEEN: (2, 3, 4)}[court.rank]


# ----------------------------------------------------------------------------- the A

@pytest.mark.rules("margarethe-play-help")
def test_help_cards_are_played_on_the_foundations_and_nowhere_else() -> None:
    g = game({"a0": "10S", "stock": "5D 2H"})
    assert refusal_rule(g, "a0-a1") == R + "play-help"
    assert refusal_rule(g, "a0-talon") == R + "talon"
    assert refusal_rule(g, "a0-aces") == R + "aces"
    assert refusal_rule(g, "a0-turned") == R + "play-help"
    assert refusal_rule(g, "a0-stock") == R + "play-help"
    legal = {str(m) for m in g.legal_moves()}
    assert "a0-k0" in legal
    g.play("a0-k0")


@pytest.mark.rules("margarethe-spaces", "margarethe-aces")
def test_a_space_is_filled_at_once_from_the_pack_an_ace_going_to_its_packet() -> None:
    g = game({"a3": "10S", "stock": "5D 2H AC"})
    g.play("a3-k0")
    assert pile(g, "a3") == cards("2H")          # the ace went by, the two took the place
    assert pile(g, "aces")[-1] == Card.parse("AC")
    assert pile(g, "stock")[-1] == Card.parse("5D")


@pytest.mark.rules("margarethe-spaces")
def test_a_space_waits_for_the_re_deal_when_the_pack_is_exhausted() -> None:
    g = game({"a0": "10S", "stock": "", "talon": "2H 5D"}, rest_to="talon")
    g.play("a0-k0")
    assert pile(g, "a0") == ()
    assert refusal_rule(g, "talon-a0") == R + "spaces"   # not from the talon
    assert refusal_rule(g, "a1-a0") == R + "spaces"      # nor from the A
    assert Move.parse("talon-a0") not in g.legal_moves()
    before = pile(g, "talon")
    g.play("redeal")
    assert pile(g, "a0") == before[:1]                    # the talon's first card laid
    assert pile(g, "stock") == before[1:][::-1]


@pytest.mark.rules("margarethe-spaces")
def test_a_space_stays_empty_after_the_re_deal_when_nothing_is_left() -> None:
    g = game({"a0": "10S", "stock": "", "talon": ""}, vars={"redeals": 1}, rest_to="talon")
    g.play("a0-k0")
    assert pile(g, "a0") == ()
    assert not any(m.steps and m.steps[0][1] == "a0" for m in g.legal_moves())
    assert refusal_rule(g, "redeal") == R + "redeal"


@pytest.mark.rules("margarethe-spaces", "margarethe-deal")
def test_the_last_card_turned_up_does_not_fill_a_space() -> None:
    g = game({"a0": "7S", "stock": "10S"}, rest_to="talon")
    g.play("deal")                       # the pack's last card, suitable, waits
    g.play("a0-j0")                      # a space, and no pack to fill it
    assert pile(g, "a0") == () and pile(g, "turned") == cards("10S")
    assert refusal_rule(g, "turned-a0") == R + "spaces"
    assert refusal_rule(g, "redeal") == R + "talon"
    g.play("turned-k0")
    g.play("redeal")
    assert pile(g, "a0")                 # filled from the pack the talon has become


# ----------------------------------------------------------------------------- dealing

@pytest.mark.rules("margarethe-deal", "margarethe-talon")
def test_an_unsuitable_card_turned_up_goes_to_the_talon_at_once() -> None:
    g = game({"stock": "2H 5D"})
    g.play("deal")
    assert pile(g, "talon") == cards("5D") and not pile(g, "turned")
    g.play("deal")
    assert pile(g, "talon") == cards("5D 2H")


@pytest.mark.rules("margarethe-deal", "margarethe-aces")
def test_an_ace_turned_up_goes_to_its_packet() -> None:
    g = game({"stock": "5D AH"})
    g.play("deal")
    assert pile(g, "aces")[-1] == Card.parse("AH")
    assert not pile(g, "turned") and not pile(g, "talon")
    assert refusal_rule(g, "aces-a0") == R + "aces"
    assert refusal_rule(g, "aces-k1") == R + "aces"


@pytest.mark.rules("margarethe-deal", "margarethe-talon")
def test_a_suitable_card_turned_up_must_be_played_before_the_next_is_dealt() -> None:
    g = game({"stock": "5D 10S"})
    g.play("deal")
    assert pile(g, "turned") == cards("10S")
    assert refusal_rule(g, "deal") == R + "talon"
    assert refusal_rule(g, "turned-talon") == R + "talon"
    assert refusal_rule(g, "turned-a0") == R + "play-help"
    assert refusal_rule(g, "turned-k1") == R + "rule-1"
    assert g.safe_moves(g.state, g.legal_moves()) == [Move.parse("turned-k0")]
    g.play("turned-k0")
    g.play("deal")
    assert pile(g, "talon") == cards("5D")


@pytest.mark.rules("margarethe-deal")
def test_other_moves_may_be_made_while_a_card_turned_up_waits() -> None:
    g = game({"a0": "7S", "stock": "5D 2H 10S"})
    g.play("deal")
    g.play("a0-j0")                 # the A may be played meanwhile, its space refilled
    assert pile(g, "a0") == cards("2H")
    g.play("turned-k0")


@pytest.mark.rules("margarethe-deal")
def test_the_pack_is_only_turned_up() -> None:
    g = game({"stock": "5D 10S"})
    assert refusal_rule(g, "stock-k0") == R + "deal"
    assert refusal_rule(g, "stock-talon") == R + "deal"
    assert refusal_rule(g, "stock:0-talon") == R + "deal"


@pytest.mark.rules("margarethe-deal")
def test_the_exhausted_pack_cannot_be_dealt() -> None:
    g = game({"stock": "", "talon": "5D"}, rest_to="talon")
    assert refusal_rule(g, "deal") == R + "deal"


# ----------------------------------------------------------------------------- MA-5: a card
# turned up that no foundation takes at that moment

#: The talon's top card, the ten of hearts, could be played on its king; the pack's next card,
#: the nine of hearts, would follow it there (the nine of hearts of HELP replaced by a two).
BURIED = {"a1": "2D", "talon": "5D 10H", "stock": "2H 9H"}


@pytest.mark.rules("margarethe-deal", "margarethe-talon")
def test_by_default_an_unsuitable_card_goes_to_the_talon_over_a_top_card_still_unplayed() -> None:
    g = game(BURIED)
    g.play("deal")                  # the nine goes on the ten: neither can now be played
    assert pile(g, "talon") == cards("5D 10H 9H") and not pile(g, "turned")
    assert [str(m) for m in g.legal_moves()] == ["deal"]
    g = game(BURIED)                # the player who plays the talon's top first loses nothing
    g.play("talon-k1")
    g.play("deal")
    assert pile(g, "turned") == cards("9H")


@pytest.mark.rules("margarethe-deal", "margarethe-talon")
def test_under_the_other_reading_an_unsuitable_card_waits_the_talon_s_top_still_in_play() -> None:
    g = game(BURIED, options="unsuitable_to_talon:no")
    g.play("deal")
    assert pile(g, "turned") == cards("9H") and pile(g, "talon") == cards("5D 10H")
    assert "play the" not in engine.view_of(g)["status"]
    assert refusal_rule(g, "turned-talon") == R + "talon"       # it goes when the next turns
    g.play("talon-k1")              # the talon's top played, the nine is suitable at last
    assert refusal_rule(g, "deal") == R + "talon"
    g.play("turned-k1")
    g = game(BURIED, options="unsuitable_to_talon:no")
    g.play("deal")
    assert g.describe(g.state, Move(action="deal")) == (
        "The nine of hearts is laid on the talon, and the two of hearts is turned up.")
    g.play("deal")                  # the next card turned lays the unsuitable one on the talon
    assert pile(g, "talon") == cards("5D 10H 9H") and pile(g, "turned") == cards("2H")


@pytest.mark.rules("margarethe-redeal", "margarethe-talon")
def test_under_the_other_reading_a_card_waiting_joins_the_talon_before_the_re_deal() -> None:
    g = game({"talon": "5D", "stock": "2H"}, options="unsuitable_to_talon:no", rest_to="talon")
    g.play("deal")
    assert pile(g, "turned") == cards("2H") and not pile(g, "stock")
    assert refusal_rule(g, "deal") == R + "deal"                # the pack is exhausted
    talon = pile(g, "talon") + cards("2H")
    g.play("redeal")
    assert pile(g, "stock") == talon[::-1]             # turned over: the two of hearts last
    assert not pile(g, "talon") and not pile(g, "turned")


# ----------------------------------------------------------------------------- the talon

@pytest.mark.rules("margarethe-talon")
def test_only_the_talon_s_top_card_is_used_and_shown() -> None:
    g = game({"talon": "10S 5D 7H", "stock": "2H"})
    assert refusal_rule(g, "talon:0-k0") == R + "talon"
    g.play("talon-j1")
    faces = engine.view_of(g)["piles"][TALON_PILE]["cards"]
    assert faces == [{"c": None}, {"c": "5D"}]
    assert refusal_rule(g, "talon-j2") == R + "play-help"


@pytest.mark.rules("margarethe-talon")
def test_the_talon_takes_only_unsuitable_cards_turned_up() -> None:
    g = game({"talon": "5D", "stock": "2H"})
    assert refusal_rule(g, "a0-talon") == R + "talon"
    assert refusal_rule(g, "talon-talon") == R + "board"


@pytest.mark.rules("margarethe-talon", "margarethe-redeal")
def test_under_the_other_reading_the_talon_comes_back_only_through_the_re_deal() -> None:
    g = game({"talon": "5D 10S", "stock": "2H"}, options="talon_play:no", rest_to="talon")
    assert refusal_rule(g, "talon-k0") == R + "talon"
    assert all(not (m.steps and m.steps[0][0] == "talon") for m in g.legal_moves())
    g.play("deal")
    before = pile(g, "talon")
    g.play("redeal")
    assert pile(g, "stock") == before[::-1]       # turned over: the first laid is dealt first
    assert game({"talon": "5D 10S", "stock": "2H"}).refusal(
        game({"talon": "5D 10S", "stock": "2H"}).state, Move.parse("talon-k0")) is None


# ----------------------------------------------------------------------------- re-deal

@pytest.mark.rules("margarethe-redeal")
def test_the_talon_is_re_dealt_once_when_the_pack_is_exhausted() -> None:
    g = game({"talon": "5D 2H 8C", "stock": "5C"}, rest_to="talon")
    assert refusal_rule(g, "redeal") == R + "redeal"      # cards left in the pack
    g.play("deal")
    assert pile(g, "talon")[-4:] == cards("5D 2H 8C 5C")
    assert g.pack_move(g.state, g.legal_moves()) == Move(action="redeal")
    before = pile(g, "talon")
    g.play("redeal")
    assert pile(g, "talon") == ()
    # the talon turned over, unshuffled: its first card laid is the first dealt again
    assert pile(g, "stock") == before[::-1]
    assert g.state.vars == (1,)
    while pile(g, "stock") or pile(g, "turned"):
        g.play(g.safe_moves(g.state, g.legal_moves())[0] if pile(g, "turned") else "deal")
    assert pile(g, "talon")
    assert refusal_rule(g, "redeal") == R + "redeal"      # only once


@pytest.mark.rules("margarethe-redeal")
def test_no_re_deal_without_a_talon_or_with_a_card_waiting() -> None:
    g = game({**finished(), "q3": "4C 3C", **{f"a{i}": "" for i in range(9)}, "a0": "2C",
              "stock": "", "talon": ""})
    assert refusal_rule(g, "redeal") == R + "redeal"
    g2 = game({"stock": "10S", "talon": "5D"}, rest_to="talon")
    g2.play("deal")
    assert refusal_rule(g2, "redeal") == R + "talon"


# ----------------------------------------------------------------------------- the end

@pytest.mark.rules("margarethe-success")
def test_the_game_is_won_with_the_m_of_eights_fives_and_twos_and_the_aces() -> None:
    piles = {**finished(), **NO_HELP, "a0": "2C", "stock": "", "talon": ""}
    g = game(piles)
    assert g.outcome() is None
    g.play("a0-q3")
    assert g.outcome() is Outcome.WON
    assert "Won" in engine.view_of(g)["status"]
    tops = [g.state.piles[f][-1].rank for f in FOUNDATION_PILES]
    assert tops == [8] * 4 + [5] * 4 + [2] * 4
    # no ace can be left behind: the pack's last cards fill the emptied spaces of the A,
    # and each ace among them goes to its packet
    short = {f: finished()[f].rsplit(" ", 1)[0] for f in finished() if f[0] in "kj"}
    lowest = "5D 2C 5S 5H 5C 8S 8H 8D 8C".split()
    g2 = game({**finished(), **short, **{f"a{i}": c for i, c in enumerate(lowest)},
               "stock": "AS AH"})
    g2.play("a0-j2")
    assert pile(g2, "a0") == () and len(pile(g2, "aces")) == 4 and not pile(g2, "stock")


@pytest.mark.rules("margarethe-success", "margarethe-redeal")
def test_the_game_is_lost_only_when_no_move_is_left() -> None:
    # the king of spades wants its nine, which lies under the eight in the talon
    blocked = {**finished(), "q3": "4C 3C 2C", **NO_HELP, "k0": "10S", "stock": "",
               "talon": "9S 8S"}
    g = game(blocked)
    assert g.outcome() is None          # the talon can still be re-dealt
    g.play("redeal")                    # the spaces of the A are filled from the new pack
    assert (pile(g, "a0"), pile(g, "a1"), pile(g, "stock")) == (cards("9S"), cards("8S"), ())
    g.play("a0-k0")
    g.play("a1-k0")
    assert g.outcome() is Outcome.WON
    lost = game(blocked, vars={"redeals": 1})
    assert lost.legal_moves() == []
    assert lost.outcome() is Outcome.LOST
    assert "failed" in engine.view_of(lost)["status"]
    strict = game({**blocked, "talon": "8S 9S"}, vars={"redeals": 1},
                  options="talon_play:no")
    assert strict.outcome() is Outcome.LOST   # the nine on top, but the talon is closed
    assert game({**blocked, "talon": "8S 9S"}, vars={"redeals": 1}).outcome() is None


# ----------------------------------------------------------------------------- positions

def test_positions_round_trip_and_bad_positions_are_refused() -> None:
    g = engine.new_game(SLUG, seed=11)
    for m in g.legal_moves()[:1]:
        g.play(m)
    again = engine.load_position(g.position())
    assert again.state == g.state
    text = g.position()
    with pytest.raises(PositionError):
        engine.load_position(text.replace("k0:KS", "k0:KH", 1).replace("k1:KH", "k1:KS", 1))
    made = make_game(SLUG, {**COURTS, **HELP, "a0": "", "stock": "5D"})
    with pytest.raises(PositionError):
        engine.load_position(made.position())           # a space with a pack to fill it
    made = make_game(SLUG, {**COURTS, **HELP, "turned": "5D", "stock": "2H"})
    with pytest.raises(PositionError):
        engine.load_position(made.position())           # an unsuitable card turned up
    made = make_game(SLUG, {**COURTS, **HELP, "turned": "5D", "stock": "2H"},
                     options="unsuitable_to_talon:no")
    assert engine.load_position(made.position()).state == made.state   # MA-5's other reading
    made = make_game(SLUG, {**COURTS, **HELP, "talon": "AS", "stock": "2H"})
    with pytest.raises(PositionError):
        engine.load_position(made.position())           # an ace in the talon
    made = make_game(SLUG, {**COURTS, **HELP, "stock": "2H"}, vars={"redeals": 2})
    with pytest.raises(PositionError):
        engine.load_position(made.position())


def test_the_status_line_and_the_words_of_moves() -> None:
    g = game({"stock": "5D 10S AH 2H"})
    view = engine.view_of(g)
    assert view["status"].startswith(f"Pack: {len(pile(g, 'stock'))} cards · talon: 0 cards")
    assert g.describe(g.state, Move(action="deal")) == ("The two of hearts is turned up and "
                                                        "laid on the talon.")
    g.play("deal")
    assert "packet of aces" in g.describe(g.state, Move(action="deal"))
    g.play("deal")
    assert "suitable" in g.describe(g.state, Move(action="deal"))
    g.play("deal")
    assert "play the ten of spades" in engine.view_of(g)["status"]
    assert "king of spades" in g.describe(g.state, Move.parse("turned-k0"))


def test_every_pile_is_on_the_board_and_the_diagram() -> None:
    assert len(PILES) == 25
    assert Margarethe.FIGURES[0].piles is not None
    assert "stock" not in Margarethe.FIGURES[0].piles


@pytest.mark.rules("margarethe-aces", "margarethe-spaces", "margarethe-deal")
def test_what_the_rules_make_happen_at_once_always_has_happened() -> None:
    """Random play under both readings: after every move no ace lies outside its packet and
    the pack, no space of the A is open while the pack has cards, and a card turned up is one
    a foundation takes (checked by loading each position as a start, which refuses any of
    these)."""
    import random

    for opts in ("", "talon_play:no"):
        for seed in range(25):
            rng = random.Random(seed)
            g = engine.new_game(SLUG, seed=seed, options=opts)
            while g.outcome() is None:
                g.play(rng.choice(g.legal_moves()))
                text = f"game={SLUG};opts={opts};start={g.state_text()};vars=redeals:" \
                       f"{g.state.vars[0]};moves=;redo="
                assert engine.load_position(text).state == g.state
