"""The Empress of India (four packs), by the book: 1914 printing, pp. 36–38.

Piles: the pack; the red and the black talon (Rule IV); the seven queens thrown aside; the
central figure (the Empress and her guard of eight red knaves, which never move; the eight
Generals, red kings descending, and the eight Admirals, black aces ascending, which are the
foundations); the Army (two rows of twelve places, red) and the Navy (two rows of twelve,
black). A place holds one card, or two once an Army card and a Navy card have been paired
there for good.

Moves: a pair play is one move of two steps, a red card to a General and a black card to an
Admiral (Rule I); pairing is one step, an unpaired card of one body onto an unpaired card of
the other; ``deal`` turns the next card of the pack (by default; EM-15), which fills a vacancy
of its colour or goes on its colour's talon. Every vacancy is refilled at once by the rules
(Rule II), so there is no move into an empty place. See the chapter page for the text
each rule id points at, and its editorial notes (``note-em-N``) for the readings behind the
options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, KNAVE, QUEEN, Card, Suit, pack
from .core import (
    ActionSpec,
    Fan,
    Figure,
    Game,
    IllegalMove,
    Layout,
    Move,
    Outcome,
    PileSpec,
    Region,
    Role,
    State,
    option,
)
from .deal import shuffled
from .rules import plural

SLUG = "the-empress-of-india"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")        # only in pairs, one red and one black, at the same time
RULE_II = _rule("rule-2")       # vacancies refilled at once with their own colour
RULE_III = _rule("rule-3")      # pack and talon cards pass through the Army or Navy first
RULE_IV = _rule("rule-4")       # two talon packets, red and black
RULE_V = _rule("rule-5")        # foundations follow suit
FIGURE = _rule("figure")        # the Empress and her guard remain alone
THROWN_ASIDE = _rule("thrown-aside")  # four queens of spades and three of clubs
FOUNDATIONS = _rule("foundations")    # Admirals ascend from aces, Generals descend from kings
OMIT = _rule("omit")            # red sequences omit knaves, black ones queens
DEAL = _rule("deal")            # four rows of twelve: the Army red above, the Navy black below
PAIRING = _rule("pairing")      # any Army card on any Navy card, and vice versa
PAIRED = _rule("paired")        # paired cards never separated; played at the same time
PAIRED_ONCE = _rule("paired-once")    # each card can only be paired once
PAIR_TIME = _rule("pair-time")  # play available pairs; if none, you may proceed to pair
CHOOSE_TIME = _rule("choose-time")    # your own time for pairing; the ten-of-clubs example
DEAL_OUT = _rule("deal-out")    # when all available cards are played, deal out the rest
NO_REDEAL = _rule("no-redeal")  # there is no re-deal
BOARD = _rule("board")          # the board itself (notation errors, unknown piles)

ROW = 12             # places in a row of the Army or the Navy
BODY = 2 * ROW       # places in the Army, and in the Navy
IN_PLAY = 176        # cards that reach the foundations
FOUNDATION_FULL = 12  # an ace or king and the eleven cards played on it


# --------------------------------------------------------------------------- options

class PairPlay(Enum):
    """EM-1: which two cards may be played together."""

    ANY = "any"           # any red and black card that both fit; a paired card with its partner
    STACKED = "stacked"   # only the two cards of a pair made beforehand


class PackRefill(Enum):
    """EM-5: refilling a vacancy from the pack when that colour's talon is empty."""

    TURN = "turn"  # turn the pack until a card of the colour comes; the others go their way
    WAIT = "wait"  # the place waits for the dealing-out of the pack


class PairingTime(Enum):
    """EM-12: when cards may be paired."""

    ANY_TIME = "any-time"  # whenever the player chooses
    NO_PAIR = "no-pair"    # only when no pair can be played


class DealOutTime(Enum):
    """EM-8: when the rest of the pack may be dealt out."""

    CHOICE = "choice"  # whenever the player judges the available cards played
    STUCK = "stuck"    # only when no pair can be played


class DealOut(Enum):
    """EM-15: how the rest of the pack is dealt out."""

    CARD = "card"  # one card at a time, the player free to act between cards
    ALL = "all"    # the whole remainder in one action


@dataclass(frozen=True, slots=True)
class EmpressOptions:
    pair_play: PairPlay = option(
        PairPlay.ANY, note="note-em-1", label="Which cards may be played together",
        labels={PairPlay.ANY: "any red and black card that both fit (a paired card only "
                              "with its partner)",
                PairPlay.STACKED: "only two cards paired beforehand"})
    pack_refill: PackRefill = option(
        PackRefill.TURN, note="note-em-5", label="A vacancy when its talon is empty",
        labels={PackRefill.TURN: "filled at once: the pack is turned until a card of its "
                                 "colour comes",
                PackRefill.WAIT: "left open until a card of its colour is dealt out"})
    deal_out_time: DealOutTime = option(
        DealOutTime.CHOICE, note="note-em-8", label="When the rest of the pack may be dealt",
        labels={DealOutTime.CHOICE: "when the player chooses",
                DealOutTime.STUCK: "only when no pair can be played"})
    pairing_time: PairingTime = option(
        PairingTime.ANY_TIME, note="note-em-12", label="When cards may be paired",
        labels={PairingTime.ANY_TIME: "at any time (“your own time”)",
                PairingTime.NO_PAIR: "only when no pair can be played"})
    deal_out: DealOut = option(
        DealOut.CARD, note="note-em-15", label="How the rest of the pack is dealt out",
        labels={DealOut.CARD: "card by card: each card to a vacancy of its colour or to its "
                              "talon, the player free to act between cards",
                DealOut.ALL: "all at once, in one action"})


