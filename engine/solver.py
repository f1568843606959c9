"""The solver: two players for every game, over the games' pure methods.

1. **Perfect information** (:func:`solve`, :class:`Search`): knows every card. A depth-first
   search over :class:`~engine.core.State` values with a transposition table on the game's
   :meth:`~engine.core.Game.solver_key`; in each position a move the game calls safe
   (:meth:`~engine.core.Game.solver_safe`) is played first and alone, otherwise the legal
   moves are tried in the game's :meth:`~engine.core.Game.solver_order`, less those the game
   calls idle (:meth:`~engine.core.Game.idle_moves`). It answers "won"
   with a winning line (every move legal through :meth:`~engine.core.Game.play`), "lost"
   only when every position reachable was searched (or :meth:`outcome_of` says LOST), or
   "undecided" when the budget ran out first.
2. **The careful player** (:func:`careful_move`, :func:`play_careful`): sees only what the
   board shows the reader (the faces of the cards that :func:`engine.view_of` reveals, the
   piles' roles, the legal moves and the counters of the position) and follows a fixed
   strategy, the same for every game (see :func:`careful_move`).

Pure Python, no dependencies; runs in CPython and in Pyodide.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal

from .cards import SUITS, Card
from .core import Game, Move, Outcome, Role, State

__all__ = [
    "Verdict", "Budget", "Solution", "solve", "Search", "careful_move", "play_careful",
    "DealResult", "evaluate_deal", "public_key",
]

Verdict = Literal["won", "lost", "undecided"]


@dataclass(frozen=True)
class Budget:
    """How much the perfect player may search: positions expanded, and wall-clock seconds
    spent searching (checked before each position is expanded; None for no limit)."""

    nodes: int = 200_000
    seconds: float | None = None


@dataclass(frozen=True)
class Solution:
    """The perfect player's answer: the verdict, a winning line from the position (empty
    unless "won"), the positions expanded and the seconds spent searching."""

    verdict: Verdict
    line: tuple[Move, ...]
    nodes: int
    seconds: float


# --------------------------------------------------------------------------- perfect player

class _Keys:
    """The solver's default transposition key: each pile's contents numbered (the same
    contents, the same number), the numbers of each group of :meth:`Game.solver_alike`
    sorted, the piles of :meth:`Game.solver_spent` left out, and the counters. Two states
    share a key only when they differ by those exchanges and throws (the same future), and
    the key is much cheaper to hash than the state: a pile left unchanged by a move is the
    same tuple object in the next state, found again by its identity, and a pile's contents
    are read as the codes of its cards (rank and suit), found by the card object's identity
    too (cards are immutable, and the objects are kept alive while their identity is used)."""

    def __init__(self, game: Game) -> None:
        self._canon: dict[tuple[int, ...], int] = {}
        self._by_id: dict[int, int] = {}
        self._codes: dict[int, int] = {}
        self._keep: list[Any] = []  # keeps alive the piles and cards whose identity is used
        self._suits = {suit: n for n, suit in enumerate(SUITS)}
        self._groups = [list(g) for g in game.solver_alike() if len(g) > 1]
        self._spent = game.solver_spent()

    def _content(self, pile: tuple[Card, ...]) -> tuple[int, ...]:
        code = self._codes.__getitem__
        try:
            return tuple(map(code, map(id, pile)))
        except KeyError:
            for c in pile:
                if id(c) not in self._codes:
                    self._codes[id(c)] = 4 * c.rank + self._suits[c.suit]
                    self._keep.append(c)
            return tuple(map(code, map(id, pile)))

    def number(self, pile: tuple[Card, ...]) -> int:
        n = self._by_id.get(id(pile))
        if n is not None:
            return n
        content = self._content(pile)
        canon = self._canon
        n = canon.get(content)
        if n is None:
            n = canon[content] = len(canon)
        return n

    def _piles(self, state: State) -> tuple[tuple[Card, ...], ...]:
        """The piles the key reads: the spent ones (:meth:`Game.solver_spent`) as empty."""
        if not self._spent:
            return state.piles
        piles = list(state.piles)
        for i in self._spent:
            piles[i] = ()
        return tuple(piles)

    def remember(self, state: State) -> None:
        """Numbers the piles of a state whose successors will be keyed (by identity)."""
        by_id = self._by_id
        for p in self._piles(state):
            if id(p) not in by_id:
                by_id[id(p)] = self.number(p)
                self._keep.append(p)

    def key(self, state: State) -> Hashable:
        piles = self._piles(state)
        found: list[int | None] = list(map(self._by_id.get, map(id, piles)))
        nums: list[int]
        if None in found:  # the piles a move changed: numbered by their contents
            number = self.number
            nums = [number(p) if n is None else n for p, n in zip(piles, found)]
        else:
            nums = found  # type: ignore[assignment]
        for g in self._groups:
            vals = sorted(nums[i] for i in g)
            for i, v in zip(g, vals):
                nums[i] = v
        nums.extend(state.vars)
        return tuple(nums)


class Search:
    """The perfect-information search from ``game``'s current position, resumable in
    slices: :meth:`run` expands at most ``nodes`` more positions and returns the
    :class:`Solution` once there is one (None: not finished, call again). The game object
    is not changed (the search uses only its pure methods)."""

    def __init__(self, game: Game, budget: Budget) -> None:
        self._game = game
        self._budget = budget
        self._nodes = 0
        self._seconds = 0.0
        self._result: Solution | None = None
        root = game.state
        own = type(game).solver_key is not Game.solver_key
        self._keys = None if own else _Keys(game)
        self._key_of = game.solver_key if own else self._keys.key  # type: ignore[union-attr]
        self._seen: set[Hashable] = {self._key_of(root)}
        # The depth-first stack: the states on the path, the moves still to try from each
        # (the next to try last), and the moves that led to each (from the one before).
        self._states: list[State] = []
        self._todo: list[list[Move]] = []
        self._path: list[Move] = []
        out = game.outcome_of(root)
        if out is Outcome.WON:
            self._result = Solution("won", (), 0, 0.0)
        elif out is Outcome.LOST:
            self._result = Solution("lost", (), 0, 0.0)
        else:
            self._states.append(root)
            self._todo.append(self._expand(root))

    @property
    def nodes(self) -> int:
        """Positions expanded so far."""
        return self._nodes

    @property
    def seconds(self) -> float:
        """Seconds spent in :meth:`run` so far."""
        return self._seconds

    @property
    def result(self) -> Solution | None:
        return self._result

    def _expand(self, state: State) -> list[Move]:
        """The moves to try from ``state``, the first to try last."""
        self._nodes += 1
        if self._keys is not None:
            self._keys.remember(state)
        game = self._game
        legal = game.legal_in(state)
        if not legal:
            return []
        idle = game.idle_moves(state, legal)
        if idle:  # the position after each is this one, the places renamed
            legal = [m for m in legal if m not in idle]
        safe = game.solver_safe(state, legal)
        if safe is not None:
            return [safe]
        order = game.solver_order(state, legal)
        order.reverse()
        return order

    def _finish(self, verdict: Verdict, line: tuple[Move, ...] = ()) -> Solution:
        self._result = Solution(verdict, line, self._nodes, round(self._seconds, 6))
        self._states.clear()
        self._todo.clear()
        return self._result

    def run(self, nodes: int) -> Solution | None:
        """Search on for at most ``nodes`` more positions (and within the budget)."""
        if self._result is not None:
            return self._result
        game = self._game
        budget = self._budget
        limit = min(budget.nodes, self._nodes + max(1, nodes))
        t0 = time.perf_counter()
        deadline = None if budget.seconds is None else t0 + budget.seconds - self._seconds
        if budget.seconds is not None and self._seconds >= budget.seconds:
            return self._finish("undecided")
        states, todo, path, seen = self._states, self._todo, self._path, self._seen
        apply, key_of, outcome_of = game.apply, self._key_of, game.solver_outcome
        try:
            while states:
                moves = todo[-1]
                if not moves:
                    states.pop()
                    todo.pop()
                    if path:
                        path.pop()
                    continue
                move = moves.pop()
                child = apply(states[-1], move)
                key = key_of(child)
                if key in seen:
                    continue
                seen.add(key)
                out = outcome_of(child)
                if out is Outcome.WON:
                    self._seconds += time.perf_counter() - t0
                    return self._finish("won", (*path, move))
                if out is Outcome.LOST:
                    continue
                if self._nodes >= budget.nodes:
                    seen.discard(key)  # not searched: the verdict cannot be "lost"
                    moves.append(move)
                    self._seconds += time.perf_counter() - t0
                    return self._finish("undecided")
                if self._nodes >= limit:
                    seen.discard(key)
                    moves.append(move)
                    self._seconds += time.perf_counter() - t0
                    return None
                if deadline is not None and time.perf_counter() >= deadline:
                    seen.discard(key)
                    moves.append(move)
                    self._seconds += time.perf_counter() - t0
                    return self._finish("undecided")
                path.append(move)
                states.append(child)
                todo.append(self._expand(child))
        except BaseException:
            self._seconds += time.perf_counter() - t0
            raise
        self._seconds += time.perf_counter() - t0
        return self._finish("lost")


def solve(game: Game, budget: Budget = Budget()) -> Solution:
    """Perfect information: searches from game's current position (knows every card)."""
    search = Search(game, budget)
    while True:
        found = search.run(budget.nodes)
        if found is not None:
            return found


