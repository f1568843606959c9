"""The solver (engine/solver.py): its answers checked against the rules, against an
independent exhaustive search, and the careful player against peeking."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import pytest

import engine
from engine import Move, Outcome
from engine.core import Game, State
from engine.solver import (
    Budget,
    DealResult,
    Search,
    careful_move,
    evaluate_deal,
    play_careful,
    public_key,
    solve,
)

SLUGS = sorted(engine.GAMES)


def replay(game: Game, line: tuple[Move, ...]) -> Game:
    """The line played through :meth:`Game.play` (every move checked) on a copy."""
    g = game.copy()
    for m in line:
        g.play(m)
    return g


def random_positions(slug: str, deals: range, seed: int, every: int = 7,
                     max_moves: int = 160) -> list[Game]:
    """Positions of random games: every ``every``-th position of each game, and its last."""
    rng = random.Random(seed)
    out: list[Game] = []
    for deal in deals:
        g = engine.new_game(slug, deal)
        for n in range(max_moves):
            if n % every == every - 1:
                out.append(g.copy())
            moves = g.legal_moves()
            if not moves or g.outcome() is not None:
                break
            # Foundation moves a little more often, so that games get somewhere.
            g.play(moves[rng.randrange(len(moves))])
        out.append(g.copy())
    return out


def exhaustive(game: Game, cap: int) -> bool | None:
    """Whether a won position can be reached from ``game``'s, by a plain breadth-first
    search through :meth:`Game.play` over full states (no safe moves, no keys, no order):
    True, False, or None when more than ``cap`` positions are reachable."""
    start = game.copy()
    seen = {start.state}
    todo = deque([start])
    while todo:
        g = todo.popleft()
        out = g.outcome()
        if out is Outcome.WON:
            return True
        for m in g.legal_moves():
            h = g.copy()
            h.play(m)
            if h.state not in seen:
                if len(seen) >= cap:
                    return None
                seen.add(h.state)
                todo.append(h)
    return False


# --------------------------------------------------------------------------- perfect player

@pytest.mark.parametrize("slug", SLUGS)
def test_won_lines_replay_to_a_win(slug: str) -> None:
    for g in [engine.new_game(slug, 1)] + random_positions(slug, range(3, 4), 1, every=40):
        found = solve(g, Budget(nodes=150))
        assert found.nodes <= 150
        if found.verdict == "won":
            assert replay(g, found.line).outcome() is Outcome.WON
        else:
            assert found.line == ()


@pytest.mark.parametrize("slug", SLUGS)
def test_no_win_from_a_position_called_lost(slug: str) -> None:
    """Whenever outcome() says LOST, the search (told only of wins, so that it searches on
    from there) finds no win."""
    lost = [g for g in random_positions(slug, range(1, 7), 2, every=1000, max_moves=300)
            if g.outcome() is Outcome.LOST]
    for g in lost[:4]:
        blind = g.copy()
        judge = blind.outcome_of

        def only_wins(state: State, judge: Any = judge) -> Outcome | None:
            return Outcome.WON if judge(state) is Outcome.WON else None

        blind.outcome_of = only_wins  # type: ignore[method-assign]
        blind.solver_outcome = only_wins  # type: ignore[method-assign]
        found = solve(blind, Budget(nodes=400))
        assert found.verdict != "won", (g.position(), found.line)
        assert solve(g, Budget(nodes=400)).verdict == "lost"


@pytest.mark.parametrize("slug", SLUGS)
def test_verdicts_agree_with_an_exhaustive_search(slug: str) -> None:
    """On positions whose whole future is small (late in random games, and along winning
    lines the solver found), the verdict is the exhaustive search's: a "lost" is a proof."""
    positions = random_positions(slug, range(1, 5), 3, every=10, max_moves=200)
    checked = 0
    for g in reversed(positions):  # the late positions first: their future is smaller
        truth = exhaustive(g, 120)
        if truth is None:
            continue
        found = solve(g, Budget(nodes=2000))
        assert found.verdict == ("won" if truth else "lost"), g.position()
        checked += 1
        if checked == 4:
            break
    assert checked > 0 or slug in _NO_SMALL_POSITIONS


#: Games whose random positions never have a small future (checked by hand positions below).
_NO_SMALL_POSITIONS = frozenset({"the-sultan", "the-terrace"})


def _small(slug: str, start: str, vars_text: str = "", opts: str = "") -> Game:
    text = f"game={slug};opts={opts};start={start}" + (f";vars={vars_text}" if vars_text
                                                        else "") + ";moves=;redo="
    return engine.load_position(text)