# --------------------------------------------------------------------------- the layout
#
# The board's grid is 12 card slots wide. Positions are the top-left corner of a card's
# upright box; a rotated card turns about its centre. The central figure follows the plate
# (p. 36), drawn a little tighter: an inner ring of the guard round the Empress, the Admirals
# on the four arms, the Generals at the four tips and on the four diagonals (EM-14).

_CX, _CY = 6.0, 3.5   # the Empress's centre


def _at(cx: float, cy: float) -> tuple[float, float]:
    return (round(cx - 0.5, 3), round(cy - 0.5, 3))


# (suit, where, centre x, centre y, rotation)
_GENERALS: tuple[tuple[Suit, str, float, float, int], ...] = (
    (Suit.HEARTS, "at the top", _CX, _CY - 3.0, 0),
    (Suit.DIAMONDS, "upper right", _CX + 2.7, _CY - 1.65, 45),
    (Suit.DIAMONDS, "on the right", _CX + 4.75, _CY, 90),
    (Suit.HEARTS, "lower right", _CX + 2.7, _CY + 1.65, -45),
    (Suit.HEARTS, "at the foot", _CX, _CY + 3.0, 0),
    (Suit.DIAMONDS, "lower left", _CX - 2.7, _CY + 1.65, 45),
    (Suit.DIAMONDS, "on the left", _CX - 4.75, _CY, 90),
    (Suit.HEARTS, "upper left", _CX - 2.7, _CY - 1.65, -45),
)
_ADMIRALS: tuple[tuple[Suit, str, float, float, int], ...] = (
    (Suit.CLUBS, "top arm, left", _CX - 0.5, _CY - 2.0, 0),
    (Suit.CLUBS, "top arm, right", _CX + 0.5, _CY - 2.0, 0),
    (Suit.SPADES, "right arm, upper", _CX + 3.25, _CY - 0.4, 90),
    (Suit.SPADES, "right arm, lower", _CX + 3.25, _CY + 0.4, 90),
    (Suit.CLUBS, "lower arm, right", _CX + 0.5, _CY + 2.0, 0),
    (Suit.CLUBS, "lower arm, left", _CX - 0.5, _CY + 2.0, 0),
    (Suit.SPADES, "left arm, lower", _CX - 3.25, _CY + 0.4, 90),
    (Suit.SPADES, "left arm, upper", _CX - 3.25, _CY - 0.4, 90),
)
_GUARD: tuple[tuple[Suit, str, float, float, int], ...] = (
    (Suit.HEARTS, "above the Empress, left", _CX - 0.5, _CY - 1.0, 0),
    (Suit.HEARTS, "above the Empress, right", _CX + 0.5, _CY - 1.0, 0),
    (Suit.DIAMONDS, "right of the Empress, upper", _CX + 1.75, _CY - 0.4, 90),
    (Suit.DIAMONDS, "right of the Empress, lower", _CX + 1.75, _CY + 0.4, 90),
    (Suit.HEARTS, "below the Empress, right", _CX + 0.5, _CY + 1.0, 0),
    (Suit.HEARTS, "below the Empress, left", _CX - 0.5, _CY + 1.0, 0),
    (Suit.DIAMONDS, "left of the Empress, lower", _CX - 1.75, _CY + 0.4, 90),
    (Suit.DIAMONDS, "left of the Empress, upper", _CX - 1.75, _CY - 0.4, 90),
)

_ARMY_Y = (7.3, 8.65)
_NAVY_Y = (10.3, 11.65)


def _place(body: str, k: int) -> PileSpec:
    row, col = divmod(k, ROW)
    if body == "a":
        return PileSpec(f"a{k}", f"Army, row {row + 1}, place {col + 1}", Role.TABLEAU,
                        float(col), _ARMY_Y[row], Fan.DOWN, capacity=2)
    return PileSpec(f"n{k}", f"Navy, row {row + 1}, place {col + 1}", Role.TABLEAU,
                    float(col), _NAVY_Y[row], Fan.DOWN, capacity=2)


def _figure_pile(pid: str, label: str, role: Role, cx: float, cy: float,
                 rotate: int) -> PileSpec:
    x, y = _at(cx, cy)
    return PileSpec(pid, label, role, x, y, rotate=rotate)


PILES: tuple[PileSpec, ...] = (
    (PileSpec("stock", "the pack", Role.STOCK, 0.0, 0.0),
     PileSpec("tr", "the red talon", Role.TALON, 0.0, 5.7),
     PileSpec("tb", "the black talon", Role.TALON, 11.0, 5.7),
     PileSpec("out", "the queens thrown aside", Role.DISCARD, 11.0, 0.0),
     _figure_pile("emp", "the Empress", Role.FIGURE, _CX, _CY, 0))
    + tuple(_figure_pile(f"k{i}", f"the guard, {where}", Role.FIGURE, cx, cy, rot)
            for i, (_, where, cx, cy, rot) in enumerate(_GUARD))
    + tuple(_figure_pile(f"g{i}", f"General of {s.noun} {where}", Role.FOUNDATION, cx, cy, rot)
            for i, (s, where, cx, cy, rot) in enumerate(_GENERALS))
    + tuple(_figure_pile(f"ad{i}", f"Admiral of {s.noun}, {where}", Role.FOUNDATION, cx, cy,
                         rot) for i, (s, where, cx, cy, rot) in enumerate(_ADMIRALS))
    + tuple(_place("a", k) for k in range(BODY))
    + tuple(_place("n", k) for k in range(BODY))
)

