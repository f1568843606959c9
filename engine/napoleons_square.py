"""Napoleon's Square (two packs), by the book: 1914 printing, text p. 49 (plate p. 48).

Piles: twelve packets of four cards dealt together, forming three sides of a square: four up
the left side (packet 1 at the foot), four across the top (from left to right), four down the
right side; the foot of the square is open. Inside it, eight places for the foundations, each
begun by any ace and built up in suit to the king (Rule III). Below the square, the pack and
the talon, the one packet into which the cards turned from the pack that are not used are
laid aside: the next card is not turned while the one just turned could be played or married
(under ``note-ns-7``'s other reading it may be laid aside all the same).

Only the uppermost card of a packet may be used (Rule I), though every card of the square is
in view. Marriages are made in descending line, one card at a time: a card goes on the top
card of another packet of its suit and one rank higher. A packet that has lost every card
leaves a space, which may be filled, when the player likes, by one card from the talon or the
pack (Rule II), never from the square. Right after the deal the board makes the check of the
Note: if both kings of a suit lie above smaller cards of their suit, the player chooses one of
them to slip to the bottom of its packet, and nothing else may be played until that is done
(or, under the other remedy, the square is taken up and dealt again). There is no re-deal.
The second way of playing the game, a square of twelve single cards, is an option. See the chapter page for the text each rule id points at, and its
editorial notes (``note-ns-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, RANK_NAMES, SUITS, Card, Suit, pack
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
    PositionError,
    Role,
    State,
    Step,
    option,
)
from .deal import shuffled
from .rules import (
    builds_up_from_ace,
    cards_wanted,
    deal_together,
    marries_down_in_suit,
    play_reachable,
    plural,
    turned_card_use,
    up_from_ace_refusal,
)

SLUG = "napoleons-square"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # only the uppermost cards; the whole square examined
RULE_II = _rule("rule-2")             # a space: one card from the talon or pack, when you like
RULE_III = _rule("rule-3")            # all the foundations must follow suit
DEAL = _rule("deal")                  # twelve packets of four dealt together, three sides
FOUNDATIONS = _rule("foundations")    # the eight aces, ascending in sequence to kings
ACES = _rule("aces")                  # aces on the surface, and suitable cards, played
MARRIAGES = _rule("marriages")        # marriages in a descending line, subject to Rule I
NOTE = _rule("note")                  # two kings of one suit blocking: re-deal or slip one
PLAY_OUT = _rule("play-out")          # the rest played out; cards not used go to a talon
NO_REDEAL = _rule("no-redeal")        # there is no re-deal
VARIANT = _rule("variant")            # a square of twelve single cards
BOARD = _rule("board")                # the board itself (notation errors, empty places)

PACKETS = 12
PACKET = 4            # cards dealt together to make a packet
FOUNDATION_CARDS = 104
SEARCH_LIMIT = 4000   # positions explored at most when judging whether a game is lost
REDEAL_ATTEMPTS = 1000


class TalonUse(Enum):
    """NS-6: what the top card of the talon may do."""

    ANY = "any"        # anything an available card may do: be played, married, fill a space
    SPACES = "spaces"  # once laid aside, only fill a space (the card just turned is used at once)


class TurnedCard(Enum):
    """NS-7: whether a card turned from the pack that could be used may be laid aside."""

    EMPLOY = "employ"  # only cards not suitable for the foundations or sequences go to the talon
    FREE = "free"      # any turned card may be left on the talon


class KingRemedy(Enum):
    """NS-8: the Note's remedy when both kings of a suit block smaller cards of their suit."""

    SLIP = "slip"      # the player slips one king underneath, to the bottom of its packet
    REDEAL = "redeal"  # the square is taken up and dealt again


class Square(Enum):
    """NS-10: which way of playing the game."""

    PACKETS = "packets"  # twelve packets of four cards dealt together
    SINGLE = "single"    # "This game may be also played as follows": twelve single cards


