"""The Nation: every rule, every refusal (with the rule id it cites), the option, the end of
the game. Positions are written by hand and loaded through ``engine.load_position``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Outcome, PositionError
from engine.cards import pack
from engine.core import Fan, Game
from engine.deal import shuffled
from engine.nation import (
    FOUNDATION_PILES,
    PILES,
    STOCK,
    TABLEAU,
    TURNED,
    TheNation,
    base_cards,
    deal_on,
    taken_up,
)
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-nation"
R = f"{SLUG}-"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
SUITS = "DCHS"          # the plate's order, both rows


def up(suit: str, last: str = "K") -> str:
    """An ace's foundation from the ace of ``suit`` up to ``last``."""
    return " ".join(r + suit for r in RANKS[:RANKS.index(last) + 1])


def down(suit: str, last: str = "A") -> str:
    """A king's foundation from the king of ``suit`` down to ``last``."""
    return " ".join(r + suit for r in RANKS[RANKS.index(last):][::-1])


BASES = {f"f{j}": ("A" if j < 4 else "K") + SUITS[j % 4] for j in range(8)}


def game(piles: dict[str, str], options: str = "", rest_to: str = "c11",
         vars: dict[str, int] | None = None) -> TheNation:
    """A position with the given piles; foundations not given hold their first card; every
    other card goes to the bottom of ``rest_to``. Twelve columns, no re-deal made, no deal
    under way unless ``vars`` says otherwise."""
    given = BASES | piles
    v = {"columns": 12} | (vars or {})
    made = make_game(SLUG, given, vars=v, options=options or None, rest_to=rest_to)
    text = made.position()
    assert "start=" in text
    g = engine.load_position(text)
    assert isinstance(g, TheNation) and g.state == made.state
    return g