STOCK, TALON_RED, TALON_BLACK, OUT, EMPRESS = 0, 1, 2, 3, 4
GUARD = range(5, 13)
GENERALS = range(13, 21)
ADMIRALS = range(21, 29)
FOUNDATION_PILES = range(13, 29)
ARMY = range(29, 29 + BODY)
NAVY = range(29 + BODY, 29 + 2 * BODY)
PLACES = range(29, 29 + 2 * BODY)
assert len(PILES) == PLACES.stop

FOUNDATION_SUIT: dict[int, Suit] = (
    {GENERALS[i]: s for i, (s, *_rest) in enumerate(_GENERALS)}
    | {ADMIRALS[i]: s for i, (s, *_rest) in enumerate(_ADMIRALS)})


def _narrow_layout() -> Layout:
    """Eight slots wide, for phones: foundations in two rows (Generals, then Admirals,
    each grouped by suit), the Army and the Navy in three rows of eight each; the guard
    and the queens thrown aside are not drawn (they never move)."""
    at: dict[str, tuple[float, float, int]] = {
        "stock": (0.0, 0.0, 0), "tr": (1.2, 0.0, 0), "tb": (2.2, 0.0, 0),
        "emp": (7.0, 0.0, 0),
    }
    gens = sorted(GENERALS, key=lambda f: (FOUNDATION_SUIT[f].value != "H", f))
    adms = sorted(ADMIRALS, key=lambda f: (FOUNDATION_SUIT[f].value != "C", f))
    for col, f in enumerate(gens):
        at[PILES[f].id] = (float(col), 1.15, 0)
    for col, f in enumerate(adms):
        at[PILES[f].id] = (float(col), 2.3, 0)
    for k in range(BODY):
        row, col = divmod(k, 8)
        at[f"a{k}"] = (float(col), 3.75 + 1.3 * row, 0)
        at[f"n{k}"] = (float(col), 7.95 + 1.3 * row, 0)
    hidden = ("out",) + tuple(PILES[i].id for i in GUARD)
    return Layout(
        name="narrow", max_width=560, grid=(8.0, 12.15), at=at, hidden=hidden,
        regions=(Region("The Army", 0.0, 3.35, 8.0, 4.2),
                 Region("The Navy", 0.0, 7.55, 8.0, 4.4)))


def _plate_layout() -> Layout:
    """The central figure as the plate draws it (p. 36), for the chapter's diagram: offsets
    from the Empress measured on the scan in card widths and heights, turned into slots."""
    w, h = 0.82, 0.865   # a card's width and height, in slots
    cx, cy = 6.0, 4.5
    spots: dict[int, tuple[float, float, int]] = {EMPRESS: (0.0, 0.0, 0)}
    gen = ((0, -3.83), (2.8, -1.95), (5.5, 0), (2.8, 1.95), (0, 3.83), (-2.8, 1.95),
           (-5.5, 0), (-2.8, -1.95))
    adm = ((-0.78, -2.62), (0.78, -2.62), (3.74, -0.55), (3.74, 0.55), (0.78, 2.62),
           (-0.78, 2.62), (-3.74, 0.55), (-3.74, -0.55))
    guard = ((-0.77, -1.39), (0.77, -1.39), (1.98, -0.56), (1.98, 0.56), (0.77, 1.39),
             (-0.77, 1.39), (-1.98, 0.56), (-1.98, -0.56))
    for piles, offsets, spec in ((GENERALS, gen, _GENERALS), (ADMIRALS, adm, _ADMIRALS),
                                 (GUARD, guard, _GUARD)):
        for i, (dx, dy), (*_r, rot) in zip(piles, offsets, spec):
            spots[i] = (dx, dy, rot)
    at = {PILES[i].id: (round(cx + dx * w - 0.5, 3), round(cy + dy * h - 0.5, 3), rot)
          for i, (dx, dy, rot) in spots.items()}
    return Layout(name="plate", grid=(12.0, 9.0), at=at)


def _army_navy_layout() -> Layout:
    """The Army and the Navy with the two talons and the pack above them, for the second
    diagram (the plate leaves them out)."""
    at: dict[str, tuple[float, float, int]] = {
        "tr": (0.0, 0.0, 0), "stock": (5.5, 0.0, 0), "tb": (11.0, 0.0, 0)}
    for k in range(BODY):
        row, col = divmod(k, ROW)
        at[f"a{k}"] = (float(col), 1.35 + 1.1 * row, 0)
        at[f"n{k}"] = (float(col), 3.85 + 1.1 * row, 0)
    return Layout(name="army-navy", grid=(12.0, 6.0), at=at)


def _red(card: Card) -> bool:
    return card.suit.red