@dataclass(frozen=True, slots=True)
class NapoleonsSquareOptions:
    talon_use: TalonUse = option(
        TalonUse.ANY, note="note-ns-6", label="The top card of the talon",
        labels={TalonUse.ANY: "is available: it may be played, married or put in a space",
                TalonUse.SPACES: "may only fill a space (a card is played or married only "
                                 "as it is turned)"})
    turned_card: TurnedCard = option(
        TurnedCard.EMPLOY, note="note-ns-7", label="A card turned up that could be used",
        labels={TurnedCard.EMPLOY: "must be played or married before the next is turned",
                TurnedCard.FREE: "may be left in the talon all the same"})
    remedy: KingRemedy = option(
        KingRemedy.SLIP, note="note-ns-8",
        label="When two kings of one suit block smaller cards of their suit after the deal",
        labels={KingRemedy.SLIP: "the player slips one of them underneath its packet",
                KingRemedy.REDEAL: "the square is taken up and dealt again"})
    square: Square = option(
        Square.PACKETS, note="note-ns-10", label="The square is dealt",
        labels={Square.PACKETS: "as twelve packets of four cards (the game as first given)",
                Square.SINGLE: "as twelve single cards (the second way of playing it)"})


# ---------------------------------------------------------------------------- the layout

#: How far a packet may spread, before its cards close up: the side packets to the right (card
#: widths), the top packets downwards (card heights), clear of the foundations. Every packet
#: spreads rightwards or downwards, so that each covered card shows its index upright.
SIDE_SPREAD = 1.9
TOP_SPREAD = 1.1
_LEFT_X, _RIGHT_X = 0.2, 7.2
_FOUND_X = (3.1, 4.1, 5.1, 6.1)
_FOUND_Y = (2.25, 3.25)
_SIDE_Y = (1.2, 2.2, 3.2, 4.2)   # from the top down
_PACK_Y = 4.55


def _packet(j: int, x: float, y: float, fan: Fan, limit: float) -> PileSpec:
    return PileSpec(f"p{j}", f"packet {j + 1}", Role.TABLEAU, x, y, fan, fan_limit=limit)


