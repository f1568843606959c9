"""The core every game shares: moves, refusals, options, states, positions and views.

A game is a class derived from :class:`Game`. It declares its piles as data
(:class:`PileSpec`), its rule options as one frozen dataclass whose fields carry metadata
from :func:`option`, and implements five pure methods over immutable :class:`State` values:
``initial_state``, ``candidate_moves``, ``refusal``, ``apply`` and ``outcome_of``.
Everything else (legal moves, play/undo/redo, positions, views) is shared here.
"""

from __future__ import annotations

import dataclasses
import re
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, TypeVar

from .cards import Card, format_cards, pack, parse_cards

__all__ = [
    "Move", "IllegalMove", "PositionError", "Outcome", "Role", "Fan", "PileSpec", "ActionSpec",
    "Figure", "Step", "Region", "Layout",
    "State", "Game", "option", "options_to_text", "options_from_text", "describe_options",
]


# --------------------------------------------------------------------------- moves

_PILE_REF = r"[a-z]+[0-9]*(?::[0-9]+)?"
_STEP_RE = re.compile(rf"^({_PILE_REF})-({_PILE_REF})$")
_ACTION_RE = re.compile(r"^[a-z][a-z_]*$")


@dataclass(frozen=True, slots=True)
class Move:
    """A move: either a named action (``deal``, ``redeal``) or one or more steps.

    A step takes the top card of pile ``src`` (or, written ``pile:k``, the card at index
    ``k`` counted from the bottom of the pile) to pile ``dst``. A move of several steps
    happens at once (the Empress of India plays a red and a black card together).

    Text notation: ``deal``; ``l0-a1``; ``a3-g1+n7-d2``. ``Move.parse(str(m)) == m``.
    """

    action: str = ""
    steps: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if bool(self.action) == bool(self.steps):
            raise ValueError("a move is either an action or a series of steps")

    @classmethod
    def step(cls, src: str, dst: str) -> Move:
        return cls(steps=((src, dst),))

    @classmethod
    def parse(cls, text: str) -> Move:
        t = text.strip()
        if _ACTION_RE.match(t):
            return cls(action=t)
        steps = []
        for part in t.split("+"):
            m = _STEP_RE.match(part)
            if not m:
                raise ValueError(f"not a move: {text!r}")
            steps.append((m.group(1), m.group(2)))
        return cls(steps=tuple(steps))

    def __str__(self) -> str:
        return self.action or "+".join(f"{s}-{d}" for s, d in self.steps)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