def next_rank(f: int, top: Card | None) -> int | None:
    """The rank foundation pile ``f`` takes next (None when it is complete).

    Generals (red) descend K, Q, 10 … A, omitting knaves; Admirals (black) ascend A … 10,
    J, K, omitting queens (the Note)."""
    if f in GENERALS:
        if top is None:
            return KING
        r = top.rank
        if r == ACE:
            return None
        return r - 2 if r == QUEEN else r - 1
    if top is None:
        return ACE
    r = top.rank
    if r == KING:
        return None
    return r + 2 if r == KNAVE else r + 1


#: The two pairing moves between each Army place and each Navy place, made once.
_PAIRINGS: dict[int, dict[int, tuple[Move, Move]]] = {
    i: {j: (Move.step(PILES[i].id, PILES[j].id), Move.step(PILES[j].id, PILES[i].id))
        for j in NAVY}
    for i in ARMY
}


@dataclass(frozen=True, slots=True)
class _Info:
    """What one position offers, computed once per state (legal moves, outcome, status)."""

    #: (source reference, foundation piles that take the card) for unpaired cards that fit
    red_plays: tuple[tuple[str, tuple[int, ...]], ...]
    black_plays: tuple[tuple[str, tuple[int, ...]], ...]
    #: paired places whose two cards both fit: (red ref, its piles, black ref, its piles)
    pair_plays: tuple[tuple[str, tuple[int, ...], str, tuple[int, ...]], ...]
    #: places holding an unpaired card, by the colour of the card
    red_singles: tuple[int, ...]
    black_singles: tuple[int, ...]

    @property
    def any_play(self) -> bool:
        return bool(self.pair_plays) or (bool(self.red_plays) and bool(self.black_plays))


