"""The board's request handler: JSON in, JSON out, for the Web Worker that runs Pyodide.

The page's board sends requests ``{"id": 7, "op": "play", "board": "la-nivernaise",
"move": "f7-a1"}``; :func:`handle` answers ``{"id": 7, "ok": true, "view": {...},
"said": "...", "position": "...", "url_state": "..."}`` or
``{"id": 7, "ok": false, "error": {"kind": "illegal", "rule": "...", "message": "..."}}``.

Operations (every one names the ``board`` it is for; a page may hold several):

- ``new {game, deal, options}``: a fresh game of deal number ``deal`` (options as text).
- ``load {position, game?}``: a game restored from position text (a save or a shared
  link); a corrupt one is refused with kind ``position``.
- ``play {move}``: a refused move answers kind ``illegal`` with the rule's anchor and the
  reason; the game is unchanged.
- ``undo``, ``redo``, ``restart``, ``view``.
- ``set_options {options}``: the same deal under another reading; the moves played are
  replayed if they stay legal, otherwise the deal starts again and ``notice`` says why.
- ``ping``: the games this engine knows.
- ``help {kind, seconds?}``: starts the solver on the board's position (``kind`` ``hint``:
  the next move of a winning line found within ``seconds``, 1 by default, else the careful
  player's move; ``winnable``: whether the deal can still be won, within ``seconds``, 15 by
  default). ``help_step {ms?}`` searches on for about ``ms`` milliseconds (50 by default);
  both answer ``help``: ``{"running": true, ...}`` while the search goes on, else the
  answer (see :meth:`Handler.help_answer`). ``help_cancel`` drops the search. The worker
  calls ``help_step`` again and again, yielding to its event loop between calls, so that a
  cancel is heard; any request that changes the board's game drops its search too.

Error kinds: ``request`` (malformed request, unknown op or board), ``position``,
``options``, ``illegal``, ``nothing`` (nothing to undo or redo), ``internal``.

No game knowledge lives here: everything comes from :mod:`engine`.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from . import GAMES, load_position, new_game, view_of
from .core import Game, IllegalMove, Move, Outcome, PositionError, State, options_from_text
from .solver import Budget, Search, Solution, careful_move


__all__ = ["Handler", "RequestError", "handle", "handle_request"]

#: Largest deal number (deals are 0 <= N < 2**53, as in the engine).
MAX_DEAL = 2**53 - 1
#: Longest position text accepted (a long game of 208 cards is a few kilobytes).
MAX_POSITION = 200_000
#: The solver's default time for a hint and for "can this deal still be won?", in seconds.
HINT_SECONDS = 1.0
WINNABLE_SECONDS = 15.0
#: The longest search a request may ask for, in seconds.
MAX_HELP_SECONDS = 120.0
#: Positions a help search may expand at most (a bound on memory).
HELP_NODES = 2_000_000
#: Ops that leave the board's game as it is (a help search goes on through them).
_KEEPS_GAME = frozenset({"view", "ping", "help", "help_step", "help_cancel"})


@dataclass
class _Help:
    """A help search running for a board: what was asked, and the search."""

    kind: str
    search: Search
    state: State


class RequestError(Exception):
    """A request the handler answers with ``ok: false``."""

    def __init__(self, kind: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.rule = rule

    def as_dict(self) -> dict[str, str]:
        out = {"kind": self.kind, "message": self.message}
        if self.rule is not None:
            out["rule"] = self.rule
        return out


def _str_field(req: dict[str, Any], name: str, *, optional: bool = False) -> str:
    v = req.get(name)
    if v is None and optional:
        return ""
    if not isinstance(v, str):
        raise RequestError("request", f"the request needs a text field {name!r}")
    return v


class Handler:
    """Holds the games of the boards of one tab, by board id."""

    def __init__(self) -> None:
        self.boards: dict[str, Game] = {}
        self.helps: dict[str, _Help] = {}
        #: The last winning line found for each board, from the position it starts at.
        self.lines: dict[str, tuple[State, tuple[Move, ...]]] = {}

    # ---- entry points ----------------------------------------------------------------
    def handle(self, text: str) -> str:
        """Answer one request given as JSON text, as JSON text."""
        try:
            req = json.loads(text)
        except (ValueError, TypeError):
            return json.dumps({"id": None, "ok": False, "error": {
                "kind": "request", "message": "the request is not JSON"}})
        return json.dumps(self.handle_request(req), ensure_ascii=False)

    def handle_request(self, req: Any) -> dict[str, Any]:
        rid = req.get("id") if isinstance(req, dict) else None
        try:
            if not isinstance(req, dict):
                raise RequestError("request", "the request must be a JSON object")
            body = self._dispatch(req)
        except RequestError as e:
            return {"id": rid, "ok": False, "error": e.as_dict()}
        except Exception as e:  # noqa: BLE001 - a bug: say so rather than break the board
            return {"id": rid, "ok": False, "error": {
                "kind": "internal", "message": f"{type(e).__name__}: {e}"}}
        return {"id": rid, "ok": True, **body}

    # ---- operations ------------------------------------------------------------------
    def _dispatch(self, req: dict[str, Any]) -> dict[str, Any]:
        op = req.get("op")
        if op == "ping":
            return {"games": sorted(GAMES)}
        board = _str_field(req, "board")
        if op not in _KEEPS_GAME:
            self.helps.pop(board, None)
        if op == "help":
            return self._help(board, self._game(board), req)
        if op == "help_step":
            return self._help_step(board, req)
        if op == "help_cancel":
            dropped = self.helps.pop(board, None)
            return {"cancelled": dropped is not None}
        if op == "new":
            return self._new(board, req)
        if op == "load":
            return self._load(board, req)
        game = self._game(board)
        if op == "view":
            return self._reply(game, "")
        if op == "play":
            return self._play(game, _str_field(req, "move"))
        if op == "undo":
            m = game.undo()
            if m is None:
                raise RequestError("nothing", "There is no move to take back.")
            # After the undo the state is the one the move was played from.
            return self._reply(game, "Taken back: " + game.describe(game.state, m))
        if op == "redo":
            if not game.redo_stack:
                raise RequestError("nothing", "There is no move to play again.")
            said = game.describe(game.state, game.redo_stack[-1])
            game.redo()
            return self._reply(game, "Played again: " + said)
        if op == "restart":
            game.restart()
            return self._reply(game, f"Deal {game.deal} started again."
                               if game.deal is not None else "The game started again.")
        if op == "set_options":
            return self._set_options(board, game, _str_field(req, "options", optional=True))
        raise RequestError("request", f"unknown operation {op!r}")

    # ---- help: the solver at the table ------------------------------------------------
    def _help(self, board: str, game: Game, req: dict[str, Any]) -> dict[str, Any]:
        kind = req.get("kind")
        if kind not in ("hint", "winnable"):
            raise RequestError("request", "help is asked for a hint or for winnable")
        default = HINT_SECONDS if kind == "hint" else WINNABLE_SECONDS
        seconds = req.get("seconds", default)
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                or not 0 < seconds <= MAX_HELP_SECONDS:
            raise RequestError("request", "seconds must be a number from 0 to "
                               f"{MAX_HELP_SECONDS:g}")
        known = self._known_line(board, game)
        if known is not None:
            self.helps.pop(board, None)
            found = Solution("won", known, 0, 0.0)
            return {"help": self.help_answer(kind, game, found)}
        search = Search(game.copy(), Budget(nodes=HELP_NODES, seconds=float(seconds)))
        self.helps[board] = _Help(kind, search, game.state)
        return self._help_step(board, {"ms": 0})

    def _help_step(self, board: str, req: dict[str, Any]) -> dict[str, Any]:
        help_ = self.helps.get(board)
        game = self.boards.get(board)
        if help_ is None or game is None or (game.state is not help_.state
                                             and game.state != help_.state):
            self.helps.pop(board, None)
            return {"help": {"running": False, "cancelled": True}}
        ms = req.get("ms", 50)
        if isinstance(ms, bool) or not isinstance(ms, (int, float)) or not 0 <= ms <= 1000:
            raise RequestError("request", "ms must be a number from 0 to 1000")
        end = time.perf_counter() + ms / 1000.0
        search = help_.search
        found = search.run(1)  # one position at a time: a slow game overshoots the least
        while found is None and time.perf_counter() < end:
            found = search.run(1)
        if found is None:
            return {"help": {"kind": help_.kind, "running": True, "nodes": search.nodes,
                             "seconds": round(search.seconds, 3)}}
        del self.helps[board]
        if found.verdict == "won":
            self.lines[board] = (game.state, found.line)
        return {"help": self.help_answer(help_.kind, game, found)}

    def _known_line(self, board: str, game: Game) -> tuple[Move, ...] | None:
        """The rest of the last winning line found for the board, when the game has
        followed it to here (so the next hint comes at once)."""
        got = self.lines.get(board)
        if got is None:
            return None
        state, line = got
        if game.state == state:
            return line
        for i, m in enumerate(line):
            try:
                state = game.apply(state, m)
            except Exception:  # noqa: BLE001 - an old line: simply not known
                return None
            if state == game.state:
                return line[i + 1:]
        return None

    @staticmethod
    def help_answer(kind: str, game: Game, found: Solution) -> dict[str, Any]:
        """The answer to a help request: ``kind``, ``running`` (false), ``verdict`` (won,
        lost, undecided), ``nodes``, ``seconds``, ``said`` (words for the message line),
        and for a hint ``move`` (the move to play, or null), ``steps`` (its steps, to mark
        on the table) and ``careful`` (whether it is the careful player's move, no winning
        line being known); for winnable, ``line`` (the winning line, when won)."""
        out: dict[str, Any] = {"kind": kind, "running": False, "verdict": found.verdict,
                               "nodes": found.nodes, "seconds": round(found.seconds, 3)}
        state = game.state
        ended = game.outcome()
        if ended is Outcome.WON:
            out["said"] = "The game is won already."
            out["verdict"] = "won"
            out["line"] = []
            return out
        if kind == "winnable":
            if found.verdict == "won":
                n = len(found.line)
                out["line"] = [str(m) for m in found.line]
                out["said"] = ("Yes: this deal can still be won (a winning line of "
                               f"{n} move{'' if n == 1 else 's'} was found).")
            elif found.verdict == "lost":
                out["said"] = ("No: whatever is played, this deal can no longer be won "
                               "(every way on was searched).")
            else:
                secs = max(1, round(found.seconds))
                out["said"] = (f"Not decided in {secs} second{'' if secs == 1 else 's'}: "
                               "no winning line was found, and not every way on was "
                               "searched.")
            return out
        move: Move | None = None
        careful = False
        if found.verdict == "won" and found.line:
            move = found.line[0]
            out["line"] = [str(m) for m in found.line]
        elif found.verdict == "lost" or ended is Outcome.LOST:
            out["verdict"] = "lost"
            out["said"] = "No move helps: this deal can no longer be won."
        else:
            move = careful_move(game)
            careful = True
        if move is not None:
            words = game.describe_ahead(state, move)
            words = words[:1].lower() + words[1:] if not words[:2].isupper() else words
            who = "A careful player's move" if careful else "Hint"
            out["said"] = f"{who}: {words}"
            out["move"] = str(move)
            out["steps"] = [list(st) for st in move.steps]
            out["action"] = move.action or None
        elif "said" not in out:
            out["said"] = "No move is left to suggest."
        out["careful"] = careful
        out.setdefault("move", None)
        return out

    def _game(self, board: str) -> Game:
        try:
            return self.boards[board]
        except KeyError:
            raise RequestError("request", f"no game on board {board!r} yet") from None

    def _new(self, board: str, req: dict[str, Any]) -> dict[str, Any]:
        slug = _str_field(req, "game")
        if slug not in GAMES:
            raise RequestError("request", f"no game {slug!r}")
        deal = req.get("deal", 0)
        if isinstance(deal, bool) or not isinstance(deal, int) or not 0 <= deal <= MAX_DEAL:
            raise RequestError("request", "the deal number must be a whole number from 0 "
                               f"to {MAX_DEAL}")
        opts = self._options(slug, _str_field(req, "options", optional=True))
        game = new_game(slug, deal, opts)
        self.boards[board] = game
        return self._reply(game, f"Deal {deal}.")

    def _load(self, board: str, req: dict[str, Any]) -> dict[str, Any]:
        text = _str_field(req, "position")
        if len(text) > MAX_POSITION:
            raise RequestError("position", "The saved game is too long to be genuine.")
        try:
            game = load_position(text)
        except PositionError as e:
            raise RequestError("position", str(e)) from None
        except (ValueError, KeyError, IndexError) as e:
            raise RequestError("position", f"the position is corrupt ({e})") from None
        want = req.get("game")
        if want is not None and want != game.slug:
            raise RequestError("position", f"the position is a game of {game.title}, "
                               "not of this board's game")
        self.boards[board] = game
        n = len(game.move_stack)
        where = f"deal {game.deal}" if game.deal is not None else "the saved deal"
        return self._reply(game, f"Resumed {where} after {n} move{'' if n == 1 else 's'}.")

    def _play(self, game: Game, text: str) -> dict[str, Any]:
        try:
            move = Move.parse(text)
        except ValueError:
            raise RequestError("illegal", f"{text!r} is not a move.",
                               rule=game.board_rule()) from None
        state = game.state
        try:
            game.play(move)
        except IllegalMove as e:
            raise RequestError("illegal", e.message, rule=e.rule) from None
        return self._reply(game, game.describe(state, move))

    def _set_options(self, board: str, game: Game, text: str) -> dict[str, Any]:
        opts = self._options(game.slug, text)
        fields = self._fields(game.position())
        fields["opts"] = text
        notice = ""
        try:
            new = load_position(self._join(fields))
        except PositionError:
            fields["redo"] = ""
            try:
                new = load_position(self._join(fields))
            except PositionError as e:
                # The moves played break the new reading: the same deal, from its start.
                notice = ("The moves played are not all legal under this reading "
                          f"({e}); the deal was started again.")
                fields["moves"] = ""
                if game.deal is not None and "start" not in fields:
                    new = new_game(game.slug, game.deal, opts)
                else:
                    new = load_position(self._join(fields))
        self.boards[board] = new
        out = self._reply(new, notice or "The board now follows this reading.")
        if notice:
            out["notice"] = notice
        return out

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def _options(slug: str, text: str) -> Any:
        try:
            return options_from_text(GAMES[slug].Options, text)
        except ValueError as e:
            raise RequestError("options", str(e)) from None

    @staticmethod
    def _fields(position: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for part in position.split(";"):
            k, _, v = part.partition("=")
            out[k] = v
        return out

    @staticmethod
    def _join(fields: dict[str, str]) -> str:
        return ";".join(f"{k}={v}" for k, v in fields.items())

    @staticmethod
    def _reply(game: Game, said: str) -> dict[str, Any]:
        return {
            "view": view_of(game),
            "said": said,
            # The deal number stands for the cards' order (never sent to the page, where
            # the reader could read the pack); a start position only when no deal gives it.
            "position": game.position(compact=True),
            "url_state": game.position(compact=True),
        }


_default = Handler()


def handle(text: str) -> str:
    """Answer one JSON request with the tab's shared :class:`Handler` (what the worker
    calls)."""
    return _default.handle(text)


def handle_request(req: Any) -> dict[str, Any]:
    """Like :func:`handle`, on already-parsed JSON."""
    return _default.handle_request(req)