class IllegalMove(ValueError):
    """A refused move. ``rule`` is the anchor of the sentence in the chapter that the move
    breaks (e.g. ``la-nivernaise-rule-1``); ``message`` says why, for the reader."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "message": self.message}


class PositionError(ValueError):
    """A position text that cannot be loaded (corrupt, truncated, or an illegal history)."""


class Outcome(Enum):
    WON = "won"
    LOST = "lost"


# --------------------------------------------------------------------------- piles

class Role(Enum):
    """What a pile is for: the renderer styles piles by role; rules never look at it."""

    STOCK = "stock"
    TALON = "talon"
    FOUNDATION = "foundation"
    TABLEAU = "tableau"
    RESERVE = "reserve"
    FIGURE = "figure"      # cards placed for show that never move (the Sultan, the Empress)
    DISCARD = "discard"    # cards thrown aside


class Fan(Enum):
    """How the cards of a pile are spread on the board."""

    NONE = "none"
    DOWN = "down"
    UP = "up"
    RIGHT = "right"
    LEFT = "left"


@dataclass(frozen=True, slots=True)
class PileSpec:
    """One pile's place and capabilities. ``x``, ``y`` are in card slots on the board's
    grid; ``capacity`` is ``None`` for no limit; ``rotate`` is in degrees; ``fan_limit`` is the
    furthest the fan may spread, in card heights (widths for a sideways fan), the cards
    closing up to fit (``None``: the board's own limit). ``mark`` is the short text the board
    shows on the place while it is empty, where the label is too long for a card on a phone
    ("♦ A–K" for "diamonds, ascending"); the label stays the place's name everywhere else."""

    id: str
    label: str
    role: Role
    x: float
    y: float
    fan: Fan = Fan.NONE
    capacity: int | None = None
    rotate: int = 0
    fan_limit: float | None = None
    mark: str = ""


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """A button on the board that plays a named action move (``deal``, ``redeal``)."""

    move: str
    label: str
    key: str  # keyboard shortcut
    rule: str  # anchor of the sentence that grants the action
    #: Shown only while it can be played: an action most deals never offer (a choice the
    #: rules give in a rare case); the others are always shown, greyed while refused.
    occasional: bool = False


@dataclass(frozen=True, slots=True)
class Figure:
    """A drawn diagram of (part of) the tableau for the chapter page: ``piles`` are the ids
    drawn (``None``: all), ``caption`` and ``alt`` describe it in words."""

    key: str
    caption: str
    alt: str
    piles: tuple[str, ...] | None = None
    #: the name of one of the game's ``LAYOUTS`` to draw the piles in (None: ``PILES``)
    layout: str | None = None


@dataclass(frozen=True, slots=True)
class Region:
    """A labelled area of the board (``The Army``), in card slots: the board may draw its
    caption and a faint frame behind the piles it holds. Optional, for orientation only."""

    label: str
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class Layout:
    """Another arrangement of the same piles.

    With ``max_width`` (CSS pixels) the board switches to it when the board is at most that
    wide (a phone); without, it only serves a drawn figure (:attr:`Figure.layout`). ``at``
    maps pile ids to ``(x, y, rotate)`` in this layout's grid; piles not listed keep their
    ``PileSpec`` values; ``hidden`` piles are not drawn in it (cards that never move)."""

    name: str
    grid: tuple[float, float]
    at: Mapping[str, tuple[float, float, int]]
    hidden: tuple[str, ...] = ()
    regions: tuple[Region, ...] = ()
    max_width: int | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """A one-step move resolved against a state: the source pile and the index of the card
    in it (0 = bottom), whether that card is the pile's top, and the destination pile."""

    src: int
    k: int
    dst: int
    top: bool
    card: Card


# --------------------------------------------------------------------------- options

def option(default: Any, *, note: str, label: str, labels: dict[Any, str] | None = None) -> Any:
    """A field of a game's options dataclass. ``note`` is the id of the editorial note that
    discusses the reading (an anchor on the chapter page, e.g. ``note-ni-1``); ``label``
    names the option; ``labels`` names each choice (enum members or True/False)."""
    return field(default=default, metadata={"note": note, "label": label, "labels": labels or {}})


def _value_text(v: Any) -> str:
    if isinstance(v, Enum):
        return str(v.value)
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _value_parse(kind: Any, default: Any, text: str) -> Any:
    if isinstance(default, Enum):
        return type(default)(text)
    if isinstance(default, bool):
        if text not in ("yes", "no"):
            raise ValueError(f"expected yes or no, not {text!r}")
        return text == "yes"
    if isinstance(default, int):
        return int(text)
    raise TypeError(f"unsupported option type {kind!r}")


def options_to_text(opts: Any) -> str:
    """Non-default options as ``name:value,name:value`` (empty for all defaults)."""
    out = []
    for f in dataclasses.fields(opts):
        v = getattr(opts, f.name)
        if v != f.default:
            out.append(f"{f.name}:{_value_text(v)}")
    return ",".join(out)


O = TypeVar("O")


def options_from_text(cls: type[O], text: str) -> O:
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for part in filter(None, text.split(",")):
        name, sep, val = part.partition(":")
        if not sep or name not in fields:
            raise ValueError(f"unknown option {part!r}")
        f = fields[name]
        try:
            values[name] = _value_parse(f.type, f.default, val)
        except (ValueError, TypeError) as e:
            raise ValueError(f"bad value for option {name}: {val!r}") from e
    return cls(**values)


def describe_options(cls: type) -> list[dict[str, Any]]:
    """The options as data for the page's controls: name, note, label, default, choices."""
    out = []
    for f in dataclasses.fields(cls):
        default = f.default
        labels: dict[Any, str] = f.metadata["labels"]
        if isinstance(default, Enum):
            values: list[Any] = list(type(default))
        elif isinstance(default, bool):
            values = [True, False]
        else:
            values = list(labels) or [default]
        out.append({
            "name": f.name,
            "note": f.metadata["note"],
            "label": f.metadata["label"],
            "default": _value_text(default),
            "choices": [{"value": _value_text(v), "label": labels.get(v, _value_text(v))}
                        for v in values],
        })
    return out


# --------------------------------------------------------------------------- state

@dataclass(frozen=True, slots=True)
class State:
    """An immutable position: the cards of each pile (bottom to top, in the order of the
    game's ``PILES``) and the game's integer counters (in the order of its ``VARS``).
    Hashable: usable as a solver's state key."""

    piles: tuple[tuple[Card, ...], ...]
    vars: tuple[int, ...] = ()

    def with_piles(self, changes: dict[int, tuple[Card, ...]]) -> State:
        piles = list(self.piles)
        for i, cards in changes.items():
            piles[i] = cards
        return State(tuple(piles), self.vars)

    def with_vars(self, changes: dict[int, int]) -> State:
        vs = list(self.vars)
        for i, v in changes.items():
            vs[i] = v
        return State(self.piles, tuple(vs))

    def all_cards(self) -> Iterator[Card]:
        for p in self.piles:
            yield from p


# --------------------------------------------------------------------------- game

G = TypeVar("G", bound="Game")
T = TypeVar("T")


class Game(ABC):
    """A game in progress: a start state, the moves played, the moves undone (for redo).

    Public API, in the style of python-chess: :meth:`legal_moves`, :meth:`play`,
    :meth:`undo`, :meth:`redo`, :meth:`outcome`, :meth:`position`, :meth:`view`.
    """

    slug: ClassVar[str]
    title: ClassVar[str]
    packs: ClassVar[int]
    #: The slug of the chapter whose page holds the game's board, when it is not the game's
    #: own (La Belle Lucie's page also holds The House in the Wood and The House on the
    #: Hill): see :meth:`chapter`. The game's rule ids are anchors of that page.
    CHAPTER: ClassVar[str | None] = None
    Options: ClassVar[type]
    PILES: ClassVar[tuple[PileSpec, ...]]
    VARS: ClassVar[tuple[str, ...]] = ()
    ACTIONS: ClassVar[tuple[ActionSpec, ...]] = ()
    #: Width and height of the board's grid, in card slots.
    GRID: ClassVar[tuple[float, float]]
    #: The drawn diagrams of the chapter page (the deal numbered ``DIAGRAM_DEAL``).
    FIGURES: ClassVar[tuple[Figure, ...]] = ()
    DIAGRAM_DEAL: ClassVar[int] = 1
    #: Labelled areas of the board (optional).
    REGIONS: ClassVar[tuple[Region, ...]] = ()
    #: Other arrangements of the piles: for narrow boards, or for figures (optional).
    LAYOUTS: ClassVar[tuple[Layout, ...]] = ()
    #: Whether the view's ``moves`` lists single-step moves too. A game with very many of
    #: them (the Empress pairs any of 24 cards with any of 24) sets False: ``movable`` then
    #: carries them, and ``moves`` lists only the moves of several steps.
    VIEW_SINGLE_STEPS: ClassVar[bool] = True
    #: The rules ledger: every rule anchor of the chapter page (``SLUG-NAME``) mapped to one
    #: sentence saying what the engine does for it, under each reading where they differ.
    #: The chapter's ledger table is generated from it and from the tests that cite each
    #: anchor (``@pytest.mark.rules("SLUG-NAME")``); a site test keeps the three in step.
    LEDGER: ClassVar[Mapping[str, str]] = {}
    #: Whether the player may look through the cards of a talon (a pile of role TALON). By
    #: default only a talon's top card is shown: the others are covered, and a view reveals
    #: only what the reader may see. A game whose notes let the player look sets True.
    TALON_OPEN: ClassVar[bool] = False
    #: The actions a click on the pack plays, in order of preference (see :meth:`pack_move`).
    PACK_ACTIONS: ClassVar[tuple[str, ...]] = ("deal", "redeal")

    _index: ClassVar[dict[str, int]]
    _role_of: ClassVar[tuple[Role, ...]]

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "PILES" in cls.__dict__:
            cls._index = {p.id: i for i, p in enumerate(cls.PILES)}
            cls._role_of = tuple(p.role for p in cls.PILES)

    def __init__(self, start: State, options: Any = None, deal: int | None = None) -> None:
        self.options: Any = options if options is not None else self.Options()
        self.deal = deal
        self._start = start
        self._state = start
        self._moves: list[Move] = []
        self._past: list[State] = []
        self._redo: list[Move] = []

    # ---- to implement, per game (pure functions of a state) -------------------------
    @classmethod
    @abstractmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        """The position after the deal numbered ``deal``."""

    @abstractmethod
    def candidate_moves(self, state: State) -> Iterable[Move]:
        """A superset of the legal moves (each is then checked with :meth:`refusal`)."""

    def refusal(self, state: State, move: Move) -> IllegalMove | None:
        """``None`` if ``move`` is legal in ``state``; otherwise the rule it breaks.

        An action goes to :meth:`refuse_action`; a step is resolved (:meth:`resolve_step`,
        which refuses bad notation) and goes to :meth:`refuse_step`. A game whose moves may
        have several steps overrides this instead."""
        if move.action:
            return self.refuse_action(state, move.action)
        step = self.resolve_step(state, move)
        return step if isinstance(step, IllegalMove) else self.refuse_step(state, step)

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        """Why the action ``action`` is refused in ``state`` (None: it is legal)."""
        return IllegalMove(self.board_rule(), f"{self.title} has no action {action!r}.")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        """Why a one-step move is refused in ``state`` (None: it is legal)."""
        raise NotImplementedError(f"{type(self).__name__} must implement refuse_step")

    @abstractmethod
    def apply(self, state: State, move: Move) -> State:
        """The state after a legal move, including everything the rules then make happen
        at once (refilling a vacancy, a fresh packet)."""

    @abstractmethod
    def outcome_of(self, state: State) -> Outcome | None:
        """WON, LOST (nothing more can be done), or None while play goes on."""

    def remembered(self, state: State, judge: Callable[[State], T]) -> T:
        """``judge(state)`` under this game's options, remembered: the searches that settle a
        loss verdict are costly, and the board, the tests and the solver ask about the same
        states again and again. Up to 256 states are kept (all forgotten when full); copies of
        a game share them, which is sound since the key holds the options and the judge."""
        memo: dict[tuple[str, State, Any], Any] = self.__dict__.setdefault("_memo", {})
        key = (judge.__qualname__, state, self.options)
        if key not in memo:
            if len(memo) > 256:
                memo.clear()
            memo[key] = judge(state)
        result: T = memo[key]
        return result

    @abstractmethod
    def status_line(self, state: State, outcome: Outcome | None) -> str:
        """One line for the board's status bar, given the position's outcome."""

    def status_of(self, state: State) -> str:
        """One line for the board's status bar."""
        return self.status_line(state, self.outcome_of(state))

    # ---- hooks a game may override ---------------------------------------------------
    @classmethod
    def full_pack(cls) -> Counter[Card]:
        """Every card the game uses, counted: positions must hold exactly these."""
        return Counter(pack(cls.packs))

    def card_faces(self, state: State, pile: int) -> list[dict[str, Any]]:
        """The cards of one pile for the board: ``{"c": "QS"}`` face up, ``{"c": None}``
        face down; extra flags (``"peek": True``) for cards shown but not available."""
        spec = self.PILES[pile]
        cards = state.piles[pile]
        if spec.role is Role.STOCK:
            return [{"c": None} for _ in cards]
        if spec.role is Role.TALON and not self.TALON_OPEN:
            return [{"c": None} for _ in cards[:-1]] + [{"c": str(c)} for c in cards[-1:]]
        return [{"c": str(c)} for c in cards]

    def pack_move(self, state: State, legal: list[Move]) -> Move | None:
        """The move a click on the pack plays (the board's ``pack`` view field), given the
        legal moves of ``state``; None when the pack is not something to click.

        By default: the first legal action of :attr:`PACK_ACTIONS` (deal, or re-deal once the
        pack is spent); else the only legal one-step move from the pack, if there is exactly
        one; else the first of :attr:`PACK_ACTIONS` the game has at all, refused (so the reader
        hears why the pack cannot be dealt now). A game without a pile of role STOCK has no
        pack. Games may override it."""
        stock = next((p.id for p in self.PILES if p.role is Role.STOCK), None)
        if stock is None:
            return None
        actions = {m.action for m in legal if m.action}
        for name in self.PACK_ACTIONS:
            if name in actions:
                return Move(action=name)
        from_pack = [m for m in legal if len(m.steps) == 1
                     and m.steps[0][0].split(":", 1)[0] == stock]
        if len(from_pack) == 1:
            return from_pack[0]
        own = {a.move for a in self.ACTIONS}
        for name in self.PACK_ACTIONS:
            if name in own:
                return Move(action=name)
        return None

    def legal_in(self, state: State) -> list[Move]:
        """The legal moves of ``state`` (a pure function: the solver's move generator). A game
        whose :meth:`candidate_moves` yields exactly the legal moves overrides it to skip
        the second check."""
        return [m for m in self.candidate_moves(state) if self.refusal(state, m) is None]

    # ---- hooks of the solver (engine/solver.py) ---------------------------------------
    def solver_key(self, state: State) -> Hashable:
        """The solver's transposition key of ``state``: two states with the same key must
        have the same future (the same wins from them). The solver does not call this
        default (it makes an equivalent key of its own, faster, sorting the piles of each
        group of :meth:`solver_alike`); a game whose positions are alike in other ways
        (cards that are interchangeable, say) overrides it."""
        return state

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """Groups of piles (indices into ``PILES``) that the rules treat alike, so that the
        order of their contents does not matter: the solver's default key sorts each
        group (two positions that differ only by such an exchange are searched once).
        None by default; a game's answer may depend on its options."""
        return ()

    def solver_spent(self) -> tuple[int, ...]:
        """Piles (indices into ``PILES``) of cards out of play for good, in an order no rule
        reads (pairs thrown out): the solver's default key leaves them out, since the other
        piles say which cards they hold (every card of the game is somewhere), so that two
        positions reached by the same throws in another order are searched once. With
        several such piles, no rule may care which of them holds a card. None by default."""
        return ()

    def solver_outcome(self, state: State) -> Outcome | None:
        """The outcome as the solver needs it after each move: WON must be told; LOST only
        prunes (a position with no legal move is a dead end anyway). By default
        :meth:`outcome_of`; a game whose ``outcome_of`` searches (to call a position lost
        early) may answer here with a cheaper test, leaving the solver to search."""
        return self.outcome_of(state)

    def idle_moves(self, state: State, legal: list[Move]) -> list[Move]:
        """Of the legal moves of ``state``, those that change nothing any rule reads: each
        only carries cards from one place to another that the rules treat alike, so that the
        position after it is this one with two places' names exchanged (a whole row moved
        into a space, where the rows differ by nothing but their contents). The rules allow
        them, so the board offers them; the solver never tries them (the position after is
        this one again), nor does the careful player. It must read only what the board shows
        the reader, since the careful player sees no more. None by default."""
        return []

    def solver_safe(self, state: State, legal: list[Move]) -> Move | None:
        """A move the solver may play first and alone in ``state`` (no win is lost by it),
        or None. By default the first of :meth:`safe_moves`, except while a re-deal is
        legal (a re-deal shuffles the cards it takes up, so a card played first or left
        behind changes the cards it deals: nothing is then safe to play unseen)."""
        if any(m.action == "redeal" for m in legal):
            return None
        safe = self.safe_moves(state, legal)
        return safe[0] if safe else None

    def solver_order(self, state: State, legal: list[Move]) -> list[Move]:
        """The legal moves of ``state`` in the order the solver tries them, most promising
        first (a game may drop moves that can never help). By default: moves to a
        foundation or a discard pile, then moves that empty a pile, then other moves of
        cards, then actions (deal, re-deal) last; ties keep the order of ``legal``."""
        roles = self._roles()
        piles = state.piles
        index = self._index

        def rank(m: Move) -> int:
            if m.action:
                return 3
            for src, dst in m.steps:
                if roles[index[dst.partition(":")[0]]] in (Role.FOUNDATION, Role.DISCARD):
                    return 0
            src = m.steps[0][0]
            if ":" not in src and len(piles[index[src]]) == 1:
                return 1
            return 2
        return sorted(legal, key=rank)

    @classmethod
    def _roles(cls) -> tuple[Role, ...]:
        return cls._role_of

    def safe_moves(self, state: State, legal: list[Move]) -> list[Move]:
        """Moves to a foundation that are safe to play at once, for the board's auto-play
        (the view's ``safe`` field), given the legal moves of ``state``.

        The default is conservative: a card that begins an empty foundation, when that
        foundation could be begun by no other card of the game (so no choice is given up)
        and the card has no other legal destination. A game whose rules make more moves safe
        (a card no other card can ever need) overrides this."""
        out: list[Move] = []
        piles, index, roles = state.piles, self._index, self._roles()
        for m in legal:  # most positions have no move to an empty foundation: nothing to do
            if len(m.steps) == 1:
                di = index.get(m.steps[0][1])
                if di is not None and roles[di] is Role.FOUNDATION and not piles[di]:
                    break
        else:
            return out
        dests: dict[str, set[str]] = {}
        for m in legal:
            for src, dst in m.steps:
                dests.setdefault(src, set()).add(dst)
        for m in legal:
            if len(m.steps) != 1:
                continue
            src, dst = m.steps[0]
            di = self._index.get(dst)
            if di is None or self.PILES[di].role is not Role.FOUNDATION or state.piles[di]:
                continue
            if dests.get(src) != {dst}:
                continue
            card = self.card_at(state, src)
            if card is not None and self._only_base(state, m, card):
                out.append(m)
        return out

    def _only_base(self, state: State, move: Move, card: Card) -> bool:
        """Whether no card other than ``card`` (rank and suit) could make ``move``: each
        other kind of card of the game is swapped into ``card``'s place and the move
        tried again."""
        src = move.steps[0][0]
        si = self.pile_index(src)
        pile = state.piles[si]
        _, _, k = src.partition(":")
        j = int(k) if k else len(pile) - 1
        where: dict[Card, tuple[int, int]] = {}
        for pi, cards in enumerate(state.piles):
            for ci, c in enumerate(cards):
                where.setdefault(c, (pi, ci))
        for other, (pi, ci) in where.items():
            if other == card:
                continue
            piles = list(state.piles)  # only the one or two piles swapped are copied
            here = list(pile)
            here[j] = other
            if pi == si:
                here[ci] = card
            else:
                there = list(piles[pi])
                there[ci] = card
                piles[pi] = tuple(there)
            piles[si] = tuple(here)
            trial = State(tuple(piles), state.vars)
            try:
                if self.refusal(trial, move) is None:
                    return False
            except Exception:  # noqa: BLE001 - a game's refusal on an odd state: not safe
                return False
        return True

    def describe_ahead(self, state: State, move: Move) -> str:
        """A sentence for a move not yet played (a hint), saying nothing the reader cannot
        see. An action (deal, re-deal) is its button's label: what a deal brings is the
        pack's secret. A move of cards is :meth:`describe`'s words, unless they change when
        the face-down cards are changed for others (each one rank higher; then, in reverse
        order, seven higher); then its piles, naming only cards that show."""
        faces = [self.card_faces(state, i) for i in range(len(state.piles))]
        hidden = {(i, j) for i, pile in enumerate(faces) for j, f in enumerate(pile)
                  if f.get("c") is None}
        if move.action:
            return self._plain_words(state, move, hidden)
        words = self.describe(state, move)
        if not hidden:
            return words
        slots = sorted(hidden)
        for shift, order in ((1, slots), (7, slots[::-1])):
            piles = [list(p) for p in state.piles]
            for (i, j), (k, m) in zip(slots, order):
                c = state.piles[k][m]
                piles[i][j] = Card((c.rank + shift - 1) % 13 + 1, c.suit)
            try:
                if self.describe(State(tuple(map(tuple, piles)), state.vars), move) != words:
                    return self._plain_words(state, move, hidden)
            except Exception:  # noqa: BLE001 - a game's words on an odd state: say less
                return self._plain_words(state, move, hidden)
        return words

    def describe(self, state: State, move: Move) -> str:
        """A sentence saying what the move does, for the board's live region."""
        return self._plain_words(state, move, set())

    def _plain_words(self, state: State, move: Move, hidden: set[tuple[int, int]]) -> str:
        """The action's button label, or each step's card and piles; a card at a place in
        ``hidden`` (pile, index from the bottom) is "a card"."""
        if move.action:
            for a in self.ACTIONS:
                if a.move == move.action:
                    return a.label
            return move.action
        parts = []
        for src, dst in move.steps:
            card = self.card_at(state, src)
            if card and hidden:
                name, _, k = src.partition(":")
                i = self._index[name]
                if (i, int(k) if k else len(state.piles[i]) - 1) in hidden:
                    card = None
            what = card.name if card else "a card"
            parts.append(f"{what} from {self.label(src)} to {self.label(dst)}")
        text = "; ".join(parts)
        return text[:1].upper() + text[1:] + "."

    # ---- helpers for games -----------------------------------------------------------
    @classmethod
    def chapter(cls) -> str:
        """The slug of the chapter page that holds this game's board and the anchors its
        refusals cite (``CHAPTER-NAME``): the game's own slug unless :attr:`CHAPTER` says."""
        return cls.CHAPTER or cls.slug

    @classmethod
    def board_rule(cls) -> str:
        """The anchor the board's own refusals cite (bad notation, a card dropped where it
        already is): the heading of the game's board, ``CHAPTER-board`` unless overridden
        (a chapter page holding several boards gives each its own)."""
        return f"{cls.chapter()}-board"

    @classmethod
    def pile_index(cls, ref: str) -> int:
        """Index of a pile from a step reference (``l3`` or ``l3:2``); KeyError if none."""
        return cls._index[ref.split(":", 1)[0]]

    @classmethod
    def label(cls, ref: str) -> str:
        i = cls._index.get(ref.split(":", 1)[0])
        return cls.PILES[i].label if i is not None else ref

    def card_at(self, state: State, ref: str) -> Card | None:
        """The card a step reference names: the top card, or ``pile:k`` (k from the bottom)."""
        name, _, k = ref.partition(":")
        i = self._index.get(name)
        if i is None:
            return None
        p = state.piles[i]
        if not p:
            return None
        if k:
            j = int(k)
            return p[j] if 0 <= j < len(p) else None
        return p[-1]

    def resolve_step(self, state: State, move: Move) -> Step | IllegalMove:
        """The single step of ``move`` resolved against ``state``, or the refusal (on the
        board's own rule, :meth:`board_rule`) of a move of several steps, an unknown pile, a
        place with no card, or a destination inside a pile. Games whose cards move one at a
        time start their ``refusal`` with it."""
        board = self.board_rule()
        if len(move.steps) != 1:
            name = self.title[:1].lower() + self.title[1:] if self.title.startswith("The ") \
                else self.title
            return IllegalMove(board, f"In {name} cards are moved one at a time.")
        src, dst = move.steps[0]
        name, _, k = src.partition(":")
        si, di = self._index.get(name), self._index.get(dst.partition(":")[0])
        if si is None or di is None:
            bad = name if si is None else dst.partition(":")[0]
            return IllegalMove(board, f"There is no pile called {bad!r}.")
        if ":" in dst:
            return IllegalMove(board, "A card is always placed on top of a pile.")
        pile = state.piles[si]
        j = int(k) if k else len(pile) - 1
        if not 0 <= j < len(pile):
            return IllegalMove(board, f"There is no card there ({self.PILES[si].label}).")
        if k and j == len(pile) - 1:  # one notation per move: the top card is the pile's
            return IllegalMove(board, f"The top card is written {name}, not {src}.")
        return Step(si, j, di, j == len(pile) - 1, pile[j])

    def var(self, state: State, name: str) -> int:
        return state.vars[self.VARS.index(name)]

    # ---- public API ------------------------------------------------------------------
    @classmethod
    def new(cls: type[G], deal: int, options: Any = None) -> G:
        opts = options if options is not None else cls.Options()
        return cls(cls.initial_state(deal, opts), opts, deal)

    @property
    def state(self) -> State:
        return self._state

    def state_key(self) -> State:
        """A hashable key of the current position (history excluded)."""
        return self._state

    @property
    def move_stack(self) -> list[Move]:
        return list(self._moves)

    @property
    def redo_stack(self) -> list[Move]:
        """Moves undone, the next to redo last."""
        return list(self._redo)

    def has_legal_move(self, state: State) -> bool:
        """Whether any move is legal in ``state`` (stops at the first one found)."""
        return any(self.refusal(state, m) is None for m in self.candidate_moves(state))

    def legal_moves(self) -> list[Move]:
        return self.legal_in(self._state)

    def check(self, move: Move | str) -> Move:
        """Parse and check a move; raise :class:`IllegalMove` if it is refused."""
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except ValueError as e:
                raise IllegalMove(self.board_rule(), str(e)) from None
        why = self.refusal(self._state, move)
        if why is not None:
            raise why
        return move

    def play(self, move: Move | str) -> Move:
        """Play a legal move. A refused move raises :class:`IllegalMove` and changes nothing."""
        m = self.check(move)
        self._push(m)
        if self._redo and self._redo[-1] == m:
            self._redo.pop()
        else:
            self._redo.clear()
        return m

    def _push(self, m: Move) -> None:
        new = self.apply(self._state, m)
        self._past.append(self._state)
        self._moves.append(m)
        self._state = new

    def undo(self) -> Move | None:
        """Take back the last move; None when there is nothing to undo."""
        if not self._moves:
            return None
        m = self._moves.pop()
        self._state = self._past.pop()
        self._redo.append(m)
        return m

    def redo(self) -> Move | None:
        """Play again the last move undone; None when there is nothing to redo."""
        if not self._redo:
            return None
        m = self._redo.pop()
        self._push(m)
        return m

    def restart(self) -> None:
        """Back to the start of the deal (this is itself undoable move by move: no)."""
        self._state = self._start
        self._moves.clear()
        self._past.clear()
        self._redo.clear()

    def outcome(self) -> Outcome | None:
        return self.outcome_of(self._state)

    def copy(self: G) -> G:
        """A cheap copy: states are immutable, so only the lists are copied."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._moves = list(self._moves)
        other._past = list(self._past)
        other._redo = list(self._redo)
        return other

    # ---- positions -------------------------------------------------------------------
    def state_text(self, state: State | None = None) -> str:
        s = self._state if state is None else state
        return "|".join(f"{p.id}:{format_cards(cards)}" for p, cards in zip(self.PILES, s.piles))

    def position(self, compact: bool = False) -> str:
        """The whole game as text: game, deal number, options, the start position (pack
        order included), the moves played and the moves undone.

        ``compact=True`` leaves out the start position when it follows from the deal
        number (for URLs)."""
        fields = [f"game={self.slug}"]
        if self.deal is not None:
            fields.append(f"deal={self.deal}")
        fields.append(f"opts={options_to_text(self.options)}")
        from_deal = self.deal is not None and self._start == self.initial_state(
            self.deal, self.options)
        if not (compact and from_deal):
            fields.append(f"start={self.state_text(self._start)}")
            if self.VARS:
                fields.append("vars=" + ",".join(
                    f"{n}:{v}" for n, v in zip(self.VARS, self._start.vars)))
        fields.append("moves=" + ",".join(map(str, self._moves)))
        fields.append("redo=" + ",".join(map(str, self._redo)))
        return ";".join(fields)

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        piles: dict[str, tuple[Card, ...]] = {}
        for part in text.split("|"):
            pid, sep, cards = part.partition(":")
            if not sep or pid not in cls._index or pid in piles:
                raise PositionError(f"bad pile {pid!r} in position")
            try:
                piles[pid] = parse_cards(cards)
            except ValueError as e:
                raise PositionError(str(e)) from None
        if len(piles) != len(cls.PILES):
            raise PositionError("position does not list every pile")
        var_values = dict.fromkeys(cls.VARS, 0)
        for part in filter(None, (vars_text or "").split(",")):
            name, _, v = part.partition(":")
            if name not in var_values or not v.lstrip("-").isdigit():
                raise PositionError(f"bad counter {part!r} in position")
            var_values[name] = int(v)
        state = State(tuple(piles[p.id] for p in cls.PILES), tuple(var_values.values()))
        if Counter(state.all_cards()) != cls.full_pack():
            raise PositionError("the position does not hold exactly the game's cards")
        return state


# --------------------------------------------------------------------------- views

def view_of(game: Game) -> dict[str, Any]:
    """The JSON-able description of the position that the generic board draws."""
    s = game.state
    legal = game.legal_moves()
    step_moves = [m for m in legal if m.steps]
    listed = step_moves if game.VIEW_SINGLE_STEPS else [m for m in step_moves
                                                        if len(m.steps) > 1]
    movable: dict[str, list[str]] = {}
    for m in step_moves:
        for src, dst in m.steps:
            targets = movable.setdefault(src, [])
            if dst not in targets:
                targets.append(dst)
    legal_actions = {m.action for m in legal if m.action}
    outcome = game.outcome()
    pack_fields: dict[str, Any] = {}
    stock = next((p.id for p in game.PILES if p.role is Role.STOCK), None)
    if stock is not None:
        pm = game.pack_move(s, legal)
        pack_fields["pack"] = {"pile": stock, "move": str(pm) if pm else None,
                               "legal": pm is not None and pm in legal}
    return {
        "game": game.slug,
        "title": game.title,
        "deal": game.deal,
        "options": options_to_text(game.options),
        "grid": {"w": game.GRID[0], "h": game.GRID[1]},
        "piles": [
            {
                "id": p.id, "label": p.label, "role": p.role.value, "x": p.x, "y": p.y,
                "fan": p.fan.value, "rotate": p.rotate, "cards": game.card_faces(s, i),
                **({"fan_limit": p.fan_limit} if p.fan_limit is not None else {}),
                **({"mark": p.mark} if p.mark else {}),
            }
            for i, p in enumerate(game.PILES)
        ],
        "moves": [{"m": str(m), "steps": [list(st) for st in m.steps]} for m in listed],
        "movable": movable,
        "actions": [
            {"move": a.move, "label": a.label, "key": a.key, "rule": a.rule,
             "enabled": a.move in legal_actions, "occasional": a.occasional}
            for a in game.ACTIONS
        ],
        **_layout_fields(game),
        **pack_fields,
        "safe": [str(m) for m in game.safe_moves(s, legal)] if outcome is None else [],
        "status": game.status_line(s, outcome),
        "outcome": outcome.value if outcome else None,
        "can_undo": bool(game.move_stack),
        "can_redo": bool(game.redo_stack),
        "played": len(game.move_stack),
    }


def _regions(regions: tuple[Region, ...]) -> list[dict[str, Any]]:
    return [{"label": r.label, "x": r.x, "y": r.y, "w": r.w, "h": r.h} for r in regions]


def _layout_fields(game: Game) -> dict[str, Any]:
    """The optional view fields ``regions`` and ``layouts`` (only when the game has them)."""
    out: dict[str, Any] = {}
    if game.REGIONS:
        out["regions"] = _regions(game.REGIONS)
    layouts = [lay for lay in game.LAYOUTS if lay.max_width is not None]
    if layouts:
        out["layouts"] = [
            {"name": lay.name, "max_width": lay.max_width,
             "grid": {"w": lay.grid[0], "h": lay.grid[1]},
             "piles": {pid: {"x": x, "y": y, "rotate": r} for pid, (x, y, r) in lay.at.items()},
             "hidden": list(lay.hidden), "regions": _regions(lay.regions)}
            for lay in layouts
        ]
    return out