# --------------------------------------------------------------------------- careful player

#: A position as the reader sees it: each pile's card faces (None face down; a card shown
#: but not available is marked), and the position's counters.
PublicKey = tuple[tuple[tuple[tuple[str | None, bool], ...], ...], tuple[int, ...]]


def _faces(game: Game, state: State) -> tuple[tuple[tuple[str | None, bool], ...], ...]:
    return tuple(
        tuple((f.get("c"), bool(f.get("peek"))) for f in game.card_faces(state, i))
        for i in range(len(game.PILES)))


def public_key(game: Game, state: State) -> PublicKey:
    """What the reader sees of ``state``: the faces of the cards as the view shows them
    (face-down cards as None) and the counters of the position."""
    return (_faces(game, state), state.vars)


class _Careful:
    """The careful player's memory: the moves it has played from each position it has
    seen (as the reader sees them), so that it never plays the same move from the same
    position twice and so never goes round in a circle."""

    def __init__(self) -> None:
        self.tried: dict[PublicKey, set[Move]] = {}

    def note(self, key: PublicKey, move: Move) -> None:
        self.tried.setdefault(key, set()).add(move)

    @classmethod
    def of_history(cls, game: Game) -> _Careful:
        """The memory a careful player would have after the moves of ``game``."""
        mem = cls()
        past: list[State] = game._past
        for state, move in zip(past, game.move_stack):
            mem.note(public_key(game, state), move)
        return mem

    def choose(self, game: Game, key: PublicKey) -> Move | None:
        state = game.state
        faces = key[0]
        legal = game.legal_in(state)
        tried = self.tried.get(key, set())
        idle = game.idle_moves(state, legal)
        roles = game._roles()
        index = game._index
        best: tuple[int, int, int] | None = None
        choice: Move | None = None
        for n, m in enumerate(legal):
            if m in tried or m in idle:
                continue
            score = _careful_score(m, faces, roles, index)
            if score is None:
                continue
            rank = (score, n, 0)
            if best is None or rank < best:
                best, choice = rank, m
        return choice


