"""The Labyrinth: every rule, every refusal (with the rule id it cites), the options, the end
of the game. Positions are written by hand and loaded through ``engine.load_position``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Outcome, PositionError
from engine.cards import SUITS
from engine.labyrinth import ASC, COLUMNS, DESC, ROWS, STOCK, TheLabyrinth, place
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-labyrinth"
BASES = {f"a{j}": f"A{s.value}" for j, s in enumerate(SUITS)} | {
    f"k{j}": f"K{s.value}" for j, s in enumerate(SUITS)}
FILLERS = ("6D", "6D", "7D", "7D", "6C", "6C", "7C", "7C", "7H", "7H")


def game(piles: dict[str, str], vars: dict[str, int] | None = None, options: str = "",
         rest_to: str = "stock", bases: bool = True, full: bool = True) -> TheLabyrinth:
    """A position: the places given (``t{10 row + col}``, from 0); with ``full``, every other
    place of the row being dealt holds a card nobody can play, so that the row has no
    vacancy but those the test makes. ``rest_to="grid"`` buries every card not given in the
    columns the test leaves alone, from the first row to the row being dealt, with only
    cards no foundation wants at the two ends of each (the pack is then empty)."""
    given = (BASES | piles) if bases else piles
    rows = (vars or {}).get("rows", 1)
    if rest_to == "grid":
        given = _bury(given, rows, options)
        rest_to = "stock"
    else:
        fillers = iter(FILLERS)
        for c in range(COLUMNS):
            pid = f"t{10 * (rows - 1) + c}"
            if full and pid not in given:
                given = given | {pid: next(fillers)}
    made = make_game(SLUG, given, vars={"rows": rows} | (vars or {}),
                     options=options or None, rest_to=rest_to)
    text = made.position()
    assert "start=" in text
    g = engine.load_position(text)
    assert isinstance(g, TheLabyrinth)
    return g


def _bury(given: dict[str, str], rows: int, options: str) -> dict[str, str]:
    used: Counter[Card] = Counter()
    for text in given.values():
        used.update(Card.parse(x) for x in text.split())
    rest = sorted((TheLabyrinth.full_pack() - used).elements())
    probe = make_game(SLUG, {k: v for k, v in given.items() if not k.startswith("t")},
                      vars={"rows": rows}, options=options or None)
    assert isinstance(probe, TheLabyrinth)
    wanted = [c for c in rest if probe.targets(probe.state, c)]
    idle = [c for c in rest if not probe.targets(probe.state, c)]
    touched = {int(k[1:]) % 10 for k in given if k.startswith("t")}
    free = [c for c in range(COLUMNS) if c not in touched]
    out = dict(given)
    for c in free:
        n = min(rows, len(wanted) + len(idle))
        if n == 0:
            break
        ends = [idle.pop() for _ in range(min(2, n))]
        middle = [wanted.pop() if wanted else idle.pop() for _ in range(n - len(ends))]
        column_cards = ends[:1] + middle + ends[1:]
        for r, card in enumerate(column_cards):
            out[f"t{10 * r + c}"] = str(card)
    assert not wanted and not idle, "no room in the grid for every card"
    return out


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def pile(g: TheLabyrinth, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def column(g: TheLabyrinth, c: int) -> list[str]:
    """Column ``c`` from the first row down, a gap as ``--`` (rows dealt only)."""
    rows = g.var(g.state, "rows")
    return [str(g.state.piles[place(r, c)][0]) if g.state.piles[place(r, c)] else "--"
            for r in range(rows)]


def steps(g: TheLabyrinth) -> list[str]:
    return [str(m) for m in g.legal_moves() if m.steps]


# ------------------------------------------------------------------------ the deal

@pytest.mark.rules("the-labyrinth-foundations", "the-labyrinth-first-row",
                   "the-labyrinth-rule-4")
def test_the_game_opens_with_the_bases_withdrawn_and_one_row_of_ten() -> None:
    g = engine.new_game(SLUG, seed=11)
    assert isinstance(g, TheLabyrinth)
    for j, s in enumerate(SUITS):
        assert g.state.piles[ASC[j]] == (Card(1, s),)
        assert g.state.piles[DESC[j]] == (Card(13, s),)
    assert all(len(g.state.piles[place(0, c)]) == 1 for c in range(COLUMNS))
    assert not any(g.state.piles[place(r, c)] for r in range(1, ROWS) for c in range(COLUMNS))
    assert len(g.state.piles[STOCK]) == 86
    assert g.var(g.state, "rows") == 1
    assert Counter(g.state.all_cards()) == TheLabyrinth.full_pack()


@pytest.mark.rules("the-labyrinth-second-row", "the-labyrinth-successive",
                   "the-labyrinth-rule-4")
def test_each_deal_puts_a_whole_row_underneath() -> None:
    g = engine.new_game(SLUG, seed=5)
    top = g.state.piles[STOCK][-10:][::-1]
    g.play("deal")
    assert tuple(g.state.piles[place(1, c)][0] for c in range(COLUMNS)) == top
    assert g.var(g.state, "rows") == 2


@pytest.mark.rules("the-labyrinth-successive", "the-labyrinth-no-redeal")
def test_a_short_last_row_and_no_deal_after_the_pack() -> None:
    g = game({"stock": "2C 3C 4C"}, vars={"rows": 10}, rest_to="grid",
             options="refill:optional")
    g.play("deal")
    assert [bool(g.state.piles[place(10, c)]) for c in range(COLUMNS)] == [True] * 3 + [False] * 7
    assert not g.state.piles[STOCK]
    assert refusal_rule(g, "deal") == "the-labyrinth-no-redeal"
    assert refusal_rule(g, "fill") == "the-labyrinth-rule-3"


# ------------------------------------------------------------------------ availability

@pytest.mark.rules("the-labyrinth-rule-2", "the-labyrinth-second-row")
def test_the_highest_and_the_lowest_card_of_a_column_are_available() -> None:
    g = game({"t0": "2S", "t10": "2H", "t20": "2D"}, vars={"rows": 3})
    assert refusal_rule(g, "t10-a1") == "the-labyrinth-rule-2"
    g.play("t0-a0")       # the first row: free from the top
    g.play("t20-a2")       # the lowest row: free from the bottom
    assert column(g, 0) == ["--", "2H", "--"]
    g.play("t10-a1")       # now both
    assert column(g, 0) == ["--", "--", "--"]


@pytest.mark.rules("the-labyrinth-successive", "the-labyrinth-rule-2")
def test_a_card_is_released_from_below_when_every_card_below_it_goes() -> None:
    g = game({"t3": "9C", "t13": "3S", "t23": "2S"}, vars={"rows": 3})
    assert refusal_rule(g, "t13-a0") == "the-labyrinth-rule-2"
    g.play("t23-a0")
    g.play("t13-a0")
    assert column(g, 3) == ["9C", "--", "--"]


@pytest.mark.rules("the-labyrinth-rule-2", "the-labyrinth-gaps", "the-labyrinth-successive")
def test_free_means_free_all_the_way_a_gap_next_to_a_card_is_not_enough() -> None:
    # LA-1 and the plate: a card with an empty place just above it but a card higher up, and
    # cards below, is not available; once every card above it has gone, it is.
    g = game({"t2": "9C", "t12": "", "t22": "2S", "t32": "", "t42": "8D"},
             vars={"rows": 5})
    assert column(g, 2) == ["9C", "--", "2S", "--", "8D"]
    assert refusal_rule(g, "t22-a0") == "the-labyrinth-rule-2"
    assert "t22-a0" not in steps(g)
    g2 = game({"t2": "", "t12": "", "t22": "2S", "t32": "9C", "t42": "8D"},
              vars={"rows": 5})
    g2.play("t22-a0")      # free from the top across two gaps
    assert column(g2, 2) == ["--", "--", "--", "9C", "8D"]


@pytest.mark.rules("the-labyrinth-rule-1", "the-labyrinth-foundations")
def test_foundations_follow_suit_up_from_the_ace_and_down_from_the_king() -> None:
    g = game({"t0": "QH", "t1": "2D", "t2": "2H", "t3": "3S"}, vars={"rows": 1})
    assert refusal_rule(g, "t1-a1") == "the-labyrinth-rule-1"
    assert refusal_rule(g, "t3-a0") == "the-labyrinth-foundations"
    assert refusal_rule(g, "t0-k0") == "the-labyrinth-rule-1"
    g.play("t0-k1")
    g.play("t2-a1")
    assert pile(g, "k1") == cards("KH QH") and pile(g, "a1") == cards("AH 2H")


@pytest.mark.rules("the-labyrinth-foundations")
def test_nothing_leaves_a_foundation_and_the_second_ace_ends_the_kings_pile() -> None:
    down = "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"
    g = game({"k0": down, "t0": "AS"}, vars={"rows": 1})
    assert refusal_rule(g, "t0-a0") == "the-labyrinth-foundations"
    assert refusal_rule(g, "k0-t5") == "the-labyrinth-foundations"
    g.play("t0-k0")
    assert len(pile(g, "k0")) == 13


@pytest.mark.rules("the-labyrinth-rule-3")
def test_nothing_is_placed_in_the_tableau_by_hand() -> None:
    g = game({"t0": "5S", "t1": "6S", "t2": ""}, vars={"rows": 1})
    assert refusal_rule(g, "t0-t1") == "the-labyrinth-rule-3"
    assert refusal_rule(g, "t0-t2") == "the-labyrinth-rule-3"
    assert refusal_rule(g, "stock-t2") == "the-labyrinth-successive"


# ------------------------------------------------------------------------ refills

@pytest.mark.rules("the-labyrinth-first-row", "the-labyrinth-rule-3", "the-labyrinth-gaps")
def test_by_default_plays_run_first_and_the_row_is_refilled_before_the_next() -> None:
    # Column 1: 3S (row 1), 2S (row 2, the row being dealt); the stock's top is 9D.
    g = game({"t0": "3S", "t10": "2S", "stock": "9D"}, vars={"rows": 2})
    g.play("t10-a0")        # the vacancy stays open ...
    g.play("t0-a0")        # ... so the 3S is free from the bottom
    assert column(g, 0) == ["--", "--"]
    assert refusal_rule(g, "deal") == "the-labyrinth-first-row"
    g.play("fill")
    assert column(g, 0) == ["--", "9D"]      # the refill goes into the row being dealt
    assert refusal_rule(g, "fill") == "the-labyrinth-rule-3"


@pytest.mark.rules("the-labyrinth-rule-3", "the-labyrinth-gaps")
def test_a_vacancy_above_the_lowest_row_is_never_refilled() -> None:
    g = game({"t0": "2S", "t10": "9C", "stock": "9D"}, vars={"rows": 2})
    g.play("t0-a0")
    assert refusal_rule(g, "fill") == "the-labyrinth-rule-3"
    g.play("deal")
    assert column(g, 0) == ["--", "9C", "9D"]   # the gap keeps its place


@pytest.mark.rules("the-labyrinth-first-row", "the-labyrinth-rule-3")
def test_under_immediate_refill_the_vacancy_is_filled_at_once() -> None:
    g = game({"t0": "9C", "t10": "3S", "t20": "2S", "stock": "9D"}, vars={"rows": 3},
             options="refill:immediate")
    g.play("t20-a0")
    assert column(g, 0) == ["9C", "3S", "9D"]
    assert refusal_rule(g, "t10-a0") == "the-labyrinth-rule-2"


@pytest.mark.rules("the-labyrinth-first-row", "the-labyrinth-gaps")
def test_under_optional_refill_the_next_row_may_cover_a_vacancy() -> None:
    g = game({"t0": "3S", "t10": "2S"}, vars={"rows": 2}, options="refill:optional")
    g.play("t10-a0")
    g.play("deal")
    assert [column(g, c)[1:] != ["--", "--"] for c in (0, 1)] == [True, True]
    assert column(g, 0)[1] == "--" and column(g, 0)[2] != "--"
    assert g.var(g.state, "rows") == 3


# ------------------------------------------------------------------------ the grace

def _stuck(options: str = "", grace: int = 0) -> TheLabyrinth:
    """The pack out; column 1 holds 9C, 2S, 8C: the 2S is blocked both ways."""
    return game({"stock": "", "t0": "9C", "t10": "2S", "t20": "8C"},
                vars={"rows": 11, "grace": grace}, options=options, rest_to="grid")


@pytest.mark.rules("the-labyrinth-grace")
def test_the_grace_removes_any_one_card_once_the_pack_is_out_and_play_stops() -> None:
    g = _stuck()
    assert steps(g) and all(s.endswith("-grace") for s in steps(g))
    assert g.outcome() is None
    g.play("t10-grace")
    assert pile(g, "grace") == cards("2S")
    g.play("grace-a0")
    assert pile(g, "a0") == cards("AS 2S")
    assert refusal_rule(g, "t0-grace") == "the-labyrinth-grace"


@pytest.mark.rules("the-labyrinth-grace")
def test_the_grace_is_refused_while_the_pack_lasts_or_a_play_remains() -> None:
    g = game({"t0": "9C", "t10": "8C"}, vars={"rows": 2})
    assert refusal_rule(g, "t10-grace") == "the-labyrinth-grace"
    g2 = game({"stock": "", "t0": "9C", "t10": "2S"}, vars={"rows": 11}, rest_to="grid")
    assert refusal_rule(g2, "t0-grace") == "the-labyrinth-grace"


@pytest.mark.rules("the-labyrinth-grace")
def test_under_the_dead_reading_the_grace_card_is_out_of_the_game() -> None:
    g = _stuck("grace_card:dead")
    g.play("t10-grace")
    assert refusal_rule(g, "grace-a0") == "the-labyrinth-grace"


# ------------------------------------------------------------------------ Note 1

@pytest.mark.rules("the-labyrinth-note-1")
def test_under_note_1_all_cards_are_dealt_and_bases_come_from_the_tableau() -> None:
    g = engine.new_game(SLUG, seed=3, options="bases:from-deal")
    assert all(not g.state.piles[f] for f in (*ASC, *DESC))
    assert len(g.state.piles[STOCK]) == 94
    g2 = game({"t0": "AS", "t1": "KH", "t2": "2S"}, vars={"rows": 1},
              options="bases:from-deal", bases=False)
    assert refusal_rule(g2, "t2-a0") == "the-labyrinth-foundations"
    g2.play("t0-a0")
    g2.play("t1-k1")
    g2.play("t2-a0")
    assert pile(g2, "a0") == cards("AS 2S")


def test_under_note_1_the_whole_pack_fits_the_grid() -> None:
    # With no refill, 104 cards make ten full rows and four cards in the eleventh.
    g = engine.new_game(SLUG, seed=8, options="bases:from-deal,refill:optional")
    while g.state.piles[STOCK]:
        g.play("deal")
    assert g.var(g.state, "rows") == ROWS
    assert sum(1 for c in range(COLUMNS) if g.state.piles[place(ROWS - 1, c)]) == 4


# ------------------------------------------------------------------------ the end

@pytest.mark.rules("the-labyrinth-no-redeal", "the-labyrinth-grace")
def test_the_game_is_lost_only_when_the_grace_is_used_and_nothing_plays() -> None:
    assert _stuck().outcome() is None
    g = game({"stock": "", "t0": "9C", "t10": "2S", "t20": "8C", "grace": "5H"},
             vars={"rows": 11, "grace": 1}, rest_to="grid")
    assert g.outcome() is Outcome.LOST
    g2 = game({"t0": "9C", "t10": "2S", "t20": "8C"}, vars={"rows": 3, "grace": 1})
    assert g2.outcome() is None


def _all_played() -> dict[str, str]:
    piles: dict[str, str] = {"stock": ""}
    for j, s in enumerate(SUITS):
        up = [str(Card(r, s)) for r in range(1, 14)]
        piles[f"a{j}"] = " ".join(up)
        piles[f"k{j}"] = " ".join(reversed(up))
    return piles


def test_the_game_is_won_with_all_104_cards_played() -> None:
    won = make_game(SLUG, _all_played(), vars={"rows": 10})
    assert won.outcome() is Outcome.WON
    piles = _all_played()
    piles["k0"] = "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"
    piles["grace"] = "AS"
    dead = make_game(SLUG, piles, vars={"rows": 10, "grace": 1}, options="grace_card:dead")
    assert dead.outcome() is Outcome.WON
    alive = make_game(SLUG, piles, vars={"rows": 10, "grace": 1})
    assert alive.outcome() is None


def test_inconsistent_positions_are_refused() -> None:
    made = make_game(SLUG, {"t10": "5C"}, vars={"rows": 1})
    with pytest.raises(PositionError):
        engine.load_position(made.position())
    made2 = make_game(SLUG, {"grace": "5C"}, vars={"rows": 1})
    with pytest.raises(PositionError):
        engine.load_position(made2.position())
    made3 = make_game(SLUG, {"t0": "5C 6C"}, vars={"rows": 1})
    with pytest.raises(PositionError):
        engine.load_position(made3.position())


def test_deals_are_reproducible_and_positions_round_trip() -> None:
    a = engine.new_game(SLUG, seed=77)
    b = engine.new_game(SLUG, seed=77)
    assert a.state == b.state
    legal = [m for m in a.legal_moves() if m.steps]
    if legal:
        a.play(legal[0])
    c = engine.load_position(a.position())
    assert c.state == a.state and c.position() == a.position()


# ------------------------------------------------------------------------ review: the verdict

@pytest.mark.rules("the-labyrinth-no-redeal", "the-labyrinth-grace")
@pytest.mark.parametrize("seed", [0, 18, 23])
def test_every_loss_verdict_survives_an_exhaustive_search(seed: int) -> None:
    # The last cards of four foundations, laid at random in three columns of the grid and a
    # short pack; every position reachable, refills, rows and the grace included, is searched.
    rng = random.Random(seed)
    piles: dict[str, list[str]] = {}
    for j, s in enumerate(SUITS):
        up = [str(Card(r, s)) for r in range(1, 14)]
        piles[f"a{j}"], piles[f"k{j}"] = up, up[::-1]
    loose: list[str] = []
    for f in rng.sample(sorted(piles), 4):
        k = rng.randrange(2, 4)
        loose += piles[f][-k:]
        piles[f] = piles[f][:-k]
    rng.shuffle(loose)
    rows = 5
    stock = [loose.pop() for _ in range(rng.randrange(0, 3))]
    cells = sorted(rng.sample([10 * r + c for r in range(rows) for c in (0, 1, 2)], len(loose)))
    given = {f"t{n}": c for n, c in zip(cells, loose, strict=True)}
    options = rng.choice(["", "refill:immediate", "refill:optional", "grace_card:dead"])
    g = game({k: " ".join(v) for k, v in piles.items()} | given | {"stock": " ".join(stock)},
             vars={"rows": rows}, options=options, bases=False, full=False)
    found = check_verdicts(g)
    assert found.lost      # some line of play loses, and every loss was checked


@pytest.mark.rules("the-labyrinth-grace", "the-labyrinth-no-redeal", "the-labyrinth-rule-2")
def test_two_knots_and_one_grace_lose_and_the_search_agrees() -> None:
    # Column 1: QS over JS over KS, the JS wanted first and blocked both ways; column 2 the
    # same in hearts. One grace unties one knot; the other stays tied: the game is lost.
    piles: dict[str, str] = {}
    for j, s in enumerate(SUITS):
        up = [str(Card(r, s)) for r in range(1, 14)]
        piles[f"a{j}"], piles[f"k{j}"] = " ".join(up), " ".join(up[::-1])
    piles["a0"] = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"
    piles["a1"] = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"
    g = game(piles | {"stock": "", "t0": "QS", "t10": "JS", "t20": "KS", "t1": "QH",
                      "t11": "JH", "t21": "KH"}, vars={"rows": 3}, bases=False, full=False)
    assert g.outcome() is None and all(s.endswith("-grace") for s in steps(g))
    found = check_verdicts(g)
    assert not found.winnable and found.lost
    g.play("t10-grace")
    for m in ("grace-a0", "t0-a0", "t20-a0"):
        g.play(m)
    assert g.outcome() is Outcome.LOST


# ------------------------------------------------------------------------ review: the board

@pytest.mark.rules("the-labyrinth-gaps", "the-labyrinth-rule-3")
def test_the_board_shows_every_gap_in_its_place() -> None:
    # Column 1: a card in the first row, a gap, a card in the third; the row being dealt (the
    # third) has a vacancy in column 2. The view draws each place where its row puts it, so
    # both empty places show between, or below, the cards around them.
    g = game({"t0": "9C", "t10": "", "t20": "8D", "t1": "9S", "t11": "8S", "t21": ""},
             vars={"rows": 3})
    piles = {p["id"]: p for p in engine.view_of(g)["piles"]}
    assert [len(piles[f"t{n}"]["cards"]) for n in (0, 10, 20, 1, 11, 21)] == [1, 0, 1, 1, 1, 0]
    assert piles["t0"]["y"] < piles["t10"]["y"] < piles["t20"]["y"]
    assert piles["t10"]["x"] == piles["t0"]["x"] and piles["t21"]["y"] == piles["t20"]["y"]
    assert all(p["fan"] == "none" for pid, p in piles.items() if pid.startswith("t"))


@pytest.mark.rules("the-labyrinth-first-row")
def test_a_click_on_the_pack_refills_the_row_when_it_must_be_refilled() -> None:
    g = game({"t0": "3S", "t10": "2S", "stock": "9D"}, vars={"rows": 2})
    assert engine.view_of(g)["pack"] == {"pile": "stock", "move": "deal", "legal": True}
    g.play("t10-a0")
    assert engine.view_of(g)["pack"] == {"pile": "stock", "move": "fill", "legal": True}