def complete_but_hearts(hearts_up: str, hearts_down: str) -> dict[str, str]:
    """Every foundation complete except the hearts’, which go up to ``hearts_up`` and down
    to ``hearts_down``."""
    out = {}
    for j, s in enumerate(SUITS):
        out[f"f{j}"] = up(s, hearts_up if s == "H" else "K")
        out[f"f{j + 4}"] = down(s, hearts_down if s == "H" else "A")
    return out


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def pile(g: TheNation, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def faces(g: TheNation, pid: str) -> list[str | None]:
    view = engine.view_of(g)
    return [c["c"] for c in next(p for p in view["piles"] if p["id"] == pid)["cards"]]


def steps(g: TheNation) -> set[str]:
    return {str(m) for m in g.legal_moves() if m.steps}


def dealt(stock_top_first: str, founds: dict[str, str] | None = None,
          col: int = 0, counted: int = 0) -> tuple[list[tuple[Card, ...]], list[int]]:
    """Run the counted deal over the cards given (the first dealt first) on foundations
    holding their first cards (or ``founds``)."""
    piles: list[tuple[Card, ...]] = [()] * len(PILES)
    for j, c in enumerate(base_cards()):
        piles[j] = (c,)
    for pid, text in (founds or {}).items():
        piles[int(pid[1:])] = cards(text)
    piles[STOCK] = tuple(reversed(cards(stock_top_first)))
    vars_ = [0, 12, col, counted]
    deal_on(piles, vars_)
    return piles, vars_


# ------------------------------------------------------------------------ the deal

Deal = tuple[dict[int, list[Card]], list[list[Card]], Card | None]


def reference_count(order: list[Card], found: dict[int, list[Card]], columns: int) -> Deal:
    """The book's count, written out plainly: ``order`` (the first dealt first) dealt into
    columns of eight numbers, a card a foundation takes played as it turns up; the count
    stops at a card both foundations of its suit take (returned last, else None)."""
    found = {j: list(f) for j, f in found.items()}
    cols: list[list[Card]] = [[] for _ in range(columns)]
    it = iter(order)
    for col in cols:
        for _number in range(1, 9):
            card = next(it, None)
            if card is None:
                break
            takers = [j for j, f in found.items()
                      if f[-1].suit is card.suit
                      and f[-1].rank + (1 if j < 4 else -1) == card.rank]
            if len(takers) == 2:
                return found, cols, card
            if takers:
                found[takers[0]].append(card)
            else:
                col.append(card)
    return found, cols, None


def reference_deal(seed: int) -> Deal:
    """The first deal: twelve columns from the shuffled pack, less the foundations' cards."""
    rest = Counter(pack(2))
    rest.subtract(base_cards())
    order = list(reversed(shuffled(sorted(rest.elements()), seed)))   # the first dealt first
    return reference_count(order, {j: [c] for j, c in enumerate(base_cards())}, 12)


@pytest.mark.rules("the-nation-foundations", "the-nation-deal", "the-nation-count",
                   "the-nation-rule-2", "the-nation-same-method")
def test_the_deal_counts_eight_to_each_of_twelve_columns_playing_suitable_cards() -> None:
    waited = 0
    for seed in range(25):
        g = engine.new_game(SLUG, seed=seed)
        s = g.state
        assert Counter(s.all_cards()) == Counter(pack(2))
        found, cols, waiting = reference_deal(seed)
        for j in FOUNDATION_PILES:
            assert list(s.piles[j]) == found[j]
            assert s.piles[j][0] == base_cards()[j]
        for i, col in zip(TABLEAU, cols, strict=True):
            assert list(s.piles[i]) == col
        if waiting is not None:            # seed 18: both spades foundations want the 8S
            waited += 1
            assert s.piles[TURNED] == (waiting,) and s.piles[STOCK]
            continue
        assert not s.piles[STOCK] and not s.piles[TURNED]
        played = sum(len(f) - 1 for f in found.values())
        assert sum(len(c) for c in cols) == 96 - played
        assert all(len(c) <= 8 for c in cols)
        assert s.vars == (0, 12, 0, 0)
    assert waited == 1


@pytest.mark.rules("the-nation-foundations", "the-nation-rule-1")
def test_an_ace_and_a_king_of_each_suit_in_two_rows_as_the_plate() -> None:
    labels = [PILES[j].label for j in FOUNDATION_PILES]
    assert labels[0] == "the foundation of the ace of diamonds"
    assert labels[7] == "the foundation of the king of spades"
    assert [str(c) for c in base_cards()] == ["AD", "AC", "AH", "AS", "KD", "KC", "KH", "KS"]
    assert all(PILES[j].y == 0.0 for j in range(4))
    assert all(PILES[j].y > 0.0 for j in range(4, 8))
    assert all(PILES[j].x == PILES[j + 4].x for j in range(4))


@pytest.mark.rules("the-nation-count", "the-nation-rule-2")
def test_the_books_example_numbers_four_and_seven_leave_six_cards() -> None:
    # No. 4 (the two of hearts) and No. 7 (the queen of spades) are suitable.
    piles, vars_ = dealt("9S 8D 5C 2H 7C JD QS 6H 10C")
    assert piles[TABLEAU[0]] == cards("9S 8D 5C 7C JD 6H")            # six cards
    assert piles[2] == cards("AH 2H") and piles[7] == cards("KS QS")
    assert piles[TABLEAU[1]] == cards("10C")                          # No. 1 of the next
    assert not piles[STOCK] and vars_[2:] == [0, 0]


@pytest.mark.rules("the-nation-count")
def test_a_card_continues_a_foundation_the_deal_has_advanced() -> None:
    piles, _ = dealt("2C 3C 4D QC JC 5C")
    assert piles[1] == cards("AC 2C 3C") and piles[5] == cards("KC QC JC")
    assert piles[TABLEAU[0]] == cards("4D 5C")


@pytest.mark.rules("the-nation-fixed")
def test_a_card_placed_in_a_column_stays_though_it_becomes_suitable() -> None:
    piles, _ = dealt("3H 2H 9C 4H")
    assert piles[2] == cards("AH 2H")                 # the three, placed first, is not played
    assert piles[TABLEAU[0]] == cards("3H 9C 4H")


@pytest.mark.rules("the-nation-count", "the-nation-fixed")
def test_the_deal_waits_for_a_choice_when_both_foundations_of_a_suit_take_the_card() -> None:
    founds = {"f2": up("H", "6"), "f6": down("H", "8")}
    piles, vars_ = dealt("9C 7H 5D 4S", founds)
    assert piles[TURNED] == cards("7H") and piles[TABLEAU[0]] == cards("9C")
    assert vars_[2:] == [0, 2]
    g = game({"f2": up("H", "6"), "f6": down("H", "8"), "turned": "7H", "c0": "9C",
              "stock": "4S 5D"}, rest_to="stock", vars={"col": 0, "counted": 2})
    assert {str(m) for m in g.legal_moves()} == {"turned-f2", "turned-f6"}
    assert refusal_rule(g, "turned-c0") == R + "count"
    assert refusal_rule(g, "c0-f1") == R + "fixed"
    assert refusal_rule(g, "redeal") == R + "count"
    g.play("turned-f6")
    assert pile(g, "f6")[:7] == cards(down("H", "7"))
    assert pile(g, "c0")[:3] == cards("9C 5D 4S")       # the deal went on: Nos. 3 and 4
    assert len(pile(g, "c0")) <= 8


@pytest.mark.rules("the-nation-fixed")
def test_nothing_moves_while_the_deal_is_under_way() -> None:
    g = game({"turned": "7H", "f2": up("H", "6"), "f6": down("H", "8"), "c0": "2D"},
             rest_to="stock", vars={"col": 0, "counted": 2})
    assert refusal_rule(g, "c0-f0") == R + "fixed"      # the two of diamonds must wait
    assert refusal_rule(g, "stock-c1") == R + "count"


# ------------------------------------------------------------------------ after the deal

@pytest.mark.rules("the-nation-rule-3", "the-nation-available")
def test_only_the_lowest_card_of_a_column_is_available() -> None:
    g = game({"c0": "2D 9S 2C", "c11": "7S"})
    assert refusal_rule(g, "c0:0-f0") == R + "rule-3"
    assert refusal_rule(g, "c0:1-c1") == R + "rule-3"
    assert steps(g) >= {"c0-f1"}
    g.play("c0-f1")
    assert pile(g, "c0") == cards("2D 9S")                  # the nine is now the lowest
    assert refusal_rule(g, "c0:0-f0") == R + "rule-3"
    g.play("c0-c1")                                         # into a space: released
    assert "c0-f0" in steps(g)


@pytest.mark.rules("the-nation-available", "the-nation-rule-1", "the-nation-foundations")
def test_the_foundations_follow_suit_aces_up_kings_down() -> None:
    g = game({"c0": "2D", "c1": "QS", "c2": "2S", "c3": "3H", "c11": "7S"})
    assert refusal_rule(g, "c0-f1") == R + "rule-1"         # a diamond on the clubs
    assert refusal_rule(g, "c0-f4") == R + "foundations"    # the king of diamonds descends
    assert refusal_rule(g, "c3-f2") == R + "foundations"    # the hearts want the two first
    assert refusal_rule(g, "c2-f7") == R + "foundations"
    g.play("c0-f0")
    g.play("c1-f7")
    g.play("c2-f3")
    assert pile(g, "f0") == cards("AD 2D") and pile(g, "f7") == cards("KS QS")
    assert refusal_rule(g, "f0-c0") == R + "foundations"    # a card played stays


@pytest.mark.rules("the-nation-foundations")
def test_complete_foundations_take_nothing_more() -> None:
    g = game({"f0": up("D"), "f4": down("D", "2"), "c1": "AD", "c2": "8C"}, rest_to="c3")
    assert refusal_rule(g, "c1-f0") == R + "foundations"     # complete with its king
    g.play("c1-f4")
    assert pile(g, "f4") == cards(down("D"))


@pytest.mark.rules("the-nation-marriage")
def test_marriages_in_suit_one_above_or_below() -> None:
    g = game({"c0": "8H", "c1": "7H", "c2": "9H", "c3": "7C", "c4": "6H", "c11": "KS"})
    assert {"c1-c0", "c2-c0", "c0-c1", "c0-c2", "c4-c1"} <= steps(g)
    assert refusal_rule(g, "c3-c0") == R + "marriage"      # another suit
    assert refusal_rule(g, "c4-c0") == R + "marriage"      # two apart
    g.play("c1-c0")                                        # down: the seven on the eight
    g.play("c4-c0")                                        # down again: the six
    assert pile(g, "c0") == cards("8H 7H 6H")
    g2 = game({"c0": "8H", "c1": "7H", "c2": "8H", "c11": "KS"})
    g2.play("c1-c0")
    g2.play("c2-c0")                                       # and up again: the other eight
    assert pile(g2, "c0") == cards("8H 7H 8H")


@pytest.mark.rules("the-nation-marriage")
def test_no_marriage_between_king_and_ace() -> None:
    g = game({"c0": "KS", "c1": "AS", "c11": "7D"})
    assert refusal_rule(g, "c1-c0") == R + "marriage"
    assert refusal_rule(g, "c0-c1") == R + "marriage"


@pytest.mark.rules("the-nation-space", "the-nation-marriage")
def test_an_emptied_column_takes_one_available_card_then_marriages() -> None:
    g = game({"c0": "", "c1": "5D 9S", "c2": "8S", "c11": "KD"})
    assert refusal_rule(g, "c1:0-c0") == R + "rule-3"
    g.play("c1-c0")                                        # any one available card
    g.play("c2-c0")                                        # married to it
    assert pile(g, "c0") == cards("9S 8S")
    assert "c11-c0" not in steps(g)


@pytest.mark.rules("the-nation-space")
def test_a_space_need_not_be_filled_and_undealt_places_are_no_spaces() -> None:
    g = game({"c0": "", "c1": "9S", "c11": "KD"})
    assert "redeal" in {m.action for m in g.legal_moves()}  # nothing forces the space
    g2 = game({"c3": "9S 4D", "c4": "5C"}, rest_to="c0",
              vars={"columns": 5, "redeals": 1})
    assert refusal_rule(g2, "c3-c6") == R + "space"
    assert "c3-c5" not in steps(g2)
    assert refusal_rule(g2, "c4-c3") == R + "marriage"


# ------------------------------------------------------------------------ the re-deal

@pytest.mark.rules("the-nation-take-up")
def test_the_tableau_is_taken_up_only_when_no_card_can_be_played() -> None:
    g = game({"c0": "2D", "c1": "9S", "c11": "7S"})
    assert refusal_rule(g, "redeal") == R + "take-up"
    g.play("c0-f0")
    assert "redeal" in {m.action for m in g.legal_moves()}
    g2 = game({"c0": "2D", "c1": "9S", "c11": "7S"}, options="redeal_at_will:yes")
    g2.play("redeal")
    assert g2.state.vars[0] == 1


@pytest.mark.rules("the-nation-order", "the-nation-take-up", "the-nation-same-method")
def test_the_last_column_is_dealt_first_each_in_its_order() -> None:
    cols = {"c0": "9S 8D 7S", "c1": "10C 5H", "c2": "6D 3S 9D 8C"}
    g = game(cols, rest_to="c2", options="redeal_at_will:yes")
    before = [pile(g, f"c{i}") for i in range(12)]
    order = [c for col in reversed(before) for c in col]
    assert taken_up(g.state.piles)[::-1] == tuple(order)
    found = {j: list(g.state.piles[j]) for j in FOUNDATION_PILES}
    g.play("redeal")
    expected_found, expected_cols, _ = reference_count(order, found, 12)
    assert [list(pile(g, f"c{i}")) for i in range(12)] == expected_cols
    assert all(list(g.state.piles[j]) == expected_found[j] for j in FOUNDATION_PILES)
    # the last column, none of whose cards is suitable, heads the first new column
    g2 = game({"c0": "9S 8D 7S", "c11": "3S 9D 8C 8S"}, rest_to="c10",
              options="redeal_at_will:yes")
    g2.play("redeal")
    assert pile(g2, "c0")[:4] == cards("3S 9D 8C 8S")


@pytest.mark.rules("the-nation-order")
def test_taking_up_keeps_each_column_in_order() -> None:
    piles = [()] * len(PILES)
    piles[TABLEAU[0]] = cards("AS 2S")
    piles[TABLEAU[1]] = cards("3S 4S")
    piles[TABLEAU[11]] = cards("5S 6S 7S")
    pack_ = taken_up(tuple(piles))
    assert pack_[::-1] == cards("5S 6S 7S 3S 4S AS 2S")    # the first dealt first


@pytest.mark.rules("the-nation-redeal", "the-nation-same-method", "the-nation-rule-2",
                   "the-nation-count")
def test_the_redeal_counts_again_in_columns_of_eight_twice_only() -> None:
    # Only the hearts are left: 24 cards, three columns of eight numbers.
    founds = complete_but_hearts("A", "K")
    cols = {"c0": "5H 6H 7H 8H 9H 10H JH QH", "c1": "4H 3H 8H 5H 6H 7H 2H 9H",
            "c2": "KH 10H JH 2H 3H 4H AH QH"}
    g = game(founds | cols, rest_to="c3", vars={"redeals": 1})
    assert refusal_rule(g, "redeal") == R + "take-up"     # the queen can still be played
    g = game(founds | cols, rest_to="c3", vars={"redeals": 1},
             options="redeal_at_will:yes")
    g.play("redeal")
    # The third column first: KH, 10H, JH placed; 2H, 3H, 4H played; AH placed; QH played
    # (on the king); then the second: 4H, 3H, 8H placed, 5H, 6H, 7H played, 2H, 9H placed;
    # then the first: 5H, 6H, 7H placed, 8H, 9H, 10H played, and the knave, which both
    # foundations take, waits for the player's choice.
    assert pile(g, "c0") == cards("KH 10H JH AH")
    assert pile(g, "c1") == cards("4H 3H 8H 2H 9H")
    assert pile(g, "c2") == cards("5H 6H 7H")
    assert pile(g, "turned") == cards("JH")
    assert g.state.vars == (2, 3, 2, 7)
    g.play("turned-f2")
    assert pile(g, "f2") == cards(up("H", "Q"))           # No. 8, the queen, follows it
    assert pile(g, "f6") == cards("KH QH")
    assert not pile(g, "turned") and g.state.vars == (2, 3, 0, 0)
    assert refusal_rule(g, "redeal") == R + "redeal"      # twice only


@pytest.mark.rules("the-nation-redeal")
def test_two_redeals_then_no_more() -> None:
    g = engine.new_game(SLUG, seed=7, options="redeal_at_will:yes")
    g.play("redeal")
    while g.state.piles[TURNED]:
        g.play(g.legal_moves()[0])
    g.play("redeal")
    while g.state.piles[TURNED]:
        g.play(g.legal_moves()[0])
    assert g.state.vars[0] == 2
    assert refusal_rule(g, "redeal") == R + "redeal"
    assert Counter(g.state.all_cards()) == Counter(pack(2))


# ------------------------------------------------------------------------ the end

@pytest.mark.rules("the-nation-foundations")
def test_won_with_all_cards_on_the_foundations() -> None:
    founds = {f"f{j}": up(s) for j, s in enumerate(SUITS)}
    founds |= {f"f{j + 4}": down(s) for j, s in enumerate(SUITS)}
    g = game(founds, rest_to="c0")
    assert g.outcome() is Outcome.WON


def lost_position(space: bool, redeals: int = 2) -> TheNation:
    founds = complete_but_hearts("10", "4")       # the hearts want the knave and the three
    return game(founds | {"c0": "3H KH", "c1": "JH QH 2H AH"}, rest_to="c2",
                vars={"columns": 3 if space else 2, "redeals": redeals})


@pytest.mark.rules("the-nation-redeal", "the-nation-marriage")
def test_lost_after_the_last_redeal_when_nothing_can_reach_a_foundation() -> None:
    g = lost_position(space=False)
    assert not any(m.steps and m.steps[0][1].startswith("f") for m in g.legal_moves())
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)
    assert lost_position(space=False, redeals=1).outcome() is None   # a re-deal is left