#: The careful player's preferences, best first (see :func:`careful_move`).
_TO_FOUNDATION, _UNCOVER, _EMPTY, _BUILD, _FILL, _ACTION = range(6)


def _careful_score(move: Move, faces: tuple[tuple[tuple[str | None, bool], ...], ...],
                   roles: tuple[Role, ...], index: dict[str, int]) -> int | None:
    """The class of ``move`` in the careful player's order (lower is better); None for a
    move it never plays (a lone card moved from one empty place to another)."""
    if move.action:
        return _ACTION
    uncover = empties = False
    to_found = fill = False
    for src, dst in move.steps:
        name, _, k = src.partition(":")
        si, di = index[name], index[dst.partition(":")[0]]
        pile = faces[si]
        j = int(k) if k else len(pile) - 1
        if roles[di] in (Role.FOUNDATION, Role.DISCARD):
            to_found = True
        elif not faces[di]:
            fill = True
            if j == 0 and len(pile) == 1 and roles[si] == roles[di]:
                return None  # the same lone card in another empty place of the same kind
        if j > 0 and pile[j - 1][0] is None and roles[si] is not Role.STOCK:
            uncover = True
        if len(pile) == 1 and roles[si] not in (Role.STOCK, Role.TALON):
            empties = True
    if to_found:
        return _TO_FOUNDATION
    if uncover:
        return _UNCOVER
    if empties and not fill:
        return _EMPTY
    if fill:
        return _FILL
    return _BUILD


