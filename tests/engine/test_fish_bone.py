"""The Fish-bone: every rule, every refusal (with the rule id it cites), the option, the end of
the game. Positions are written by hand and loaded through ``engine.load_position``."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import KING, KNAVE, QUEEN, pack
from engine.deal import shuffled
from engine.fish_bone import FOUND, GRID_PILES, PILES, TheFishBone
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-fish-bone"
R = f"{SLUG}-"
DOWN = "J 10 9 8 7 6 5 4 3 2 A".split()


def run(suit: str, last: str = "A") -> str:
    """A foundation from the knave of ``suit`` down to ``last``."""
    return " ".join(r + suit for r in DOWN[:DOWN.index(last) + 1])


def game(piles: dict[str, str], options: str = "", rest_to: str = "stock",
         redeals: int = 0) -> TheFishBone:
    made = make_game(SLUG, piles, vars={"redeals": redeals}, options=options or None,
                     rest_to=rest_to)
    text = made.position()
    assert "start=" in text
    g = engine.load_position(text)
    assert isinstance(g, TheFishBone) and g.state == made.state
    return g


#: Every knave in the line, so that the rest of the cards may lie in the talon.
KNAVES = {f"f{j}": "J" + s for j, s in enumerate("SSHHDDCC")}
GRIDIRON = {"g0": "5C", "g1": "4D", "g2": "3H", "g3": "2S", "g4": "2C", "g5": "8D"}


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def pile(g: TheFishBone, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def steps(g: TheFishBone) -> set[str]:
    return {str(m) for m in g.legal_moves() if m.steps}


# ------------------------------------------------------------------------ the deal

@pytest.mark.rules("the-fish-bone-gridiron", "the-fish-bone-first-plays",
                   "the-fish-bone-foundations", "the-fish-bone-rule-2")
def test_six_cards_make_the_gridiron_and_its_knaves_go_to_the_line_at_once() -> None:
    seen_knave = False
    for seed in range(60):
        g = engine.new_game(SLUG, seed=seed)
        s = g.state
        deck = shuffled(pack(2), seed)
        six = [deck[-1 - i] for i in range(6)]
        assert Counter(s.all_cards()) == Counter(pack(2))
        assert len(pile(g, "stock")) == 98
        knaves = [c for c in six if c.rank == KNAVE]
        seen_knave |= bool(knaves)
        assert [pile(g, f"f{j}") for j in range(len(knaves))] == [(c,) for c in knaves]
        for i, card in enumerate(six):
            here = pile(g, f"g{i}")
            if card.rank == KNAVE:
                assert here == ()                              # a vacancy left
            elif card.rank in (KING, QUEEN):
                assert here == ()                              # beside its knave, or talon
                if not any(k.suit is card.suit for k in knaves):
                    assert card in pile(g, "talon")
                    assert engine.new_game(SLUG, seed=seed, options="dealt_courts:no"
                                           ).state.piles[g.pile_index(f"g{i}")] == (card,)
            else:
                assert here == (card,)
        assert not pile(g, "turned")
        assert all(c.rank in (KING, QUEEN) for c in pile(g, "talon"))
    assert seen_knave


@pytest.mark.rules("the-fish-bone-first-plays", "the-fish-bone-rule-2")
def test_a_king_of_the_gridiron_goes_beside_a_knave_of_the_gridiron() -> None:
    seed = next(s for s in range(2000)
                if (lambda six: any(c.rank == KNAVE and any(
                    d.rank == KING and d.suit is c.suit for d in six) for c in six))(
                    shuffled(pack(2), s)[-6:]))
    g = engine.new_game(SLUG, seed=seed)
    knave = pile(g, "f0")[0]
    assert pile(g, "k0") == (Card(KING, knave.suit),)


@pytest.mark.rules("the-fish-bone-first-plays", "the-fish-bone-deal")
def test_a_gridiron_card_continuing_a_foundation_may_be_played_from_the_first_move() -> None:
    g = game({"f0": "JS", "g0": "10S", "g1": "4C", "stock": "3D"})
    assert "g0-f0" in steps(g)
    g.play("g0-f0")
    assert pile(g, "f0") == cards("JS 10S") and not pile(g, "g0")


# ------------------------------------------------------------------------ foundations

@pytest.mark.rules("the-fish-bone-foundations", "the-fish-bone-rule-1")
def test_the_knaves_descend_in_suit_to_the_aces() -> None:
    g = game({"f0": "JS", "g0": "10H", "g1": "9S", "g2": "10S", "g3": "5C"})
    assert refusal_rule(g, "g0-f0") == R + "rule-1"             # hearts on spades
    assert refusal_rule(g, "g1-f0") == R + "foundations"        # the ten comes first
    assert refusal_rule(g, "g3-f1") == R + "foundations"        # an empty place: knaves only
    g.play("g2-f0")
    g.play("g1-f0")
    assert pile(g, "f0") == cards("JS 10S 9S")
    assert refusal_rule(g, "f0-g2") == R + "foundations"        # cards played stay there


@pytest.mark.rules("the-fish-bone-foundations")
def test_a_foundation_is_complete_at_its_ace() -> None:
    g = game({"f0": run("S"), "f1": "JS", "g0": "AS"})
    assert refusal_rule(g, "g0-f0") == R + "foundations"


@pytest.mark.rules("the-fish-bone-foundations", "the-fish-bone-deal")
def test_a_knave_turned_up_goes_to_the_next_place_of_the_line() -> None:
    g = game({"f0": "JS", "g0": "5C", "stock": "JH"})
    g.play("deal")
    assert pile(g, "f1") == cards("JH") and not pile(g, "turned") and not pile(g, "talon")
    assert "turned up" in g.describe(g.state, engine.Move(action="deal"))


# ------------------------------------------------------------------------ the gridiron

@pytest.mark.rules("the-fish-bone-marry")
def test_cards_from_the_pack_or_talon_marry_upwards_in_suit() -> None:
    g = game({"g0": "5C", "g1": "9D", "g2": "10H", "turned": "6C", "talon": "10D"})
    assert {"turned-g0", "talon-g1"} <= steps(g)
    g.play("turned-g0")
    g.play("talon-g1")
    assert pile(g, "g0") == cards("5C 6C") and pile(g, "g1") == cards("9D 10D")
    g = game({"g0": "5C", "g2": "10H", "turned": "6S", "talon": "7C"})
    assert refusal_rule(g, "turned-g0") == R + "marry"          # not the same suit
    assert refusal_rule(g, "talon-g0") == R + "marry"           # not the next above
    g = game({"g0": "6C", "g2": "10H", "turned": "5C"})
    assert refusal_rule(g, "turned-g0") == R + "marry"          # never downwards
    assert refusal_rule(g, "turned-g2") == R + "marry"          # nothing on a ten


@pytest.mark.rules("the-fish-bone-marry")
def test_gridiron_cards_do_not_marry_each_other_and_only_the_top_is_available() -> None:
    g = game({"f0": "JC 10C 9C 8C 7C", "g0": "5C 6C", "g1": "4C", "g2": "7D", "g3": "6D"})
    assert refusal_rule(g, "g1-g0") == R + "marry"              # wrong rank anyway, but
    assert refusal_rule(g, "g3-g2") == R + "marry"              # the right one is refused too
    assert refusal_rule(g, "g0:0-f0") == R + "marry"            # covered by the six
    g.play("g0-f0")
    g.play("g0-f0")
    assert pile(g, "f0")[-2:] == cards("6C 5C") and not pile(g, "g0")


# ------------------------------------------------------------------------ kings and queens

@pytest.mark.rules("the-fish-bone-rule-2", "the-fish-bone-never-omit")
def test_a_king_or_queen_turned_up_goes_beside_its_knave_or_to_the_talon() -> None:
    g = game({"f0": "JS", "g0": "5C", "stock": "QH KS"})
    g.play("deal")
    assert pile(g, "k0") == cards("KS")                         # the knave receives it
    g.play("deal")
    assert pile(g, "talon") == cards("QH") and not pile(g, "turned")   # consigned
    g = game({"f0": "JS", "k0": "KS", "g0": "5C", "stock": "KS"})
    g.play("deal")
    assert pile(g, "talon") == cards("KS")                      # its one knave is served


@pytest.mark.rules("the-fish-bone-rule-2")
def test_kings_and_queens_never_go_into_the_gridiron() -> None:
    g = game({"g0": "QD", "g1": "5C", "talon": "KD"})
    assert refusal_rule(g, "talon-g0") == R + "rule-2"          # not married on its queen
    g = game({"g1": "5C", "talon": "QD"})
    assert refusal_rule(g, "talon-g0") == R + "rule-2"          # nor into a vacancy
    g = game({"f0": "JD", "k0": "KD", "g1": "5C"})
    assert refusal_rule(g, "k0-g0") == R + "rule-2"             # a placed king stays


@pytest.mark.rules("the-fish-bone-never-omit", "the-fish-bone-rule-2")
def test_kings_and_queens_are_placed_as_soon_as_their_knave_comes() -> None:
    g = game({"g0": "QH", "g1": "5C", "talon": "2D KH", "stock": "JH"})
    g.play("deal")                                              # the knave of hearts
    assert pile(g, "f0") == cards("JH")
    assert pile(g, "k0") == cards("KH") and pile(g, "q0") == cards("QH")
    assert pile(g, "talon") == cards("2D") and not pile(g, "g0")
    g = game({"f0": "JH", "g1": "5C", "talon": "2D KS", "stock": "KH"})
    assert refusal_rule(g, "talon-k0") == R + "never-omit"      # nothing by hand
    assert refusal_rule(g, "g1-q0") == R + "never-omit"


@pytest.mark.rules("the-fish-bone-never-omit")
def test_a_king_uncovered_on_the_talon_is_placed_at_once() -> None:
    g = game({"f0": "JH 10H", "g0": "5C", "talon": "KH 9H"})
    g.play("talon-f0")
    assert pile(g, "k0") == cards("KH") and not pile(g, "talon")
    with pytest.raises(PositionError):                          # never left unplaced
        engine.load_position(make_game(SLUG, {"f0": "JH", "talon": "KH"}).position())


# ------------------------------------------------------------------------ the pack, the talon

@pytest.mark.rules("the-fish-bone-deal", "the-fish-bone-talon")
def test_a_suitable_card_waits_and_an_unsuitable_one_goes_to_the_talon() -> None:
    g = game({"f0": "JS", "g0": "5C", "g1": "4D", "g2": "3H", "g3": "2S", "g4": "2C",
              "g5": "8D", "stock": "9H 6C 10S"})
    g.play("deal")
    assert pile(g, "turned") == cards("10S")                    # a foundation takes it
    assert refusal_rule(g, "deal") == R + "talon"
    g.play("turned-f0")
    g.play("deal")
    assert pile(g, "turned") == cards("6C")                     # it marries the five
    g.play("turned-g0")
    g.play("deal")
    assert pile(g, "talon") == cards("9H") and not pile(g, "turned")   # unsuitable
    assert refusal_rule(g, "stock-g1") == R + "deal"            # from the pack: turned first


#: The talon's top card, the six of clubs, could be married to the five of the gridiron; the
#: pack's next card, the seven of clubs, would then marry the six.
BURIED = GRIDIRON | {"talon": "9S 6C", "stock": "9H 7S 7C"}


@pytest.mark.rules("the-fish-bone-deal", "the-fish-bone-talon")
def test_by_default_an_unsuitable_card_goes_to_the_talon_over_a_top_card_still_unused() -> None:
    g = game(BURIED)
    g.play("deal")                  # the seven goes on the six: neither can now be married
    assert pile(g, "talon") == cards("9S 6C 7C") and not pile(g, "turned")
    assert [str(m) for m in g.legal_moves()] == ["deal"]


@pytest.mark.rules("the-fish-bone-deal", "the-fish-bone-talon", "the-fish-bone-marry")
def test_under_the_other_reading_an_unsuitable_card_waits_the_talon_s_top_still_in_play() -> None:
    g = game(BURIED, options="unsuitable_to_talon:no")
    g.play("deal")
    assert pile(g, "turned") == cards("7C") and pile(g, "talon") == cards("9S 6C")
    assert "talon-g0" in steps(g)
    g.play("talon-g0")              # the six married, the seven now marries it
    assert refusal_rule(g, "deal") == R + "talon"               # so it must be used (FB-4)
    g.play("turned-g0")
    assert pile(g, "g0") == cards("5C 6C 7C")
    g.play("deal")
    assert pile(g, "turned") == cards("7S")                     # no use: it waits all the same
    assert g.describe(g.state, Move(action="deal")) == (
        "The seven of spades is laid on the talon, and the nine of hearts is turned up.")
    g.play("deal")
    assert pile(g, "talon") == cards("9S 7S") and pile(g, "turned") == cards("9H")
    g = game(KNAVES | GRIDIRON | {"talon": "9S", "stock": "7S"}, options="unsuitable_to_talon:no",
             rest_to="talon")
    g.play("deal")
    talon = pile(g, "talon") + cards("7S")
    g.play("redeal")                # the card waiting joins the talon first
    assert pile(g, "stock") == talon[::-1] and not pile(g, "turned")


@pytest.mark.rules("the-fish-bone-talon")
def test_the_other_reading_lets_a_suitable_card_be_laid_on_the_talon() -> None:
    g = game({"f0": "JS", "g0": "5C", "turned": "10S", "stock": "4H"},
             options="turned_card:no")
    g.play("deal")
    assert pile(g, "talon") == cards("10S") and pile(g, "turned") == cards("4H")


@pytest.mark.rules("the-fish-bone-talon")
def test_only_the_talons_top_is_used_and_nothing_is_put_there_by_hand() -> None:
    g = game({"f0": "JS", "g0": "5C", "talon": "10S 4H"})
    assert refusal_rule(g, "talon:0-f0") == R + "talon"
    assert refusal_rule(g, "g0-talon") == R + "talon"
    g = game({"f0": "JS", "g0": "5C", "talon": "4H 10S", "turned": "6C"})
    assert "talon-f0" in steps(g)                               # while a card waits


@pytest.mark.rules("the-fish-bone-vacancies", "the-fish-bone-talon")
def test_a_vacancy_is_filled_from_the_card_turned_up_or_the_talon() -> None:
    g = game({"g0": "5C", "g1": "4D", "turned": "9H", "talon": "2S"})
    assert {"turned-g2", "talon-g2"} <= steps(g)
    assert refusal_rule(g, "deal") == R + "talon"               # the nine could fill it
    assert refusal_rule(g, "g0-g2") == R + "vacancies"          # not from the gridiron
    g.play("talon-g2")
    g.play("turned-g3")
    assert pile(g, "g2") == cards("2S") and pile(g, "g3") == cards("9H")


@pytest.mark.rules("the-fish-bone-deal")
def test_the_pack_is_dealt_to_the_end() -> None:
    g = game(KNAVES | GRIDIRON | {"talon": "7S"}, rest_to="talon", redeals=1)
    assert refusal_rule(g, "deal") == R + "deal"
    g = game(KNAVES | GRIDIRON | {"talon": "7S"}, rest_to="talon")
    assert refusal_rule(g, "deal") == R + "deal"                # exhausted: re-deal instead


# ------------------------------------------------------------------------ the re-deal

@pytest.mark.rules("the-fish-bone-redeal")
def test_the_talon_is_turned_over_and_dealt_again_once() -> None:
    grid = KNAVES | GRIDIRON
    g = game(grid | {"stock": "6H"})
    assert refusal_rule(g, "redeal") == R + "redeal"            # the pack is not out
    g = game(grid | {"talon": "9S 7S"}, rest_to="talon")
    talon = pile(g, "talon")
    g.play("redeal")
    assert pile(g, "stock") == talon[::-1] and not pile(g, "talon")
    assert g.state.vars == (1,)
    g = game(grid | {"talon": "7S"}, rest_to="talon", redeals=1)
    assert refusal_rule(g, "redeal") == R + "redeal"            # once only


@pytest.mark.rules("the-fish-bone-redeal", "the-fish-bone-talon")
def test_a_card_turned_up_is_laid_on_the_talon_before_the_re_deal() -> None:
    grid = KNAVES | GRIDIRON
    g = game(grid | {"turned": "9S", "talon": "7S"}, rest_to="talon",
             options="turned_card:no")
    talon = pile(g, "talon") + cards("9S")
    g.play("redeal")
    assert pile(g, "stock") == talon[::-1]
    g = game(grid | {"turned": "10S", "talon": "7S"}, rest_to="talon")
    assert refusal_rule(g, "redeal") == R + "talon"             # it must be used first


# ------------------------------------------------------------------------ the end

def _complete() -> dict[str, str]:
    piles: dict[str, str] = {}
    for j, suit in enumerate("SSHHDDCC"):
        piles[f"f{j}"] = run(suit)
        piles[f"k{j}"] = "K" + suit
        piles[f"q{j}"] = "Q" + suit
    return piles


@pytest.mark.rules("the-fish-bone-success")
def test_a_line_of_aces_each_with_its_king_and_queen_wins() -> None:
    g = game(_complete())
    assert g.outcome() is Outcome.WON
    assert "Won" in engine.view_of(g)["status"]


@pytest.mark.rules("the-fish-bone-success")
def test_the_game_is_lost_when_no_move_is_left() -> None:
    piles = {f"f{j}": "J" + s for j, s in enumerate("SSHHDDCC")}
    piles |= {f"k{j}": "K" + s for j, s in enumerate("SSHHDDCC")}
    piles |= {f"q{j}": "Q" + s for j, s in enumerate("SSHHDDCC")}
    piles |= {"g0": "2S", "g1": "2H", "g2": "2D", "g3": "2C", "g4": "3S", "g5": "3H",
              "talon": "5S"}
    g = game(piles, rest_to="talon", redeals=1)
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in engine.view_of(g)["status"]
    g = game(piles, rest_to="talon")                            # the re-deal is still to come
    assert g.outcome() is None
    piles["talon"] = "4S"                                       # marries the three of spades
    g = game(piles, rest_to="talon", redeals=1)
    assert g.outcome() is None


# ------------------------------------------------------------------------ positions, view

def test_positions_that_cannot_arise_are_refused() -> None:
    for bad in ({"f1": "JS"},                     # the line fills from the top
                {"f0": "JS 9S"},                  # out of order
                {"f0": "JS", "k0": "KH"},         # a king of another suit
                {"q0": "QS"},                     # no knave to receive her
                {"g0": "5C 7C"},                  # not a marriage
                {"g0": "JS"},                     # a knave left in the gridiron
                {"turned": "KS"}):                # a king waiting as the card turned up
        with pytest.raises(PositionError):
            engine.load_position(make_game(SLUG, bad).position())


def test_the_view_shows_the_gridiron_and_hides_the_pack() -> None:
    g = engine.new_game(SLUG, seed=7)
    view = engine.view_of(g)
    by_id = {p["id"]: p for p in view["piles"]}
    assert all(c["c"] is None for c in by_id["stock"]["cards"])
    assert all(c["c"] is not None for i in GRID_PILES for c in by_id[PILES[i].id]["cards"])
    assert [PILES[f].id for f in FOUND] == [f"f{j}" for j in range(8)]
    assert engine.load_position(g.position()).state == g.state
