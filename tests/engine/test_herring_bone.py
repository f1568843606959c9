"""The Herring-bone: every rule, every refusal (with the rule id it cites)."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.core import State
from engine.deal import shuffled
from engine.herring_bone import (
    BAR_PILES, FOUNDATIONS, HB, SCENE_PILES, STOCK, TALON_PILE, TURNED, TheHerringBone,
)
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-herring-bone"
R = f"{SLUG}-"

# Ranks, for foundations on sevens.
UP7 = "7 8 9 10 J Q K A 2 3 4 5 6".split()
DOWN7 = "7 6 5 4 3 2 A K Q J 10 9 8".split()


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def run(ranks: list[str], suit: str, n: int) -> str:
    return " ".join(r + suit for r in ranks[:n])


#: A full tableau of cards that fit nowhere while the foundations are on sevens and short:
#: herring-bone h1..h28, side scenes, bars (no seven, no card next to a seven's runs below).
FILLER = ("QS QH QD QC JS JH JD JC QS QH QD QC JS JH JD JC "
          "KS KH KD KC KS KH KD KC AS AH AD AC").split()


def tableau(**over: str) -> dict[str, str]:
    """Every place of the tableau filled (h1..h28 from FILLER, side scenes and bars with
    threes and twos), then the given piles."""
    piles: dict[str, str] = {f"h{n + 1}": FILLER[n] for n in range(28)}
    for i, c in enumerate("3S 3H 3D 3C 3S 3H 3D 3C".split()):
        piles[f"s{i}"] = c
    for i, c in enumerate("2S 2H 2D 2C".split()):
        piles[f"b{i}"] = c
    piles.update(over)
    return piles


def game(piles: dict[str, str], base: int = 7, redeals: int = 0, **kw: object
         ) -> TheHerringBone:
    g = make_game(SLUG, piles, vars={"base": base, "redeals": redeals},  # type: ignore[arg-type]
                  **kw)
    assert isinstance(g, TheHerringBone)
    return g


def started(**over: str) -> dict[str, str]:
    """A tableau with the foundations begun: hearts up on the right (f4), hearts down on the
    left (f0), both on their sevens."""
    return tableau(f0="7H", f4="7H", **over)


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-herring-bone-herring-bone", "the-herring-bone-side-scenes",
                   "the-herring-bone-foundation")
def test_deal_lays_forty_cards_and_turns_up_the_first_foundation() -> None:
    g = engine.new_game(SLUG, seed=3)
    s = g.state
    assert all(len(s.piles[i]) == 1 for i in HB + SCENE_PILES + BAR_PILES)
    assert len(s.piles[TURNED]) == 1
    assert len(s.piles[STOCK]) == 104 - 41
    assert not any(s.piles[f] for f in FOUNDATIONS)
    assert Counter(s.all_cards()) == Counter(engine.pack(2))
    # the first card of the pack lies at the top of the herring-bone, the 28th at its foot
    top = shuffled(engine.pack(2), 3)
    assert s.piles[HB[0]] == (top[-1],) and s.piles[HB[27]] == (top[-28],)
    assert s.piles[SCENE_PILES[0]] == (top[-29],) and s.piles[BAR_PILES[3]] == (top[-40],)
    assert s.piles[TURNED] == (top[-41],)
    assert s.vars[1] == top[-41].rank  # the foundations' value


def test_same_deal_number_same_deal_and_different_numbers_differ() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (5, 5, 6))
    assert a == b and a != c


@pytest.mark.rules("the-herring-bone-foundation")
def test_first_foundation_must_be_placed_before_anything_else() -> None:
    g = engine.new_game(SLUG, seed=3)
    card = g.state.piles[TURNED][0]
    assert set(g.legal_moves()) == {Move.parse(f"turned-f{j}") for j in range(8)}
    assert refusal_rule(g, "deal") == R + "foundation"
    assert refusal_rule(g, "s0-f0") == R + "foundation"
    g.play("turned-f4")
    assert g.state.piles[FOUNDATIONS[4]] == (card,)


@pytest.mark.rules("the-herring-bone-german")
def test_german_variety_deals_the_herring_bone_from_one_pack() -> None:
    dupes = 0
    for seed in range(20):
        g = engine.new_game(SLUG, seed=seed, options="german:yes")
        bone = [g.state.piles[i][0] for i in HB]
        assert len(set(bone)) == 28
        assert Counter(g.state.all_cards()) == Counter(engine.pack(2))
        plain = engine.new_game(SLUG, seed=seed)
        dupes += len(set(plain.state.piles[i][0] for i in HB)) < 28
    assert dupes > 0  # the English game does let duplicates into the herring-bone


# ----------------------------------------------------------------------------- the herring-bone

@pytest.mark.rules("the-herring-bone-rule-2", "the-herring-bone-rule-3")
def test_only_the_lowest_card_of_the_herring_bone_is_available() -> None:
    g = game(started(h28="8H", h27="9H", h26="6H", s0="10H"))
    assert refusal_rule(g, "h27-f4") == R + "rule-2"
    assert refusal_rule(g, "h26-f0") == R + "rule-2"
    g.play("h28-f4")
    assert not g.state.piles[HB[27]]
    g.play("h27-f4")           # the fan's middle card is next
    g.play("h26-f0")           # then its right-hand card
    g.play("s0-f4")            # a side scene is always available
    assert g.state.piles[FOUNDATIONS[4]] == cards("7H 8H 9H 10H")


@pytest.mark.rules("the-herring-bone-rule-2")
def test_herring_bone_is_released_in_the_reverse_of_the_deal() -> None:
    order = []
    g = game(started())
    state = g.state
    for _ in range(28):
        i = g.available_hb(state)
        assert i is not None
        order.append(HB.index(i) + 1)
        piles = list(state.piles)
        piles[i] = ()
        state = State(tuple(piles), state.vars)
    assert order == list(range(28, 0, -1))
    # fan 7 is cards 25-27: left, right, middle; the middle comes first after the single card
    assert [TheHerringBone.PILES[HB[n - 1]].label for n in (28, 27, 26, 25)] == [
        "herring-bone card 28 (single card 7)", "herring-bone card 27 (middle card of fan 7)",
        "herring-bone card 26 (right-hand card of fan 7)",
        "herring-bone card 25 (left-hand card of fan 7)"]


@pytest.mark.rules("the-herring-bone-rule-3", "the-herring-bone-first-plays")
def test_side_scenes_and_bars_are_all_available() -> None:
    g = game(started(s3="8H", s6="6H", b0="9H", b3="5H"))
    for m in ("s3-f4", "b0-f4", "s6-f0", "b3-f0"):
        g.play(m)
    assert g.state.piles[FOUNDATIONS[4]] == cards("7H 8H 9H")
    assert g.state.piles[FOUNDATIONS[0]] == cards("7H 6H 5H")


@pytest.mark.rules("the-herring-bone-first-plays")
def test_no_card_is_placed_on_another_in_the_tableau() -> None:
    g = game(started())
    assert refusal_rule(g, "h28-s0") == R + "first-plays"
    assert refusal_rule(g, "s0-s1") == R + "first-plays"
    assert refusal_rule(g, "s0-b1") == R + "first-plays"
    assert refusal_rule(g, "h28-b0") == R + "first-plays"
    assert refusal_rule(g, "s0-h28") == R + "first-plays"
    assert refusal_rule(g, "s0-talon") == R + "talon"


# ----------------------------------------------------------------------------- refilling

@pytest.mark.rules("the-herring-bone-bars", "the-herring-bone-rule-4")
def test_a_vacant_bar_takes_the_herring_bones_card_at_once() -> None:
    g = game(started(b1="8H", h28="5S", h27="5D"))
    g.play("b1-f4")
    assert g.state.piles[BAR_PILES[1]] == cards("5S")
    assert not g.state.piles[HB[27]]
    assert g.available_hb(g.state) == HB[26]


@pytest.mark.rules("the-herring-bone-rule-4")
def test_a_vacant_bar_stays_empty_once_the_herring_bone_is_used_up() -> None:
    over = {f"h{n}": "" for n in range(1, 29)}
    g = game(started(b1="8H", **over), rest_to="talon")
    g.play("b1-f4")
    assert not g.state.piles[BAR_PILES[1]]
    assert refusal_rule(g, "talon-b1") == R + "rule-4"
    assert refusal_rule(g, "s0-b1") == R + "rule-4"


@pytest.mark.rules("the-herring-bone-rule-4", "the-herring-bone-deal")
def test_a_vacant_side_scene_is_refilled_from_the_pack_or_talon_at_choice() -> None:
    g = game(started(s2="8H", talon="5C 9D", stock="9S 5S"))
    g.play("s2-f4")
    assert not g.state.piles[SCENE_PILES[2]]        # it may wait
    g.play("deal")                                  # and cards be turned meanwhile
    assert refusal_rule(g, "s1-s2") == R + "rule-4"
    assert refusal_rule(g, "b0-s2") == R + "rule-4"
    assert refusal_rule(g, "h28-s2") == R + "rule-4"
    assert refusal_rule(g, "stock-s2") == R + "deal"
    g.play("talon-s2")
    assert g.state.piles[SCENE_PILES[2]] == cards("5S")


@pytest.mark.rules("the-herring-bone-rule-4", "the-herring-bone-deal")
def test_a_card_turned_up_may_fill_a_vacant_side_scene() -> None:
    g = game(started(s2="8H", talon="", stock="9S 9H"))
    g.play("s2-f4")
    g.play("deal")                               # the nine of hearts fits: it waits in hand
    assert g.state.piles[TURNED] == cards("9H")
    g.play("turned-s2")
    assert g.state.piles[SCENE_PILES[2]] == cards("9H")
    g.play("s2-f4")


@pytest.mark.rules("the-herring-bone-rule-4")
def test_side_scenes_refilled_at_once_under_the_other_reading() -> None:
    g = game(started(s2="8H", talon="5C 9D", stock="9S 5S"), options="side_refill:at-once")
    g.play("s2-f4")
    assert g.state.piles[SCENE_PILES[2]] == cards("9D")
    assert g.state.piles[TALON_PILE][-1] == Card.parse("5C")
    g2 = game(started(s2="8H", talon="", stock="9S 5S"), options="side_refill:at-once")
    g2.play("s2-f4")
    assert g2.state.piles[SCENE_PILES[2]] == cards("5S")


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("the-herring-bone-rule-1")
def test_foundations_follow_suit() -> None:
    g = game(started(s0="8S", s1="8H"))
    assert refusal_rule(g, "s0-f4") == R + "rule-1"
    g.play("s1-f4")


@pytest.mark.rules("the-herring-bone-foundation")
def test_empty_foundations_take_only_cards_of_the_foundations_value() -> None:
    g = game(started(s0="8S", s1="7S", h28="7D"))
    assert refusal_rule(g, "s0-f5") == R + "foundation"
    g.play("s1-f5")
    g.play("h28-f1")
    assert g.state.piles[FOUNDATIONS[5]] == cards("7S")
    assert g.state.piles[FOUNDATIONS[1]] == cards("7D")


@pytest.mark.rules("the-herring-bone-directions")
def test_one_foundation_of_each_suit_ascends_and_one_descends() -> None:
    g = game(tableau(f4="7H", s0="7H", s1="7S"))
    assert refusal_rule(g, "s0-f5") == R + "directions"   # hearts already go up
    g.play("s0-f1")
    g.play("s1-f5")


@pytest.mark.rules("the-herring-bone-directions")
def test_any_four_may_ascend_under_the_other_reading() -> None:
    g = game(tableau(f4="7H", s0="7H", s1="8H"), options="directions:free")
    g.play("s0-f5")
    g.play("s1-f5")
    assert g.state.piles[FOUNDATIONS[5]] == cards("7H 8H")


@pytest.mark.rules("the-herring-bone-directions")
def test_left_foundations_descend_and_right_ascend_turning_the_corner() -> None:
    g = game(started(s0="6H", s1="8H", s2="9H"))
    assert refusal_rule(g, "s1-f0") == R + "directions"   # the left descends
    assert refusal_rule(g, "s0-f4") == R + "directions"   # the right ascends
    assert refusal_rule(g, "s2-f4") == R + "directions"   # one value at a time
    g.play("s0-f0")
    g.play("s1-f4")
    # turning the corner: king to ace going up, ace to king going down
    g = game({"f4": run(UP7, "H", 7), "f0": run(DOWN7, "H", 7), "s0": "AH", "s1": "KH"},
             rest_to="talon")
    g.play("s0-f4")
    g.play("s1-f0")
    assert g.state.piles[FOUNDATIONS[4]][-2:] == cards("KH AH")
    assert g.state.piles[FOUNDATIONS[0]][-2:] == cards("AH KH")


@pytest.mark.rules("the-herring-bone-directions")
def test_a_foundation_is_complete_with_thirteen_cards() -> None:
    g = game({"f4": run(UP7, "S", 13), "f0": "7S", "s0": "8S"}, rest_to="talon")
    why = g.refusal(g.state, Move.parse("s0-f4"))
    assert why is not None and why.rule == R + "directions" and "complete" in why.message


# ----------------------------------------------------------------------------- the exchange

@pytest.mark.rules("the-herring-bone-exchange")
def test_exchange_moves_the_meeting_point_both_ways() -> None:
    # hearts up 7 8 9, down 7 6 ... 10: they want the ten (up) and the nine (down)
    g = game({"f4": run(UP7, "H", 3), "f0": run(DOWN7, "H", 11), "s0": "QH"}, rest_to="talon")
    assert refusal_rule(g, "s0-f4") == R + "directions"
    g.play("f0-f4")            # the ten goes up
    g.play("f0-f4")            # and the knave
    g.play("s0-f4")            # now the queen fits
    assert g.state.piles[FOUNDATIONS[4]] == cards("7H 8H 9H 10H JH QH")
    g.undo()
    g.play("f4-f0")            # vice versâ: the knave comes back down
    assert g.state.piles[FOUNDATIONS[0]][-1] == Card.parse("JH")


@pytest.mark.rules("the-herring-bone-exchange", "the-herring-bone-rule-1")
def test_exchange_refusals() -> None:
    g = game({"f4": run(UP7, "H", 3), "f0": run(DOWN7, "H", 11), "f5": "7S 8S",
              "f1": "7S 6S", "f6": "7D", "f2": "7D 6D"}, rest_to="talon")
    assert refusal_rule(g, "f4-f5") == R + "exchange"      # both ascend
    assert refusal_rule(g, "f4-f1") == R + "rule-1"        # another suit
    assert refusal_rule(g, "f5-f1") == R + "exchange"      # not where it comes next
    assert refusal_rule(g, "f6-f2") == R + "exchange"      # the foundation card stays
    assert refusal_rule(g, "f4-s0") == R + "exchange"      # foundations feed only each other
    assert refusal_rule(g, "f4-talon") == R + "exchange"


@pytest.mark.rules("the-herring-bone-exchange")
def test_no_exchange_onto_an_empty_place() -> None:
    g = game({"f4": "7H 8H"}, rest_to="talon")
    assert refusal_rule(g, "f4-f0") == R + "exchange"


# ----------------------------------------------------------------------------- dealing

@pytest.mark.rules("the-herring-bone-talon", "the-herring-bone-deal")
def test_unsuitable_card_turned_up_goes_to_the_talon_at_once() -> None:
    g = game(started(talon="", stock="5C"))
    g.play("deal")
    assert g.state.piles[TALON_PILE] == cards("5C")
    assert not g.state.piles[TURNED]


@pytest.mark.rules("the-herring-bone-deal", "the-herring-bone-talon")
def test_suitable_card_turned_up_must_be_played_first() -> None:
    g = game(started(s0="6H", talon="5C", stock="8H"))
    g.play("deal")
    assert g.state.piles[TURNED] == cards("8H")
    assert refusal_rule(g, "turned-talon") == R + "deal"
    assert refusal_rule(g, "s0-f0") == R + "deal"
    assert refusal_rule(g, "talon-f4") == R + "deal"
    assert refusal_rule(g, "deal") == R + "deal"
    assert refusal_rule(g, "turned-f0") == R + "directions"
    assert set(g.legal_moves()) == {Move.parse("turned-f4")}
    g.play("turned-f4")
    g.play("s0-f0")


@pytest.mark.rules("the-herring-bone-talon")
def test_talon_top_is_available_and_only_the_top() -> None:
    g = game(started(talon="8H 10H", stock=""), rest_to="s0")
    assert refusal_rule(g, "talon:0-f4") == R + "talon"
    assert refusal_rule(g, "talon-f4") == R + "directions"
    g = game(started(talon="5C 8H", stock=""))
    g.play("talon-f4")
    assert refusal_rule(g, "stock-f4") == R + "deal"


def test_the_talon_shows_only_its_top_card() -> None:
    g = game(started(talon="5C 8H"))
    view = engine.view_of(g)
    talon = next(p for p in view["piles"] if p["id"] == "talon")
    assert talon["cards"] == [{"c": None}, {"c": "8H"}]
    stock = next(p for p in view["piles"] if p["id"] == "stock")
    assert all(c["c"] is None for c in stock["cards"])
    h27 = next(p for p in view["piles"] if p["id"] == "h27")
    assert h27["cards"] == [{"c": g.state.piles[HB[26]][0].__str__()}]  # face up, in sight


# ----------------------------------------------------------------------------- re-deals

@pytest.mark.rules("the-herring-bone-redeal")
def test_talon_is_shuffled_and_re_dealt_twice() -> None:
    g = game(started(talon="5C 9D 10S", stock=""), deal=9, rest_to="talon")
    talon = Counter(g.state.piles[TALON_PILE])
    g.play("redeal")
    assert Counter(g.state.piles[STOCK]) == talon
    assert not g.state.piles[TALON_PILE]
    assert g.state.vars[0] == 1
    again = game(started(talon="5C 9D 10S", stock=""), deal=9, rest_to="talon")
    again.play("redeal")
    assert again.state == g.state                      # the shuffle is fixed by the deal
    assert refusal_rule(g, "redeal") == R + "redeal"   # not while the pack lasts
    while g.state.piles[STOCK] or g.state.piles[TURNED]:
        g.play(g.legal_moves()[0])
    g.play("redeal")
    while g.state.piles[STOCK] or g.state.piles[TURNED]:
        g.play(g.legal_moves()[0])
    assert g.state.vars[0] == 2
    assert refusal_rule(g, "redeal") == R + "redeal"   # two re-deals, and no more


@pytest.mark.rules("the-herring-bone-redeal")
def test_redeal_needs_a_talon_and_no_card_waiting() -> None:
    g = game(started(talon="", stock=""), rest_to="s0")
    assert refusal_rule(g, "redeal") == R + "redeal"
    g = game(started(talon="5C", stock="8H"))
    assert refusal_rule(g, "redeal") == R + "redeal"


# ----------------------------------------------------------------------------- the end

def _complete(**over: str) -> dict[str, str]:
    piles = {}
    for j, suit in enumerate("SHDC"):
        piles[f"f{j}"] = run(DOWN7, suit, 13)
        piles[f"f{4 + j}"] = run(UP7, suit, 13)
    piles.update(over)
    return piles


def test_won_when_all_eight_foundations_are_complete() -> None:
    g = game(_complete(f4=run(UP7, "S", 12)))
    assert g.outcome() is None
    assert g.state.piles[STOCK] == cards("6S")
    g.play("deal")
    g.play("turned-f4")
    assert g.outcome() is Outcome.WON
    assert "Won" in g.status_of(g.state)


def _blocked(h4: str, h2: str) -> TheHerringBone:
    """Spades up at 4 (wants the five), spades down at 10 (wants the nine), clubs up at 2
    (wants the three); the eight cards left lie in the herring-bone and the bars, the pack and
    talon used up, no re-deal left."""
    piles = _complete(f4=run(UP7, "S", 11), f0=run(DOWN7, "S", 11), f7=run(UP7, "C", 9))
    piles.update({"h1": "5S", "h2": h2, "h3": "3C", "h4": h4,
                  "b0": "4C", "b1": "5C", "b2": "6C", "b3": "8S"})
    return game(piles, redeals=2, rest_to="talon")


def test_lost_only_when_no_card_could_ever_be_played() -> None:
    g = _blocked(h4="6S", h2="9S")
    assert not g.state.piles[STOCK] and not g.state.piles[TALON_PILE]
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)
    alive = _blocked(h4="9S", h2="6S")          # the nine of spades is available
    assert alive.outcome() is None


def test_a_card_wanted_only_after_exchanges_keeps_the_game_alive() -> None:
    piles = _complete(f5=run(UP7, "H", 3), f1=run(DOWN7, "H", 11))
    rest = "AH 2H 3H 4H 5H 6H 8H 9H 10H JH KH".split()
    piles.update({f"h{n + 1}": c for n, c in enumerate(rest[4:])})
    piles.update({f"b{n}": c for n, c in enumerate(rest[:4])})
    piles["s0"] = "QH"
    g = game(piles, redeals=2, rest_to="talon")
    assert not g.state.piles[TALON_PILE] and not g.state.piles[STOCK]
    assert refusal_rule(g, "s0-f5") == R + "directions"
    assert Card.parse("QH") in g._wanted(g.state)
    assert g.outcome() is None


@pytest.mark.parametrize("options", ["", "side_refill:at-once", "directions:free"])
def test_loss_verdicts_survive_an_exhaustive_search(options: str) -> None:
    # Spades down want the nine, hearts down the three: both lie in the talon under the eight
    # of spades, and the side scenes hold only hearts that come later. With both re-deals
    # used the game is lost; with one left, a re-deal may bring them up again.
    scenes = {f"s{i}": c for i, c in enumerate("2H AH KH QH JH 10H 9H 8H".split())}
    piles = _complete(f0=run(DOWN7, "S", 11), f1=run(DOWN7, "H", 4), talon="9S 3H 8S",
                      **scenes)
    piles |= {f"h{n}": "" for n in range(1, 29)} | {f"b{i}": "" for i in range(4)}
    for redeals, lost in ((2, True), (1, False)):
        g = engine.load_position(game(piles, redeals=redeals, rest_to="talon",
                                      options=options or None, deal=1).position())
        assert (g.outcome() is Outcome.LOST) is lost
        found = check_verdicts(g)
        assert found.winnable is not lost and (found.lost > 0) is lost


def test_position_round_trip_and_checks() -> None:
    g = engine.new_game(SLUG, seed=12)
    g.play(g.legal_moves()[0])
    h = engine.load_position(g.position())
    assert h.state == g.state
    text = g.position()
    assert "redeals:0" in text
    with pytest.raises(PositionError):
        engine.load_position(text.replace("redeals:0", "redeals:3"))


@pytest.mark.rules("the-herring-bone-exchange", "the-herring-bone-deal")
def test_no_exchange_while_a_card_turned_up_waits() -> None:
    g = game({"f4": run(UP7, "H", 3), "f0": run(DOWN7, "H", 11), "stock": "10H"},
             rest_to="talon")
    g.play("deal")
    assert g.state.piles[TURNED] == cards("10H")
    assert refusal_rule(g, "f0-f4") == R + "deal"
    assert all(str(m).startswith("turned-") for m in g.legal_moves())


@pytest.mark.rules("the-herring-bone-exchange", "the-herring-bone-directions")
def test_no_exchange_between_two_foundations_going_the_same_way() -> None:
    g = game({"f4": "7H 8H", "f5": "7H 8H 9H"}, rest_to="talon", options="directions:free")
    assert refusal_rule(g, "f5-f4") == R + "exchange"


@pytest.mark.rules("the-herring-bone-rule-4")
def test_a_card_turned_up_fills_a_side_scene_under_either_reading() -> None:
    # under the at-once reading, a vacancy can be open only when pack and talon are empty
    g = game(started(s2="", talon="", stock="8H"), options="side_refill:at-once",
             rest_to="h1")
    g.play("deal")
    g.play("turned-s2")
    assert g.state.piles[SCENE_PILES[2]] == cards("8H")


def _text(**over: str) -> str:
    g = game(started(**over))
    return g.position()


def test_positions_that_break_the_rules_are_refused() -> None:
    text = _text()
    # a foundation on the wrong value, two hearts foundations on one side, a bar left empty
    bad = [text.replace("f0:7H", "f0:8H").replace("f4:7H", "f4:7H.8H"),
           text.replace("f0:7H", "f0:").replace("f5:", "f5:7H"),
           text.replace("vars=redeals:0,base:7", "vars=redeals:0,base:14")]
    for t in bad:
        with pytest.raises(PositionError):
            engine.load_position(t)
    g = game(started(b0="", h27="", h28=""), rest_to="talon")
    with pytest.raises(PositionError):
        engine.load_position(g.position())
