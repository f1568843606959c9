"""Babette: every rule, every refusal (with the rule id it cites), the options, the end of
the game. Positions are written by hand and loaded through ``engine.load_position``."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Outcome, PositionError
from engine.babette import ASC, COLUMNS, DESC, GRID_ROWS, STOCK, Babette, place
from engine.cards import SUITS
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "babette"


def game(piles: dict[str, str], vars: dict[str, int] | None = None, options: str = "",
         rest_to: str = "stock") -> Babette:
    """A position: the places given (``g{10 row + col}``, from 0). ``rest_to="grid"`` lays
    every card not given in the columns the test leaves alone, from the first row down, with
    a card no foundation wants at the foot of each (the pack is then empty)."""
    if rest_to == "grid":
        piles = _bury(piles, (vars or {}).get("rows", GRID_ROWS), options)
        rest_to = "stock"
    made = make_game(SLUG, piles, vars=vars, options=options or None, rest_to=rest_to)
    text = made.position()
    assert "start=" in text
    g = engine.load_position(text)
    assert isinstance(g, Babette)
    return g


def _bury(given: dict[str, str], rows: int, options: str) -> dict[str, str]:
    used: Counter[Card] = Counter()
    for text in given.values():
        used.update(Card.parse(x) for x in text.split())
    rest = sorted((Babette.full_pack() - used).elements())
    probe = make_game(SLUG, {k: v for k, v in given.items() if not k.startswith("g")},
                      vars={"rows": rows}, options=options or None)
    assert isinstance(probe, Babette)
    wanted = [c for c in rest if probe.targets(probe.state, c)]
    idle = [c for c in rest if not probe.targets(probe.state, c)]
    touched = {int(k[1:]) % 10 for k in given if k.startswith("g")}
    out = dict(given)
    for c in (c for c in range(COLUMNS) if c not in touched):
        n = min(rows, len(wanted) + len(idle))
        if n == 0:
            break
        # A wanted card may lie anywhere but at the foot, with a card below it.
        column = [wanted.pop() if wanted else idle.pop() for _ in range(n - 1)] + [idle.pop()]
        for r, card in enumerate(column):
            out[f"g{10 * r + c}"] = str(card)
    assert not wanted and not idle, "no room in the garden for every card"
    return out


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def pile(g: Babette, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def column(g: Babette, c: int) -> list[str]:
    """Column ``c`` from the first row down, a vacancy as ``--`` (rows dealt only)."""
    rows = g.var(g.state, "rows")
    return [str(g.state.piles[place(r, c)][0]) if g.state.piles[place(r, c)] else "--"
            for r in range(rows)]


# ------------------------------------------------------------------------ the deal

@pytest.mark.rules("babette-garden", "babette-rows", "babette-finish-row")
def test_the_game_opens_with_one_row_and_each_deal_adds_a_whole_row() -> None:
    g = engine.new_game(SLUG, seed=11)
    assert [len(g.state.piles[place(0, c)]) for c in range(COLUMNS)] == [1] * 8
    assert len(g.state.piles[STOCK]) == 96
    top = g.state.piles[STOCK][-8:][::-1]
    g.play("deal")
    assert tuple(g.state.piles[place(1, c)][0] for c in range(COLUMNS)) == top
    assert len(g.state.piles[STOCK]) == 88
    assert g.var(g.state, "rows") == 2


@pytest.mark.rules("babette-rows")
def test_thirteen_rows_exhaust_the_pack_and_then_dealing_is_refused() -> None:
    g = engine.new_game(SLUG, seed=3)
    for _ in range(12):
        g.play("deal")
    assert not g.state.piles[STOCK]
    assert g.var(g.state, "rows") == GRID_ROWS
    assert refusal_rule(g, "deal") == "babette-rows"


@pytest.mark.rules("babette-detached", "babette-rule-2")
def test_a_new_row_goes_into_its_own_line_below_the_vacancies() -> None:
    # Column 1 holds 5C (row 0) and had a card at row 1, now gone: rows dealt = 2.
    g = game({"g0": "5C", "stock": "9D 8D 7D 6D 5D 4D 3D 2D"}, vars={"rows": 2})
    g.play("deal")
    assert column(g, 0) == ["5C", "--", "2D"]
    assert all(column(g, c)[:2] == ["--", "--"] for c in range(1, 8))
    assert g.var(g.state, "rows") == 3


@pytest.mark.rules("babette-rule-2")
def test_nothing_goes_into_the_garden() -> None:
    g = game({"g0": "5C", "g1": "6C", "stock": "7C"}, vars={"rows": 1})
    assert refusal_rule(g, "g0-g1") == "babette-rule-2"
    assert refusal_rule(g, "g0-g2") == "babette-rule-2"
    assert refusal_rule(g, "stock-g2") == "babette-rows"


# ------------------------------------------------------------------------ foundations

@pytest.mark.rules("babette-first-plays", "babette-foundations", "babette-rule-1")
def test_aces_and_kings_begin_their_piles_and_cards_follow_suit() -> None:
    g = game({"g0": "AS", "g1": "KS", "g2": "2S", "g3": "QS", "g4": "2H"}, vars={"rows": 1})
    a_s, k_s = f"a{0}", f"k{0}"
    assert refusal_rule(g, f"g0-{k_s}") == "babette-foundations"   # a king pile begins with a king
    assert refusal_rule(g, f"g2-{a_s}") == "babette-foundations"   # an ace pile begins with an ace
    g.play(f"g0-{a_s}")
    g.play(f"g1-{k_s}")
    assert refusal_rule(g, "g4-a0") == "babette-rule-1"            # the 2H does not follow spades
    g.play("g2-a0")
    g.play("g3-k0")
    assert pile(g, "a0") == cards("AS 2S") and pile(g, "k0") == cards("KS QS")
    assert refusal_rule(g, "a0-a1") == "babette-foundations"       # nothing leaves a foundation


@pytest.mark.rules("babette-foundations")
def test_the_second_ace_can_only_end_the_kings_pile() -> None:
    desc = "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H"
    g = game({"k1": desc, "a1": "AH", "g0": "AH", "g1": "2H"}, vars={"rows": 1})
    assert refusal_rule(g, "g0-k1") == "babette-foundations"       # the 2H first
    g.play("g1-k1")
    g.play("g0-k1")
    assert len(pile(g, "k1")) == 13
    assert refusal_rule(g, "g0-a1") in ("babette-foundations", "babette-board")


@pytest.mark.rules("babette-first-plays")
def test_plays_are_optional_a_row_may_be_dealt_over_a_playable_card() -> None:
    g = game({"g0": "AS"}, vars={"rows": 1})
    assert any(str(m) == "g0-a0" for m in g.legal_moves())
    g.play("deal")
    assert column(g, 0)[0] == "AS"


# ------------------------------------------------------------------------ Rule III

@pytest.mark.rules("babette-rule-3")
def test_only_the_lowest_card_of_an_unbroken_column_is_available() -> None:
    g = game({"g0": "AS", "g10": "5C"}, vars={"rows": 2})
    assert refusal_rule(g, "g0-a0") == "babette-rule-3"


@pytest.mark.rules("babette-rule-3", "babette-detached")
def test_by_default_a_card_is_released_when_the_card_directly_below_goes() -> None:
    # Column 1: AS (row 0), vacancy (row 1), 5C (row 2).
    g = game({"g0": "AS", "g20": "5C"}, vars={"rows": 3})
    assert column(g, 0) == ["AS", "--", "5C"]
    g.play("g0-a0")
    assert column(g, 0) == ["--", "--", "5C"]


@pytest.mark.rules("babette-rule-3")
def test_under_the_column_reading_any_card_below_blocks() -> None:
    g = game({"g0": "AS", "g20": "5C"}, vars={"rows": 3}, options="blocking:column")
    assert refusal_rule(g, "g0-a0") == "babette-rule-3"
    assert not any(str(m).startswith("g0-") for m in g.legal_moves())


@pytest.mark.rules("babette-rule-3")
def test_removing_a_card_in_the_middle_leaves_a_vacancy_in_its_line() -> None:
    g = game({"g0": "5C", "g10": "AS", "g20": "6C"}, vars={"rows": 4})
    assert refusal_rule(g, "g10-a0") == "babette-rule-3"
    g2 = game({"g0": "5C", "g10": "AS", "g30": "6C"}, vars={"rows": 4})  # rows 0, 1, 3
    g2.play("g10-a0")
    assert column(g2, 0) == ["5C", "--", "--", "6C"]
    g2.play("deal")                      # the next row goes below, into row 5
    assert column(g2, 0)[:4] == ["5C", "--", "--", "6C"] and column(g2, 0)[4] != "--"


def test_a_position_with_a_card_below_the_rows_dealt_is_refused() -> None:
    made = make_game(SLUG, {"g10": "5C"}, vars={"rows": 1})
    with pytest.raises(PositionError):
        engine.load_position(made.position())
    made2 = make_game(SLUG, {"g0": "5C 6C"}, vars={"rows": 1})
    with pytest.raises(PositionError):
        engine.load_position(made2.position())


# ------------------------------------------------------------------------ re-deals

@pytest.mark.rules("babette-take-up")
def test_the_garden_is_not_taken_up_while_the_pack_lasts_or_a_play_remains() -> None:
    g = game({"g0": "5C"}, vars={"rows": 1})
    assert refusal_rule(g, "redeal") == "babette-take-up"
    g2 = game(_built() | {"stock": "", "g0": "7H"}, vars={"rows": 13}, rest_to="grid")
    assert refusal_rule(g2, "redeal") == "babette-take-up"


def _built() -> dict[str, str]:
    """Every suit's foundations built up to the six and down to the eight: the sevens are
    wanted."""
    out: dict[str, str] = {}
    for j, s in enumerate(SUITS):
        out[f"a{j}"] = " ".join(str(Card(r, s)) for r in range(1, 7))
        out[f"k{j}"] = " ".join(str(Card(r, s)) for r in range(13, 7, -1))
    return out


def _spread() -> dict[str, str]:
    """The pack out: four columns given, every other card on the foundations or laid in the
    rest of the garden, nothing playable (the 7D is covered by the 6D)."""
    return _built() | {"stock": "", "g0": "9C", "g10": "8C", "g1": "7D", "g11": "6D",
                       "g6": "6C", "g7": "5H", "g17": "4H"}


@pytest.mark.rules("babette-take-up")
def test_taking_up_columns_from_the_left_the_rightmost_first_squared() -> None:
    g = game(_spread(), vars={"rows": 13}, rest_to="grid")
    assert not [m for m in g.legal_moves() if m.steps]
    g.play("redeal")
    # Dealt again: column 8 from its top (5H, 4H), then column 7 ..., column 1 last.
    firsts = [pile(g, f"g{c}")[0] for c in range(8)]
    assert firsts[:2] == list(cards("5H 4H"))
    assert g.var(g.state, "redeals") == 1 and g.var(g.state, "rows") == 1
    assert Counter(g.state.all_cards()) == Babette.full_pack()


@pytest.mark.rules("babette-take-up")
def test_taking_up_with_each_column_turned_round() -> None:
    g = game(_spread(), vars={"rows": 13}, rest_to="grid", options="pickup:reversed")
    g.play("redeal")
    assert [pile(g, f"g{c}")[0] for c in range(2)] == list(cards("4H 5H"))


@pytest.mark.rules("babette-twice")
def test_the_garden_may_be_taken_up_twice_only_and_then_the_game_is_lost() -> None:
    g = game(_spread(), vars={"rows": 13, "redeals": 2}, rest_to="grid")
    assert not [m for m in g.legal_moves() if m.steps]
    assert refusal_rule(g, "redeal") == "babette-twice"
    assert g.outcome() is Outcome.LOST
    g1 = game(_spread(), vars={"rows": 13, "redeals": 1}, rest_to="grid")
    assert g1.outcome() is None


def test_the_game_is_won_with_all_104_cards_played() -> None:
    spades = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"
    g = game({"stock": "", "a0": spades}, vars={"rows": 13, "redeals": 2}, rest_to="grid")
    assert g.outcome() is not Outcome.WON
    piles: dict[str, str] = {"stock": ""}
    for j, s in enumerate(SUITS):
        up = " ".join(str(Card(r, s)) for r in range(1, 14))
        piles[f"a{j}"] = up
        piles[f"k{j}"] = " ".join(reversed(up.split()))
    assert ASC and DESC
    won = make_game(SLUG, piles, vars={"rows": 13})
    assert won.outcome() is Outcome.WON


def test_deals_are_reproducible_and_positions_round_trip() -> None:
    a = engine.new_game(SLUG, seed=77)
    b = engine.new_game(SLUG, seed=77)
    assert a.state == b.state
    a.play("deal")
    legal = [m for m in a.legal_moves() if m.steps]
    if legal:
        a.play(legal[0])
    c = engine.load_position(a.position())
    assert c.state == a.state and c.position() == a.position()


# ------------------------------------------------------------------------ review: the board

@pytest.mark.rules("babette-rule-3", "babette-detached")
def test_the_board_shows_the_vacancy_that_frees_a_card() -> None:
    # Column 1: AS (row 1), a vacancy (row 2), 5C (row 3): the AS is free, and the view draws
    # the empty place between the two cards, each in its own line.
    g = game({"g0": "AS", "g20": "5C"}, vars={"rows": 3})
    piles = {p["id"]: p for p in engine.view_of(g)["piles"]}
    assert [len(piles[f"g{n}"]["cards"]) for n in (0, 10, 20)] == [1, 0, 1]
    assert piles["g0"]["y"] < piles["g10"]["y"] < piles["g20"]["y"]
    assert "g0" in engine.view_of(g)["movable"]


# ------------------------------------------------------------------------ review: the re-deal

def _spades_left() -> dict[str, str]:
    """Every card on the foundations but six spades, laid in the garden's first three
    columns so that each column's lower card waits for the upper one: nothing can be played
    until the garden is taken up."""
    piles: dict[str, str] = {"stock": ""}
    for j, s in enumerate(SUITS):
        up = [str(Card(r, s)) for r in range(1, 14)]
        piles[f"a{j}"] = " ".join(up if j else up[:10])            # spades up to the ten
        piles[f"k{j}"] = " ".join(up[::-1] if j else up[:2:-1])    # spades down to the four
    return piles | {"g0": "JS", "g10": "QS", "g1": "3S", "g11": "2S", "g2": "KS", "g12": "AS"}


@pytest.mark.rules("babette-twice", "babette-take-up", "babette-finish-row")
def test_a_re_deal_is_played_by_the_same_rules_between_its_rows() -> None:
    # Column 8 holds the 7H above the 8D, which blocks it; nothing can be played. Taken up,
    # column 8 comes first: the 7H is free in the new first row and may be played before the
    # next row is dealt, and the re-deal goes on row by row.
    g = game(_built() | {"stock": "", "g7": "7H", "g17": "8D"}, vars={"rows": 13},
             rest_to="grid")
    assert not [m for m in g.legal_moves() if m.steps]
    g.play("redeal")
    assert [str(pile(g, f"g{c}")[0]) for c in range(2)] == ["7H", "8D"]
    played = [m for m in g.legal_moves() if m.steps and str(m).startswith("g0-")]
    assert played
    g.play(played[0])
    assert column(g, 0) == ["--"]
    g.play("deal")
    assert g.var(g.state, "rows") == 2 and g.var(g.state, "redeals") == 1


@pytest.mark.rules("babette-twice", "babette-rule-3")
@pytest.mark.parametrize("options", ["", "blocking:column", "pickup:reversed"])
def test_a_loss_is_declared_only_where_no_play_can_win(options: str) -> None:
    # Review: every position reachable from a small end game, searched exhaustively: with a
    # re-deal left the six spades come out; with none, the game is lost at once.
    one_left = game(_spades_left(), vars={"rows": 2, "redeals": 1}, options=options)
    assert one_left.outcome() is None
    search = check_verdicts(one_left)
    assert search.winnable and search.lost_with_moves == 0
    none_left = game(_spades_left(), vars={"rows": 2, "redeals": 2}, options=options)
    assert none_left.outcome() is Outcome.LOST
    assert not check_verdicts(none_left).winnable