@pytest.mark.rules("the-nation-space")
def test_not_lost_while_a_space_can_free_a_wanted_card() -> None:
    g = lost_position(space=True)
    assert g.outcome() is None
    g.play("c0-c2")                       # the king into the space frees the three
    assert "c0-f6" in steps(g)
    result = check_verdicts(g, limit=50_000)
    assert result.winnable


def test_every_loss_verdict_survives_an_exhaustive_search() -> None:
    for space in (False, True):
        check_verdicts(lost_position(space), limit=50_000)


@pytest.mark.parametrize("seed", range(8))
def test_loss_verdicts_of_played_games_survive_an_exhaustive_search(seed: int) -> None:
    """A game played at random (a card a foundation takes first) to its end: where it is
    declared lost, the move before is undone, and every position reachable from there is
    searched; none declared lost can be won."""
    g = engine.new_game(SLUG, seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        if g.outcome() is not None:
            break
        legal = g.legal_moves()
        plays = [m for m in legal if m.steps and m.steps[0][1].startswith("f")]
        g.play(rng.choice(plays or legal))
    if g.outcome() is not Outcome.LOST:
        return
    if g.move_stack[-1].action != "redeal":
        g.undo()
    try:
        check_verdicts(g, limit=5_000)
    except AssertionError as e:       # too many positions to search: no check
        if "too large" not in str(e):
            raise


# ------------------------------------------------------------------------ positions, views

def test_positions_are_checked() -> None:
    with pytest.raises(PositionError):      # a foundation begun with another card
        engine.load_position(make_game(SLUG, BASES | {"f0": "2D"}, rest_to="c0",
                                       vars={"columns": 12}).position())
    with pytest.raises(PositionError):      # out of order
        engine.load_position(make_game(SLUG, BASES | {"f4": "KD JD"}, rest_to="c0",
                                       vars={"columns": 12}).position())
    with pytest.raises(PositionError):      # a column the deal did not reach
        engine.load_position(make_game(SLUG, BASES | {"c5": "9S"}, rest_to="c0",
                                       vars={"columns": 3}).position())
    with pytest.raises(PositionError):      # three re-deals
        engine.load_position(make_game(SLUG, BASES, rest_to="c0",
                                       vars={"columns": 12, "redeals": 3}).position())
    with pytest.raises(PositionError):      # a card waiting that one foundation takes
        engine.load_position(make_game(SLUG, BASES | {"turned": "2D"}, rest_to="stock",
                                       vars={"columns": 12, "counted": 1}).position())


def test_the_deal_and_its_notation_round_trip() -> None:
    g = engine.new_game(SLUG, seed=123)
    moves = [m for m in g.legal_moves() if m.steps]
    if moves:
        g.play(moves[0])
    same = engine.load_position(g.position())
    assert same.position() == g.position()
    assert engine.load_position(g.position(compact=True)).state == g.state


def test_the_view_shows_every_column_and_hides_the_pack() -> None:
    g = game({"turned": "7H", "f2": up("H", "6"), "f6": down("H", "8"), "c0": "2D 9C"},
             rest_to="stock", vars={"col": 0, "counted": 2})
    assert faces(g, "c0") == ["2D", "9C"]
    assert faces(g, "turned") == ["7H"]
    assert all(c is None for c in faces(g, "stock"))


@pytest.mark.parametrize("options", ["", "redeal_at_will:yes"])
def test_fast_legal_moves_match_the_rules(options: str) -> None:
    for seed in range(6):
        g = engine.new_game(SLUG, seed=seed, options=options)
        rng = random.Random(seed)
        for _ in range(150):
            fast = g.legal_moves()
            assert fast == Game.legal_in(g, g.state), (seed, g.position())
            if not fast:
                break
            g.play(rng.choice(fast))


def test_a_click_on_the_pack_takes_up_the_tableau() -> None:
    g = game({"c0": "2D", "c1": "9S", "c11": "7S"})
    view = engine.view_of(g)
    assert view["pack"]["move"] == "redeal" and not view["pack"]["legal"]


def test_columns_hang_down() -> None:
    assert all(PILES[i].fan is Fan.DOWN for i in TABLEAU)