def careful_move(game: Game) -> Move | None:
    """The no-peek player's choice in the current position: a fixed, documented strategy that
    looks only at what engine.view_of(game) reveals (never at face-down cards); deterministic.

    The strategy, the same for every game: of the legal moves, it never plays again a move
    it has already played from the same position (as seen), nor moves a lone card from one
    empty place to another of the same kind, nor plays a move the game calls idle
    (:meth:`~engine.core.Game.idle_moves`); of the others it prefers, in this order,

    1. a move to a foundation (or to the pile of cards thrown aside, in the games whose aim
       is to throw cards out);
    2. a move that uncovers a face-down card;
    3. a move that empties a place (a tableau pile, a reserve) without filling another;
    4. any other move of cards onto a card (a build);
    5. a move into an empty place;
    6. an action (deal, re-deal), last;

    ties going to the move the engine lists first. None when no move is left (or every
    move left has been tried from this position)."""
    if game.outcome() is not None:
        return None
    mem = _Careful.of_history(game)
    return mem.choose(game, public_key(game, game.state))


def play_careful(game: Game, max_moves: int = 2000) -> bool:
    """Plays careful_move until no move or the game ends; True if won (game is left at the end)."""
    mem = _Careful.of_history(game)
    for _ in range(max_moves):
        if game.outcome() is not None:
            break
        key = public_key(game, game.state)
        move = mem.choose(game, key)
        if move is None:
            break
        mem.note(key, move)
        game.play(move)
    return game.outcome() is Outcome.WON


# --------------------------------------------------------------------------- a deal, both ways

@dataclass(frozen=True)
class DealResult:
    """One deal played by both players (for the odds of a reading)."""

    slug: str
    options: str
    deal: int
    perfect: Verdict
    perfect_nodes: int
    perfect_seconds: float
    careful_won: bool
    careful_moves: int


def evaluate_deal(slug: str, options: str, deal: int, budget: Budget) -> DealResult:
    """One deal for the odds: options in the position-text form ("" for the default,
    e.g. "examined_use:play"), the perfect solver from the deal with `budget`, and the careful
    player on a fresh copy. Deterministic for (slug, options, deal, budget.nodes) when
    budget.seconds is None."""
    from . import new_game

    opts: Any = options
    game = new_game(slug, deal, opts)
    found = solve(game, budget)
    fresh = new_game(slug, deal, opts)
    won = play_careful(fresh)
    return DealResult(slug, options, deal, found.verdict, found.nodes, found.seconds,
                      won, len(fresh.move_stack))