# Packets 1-4 up the left side (packet 1 at the foot), 5-8 across the top from left to
# right, 9-12 down the right side: one path round the three sides of the square.
PILES: tuple[PileSpec, ...] = (
    tuple(_packet(j, _LEFT_X, _SIDE_Y[3 - j], Fan.RIGHT, SIDE_SPREAD) for j in range(4))
    + tuple(_packet(4 + j, _FOUND_X[j], 0.0, Fan.DOWN, TOP_SPREAD) for j in range(4))
    + tuple(_packet(8 + j, _RIGHT_X, _SIDE_Y[j], Fan.RIGHT, SIDE_SPREAD) for j in range(4))
    + tuple(PileSpec(f"f{k}", f"foundation {k + 1}", Role.FOUNDATION, _FOUND_X[k % 4],
                     _FOUND_Y[k // 4], mark="ace") for k in range(8))
    + (PileSpec("talon", "the talon", Role.TALON, 4.1, _PACK_Y),
       PileSpec("stock", "the pack", Role.STOCK, 5.1, _PACK_Y))
)

SQUARE = range(0, PACKETS)
FOUNDS = range(PACKETS, PACKETS + 8)
TALON_PILE = PACKETS + 8
STOCK = PACKETS + 9
V_FRESH, V_SLIPPED, V_REDEALT, V_CHOOSING = 0, 1, 2, 3
#: The Note's choice: slip the king of the suit concerned that was dealt first (the lower
#: packet, or lower in the same packet), or the one dealt second.
SLIPS = ("slip_first", "slip_second")


def _narrow_layout() -> Layout:
    """For a phone: the same square, closer: the foundations in four rows of two between
    the sides, each side packet level with a row of foundations, the pack and the talon in
    the open foot."""
    left, right = 0.0, 4.95
    fx = (2.85, 3.85)
    rows = (2.25, 3.25, 4.25, 5.25)
    at: dict[str, tuple[float, float, int]] = {}
    for j in range(4):
        at[f"p{j}"] = (left, rows[3 - j], 0)
        at[f"p{8 + j}"] = (right, rows[j], 0)
    for j in range(4):
        at[f"p{4 + j}"] = (1.85 + j, 0.0, 0)
    for k in range(8):
        at[f"f{k}"] = (fx[k % 2], rows[k // 2], 0)
    at["talon"] = (fx[0], 6.45, 0)
    at["stock"] = (fx[1], 6.45, 0)
    return Layout(name="narrow", max_width=560, grid=(7.65, 7.45), at=at)


# ---------------------------------------------------------------------------- the deal

def deal_square(stock: Sequence[Card], square: Square) -> tuple[list[tuple[Card, ...]],
                                                               tuple[Card, ...]]:
    """The twelve packets of the square, in the order of ``PILES``, dealt from the top of
    ``stock`` (its last card); and the pack left over. Each packet is four cards dealt
    together (the pack's top card at the bottom of the packet), or, in the second way of
    playing, one card."""
    rest = tuple(stock)
    packets: list[tuple[Card, ...]] = []
    for _ in SQUARE:
        packet, rest = deal_together(rest, PACKET if square is Square.PACKETS else 1)
        packets.append(packet)
    return packets, rest


def blocking_kings(packets: Sequence[Sequence[Card]], suit: Suit) -> list[tuple[int, int]]:
    """The kings of ``suit`` lying in the square above a smaller card of their suit, as
    (packet, index from the bottom). A king can leave its packet only for a foundation."""
    out = []
    for j, p in enumerate(packets):
        for k, c in enumerate(p):
            if c.rank == KING and c.suit is suit and any(
                    x.suit is suit and x.rank < KING for x in p[:k]):
                out.append((j, k))
    return out


def note_suits(packets: Sequence[Sequence[Card]]) -> list[Suit]:
    """The suits whose two kings both lie above smaller cards of their suit (the Note)."""
    return [s for s in SUITS if len(blocking_kings(packets, s)) == 2]


def buried_pair(packets: Sequence[Sequence[Card]]) -> tuple[int, Card] | None:
    """A king lying above both cards of a smaller rank of its suit: (its packet, the card
    it buries). No foundation of the suit can then pass that rank, and the king can leave
    only for a foundation that has reached its queen."""
    for j, p in enumerate(packets):
        for k, c in enumerate(p):
            if c.rank != KING:
                continue
            counts = Counter(x for x in p[:k] if x.suit is c.suit and x.rank < KING)
            for card, n in sorted(counts.items()):
                if n == 2:
                    return j, card
    return None


def slipped(packet: tuple[Card, ...], k: int) -> tuple[Card, ...]:
    """The packet with its card at index ``k`` slipped underneath, to the bottom."""
    return (packet[k],) + packet[:k] + packet[k + 1:]


def note_choices(packets: Sequence[Sequence[Card]]) -> list[tuple[int, int]]:
    """While the Note applies: the two kings the player chooses between, both of the first
    suit concerned (a second suit waits its turn), as (packet, index from the bottom) in the
    order they were dealt; empty when the Note does not apply."""
    suits = note_suits(packets)
    return blocking_kings(packets, suits[0]) if suits else []


def choice_order(packets: Sequence[tuple[Card, ...]]) -> list[int]:
    """The Note's two choices (indices into :data:`SLIPS`), the likelier first: first the
    king whose staying would leave a sure loss (a king over both cards of a smaller rank),
    else the one covering more cards, else the one dealt first. The solver tries both; the
    careful player takes the first."""
    keys = []
    for n, (j, k) in enumerate(note_choices(packets)):
        trial = list(packets)
        trial[j] = slipped(packets[j], k)
        keys.append((buried_pair(trial) is not None, -k, j, n))
    return [n for *_, n in sorted(keys)]


class NapoleonsSquare(Game):
    slug = SLUG
    title = "Napoleon’s Square"
    packs = 2
    Options = NapoleonsSquareOptions
    PILES = PILES
    VARS = ("fresh", "slipped", "redealt", "choosing")
    GRID = (9.9, _PACK_Y + 1.0)
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "Napoleon’s Square after the deal, in modern cards.",
               "The square of Napoleon’s Square just after the deal, drawn in modern cards "
               "and turned as the plate is read: twelve packets of four face-up cards forming "
               "three sides of a square, four across the top, each fanned downwards, and four "
               "down each side, each fanned to the right, so that every card of every packet "
               "shows its index and the top card of each lies lowest or rightmost; inside the "
               "square, eight empty places for "
               "the foundations in two rows of four. The foot of the square is open; the "
               "pack and the talon are not shown.",
               piles=tuple(p.id for p in PILES if p.id not in ("talon", "stock"))),
    )
    ACTIONS = (ActionSpec("deal", "Turn up a card", "t", PLAY_OUT),
               ActionSpec(SLIPS[0], "Slip the king dealt first", "1", NOTE, occasional=True),
               ActionSpec(SLIPS[1], "Slip the king dealt second", "2", NOTE, occasional=True))
    LEDGER = {
        RULE_I: "Only the top card of a packet may be played, married or moved; a card with "
                "another on it is refused until that card has gone. Every card of the "
                "square is shown, each packet fanned so that all its cards can be read.",
        RULE_II: "A packet that has lost every card leaves a space, which stays empty until "
                 "the player chooses to put one card there, the top card of the talon (the "
                 "card just turned lies there); a card of the square is refused.",
        RULE_III: "A foundation takes only cards of its ace’s suit; a card of another suit "
                  "is refused.",
        DEAL: "The deal lays twelve packets of four cards, each dealt together and face up, "
              "round three sides of the square (four up the left, four across the top, four "
              "down the right), and leaves eight empty places inside it; the other "
              "fifty-six cards form the pack.",
        FOUNDATIONS: "Any ace may be put on any empty foundation place, and each foundation "
                     "then takes the next card of its suit up to the king; a foundation card "
                     "never moves again.",
        ACES: "An ace on the surface of the square, and each suitable card after it, may be "
              "played whenever the player chooses; nothing is played automatically.",
        MARRIAGES: "The top card of a packet, or of the talon, may be married to the top "
                   "card of another packet of the same suit and one rank higher, one card at "
                   "a time; any other placing is refused.",
        NOTE: "Right after the deal the board checks whether both kings of a suit lie above "
              "smaller cards of their suit; if so the status line names the two, and the "
              "player chooses which to slip to the bottom of its packet (one choice for each "
              "suit concerned, in turn), every other move being refused until it is done; "
              "Undo takes a slip back. Under the other remedy the board takes up the square "
              "and deals it again until the check is passed. At any later time such a pair "
              "of kings makes the game lost.",
        PLAY_OUT: "“Turn up a card” turns the pack’s top card onto the talon, where it may at "
                  "once be played, married or put in a space, whenever the player likes, once "
                  "the card turned before has been played or married if it could be (NS-7; "
                  "under its other reading it may be laid aside all the same); the talon "
                  "shows only its top card, which stays available (under NS-6’s narrow "
                  "reading, only for a space once a later card is turned).",
        NO_REDEAL: "When the pack is exhausted there is no re-deal; the game is lost once no "
                   "series of moves can bring another card to a foundation.",
        VARIANT: "Under the second way of playing, the square is twelve single cards and the "
                 "pack ninety-two; everything else, spaces included, goes as in the first "
                 "way, and there is no check of the kings.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        stock = shuffled(pack(2), deal)
        packets, rest = deal_square(stock, options.square)
        redealt = choosing = 0
        if options.square is Square.PACKETS and note_suits(packets):
            if options.remedy is KingRemedy.SLIP:
                choosing = 1  # the player chooses the king to slip
            else:
                cards = [c for p in packets for c in p]
                while note_suits(packets) and redealt < REDEAL_ATTEMPTS:
                    redealt += 1
                    packets, _ = deal_square(shuffled(cards, deal, stream=redealt),
                                             Square.PACKETS)
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for j in SQUARE:
            piles[j] = packets[j]
        piles[STOCK] = rest
        return State(tuple(piles), (0, 0, redealt, choosing))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        for f in FOUNDS:
            pile = state.piles[f]
            for k, card in enumerate(pile):
                if card.rank != k + 1 or card.suit is not pile[0].suit:
                    raise PositionError(f"{PILES[f].label} is not built up in suit from "
                                        "its ace")
        fresh, mask, redealt, choosing = state.vars
        if fresh not in (0, 1):
            raise PositionError("the counter fresh is 0 or 1")
        if fresh and not state.piles[TALON_PILE]:
            raise PositionError("no card has just been turned: the talon is empty")
        if not 0 <= mask < 1 << PACKETS or any(
                mask >> j & 1 and not (state.piles[j] and state.piles[j][0].rank == KING)
                for j in SQUARE):
            raise PositionError("the counter slipped names a packet with no king underneath")
        if not 0 <= redealt <= REDEAL_ATTEMPTS:
            raise PositionError(f"the counter redealt runs from 0 to {REDEAL_ATTEMPTS}")
        if choosing not in (0, 1):
            raise PositionError("the counter choosing is 0 or 1")
        if choosing:
            if options.remedy is not KingRemedy.SLIP or options.square is not Square.PACKETS:
                raise PositionError("a king is chosen to be slipped only under the Note’s "
                                    "remedy of slipping, in the square of packets")
            if not note_suits(state.piles[:PACKETS]):
                raise PositionError("a king is to be chosen for slipping, but the Note does "
                                    "not apply: no two kings of one suit lie above smaller "
                                    "cards of their suit")
            if fresh or state.piles[TALON_PILE] or any(state.piles[f] for f in FOUNDS):
                raise PositionError("the king to slip is chosen right after the deal, before "
                                    "any card is played or turned")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def marries(target: Card, card: Card) -> bool:
        """Whether ``card`` may be married on ``target``: same suit, one rank lower."""
        return card.suit is target.suit and card.rank == target.rank - 1

    def talon_free(self, fresh: int) -> bool:
        """Whether the talon's top card may go to a foundation or be married."""
        return self.options.talon_use is TalonUse.ANY or bool(fresh)

    @staticmethod
    def choice_words(state: State) -> str:
        """The Note's pending choice in words: the suit and its two kings."""
        packets = state.piles[:PACKETS]
        (j1, k1), (j2, _) = note_choices(packets)
        noun = packets[j1][k1].suit.noun
        if j1 == j2:
            return (f"both kings of {noun} lie above smaller {noun}, and one must be slipped "
                    f"underneath its packet: the lower of the two in {PILES[j1].label}, "
                    f"dealt first, or the upper, dealt second")
        return (f"both kings of {noun} lie above smaller {noun}, and one must be slipped "
                f"underneath its packet: the king dealt first, in {PILES[j1].label}, or the "
                f"one dealt second, in {PILES[j2].label}")

    def note_refusal(self, state: State) -> IllegalMove:
        """Why any other move is refused while the Note's choice is pending."""
        return IllegalMove(NOTE, f"The Note: {self.choice_words(state)}. Choose the king to "
                           "slip before anything else is played.")

    @staticmethod
    def hopeless(state: State) -> str | None:
        """Why the kings in the square make the game lost, whatever is done (None if they
        do not): both kings of a suit above smaller cards of their suit, or one king above
        both cards of a smaller rank."""
        packets = state.piles[:PACKETS]
        suits = note_suits(packets)
        if suits:
            return (f"both kings of {suits[0].noun} lie above smaller {suits[0].noun}, so "
                    f"that one foundation of {suits[0].noun} can never be finished (the Note)")
        pair = buried_pair(packets)
        if pair:
            j, card = pair
            return (f"the king of {card.suit.noun} in {PILES[j].label} lies above both "
                    f"{_plural_rank(card.rank)} of {card.suit.noun}")
        return None

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        if state.vars[V_CHOOSING]:
            for n in choice_order(piles[:PACKETS]):
                yield Move(action=SLIPS[n])
            return
        for si in (*SQUARE, TALON_PILE):
            if not piles[si]:
                continue
            card = piles[si][-1]
            sid = PILES[si].id
            for f in FOUNDS:
                if builds_up_from_ace(piles[f], card):
                    yield Move.step(sid, PILES[f].id)
            for j in SQUARE:
                if j != si and (not piles[j] or self.marries(piles[j][-1], card)):
                    yield Move.step(sid, PILES[j].id)
        yield Move(action="deal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di = step.src, step.dst
        if state.vars[V_CHOOSING]:
            return self.note_refusal(state)
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si == STOCK:
            if di in SQUARE and not state.piles[di]:
                return IllegalMove(RULE_II, "A card from the pack is turned up first: as it "
                                   "lies on the talon, it may then fill the space.")
            return IllegalMove(PLAY_OUT, "The rest of the cards are played out by turning "
                               "them one by one: turn up the next card.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards on the foundations stay there.")
        if di == STOCK:
            return IllegalMove(BOARD, "Nothing goes back to the pack.")
        if di == TALON_PILE:
            return IllegalMove(PLAY_OUT, "Only cards turned from the pack that are not used "
                               "are placed in the talon.")
        if si == TALON_PILE and not step.top:
            return IllegalMove(PLAY_OUT, "The talon is one packet: only its top card may be "
                               "used.")
        if not step.top:
            return IllegalMove(RULE_I, "Only the uppermost card of a packet is available; "
                               "the cards underneath may be examined, but not used, until "
                               "it has gone.")
        card = step.card
        fresh = state.vars[V_FRESH]
        if di in FOUNDS:
            if si == TALON_PILE and not self.talon_free(fresh):
                return IllegalMove(PLAY_OUT, "Under this reading a card laid aside in the "
                                   "talon may only fill a space.")
            return up_from_ace_refusal(state.piles[di], card, PILES[di].label,
                                       begin_rule=FOUNDATIONS, suit_rule=RULE_III,
                                       sequence_rule=FOUNDATIONS)
        target = state.piles[di]
        if not target:  # a space in the square
            if si != TALON_PILE:
                return IllegalMove(RULE_II, "A space in the square is filled by one card "
                                   "from the talon or pack, not by a card of the square.")
            return None
        if si == TALON_PILE and not self.talon_free(fresh):
            return IllegalMove(PLAY_OUT, "Under this reading a card laid aside in the talon "
                               "may only fill a space.")
        if not self.marries(target[-1], card):
            lower = target[-1].rank - 1
            need = (f"the {RANK_NAMES[lower]} of {target[-1].suit.noun}" if lower >= ACE
                    else "nothing: an ace has no card below it")
            return IllegalMove(MARRIAGES, f"Marriages are made in a descending line and in "
                               f"suit: the {target[-1].name} takes {need}, not the "
                               f"{card.name}.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action in SLIPS:
            if state.vars[V_CHOOSING]:
                return None
            if self.options.square is Square.SINGLE:
                return IllegalMove(NOTE, "A square of single cards covers nothing: the Note "
                                   "does not arise, and no king is slipped.")
            if self.options.remedy is KingRemedy.REDEAL:
                return IllegalMove(NOTE, "Under this reading of the Note the square is taken "
                                   "up and dealt again: no king is slipped.")
            return IllegalMove(NOTE, "A king is slipped underneath only right after the "
                               "deal, when both kings of one suit lie above smaller cards of "
                               "their suit; that is not the case here.")
        if state.vars[V_CHOOSING]:
            return self.note_refusal(state)
        if action == "deal":
            if not state.piles[STOCK]:
                return IllegalMove(NO_REDEAL, "The pack is exhausted, and there is no "
                                   "re-deal.")
            if self.options.turned_card is TurnedCard.EMPLOY and state.vars[V_FRESH]:
                card = state.piles[TALON_PILE][-1]
                use = turned_card_use(card, [(PILES[f].label, state.piles[f]) for f in FOUNDS],
                                      [(PILES[j].label, state.piles[j]) for j in SQUARE],
                                      founds=builds_up_from_ace, fits=marries_down_in_suit,
                                      placed="married to")
                if use is not None:
                    return IllegalMove(PLAY_OUT, f"The {card.name} just turned up can be "
                                       f"{use}: only the cards not suitable for the "
                                       "foundations or for the sequences of the square are "
                                       "placed in the talon.")
            return None
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        return IllegalMove(BOARD, f"Napoleon’s Square has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        fresh = state.vars[V_FRESH]
        if move.action in SLIPS:
            j, k = note_choices(piles[:PACKETS])[SLIPS.index(move.action)]
            piles[j] = slipped(piles[j], k)
            return State(tuple(piles), (fresh, state.vars[V_SLIPPED] | 1 << j,
                                        state.vars[V_REDEALT],
                                        1 if note_suits(piles[:PACKETS]) else 0))
        if move.action == "deal":
            piles[TALON_PILE] = piles[TALON_PILE] + piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
            fresh = 1
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            piles[di] = piles[di] + piles[si][-1:]
            piles[si] = piles[si][:-1]
            if si == TALON_PILE:
                fresh = 0  # the card beneath was laid aside earlier
        # What the Note made happen is told until the first move of the play.
        return State(tuple(piles), (fresh, 0, 0, 0))

    # ---- the end ---------------------------------------------------------------------
    def end_reachable(self, state: State) -> bool | None:
        """With the pack exhausted: whether some series of moves brings a card to a
        foundation (None if the search gave up); the search is shared with
        Napoleon at St. Helena, in :func:`rules.play_reachable`."""
        return play_reachable(
            [state.piles[j] for j in SQUARE], state.piles[TALON_PILE],
            cards_wanted(state.piles[f] for f in FOUNDS),
            talon_free=self.options.talon_use is TalonUse.ANY,
            fresh=bool(state.vars[V_FRESH]),
            column_to_space=False,
            limit=SEARCH_LIMIT)

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDS) == FOUNDATION_CARDS:
            return Outcome.WON
        if state.vars[V_CHOOSING]:
            return None  # the king to slip is still to be chosen
        if self.hopeless(state):
            return Outcome.LOST
        if state.piles[STOCK]:
            return None  # a card can always be turned
        # Marriages can shuttle a card between the two copies of its target for ever; the
        # game is lost when no series of moves can bring a card to a foundation.
        verdict = self.remembered(state, self.end_reachable)
        return Outcome.LOST if verdict is False else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        if out is Outcome.WON:
            return "Won: all eight foundations have reached their kings."
        if out is Outcome.LOST:
            why = self.hopeless(state)
            if why:
                return f"The patience cannot succeed: {why}."
            return (f"Nothing more can reach the foundations: the patience has failed with "
                    f"{played} of 104 cards played.")
        parts = []
        _, mask, redealt, choosing = state.vars
        for j in SQUARE:
            if mask >> j & 1:
                parts.append(f"The Note: the {state.piles[j][0].name} has been slipped "
                             f"underneath {PILES[j].label}")
        if choosing:
            parts.append(f"The Note: {self.choice_words(state)}; choose which")
        if redealt:
            parts.append(f"The Note: the square has been taken up and dealt again "
                         f"({plural(redealt, 'time')})")
        stock = len(state.piles[STOCK])
        parts.append(f"Pack: {plural(stock, 'card')}" if stock else "The pack is exhausted")
        parts.append(f"talon: {plural(len(state.piles[TALON_PILE]), 'card')}")
        spaces = sum(1 for j in SQUARE if not state.piles[j])
        if spaces:
            parts.append(plural(spaces, "space"))
        parts.append(f"{played} of 104 on the foundations")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action in SLIPS:
            choices = note_choices(state.piles[:PACKETS])
            if len(choices) == 2:
                j, k = choices[SLIPS.index(move.action)]
                return (f"The {state.piles[j][k].name} is slipped underneath "
                        f"{PILES[j].label} (the Note).")
            return "A king is slipped underneath its packet (the Note)."
        if move.action == "deal":
            top = state.piles[STOCK][-1:] if state.piles[STOCK] else ()
            return (f"The {top[0].name} is turned up onto the talon." if top
                    else "A card is turned up.")
        (src, dst), = move.steps
        card = self.card_at(state, src)
        name = card.name if card else "a card"
        di = self.pile_index(dst)
        if di in FOUNDS:
            return f"The {name} is played from {self.label(src)} to {self.label(dst)}."
        if not state.piles[di]:
            return f"The {name} fills the space of {self.label(dst)}."
        return f"The {name} is married from {self.label(src)} to {self.label(dst)}."


def _plural_rank(rank: int) -> str:
    name = RANK_NAMES[rank]
    return "sixes" if name == "six" else f"{name}s"