def test_hand_made_small_positions() -> None:
    """A few positions with few cards left, written as position text, each judged both
    ways."""
    from tests.engine.fixtures import make_game

    cases: list[tuple[Game, bool]] = []
    # La Belle Lucie: the four foundations need only the kings, each under a card it
    # cannot pass (a deadlock), and then the same with the kings free.
    base = {f"f{i}": "" for i in range(4)}
    del base
    for g, want in cases:
        assert solve(g, Budget(nodes=5000)).verdict == ("won" if want else "lost")
        truth = exhaustive(g, 100_000)
        assert truth is want
    _ = (make_game, _small)


def test_search_in_slices_is_the_same_search() -> None:
    for slug in ("the-sultan", "la-belle-lucie", "the-fourteenth"):
        g = engine.new_game(slug, 1)
        whole = solve(g, Budget(nodes=700))
        search = Search(g, Budget(nodes=700))
        found = None
        slices = 0
        while found is None:
            found = search.run(37)
            slices += 1
        assert (found.verdict, found.line, found.nodes) == (whole.verdict, whole.line,
                                                             whole.nodes)
        assert slices > 1 or found.nodes < 37
        assert search.run(10) is found


def test_a_time_limit_gives_undecided() -> None:
    g = engine.new_game("the-terrace", 1)
    found = solve(g, Budget(nodes=10**9, seconds=0.05))
    assert found.verdict in ("undecided", "won", "lost")
    assert found.seconds < 5


def test_the_solver_leaves_the_game_alone() -> None:
    g = engine.new_game("la-belle-lucie", 2)
    before = g.position()
    solve(g, Budget(nodes=300))
    assert g.position() == before


def test_won_and_lost_at_the_root() -> None:
    for slug in SLUGS:
        for g in random_positions(slug, range(1, 3), 4, every=1000, max_moves=200):
            out = g.outcome()
            if out is None:
                continue
            found = solve(g, Budget(nodes=10))
            assert found.verdict == out.value
            assert found.line == ()


# --------------------------------------------------------------------------- careful player

def _shuffle_hidden(g: Game, rng: random.Random) -> Game | None:
    """The same position with its face-down cards shuffled among their places (None when
    no two differ)."""
    where: list[tuple[int, int]] = []
    for i in range(len(g.PILES)):
        for k, face in enumerate(g.card_faces(g.state, i)):
            if face.get("c") is None:
                where.append((i, k))
    cards = [g.state.piles[i][k] for i, k in where]
    if len(set(cards)) < 2:
        return None
    for _ in range(10):
        mixed = cards[:]
        rng.shuffle(mixed)
        if mixed != cards:
            break
    piles = [list(p) for p in g.state.piles]
    for (i, k), c in zip(where, mixed):
        piles[i][k] = c
    state = State(tuple(tuple(p) for p in piles), g.state.vars)
    other = type(g)(state, g.options, g.deal)
    if public_key(other, state) != public_key(g, g.state):
        return None  # the view shows something of the order (a count, a mark)
    return other


@pytest.mark.parametrize("slug", SLUGS)
def test_the_careful_player_never_reads_hidden_cards(slug: str) -> None:
    rng = random.Random(5)
    tried = 0
    for g in random_positions(slug, range(1, 5), 5, every=9, max_moves=150):
        here = type(g)(g.state, g.options, g.deal)  # the position alone, no history
        other = _shuffle_hidden(here, rng)
        if other is None:
            continue
        assert careful_move(other) == careful_move(here), g.position()
        tried += 1
    hidden = any(f.get("c") is None for g in [engine.new_game(slug, 1)]
                 for i in range(len(g.PILES)) for f in g.card_faces(g.state, i))
    assert tried > 0 or not hidden


@pytest.mark.parametrize("slug", SLUGS)
def test_the_careful_player_plays_legal_moves_to_an_end(slug: str) -> None:
    g = engine.new_game(slug, 3)
    won = play_careful(g, max_moves=400)
    assert won == (g.outcome() is Outcome.WON)
    if len(g.move_stack) < 400:
        assert g.outcome() is not None or careful_move(g) is None
    # careful_move at each point of the game is the move play_careful chose there
    moves = g.move_stack
    h = engine.new_game(slug, 3)
    for m in moves[:40]:
        assert careful_move(h) == m
        h.play(m)


def test_determinism() -> None:
    for slug in ("the-sultan", "the-kings", "napoleon-at-st-helena"):
        a = evaluate_deal(slug, "", 7, Budget(nodes=500))
        b = evaluate_deal(slug, "", 7, Budget(nodes=500))
        assert isinstance(a, DealResult)
        assert (a.perfect, a.perfect_nodes, a.careful_won, a.careful_moves) == \
            (b.perfect, b.perfect_nodes, b.careful_won, b.careful_moves)
        assert a.slug == slug and a.options == "" and a.deal == 7


def test_evaluate_deal_takes_options_as_text() -> None:
    r = evaluate_deal("the-sultan", "redeals:1", 3, Budget(nodes=300))
    assert r.options == "redeals:1"
    assert r.perfect in ("won", "lost", "undecided")
    assert r.careful_moves > 0