class TheEmpressOfIndia(Game):
    slug = SLUG
    title = "The Empress of India"
    packs = 4
    Options = EmpressOptions
    PILES = PILES
    GRID = (12.0, 13.05)
    ACTIONS = (
        ActionSpec("deal", "Deal from the pack", "d", DEAL_OUT),
    )
    REGIONS = (
        # Each region begins a little above its first row, leaving room for its caption.
        Region("The Army", 0.0, 6.98, 12.0, 3.02),
        Region("The Navy", 0.0, 10.0, 12.0, 3.05),
    )
    LAYOUTS = (_narrow_layout(), _plate_layout(), _army_navy_layout())
    DIAGRAM_DEAL = 3  # a deal that sends a few cards to a talon
    FIGURES = (
        Figure("figure", "The central figure of the plate, in modern cards.",
               "The central figure of The Empress of India in modern cards, a lozenge of 25 "
               "cards: the queen of clubs, the Empress, in the centre; her guard of eight red "
               "knaves round her, two above, two below and two turned sideways on each side; "
               "the eight black aces, the Admirals, in pairs on the four arms, the aces of "
               "clubs above and below, the aces of spades turned sideways left and right; "
               "the eight red kings, the Generals, at the four tips and, turned at 45 "
               "degrees, on the four diagonals.",
               piles=tuple(PILES[i].id for i in range(EMPRESS, ADMIRALS.stop)),
               layout="plate"),
        Figure("army-navy", "The Army (above) and the Navy (below) after a deal, with the red "
               "talon, the pack and the black talon: the plate leaves them out.",
               "After a deal: the red talon on the left, its top card showing, the rest of the "
               "pack face down in the middle, the black talon, still empty, on the right; "
               "below them the Army, two rows of twelve red cards, and under it the Navy, two "
               "rows of twelve black cards.",
               piles=("stock", "tr", "tb") + tuple(PILES[i].id for i in PLACES),
               layout="army-navy"),
    )
    VIEW_SINGLE_STEPS = False  # up to 1152 pairings: ``movable`` carries them
    LEDGER = {
        RULE_I: "A card reaches a foundation only in a move of two steps that plays a red "
                "card on a General and a black card on an Admiral together; one card alone, "
                "two of one colour, or more than two are refused. By default (EM-1) any two "
                "unpaired cards that fit may go up together, a paired card only with its "
                "partner; under the strict reading only the two cards of a pair.",
        RULE_II: "Every vacancy is refilled by the engine in the same move that makes it, with "
                 "a card of its own colour: the top of its talon, or, that talon empty, the "
                 "pack turned until a card of its colour comes (EM-5; under the other reading "
                 "the place waits for the next card of its colour dealt); no card may be put "
                 "into a vacancy by hand.",
        RULE_III: "A card of the pack or of a talon is never played or paired: taking one is "
                  "refused; it enters the game only by refilling a vacancy of the Army or "
                  "Navy.",
        RULE_IV: "There are two talons, red and black; only cards from the pack reach them, "
                 "each on the talon of its colour, and moving any other card there is refused.",
        RULE_V: "Each foundation takes cards of its own suit only; another suit is refused.",
        _rule("withdraw"): "The deal sets out the eight black aces, eight black queens, eight "
                           "red kings and eight red knaves before the rest is shuffled.",
        THROWN_ASIDE: "The four queens of spades and three queens of clubs lie thrown aside, "
                      "out of play: nothing leaves or joins that pile.",
        FIGURE: "The Empress (a queen of clubs) and her guard of eight red knaves stand in the "
                "figure and never move; nothing may be placed on them.",
        FOUNDATIONS: "The eight black aces (Admirals) build up in suit to kings and the eight "
                     "red kings (Generals) down in suit to aces; red cards go only on Generals, "
                     "black only on Admirals, in sequence; cards on them never move again.",
        OMIT: "The Generals pass from queen to ten (no knave), the Admirals from knave to king "
              "(no queen): eleven cards on each, 176 in all (EM-10).",
        DEAL: "The deal fills the Army’s 24 places with red cards and the Navy’s 24 with black "
              "cards, row by row from the top left (EM-9).",
        _rule("deal-talon"): "Both bodies are dealt in one pass of the pack; a card whose body "
                             "is already complete goes to the talon of its colour, and the deal "
                             "stops when both bodies are complete.",
        PAIR_TIME: "Pairs ready after the deal may be played at once (the first is always a "
                   "black two with a red queen). By default (EM-12) cards may be paired at any "
                   "time; under the strict reading pairing is refused while a pair can be "
                   "played.",
        PAIRING: "One step lays any unpaired card of the Army on any unpaired card of the Navy, "
                 "or the reverse, whatever their ranks and suits (EM-2); pairing within one "
                 "body, or a card with itself, is refused.",
        PAIRED: "The two cards of a pair stay in one place until both go up together on their "
                "foundations; moving either elsewhere, or playing it with another card, is "
                "refused.",
        _rule("refill"): "The place a card leaves, paired or played, is refilled in the same "
                         "move by Rule II: an Army place with red, a Navy place with black "
                         "(EM-4).",
        PAIRED_ONCE: "Nothing may be laid on a pair, and a paired card cannot be paired again.",
        CHOOSE_TIME: "Pairing is the player’s move, never forced, so the player decides when "
                     "to make a vacancy: by default (EM-15) the pack is dealt a card at a "
                     "time, so a vacancy can wait until the card wanted lies on top of its "
                     "talon.",
        DEAL_OUT: "The deal action turns the next card of the pack to a vacancy of its colour, "
                  "else onto its colour’s talon, the player free to act between cards (EM-15; "
                  "under the other reading the whole remainder at once); by default it may be "
                  "used whenever the pack lasts, under EM-8’s strict reading only when no pair "
                  "can be played; it is refused once the pack is empty.",
        NO_REDEAL: "There is no re-deal: the action is refused.",
    }

    _cache: tuple[State, _Info] | None = None

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        rest = list(pack(4))

        def take(card: Card) -> Card:
            rest.remove(card)
            return card

        piles[EMPRESS] = (take(Card(QUEEN, Suit.CLUBS)),)
        for i, (s, *_r) in zip(GUARD, _GUARD):
            piles[i] = (take(Card(KNAVE, s)),)
        for f in GENERALS:
            piles[f] = (take(Card(KING, FOUNDATION_SUIT[f])),)
        for f in ADMIRALS:
            piles[f] = (take(Card(ACE, FOUNDATION_SUIT[f])),)
        piles[OUT] = tuple(take(Card(QUEEN, s))
                           for s in (Suit.SPADES,) * 4 + (Suit.CLUBS,) * 3)
        assert len(rest) == IN_PLAY
        # One pass through the shuffled pack fills both bodies row by row (EM-9); a card
        # whose body is full goes to its colour's talon (Rule IV).
        stock = shuffled(rest, deal)
        talons: dict[bool, list[Card]] = {True: [], False: []}
        free = {True: list(ARMY), False: list(NAVY)}
        while free[True] or free[False]:
            card = stock.pop()
            places = free[_red(card)]
            if places:
                piles[places.pop(0)] = (card,)
            else:
                talons[_red(card)].append(card)
        piles[STOCK] = tuple(stock)
        piles[TALON_RED] = tuple(talons[True])
        piles[TALON_BLACK] = tuple(talons[False])
        return State(tuple(piles))

    # ---- analysis ----------------------------------------------------------------------
    def _info(self, state: State) -> _Info:
        cached = self._cache
        if cached is not None and cached[0] is state:
            return cached[1]
        piles = state.piles
        wants: dict[Card, list[int]] = {}
        for f in FOUNDATION_PILES:
            p = piles[f]
            r = next_rank(f, p[-1] if p else None)
            if r is not None:
                wants.setdefault(Card(r, FOUNDATION_SUIT[f]), []).append(f)
        red_plays: list[tuple[str, tuple[int, ...]]] = []
        black_plays: list[tuple[str, tuple[int, ...]]] = []
        pair_plays: list[tuple[str, tuple[int, ...], str, tuple[int, ...]]] = []
        red_singles: list[int] = []
        black_singles: list[int] = []
        for i in PLACES:
            p = piles[i]
            if len(p) == 1:
                card = p[0]
                red = _red(card)
                (red_singles if red else black_singles).append(i)
                fs = wants.get(card)
                if fs:
                    fits = tuple(f for f in fs if (f in GENERALS) == red)
                    if fits:
                        (red_plays if red else black_plays).append((PILES[i].id, fits))
            elif len(p) == 2 and _red(p[0]) != _red(p[1]):
                kr = 0 if _red(p[0]) else 1
                red_fs = tuple(f for f in wants.get(p[kr], ()) if f in GENERALS)
                black_fs = tuple(f for f in wants.get(p[1 - kr], ()) if f in ADMIRALS)
                if red_fs and black_fs:
                    pid = PILES[i].id
                    pair_plays.append((pid if kr == 1 else f"{pid}:0", red_fs,
                                       pid if kr == 0 else f"{pid}:0", black_fs))
        info = _Info(tuple(red_plays), tuple(black_plays), tuple(pair_plays),
                     tuple(red_singles), tuple(black_singles))
        self._cache = (state, info)
        return info

    def pairs_playable(self, state: State) -> bool:
        """Whether some pair can be played now (the test EM-8's and EM-12's strict readings
        make)."""
        info = self._info(state)
        if self.options.pair_play is PairPlay.STACKED:
            return bool(info.pair_plays)
        return info.any_play

    # ---- moves -------------------------------------------------------------------------
    def legal_in(self, state: State) -> list[Move]:
        """:meth:`candidate_moves` yields exactly the legal moves (the tests check each
        against :meth:`refusal`), so they are not checked again: a position offers up to
        1152 pairings."""
        return list(self.candidate_moves(state))

    def candidate_moves(self, state: State) -> Iterator[Move]:
        info = self._info(state)
        if self.options.pair_play is PairPlay.ANY:
            for rref, rfs in info.red_plays:
                for bref, bfs in info.black_plays:
                    for g in rfs:
                        gid = PILES[g].id
                        for a in bfs:
                            yield Move(steps=((rref, gid), (bref, PILES[a].id)))
        for rref, rfs, bref, bfs in info.pair_plays:
            for g in rfs:
                gid = PILES[g].id
                for a in bfs:
                    yield Move(steps=((rref, gid), (bref, PILES[a].id)))
        if (self.options.pairing_time is PairingTime.ANY_TIME
                or not self.pairs_playable(state)):
            navies = [j for j in info.black_singles if j in NAVY]
            for i in info.red_singles:
                if i in ARMY:
                    row = _PAIRINGS[i]
                    for j in navies:
                        yield from row[j]
        if state.piles[STOCK] and (self.options.deal_out_time is DealOutTime.CHOICE
                                   or not self.pairs_playable(state)):
            yield Move(action="deal")

    def _resolve(self, state: State, ref: str) -> tuple[int, int] | IllegalMove:
        """(pile, index) of the card a step reference names, or the refusal."""
        name, _, k = ref.partition(":")
        i = self._index.get(name)
        if i is None:
            return IllegalMove(BOARD, f"There is no pile called {name!r}.")
        p = state.piles[i]
        j = int(k) if k else len(p) - 1
        if not 0 <= j < len(p):
            return IllegalMove(BOARD, f"There is no card there ({PILES[i].label}).")
        return i, j

    def _refuse_source(self, i: int) -> IllegalMove | None:
        """The refusal for taking a card from pile ``i`` other than an Army or Navy place."""
        if i in PLACES:
            return None
        if i in (STOCK, TALON_RED, TALON_BLACK):
            return IllegalMove(RULE_III, "A card from the pack or the talon is never played "
                               "or paired straight away: it comes into the Army or Navy "
                               "only to refill a vacancy (Rule III).")
        if i == OUT:
            return IllegalMove(THROWN_ASIDE, "The queens thrown aside take no part in the "
                               "game.")
        if i in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards on the Generals and Admirals stay there.")
        return IllegalMove(FIGURE, "The Empress and her guard remain alone: they never "
                           "move.")

    def refusal(self, state: State, move: Move) -> IllegalMove | None:
        if move.action:
            return self.refuse_action(state, move.action)
        if len(move.steps) > 2:
            return IllegalMove(RULE_I, "A move plays two cards at most: one red and one "
                               "black (Rule I).")
        for _, dst in move.steps:
            if ":" in dst:
                return IllegalMove(BOARD, "A card is always placed on top of a pile.")
            if dst not in self._index:
                return IllegalMove(BOARD, f"There is no pile called {dst!r}.")
        cards: list[tuple[int, int]] = []
        for src, _ in move.steps:
            r = self._resolve(state, src)
            if isinstance(r, IllegalMove):
                return r
            cards.append(r)
        if len(move.steps) == 2:
            return self._refuse_pair_play(state, move, cards)
        (si, sk), = cards
        di = self._index[move.steps[0][1]]
        if si in (STOCK, TALON_RED, TALON_BLACK) and di in PLACES and not state.piles[di]:
            return IllegalMove(RULE_II, "Vacancies are refilled by the rules themselves, "
                               "at once, from the talon of their colour (Rule II).")
        why = self._refuse_source(si)
        if why:
            return why
        if di in FOUNDATION_PILES:
            return IllegalMove(RULE_I, "A card cannot go to a foundation alone: choose a "
                               "card of the other colour to go up at the same time (Rule I).")
        if di in PLACES:
            return self._refuse_pairing(state, si, sk, di)
        if di in (TALON_RED, TALON_BLACK):
            return IllegalMove(RULE_IV, "The talons are made from the pack alone, of the "
                               "cards not wanted in the Army or Navy (Rule IV).")
        if di == STOCK:
            return IllegalMove(BOARD, "Nothing goes back into the pack.")
        if di == OUT:
            return IllegalMove(THROWN_ASIDE, "Only the seven queens are thrown aside.")
        return IllegalMove(FIGURE, "The Empress and her guard remain alone.")

    def _refuse_pairing(self, state: State, si: int, sk: int, di: int) -> IllegalMove | None:
        src, dst = state.piles[si], state.piles[di]
        if si == di:
            return IllegalMove(PAIRING, "A card is paired with a card of the other body, "
                               "not with itself.")
        if len(src) > 1:
            return IllegalMove(PAIRED, "Paired cards cannot afterwards be separated: they "
                               "leave only together, played to their foundations.")
        if not dst:
            return IllegalMove(RULE_II, "That place is vacant; a card is paired by laying "
                               "it on a card, and vacancies are refilled by the rules "
                               "alone (Rule II).")
        if len(dst) > 1:
            return IllegalMove(PAIRED_ONCE, "Each card can only be paired once: that place "
                               "already holds a pair.")
        if (si in ARMY) == (di in ARMY):
            body = "Army" if si in ARMY else "Navy"
            return IllegalMove(PAIRING, f"A card of the {body} is paired with a card of the "
                               f"other body: Army on Navy, or Navy on Army.")
        if _red(src[sk]) == _red(dst[0]):
            return IllegalMove(PAIRING, "A pair is one red and one black card.")
        if self.options.pairing_time is PairingTime.NO_PAIR and self.pairs_playable(state):
            return IllegalMove(PAIR_TIME, "Under the reading chosen, cards are paired only "
                               "when no pair can be played, and a pair can be played now.")
        return None

    def _refuse_pair_play(self, state: State, move: Move,
                          cards: list[tuple[int, int]]) -> IllegalMove | None:
        for si, _ in cards:
            why = self._refuse_source(si)
            if why:
                return why
        for _, dst in move.steps:
            if self._index[dst] not in FOUNDATION_PILES:
                return IllegalMove(RULE_I, "A move of two cards plays them both to "
                                   "foundations, a red and a black (Rule I).")
        (i1, k1), (i2, k2) = cards
        if (i1, k1) == (i2, k2):
            return IllegalMove(BOARD, "That names the same card twice.")
        piles = state.piles
        c1, c2 = piles[i1][k1], piles[i2][k2]
        if _red(c1) == _red(c2):
            colour = "red" if _red(c1) else "black"
            return IllegalMove(RULE_I, f"Both cards are {colour}: a pair is one black and "
                               "one red card (Rule I).")
        paired1, paired2 = len(piles[i1]) == 2, len(piles[i2]) == 2
        if paired1 or paired2:
            if i1 != i2:
                return IllegalMove(PAIRED, "A paired card is played only at the same time as "
                                   "its own partner, on their respective foundations.")
        elif self.options.pair_play is PairPlay.STACKED:
            return IllegalMove(RULE_I, "Under the reading chosen, only two cards paired "
                               "beforehand are played together: pair them first.")
        for (si, sk), (_, dst) in zip(cards, move.steps):
            why = self._refuse_foundation(state, self._index[dst], piles[si][sk])
            if why:
                return why
        return None

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        suit = FOUNDATION_SUIT[f]
        general = f in GENERALS
        if _red(card) != general:
            return IllegalMove(FOUNDATIONS, f"The {card.name} is {'red' if _red(card) else 'black'}"
                               f": red cards go on the Generals (the red kings), black cards "
                               f"on the Admirals (the black aces).")
        if card.suit is not suit:
            return IllegalMove(RULE_V, f"The {PILES[f].label} takes only {suit.noun} "
                               "(Rule V).")
        p = state.piles[f]
        top = p[-1] if p else None
        need = next_rank(f, top)
        if need == card.rank:
            return None
        if need is None:
            return IllegalMove(FOUNDATIONS, f"The {PILES[f].label} is complete.")
        rule = OMIT if top is not None and top.rank in (QUEEN, KNAVE) else FOUNDATIONS
        return IllegalMove(rule, f"The {PILES[f].label} needs the {Card(need, suit).name} "
                           "next.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "deal":
            if not state.piles[STOCK]:
                return IllegalMove(DEAL_OUT, "The pack has been dealt out: nothing is left "
                                   "to deal.")
            if self.options.deal_out_time is DealOutTime.STUCK and self.pairs_playable(state):
                return IllegalMove(DEAL_OUT, "Under the reading chosen, the pack is dealt out "
                                   "when all available cards have been played, and a pair "
                                   "can still be played.")
            return None
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        return IllegalMove(BOARD, f"The Empress of India has no action {action!r}.")

    # ---- playing -----------------------------------------------------------------------
    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        if move.action == "deal":
            if self.options.deal_out is DealOut.CARD:
                card = piles[STOCK][-1]
                piles[STOCK] = piles[STOCK][:-1]
                self._lay(piles, card)
                self._settle(piles)
            else:
                self._deal_out(piles)
            return State(tuple(piles), state.vars)
        refs = []
        for src, dst in move.steps:
            r = self._resolve(state, src)
            assert not isinstance(r, IllegalMove)
            refs.append((r, self._index[dst]))
        # Take the cards out first (highest index first, so a pair's indices stay valid).
        taken: dict[tuple[int, int], Card] = {}
        for (si, sk), _ in sorted(refs, key=lambda t: -t[0][1]):
            p = piles[si]
            taken[(si, sk)] = p[sk]
            piles[si] = p[:sk] + p[sk + 1:]
        for ref, di in refs:
            piles[di] = piles[di] + (taken[ref],)
        self._settle(piles)
        return State(tuple(piles), state.vars)

    def _settle(self, piles: list[tuple[Card, ...]]) -> None:
        """Refill every vacancy at once with its own colour (Rule II): from the top of its
        talon, or, the talon empty, from the pack (EM-5). While the pack is being dealt out
        card by card (EM-15) the same holds: a talon's top is the last card of its colour
        dealt, and a vacancy whose talon is empty goes on turning the pack."""
        # First every vacancy whose talon can serve it, so that no card turned from the
        # pack takes a place its own talon should fill ...
        for v in PLACES:
            if piles[v]:
                continue
            t = TALON_RED if v in ARMY else TALON_BLACK
            if piles[t]:
                piles[v] = (piles[t][-1],)
                piles[t] = piles[t][:-1]
        if self.options.pack_refill is not PackRefill.TURN:
            return
        # ... then the pack, turned for each vacancy left until a card of its colour comes.
        for v in PLACES:
            if piles[v]:
                continue
            red = v in ARMY
            while piles[STOCK]:
                card = piles[STOCK][-1]
                piles[STOCK] = piles[STOCK][:-1]
                if _red(card) == red:
                    piles[v] = (card,)
                    break
                self._lay(piles, card)

    @staticmethod
    def _destination(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]],
                     card: Card) -> int:
        """Where a card turned from the pack goes: the first vacancy of its colour, else its
        talon (it is never played or paired at once: Rule III)."""
        red = _red(card)
        for w in ARMY if red else NAVY:
            if not piles[w]:
                return w
        return TALON_RED if red else TALON_BLACK

    @classmethod
    def _lay(cls, piles: list[tuple[Card, ...]], card: Card) -> None:
        """Lay a card turned from the pack where it goes (:meth:`_destination`)."""
        w = cls._destination(piles, card)
        piles[w] = piles[w] + (card,)

    def _deal_out(self, piles: list[tuple[Card, ...]]) -> None:
        """Deal out the rest of the pack: each card fills a vacancy of its colour, the rest
        go to the two talons (Rule IV)."""
        stock = piles[STOCK]
        piles[STOCK] = ()
        for card in reversed(stock):
            self._lay(piles, card)
        self._settle(piles)

    # ---- the end -----------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        piles = state.piles
        if sum(len(piles[f]) for f in FOUNDATION_PILES) == 16 * FOUNDATION_FULL:
            return Outcome.WON
        if self.pairs_playable(state) or piles[STOCK]:
            return None
        info = self._info(state)
        armies = any(i in ARMY for i in info.red_singles)
        navies = any(i in NAVY for i in info.black_singles)
        if armies and navies:
            # Pairing brings a fresh card from a talon into the vacated place...
            if piles[TALON_RED] or piles[TALON_BLACK]:
                return None
            # ... or, when only paired cards may be played, makes a pair that fits.
            if (self.options.pair_play is PairPlay.STACKED
                    and any(i in ARMY for i in self._fitting_singles(state, True))
                    and any(i in NAVY for i in self._fitting_singles(state, False))):
                return None
        return Outcome.LOST

    def _fitting_singles(self, state: State, red: bool) -> list[int]:
        info = self._info(state)
        plays = info.red_plays if red else info.black_plays
        return [self._index[ref] for ref, _ in plays]

    # ---- board -------------------------------------------------------------------------
    # card_faces: the core's own (the pack face down; each talon a face-up packet of which
    # only the top is seen, EM-6; every other card face up, a pair's two cards included).

    def status_line(self, state: State, out: Outcome | None) -> str:
        piles = state.piles
        played = sum(len(piles[f]) for f in FOUNDATION_PILES) - 16
        if out is Outcome.WON:
            return f"Won: all {IN_PLAY} cards are on the Generals and Admirals."
        if out is Outcome.LOST:
            return (f"Nothing more can be done: the patience has failed, with {played} of "
                    f"{IN_PLAY} cards played.")
        pairs = sum(1 for i in PLACES if len(piles[i]) == 2)
        n = len(piles[STOCK])
        parts = [f"Pack: {plural(n, 'card')}",
                 f"red talon: {len(piles[TALON_RED])}",
                 f"black talon: {len(piles[TALON_BLACK])}",
                 f"pairs: {pairs}",
                 f"played: {played} of {IN_PLAY}"]
        vacant = sum(1 for i in PLACES if not piles[i])
        if vacant:
            parts.append(f"vacancies: {vacant}")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            stock = state.piles[STOCK]
            if self.options.deal_out is DealOut.CARD and stock:
                turned = stock[-1]
                where = self._destination(state.piles, turned)
                if where in (TALON_RED, TALON_BLACK):
                    return f"The {turned.name} is dealt onto {PILES[where].label}."
                return f"The {turned.name} is dealt into the vacancy ({PILES[where].label})."
            return (f"The rest of the pack ({plural(len(stock), 'card')}) is dealt out "
                    "to the vacancies and the two talons.")
        if len(move.steps) == 2:
            parts = []
            for src, dst in move.steps:
                card = self.card_at(state, src)
                what = card.name if card else "a card"
                parts.append(f"the {what} to the {self.label(dst)}")
            return ("Played together: " + " and ".join(parts) + ".")
        if len(move.steps) == 1:
            src, dst = move.steps[0]
            c1, c2 = self.card_at(state, src), self.card_at(state, dst)
            if c1 and c2 and self._index.get(src.partition(":")[0], -1) in PLACES:
                return (f"The {c1.name} ({self.label(src)}) is paired with the {c2.name} "
                        f"({self.label(dst)}).")
        return super().describe(state, move)
