"""An exhaustive search of small end positions, to check a game's verdicts: every position
reachable by legal moves is visited, and a position the engine declares lost must be one from
which no series of legal moves reaches a win. Used by the tests of Light and Shade, The
Labyrinth and The Terrace; :func:`win_reachable` answers only whether a win can be reached
(the Great Thirteen's safe-move test)."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Outcome
from engine.core import Game, State


@dataclass(frozen=True)
class Search:
    positions: int          # positions reachable
    lost: int               # of them declared lost
    lost_with_moves: int    # declared lost although some legal move remains
    winnable: bool          # whether a win is reachable from the start


def check_verdicts(game: Game, limit: int = 20_000) -> Search:
    """Visit every position reachable from ``game``'s and check its verdict: WON only when
    won (no legal move is needed after), LOST only where no win can be reached."""
    start = game.state
    edges: dict[State, list[State]] = {}
    todo = [start]
    while todo:
        s = todo.pop()
        if s in edges:
            continue
        assert len(edges) < limit, "the position is too large to search"
        g = type(game)(s, game.options, game.deal)
        # A lost position is searched on: any move left must lead to no win.
        nexts = ([] if game.outcome_of(s) is Outcome.WON
                 else [game.apply(s, m) for m in g.legal_moves()])
        edges[s] = nexts
        todo.extend(n for n in nexts if n not in edges)
    back: dict[State, list[State]] = {s: [] for s in edges}
    for s, nexts in edges.items():
        for n in nexts:
            back[n].append(s)
    can_win = {s for s in edges if game.outcome_of(s) is Outcome.WON}
    todo = list(can_win)
    while todo:  # backwards from the wins: every position with a move into a winnable one
        for s in back[todo.pop()]:
            if s not in can_win:
                can_win.add(s)
                todo.append(s)
    lost = [s for s in edges if game.outcome_of(s) is Outcome.LOST]
    for s in lost:
        assert s not in can_win, "a position declared lost can still be won"
    with_moves = sum(1 for s in lost
                     if type(game)(s, game.options, game.deal).legal_moves())
    return Search(len(edges), len(lost), with_moves, start in can_win)


def win_reachable(game: Game, cap: int) -> bool | None:
    """Whether a win can be reached from ``game``'s position by a plain search of every legal
    move (no safe moves, no keys): None when more than ``cap`` positions are reachable."""
    seen = {game.state}
    todo = [game.state]
    while todo:
        s = todo.pop()
        if game.outcome_of(s) is Outcome.WON:
            return True
        for m in type(game)(s, game.options, game.deal).legal_moves():
            t = game.apply(s, m)
            if t not in seen:
                if len(seen) >= cap:
                    return None
                seen.add(t)
                todo.append(t)
    return False
