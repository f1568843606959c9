"""The Great Thirteen (two packs), by the book: 1914 printing, plate p. 114, text pp. 115-117.

Piles, as in the plate: the balcony, a line of eight cards at the top, taken from the tops of the
ground packets after the deal, which never move; beneath each balcony card its packet of
numerals, empty at first (a vacancy); at the foot the eight ground packets, dealt thirteen cards
at a time, left to right, face up, the kings on their surfaces slipped underneath in this first
deal only. There are no foundation cards and no pack.

Cards are counted by value, ace one to king thirteen, the suits not mattering; a count above
thirteen is replaced by its excess over thirteen. The first numeral under a balcony card is
worth double the balcony card (Rule I makes only the uppermost card of a ground packet
available); each later one is worth the numeral it covers added to the balcony card above it,
so the packet under a card of value ``b`` runs 2b, 3b, ... and ends with a king at 13b. A
vacancy in the numerals is filled before any card is added (GT-3's default reading of Rule II).
When no card can be placed, the ground packets are re-dealt, one at a time from No. 1: each is
taken up, turned face down and dealt one card to each place in turn, from the next on its right
round to No. 8 and on from No. 1, empty places included (Rule III; its own place by GT-6's
default), with a pause after each packet to place what the deal has released. After the last
packet the game is won if every packet of numerals ends with a king, and otherwise has failed.
See the chapter page for the text each rule id points at, and its editorial notes
(``note-gt-N``) for the readings behind the options.

Moves: ``g3-n5`` (the uppermost card of ground packet 4 to the numerals under the sixth balcony
card); ``redeal`` (take up the next ground packet and deal it round).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import KING, RANK_NAMES, Card, pack
from .core import (
    ActionSpec,
    Fan,
    Figure,
    Game,
    IllegalMove,
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
from .rules import plural

SLUG = "the-great-thirteen"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")                      # only the uppermost card of a ground packet
RULE_II = _rule("rule-2")                     # a card fit for a vacancy fills the vacancy
RULE_III = _rule("rule-3")                    # count the packets one to eight; deal on vacancies
NO_FOUNDATIONS = _rule("no-foundations")      # no foundation cards
GROUND = _rule("ground")                      # eight packets of thirteen dealt together
ORDER = _rule("order")                        # dealt from left to right
KINGS = _rule("kings")                        # kings on the surface slipped under, first deal only
BALCONY = _rule("balcony")                    # the uppermost card of each: the balcony
NUMERAL_LINE = _rule("numeral-line")          # room for the numerals between the two lines
VALUES = _rule("values")                      # knave 11, queen 12, king 13; packets end in kings
DOUBLED = _rule("doubled")                    # the first numeral: the doubled value
TABLEAU_EXAMPLE = _rule("tableau-example")    # 6 under a three, 4 under a two
EXCESS = _rule("excess")                      # above thirteen, the excess over thirteen
EXCESS_EXAMPLES = _rule("excess-examples")    # ace under a seven, knave under a queen, ...
VACANCIES = _rule("vacancies")                # vacant spaces remain, filled as the game goes
ADDITION_NEXT = _rule("addition-next")        # all suitable cards placed, then addition
ADDITION = _rule("addition")                  # numeral + balcony card, under that balcony card
ADDITION_EXAMPLES = _rule("addition-examples")  # an eight on the ace, a ten on the knave
VACANCIES_FIRST = _rule("vacancies-first")    # refilling the vacancies the first object
CHOICE = _rule("choice")                      # equally suitable cards: choose; examine beneath
REDEAL = _rule("redeal")                      # progress impossible: take up the first packet
PLAYED_OFF = _rule("played-off")              # an empty packet is passed over
DEAL_ROUND = _rule("deal-round")              # face down, dealt from the next on the right
WRAP = _rule("wrap")                          # after No. 8, on from No. 1
NEXT_PACKET = _rule("next-packet")            # each packet in turn, pausing between deals
FAILED = _rule("failed")                      # all re-dealt and not all kings: failed

PACKETS = 8
DEALT = 13                                    # cards to each ground packet
THIRTEEN = 13
PER_PACKET = 12                               # numerals in a finished packet: 2b .. 13b

BALCONY_PILES = range(0, PACKETS)
NUMERALS = range(PACKETS, 2 * PACKETS)
GROUND_PILES = range(2 * PACKETS, 3 * PACKETS)

#: How many places of the ground the re-deal has passed: 0 before it begins; after ground
#: packet No. k (1-based) has been taken up and dealt round, k.
VARS = ("redealt",)


class VacancyFirst(Enum):
    """GT-3: how far Rule II's preference for the vacancies reaches."""

    EVERY = "every"   # no card is added while any available card can fill a vacancy
    SAME = "same"     # only a card that can itself fill a vacancy must go there


@dataclass(frozen=True, slots=True)
class GreatThirteenOptions:
    slip_after_balcony: bool = option(
        False, note="note-gt-1", label="A king uncovered when the balcony is taken",
        labels={False: "stays on its ground packet: the first deal is over",
                True: "is slipped under its packet too, as part of the first deal"})
    vacancy_first: VacancyFirst = option(
        VacancyFirst.EVERY, note="note-gt-3", label="The vacancies in the numerals come first",
        labels={VacancyFirst.EVERY: "no card is added while any card can fill a vacancy",
                VacancyFirst.SAME: "only a card that can fill a vacancy must fill it"})
    redeal_own_place: bool = option(
        True, note="note-gt-6", label="A packet re-dealt, coming round again past No. 8",
        labels={True: "deals on its own emptied place too, as on every place one to eight",
                False: "deals on the other ground packets only, passing over its own"})
    redeal_at_will: bool = option(
        False, note="note-gt-5", label="The next ground packet is re-dealt",
        labels={False: "only when no card can be placed on the numerals",
                True: "whenever the player chooses"})


# ---------------------------------------------------------------------------- the layout
# As in the plate: the balcony in a line of eight at the top, the numerals in the line below
# it, the ground packets at the foot, each spread downwards so that the cards beneath the
# uppermost can be examined (GT-4).

_NY = 1.15                                    # the numerals' line
_GY = 2.35                                    # the ground packets' line
_FAN = 4.6                                    # how far a ground packet may spread


PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"b{i}", f"balcony card {i + 1}", Role.FIGURE, float(i), 0.0)
          for i in range(PACKETS))
    + tuple(PileSpec(f"n{i}", f"the numerals under balcony card {i + 1}", Role.FOUNDATION,
                     float(i), _NY, mark="×2")
            for i in range(PACKETS))
    + tuple(PileSpec(f"g{i}", f"ground packet No. {i + 1}", Role.TABLEAU, float(i), _GY,
                     Fan.DOWN, fan_limit=_FAN, mark=f"{i + 1}")
            for i in range(PACKETS))
)


# ---------------------------------------------------------------------------- the counting

def reduce(total: int) -> int:
    """A count as the book reckons it: above thirteen, the excess over thirteen (Rule of the
    balcony's doubled value and of addition); thirteen itself is a king."""
    while total > THIRTEEN:
        total -= THIRTEEN
    return total


def first_value(balcony: Card) -> int:
    """The value of the first numeral under ``balcony``: its doubled value, reduced."""
    return reduce(2 * balcony.rank)


def next_value(balcony: Card, numerals: tuple[Card, ...]) -> int | None:
    """The value the numerals under ``balcony`` want next; None once they end with a king."""
    if not numerals:
        return first_value(balcony)
    if numerals[-1].rank == KING:
        return None
    return reduce(numerals[-1].rank + balcony.rank)


def _a(rank: int) -> str:
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name


#: Counts in words, as the book reckons them (“one and seven make eight”, “eleven (knave)
#: and twelve (queen) make twenty-three”: an ace counts one, a knave eleven, a queen twelve);
#: the largest is twenty-four (twice a queen, or a queen on the numerals under a queen).
_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one twenty-two "
          "twenty-three twenty-four").split()


def _why(balcony: Card, numerals: tuple[Card, ...]) -> str:
    """The count behind the value a packet of numerals wants, in the book's words: “the double
    of seven being fourteen, which is one in excess of thirteen”, “one and seven make
    eight”."""
    b = balcony.rank
    if not numerals:
        total, how = 2 * b, f"twice {_WORDS[b]} is {_WORDS[2 * b]}"
    else:
        n = numerals[-1].rank
        total, how = n + b, f"{_WORDS[n]} and {_WORDS[b]} make {_WORDS[n + b]}"
    if total > THIRTEEN:
        how += f", {_WORDS[total - THIRTEEN]} in excess of thirteen"
    return how


def deal_round(piles: list[tuple[Card, ...]], p: int, own: bool = True) -> None:
    """Take up ground packet ``p`` (0-based), turn it face downward and deal it, face up, one
    card to each place from the next on its right, round from No. 8 to No. 1, every place
    counted, empty or not (Rule III); its own emptied place is included when ``own`` (GT-6's
    default reading), and passed over otherwise (“on to the other ground packets”). Turned
    over, the packet's lowest card comes first."""
    held = piles[GROUND_PILES[p]]
    piles[GROUND_PILES[p]] = ()
    places = [(p + 1 + k) % PACKETS for k in range(PACKETS if own else PACKETS - 1)]
    for n, card in enumerate(held):
        g = GROUND_PILES[places[n % len(places)]]
        piles[g] = piles[g] + (card,)


def _slip_kings(packet: list[Card]) -> None:
    """Kings on the surface slipped underneath, until a card other than a king shows."""
    while packet and packet[-1].rank == KING and any(c.rank != KING for c in packet):
        packet.insert(0, packet.pop())


class TheGreatThirteen(Game):
    slug = SLUG
    title = "The Great Thirteen"
    packs = 2
    Options = GreatThirteenOptions
    PILES = PILES
    VARS = VARS
    GRID = (float(PACKETS), _GY + _FAN + 1.0)
    FIGURES = (
        Figure("tableau", "The Great Thirteen after the deal, in modern cards.",
               "The tableau of the Great Thirteen just after the deal, drawn in modern cards: "
               "at the top the balcony, a line of eight cards; below it the line of numerals, "
               "eight empty places; at the foot the eight ground packets of twelve cards "
               "each, face up, each spread downwards so that every card shows.",
               piles=None),
    )
    DIAGRAM_DEAL = 3
    ACTIONS = (
        ActionSpec("redeal", "Re-deal the next ground packet", "d", NEXT_PACKET),
    )
    LEDGER = {
        RULE_I: "Only the uppermost card of a ground packet may be placed; a card beneath is "
                "refused until the cards over it are gone.",
        RULE_II: "A card that could fill a vacancy in the numerals is refused as an addition "
                 "under either reading of GT-3; it may fill any vacancy it suits.",
        RULE_III: "The re-deal counts the places one to eight and deals one card to each in "
                  "turn, on a packet or on a vacancy alike.",
        NO_FOUNDATIONS: "There are no foundation cards: the numerals are begun only by the "
                        "doubled value of their balcony card, and nothing else is built.",
        GROUND: "The deal makes eight ground packets of thirteen cards each, every packet "
                "dealt as one run of thirteen from the shuffled packs, face up.",
        ORDER: "The packets are dealt from left to right: the first thirteen cards make "
               "No. 1, the next No. 2, and so on.",
        KINGS: "After the deal each king on a packet’s surface is slipped underneath it, "
               "until another card shows; a king uncovered later stays (under GT-1’s other "
               "reading a king uncovered by taking the balcony is slipped under too).",
        BALCONY: "The uppermost card of each ground packet becomes its balcony card, which "
                 "never moves; a move from the balcony is refused.",
        NUMERAL_LINE: "Each balcony card has its place of numerals below it, between the "
                      "balcony and the ground packets; cards reach it only from the ground.",
        VALUES: "Cards count ace one to ten, knave eleven, queen twelve, king thirteen; a "
                "packet of numerals ending with a king is finished, and a card placed on it is "
                "refused.",
        DOUBLED: "An empty place of numerals takes only a card worth twice its balcony card "
                 "(when that is thirteen or less); any other card is refused.",
        TABLEAU_EXAMPLE: "A six is placed under a three and a four under a two, as in the "
                         "tableau.",
        EXCESS: "When the double exceeds thirteen, only a card worth the excess over "
                "thirteen begins the numerals; any other card, a king among them, is "
                "refused.",
        EXCESS_EXAMPLES: "An ace goes under a seven, a knave under a queen, a three under an "
                         "eight; other cards are refused there.",
        VACANCIES: "A place of numerals no card has begun stays vacant, and may be filled "
                   "whenever a suitable card comes up, in any stage of the game.",
        ADDITION_NEXT: "Under GT-3’s default reading no card is added to the numerals while "
                       "any available card can fill a vacancy; under the other, only the "
                       "card that could fill one is held back.",
        ADDITION: "A card placed on numerals must be worth the top numeral added to the "
                  "balcony card above it, less thirteen when the sum exceeds thirteen, and "
                  "goes only to the numerals under that balcony card; any other is refused.",
        ADDITION_EXAMPLES: "An eight goes on the ace under a seven and a ten on the knave "
                           "under a queen.",
        VACANCIES_FIRST: "Under GT-3’s default reading an addition is refused while any "
                         "available card can fill a vacancy, naming that card.",
        CHOICE: "When several cards suit, the player places whichever he chooses; every card "
                "of the ground packets is shown, the uppermost alone available.",
        REDEAL: "The re-deal begins with the first ground packet that holds cards; by "
                "default it is refused while any card can be placed on the numerals (GT-5), "
                "and under the other reading it may begin at any time.",
        PLAYED_OFF: "A ground packet that holds no cards when its turn comes is passed over, "
                    "and the next one that holds cards is taken up.",
        DEAL_ROUND: "The packet taken up is turned face downward, so its lowest card is dealt "
                    "first, face up, on the next place to its right, one card to a place.",
        WRAP: "After No. 8 the dealing goes on from No. 1 until the packet is exhausted, "
              "the emptied place of the packet itself included by default; under GT-6’s "
              "other reading (“the other ground packets”) that place is passed over.",
        NEXT_PACKET: "Each press of the re-deal takes up the next ground packet to the right "
                     "and deals it whole in one move, so no card is placed during a deal; "
                     "cards may be placed between the deals, and once every packet has been "
                     "re-dealt the action is refused.",
        FAILED: "The game is won when every packet of numerals ends with a king, and lost "
                "when every ground packet has been re-dealt and no card can be placed.",
    }

    # ---- the deal ----------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        cards = shuffled(list(pack(2)), deal)
        packets: list[list[Card]] = []
        for _i in range(PACKETS):
            packet = [cards.pop() for _k in range(DEALT)]     # thirteen dealt together
            _slip_kings(packet)                               # the first deal only
            packets.append(packet)
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for i, packet in enumerate(packets):
            piles[BALCONY_PILES[i]] = (packet.pop(),)
            if options.slip_after_balcony:
                _slip_kings(packet)
            piles[GROUND_PILES[i]] = tuple(packet)
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        for i in range(PACKETS):
            bal = p[BALCONY_PILES[i]]
            if len(bal) != 1:
                raise PositionError(f"{PILES[BALCONY_PILES[i]].label} must be one card")
            if bal[0].rank == KING:
                raise PositionError("the kings were slipped under before the balcony was "
                                    "taken: no balcony card is a king")
            nums = p[NUMERALS[i]]
            for k in range(len(nums)):
                want = next_value(bal[0], nums[:k])
                if want is None or nums[k].rank != want:
                    raise PositionError(f"{PILES[NUMERALS[i]].label} do not follow the "
                                        "count of their balcony card")
        if not 0 <= state.vars[0] <= PACKETS:
            raise PositionError("the re-deal passes at most eight places")
        return state

    # ---- helpers -----------------------------------------------------------------------
    def wanted(self, state: State, i: int) -> int | None:
        """The value the numerals under balcony card ``i`` want next (None: finished)."""
        return next_value(state.piles[BALCONY_PILES[i]][0], state.piles[NUMERALS[i]])

    def fills(self, state: State) -> Iterator[tuple[int, int]]:
        """Every vacancy an available card can fill now: (ground packet, numeral place)."""
        p = state.piles
        for i in range(PACKETS):
            if p[NUMERALS[i]]:
                continue
            want = first_value(p[BALCONY_PILES[i]][0])
            for g in range(PACKETS):
                top = p[GROUND_PILES[g]][-1:]
                if top and top[0].rank == want:
                    yield g, i

    def placements(self, state: State) -> list[Move]:
        return [m for m in self.candidate_moves(state)
                if m.steps and self.refusal(state, m) is None]

    def next_to_redeal(self, state: State) -> int | None:
        """The ground packet the re-deal takes up next (0-based), or None when none is left."""
        start = state.vars[0]
        return next((g for g in range(start, PACKETS) if state.piles[GROUND_PILES[g]]), None)

    def redeal_over(self, state: State) -> bool:
        return state.vars[0] > 0 and self.next_to_redeal(state) is None

    def placed(self, state: State) -> int:
        return sum(len(state.piles[n]) for n in NUMERALS)

    # ---- rules -------------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        for g in range(PACKETS):
            if p[GROUND_PILES[g]]:
                for i in range(PACKETS):
                    yield Move.step(f"g{g}", f"n{i}")
        yield Move(action="redeal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        p = state.piles
        si, di, card = step.src, step.dst, step.card
        if si in BALCONY_PILES:
            return IllegalMove(BALCONY, "The balcony cards stay in their line: they are "
                               "counted, never moved.")
        if si in NUMERALS:
            return IllegalMove(ADDITION, "Cards go from the ground packets to the numerals, "
                               "and a card placed on the numerals stays there.")
        if di not in NUMERALS:
            return IllegalMove(NUMERAL_LINE, "A card from the ground packets goes only to "
                               "the line of numerals, under the balcony card whose count it "
                               "makes; there are no foundations and no building on the "
                               "ground.")
        if not step.top:
            return IllegalMove(RULE_I, f"Only the uppermost card of each ground packet is "
                               f"available: the {card.name} lies beneath the "
                               f"{p[si][-1].name}.")
        i = di - NUMERALS.start
        bal = p[BALCONY_PILES[i]][0]
        nums = p[di]
        want = next_value(bal, nums)
        if want is None:
            return IllegalMove(VALUES, f"The numerals under the {bal.name} end with their "
                               "king: the packet is finished.")
        if card.rank != want:
            rule = (EXCESS if 2 * bal.rank > THIRTEEN else DOUBLED) if not nums else ADDITION
            where = "begins" if not nums else "goes next on"
            return IllegalMove(rule, f"{_a(want).capitalize()} {where} the numerals under the "
                               f"{bal.name} ({_why(bal, nums)}), not the {card.name}.")
        if nums:
            # Rule II and the play's "first object": the vacancies come first.
            mine = [(g, v) for g, v in self.fills(state) if GROUND_PILES[g] == si]
            if mine:
                v = mine[0][1]
                return IllegalMove(RULE_II, f"The {card.name} can fill the vacancy under the "
                                   f"{p[BALCONY_PILES[v]][0].name}: the preference must be "
                                   "given to filling the vacancy.")
            if self.options.vacancy_first is VacancyFirst.EVERY:
                other = next(self.fills(state), None)
                if other is not None:
                    g, v = other
                    return IllegalMove(VACANCIES_FIRST, f"The refilling of the vacancies must "
                                       f"be the first object (GT-3): the "
                                       f"{p[GROUND_PILES[g]][-1].name} of ground packet "
                                       f"No. {g + 1} can fill the vacancy under the "
                                       f"{p[BALCONY_PILES[v]][0].name}.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action != "redeal":
            return IllegalMove(self.board_rule(), f"The Great Thirteen has no action "
                               f"{action!r}.")
        if self.next_to_redeal(state) is None:
            if state.vars[0] == 0:
                return IllegalMove(REDEAL, "The ground packets are all played off: there is "
                                   "nothing to re-deal.")
            return IllegalMove(NEXT_PACKET, "Every ground packet has been re-dealt: the third "
                               "process is the last.")
        if not self.options.redeal_at_will:
            found = self.placements(state)
            if found:
                (src, dst), = found[0].steps
                card = self.card_at(state, src)
                assert card is not None
                rule = REDEAL if state.vars[0] == 0 else NEXT_PACKET
                when = ("The re-deal comes when further progress is impossible" if rule ==
                        REDEAL else "Between the deals, suitable cards are placed on the "
                        "numerals first")
                bal = state.piles[BALCONY_PILES[self._index[dst] - NUMERALS.start]][0]
                return IllegalMove(rule, f"{when} (GT-5): the {card.name} of "
                                   f"{self.label(src)} can go on the numerals under the "
                                   f"{bal.name}.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        if move.action == "redeal":
            g = self.next_to_redeal(state)
            assert g is not None
            deal_round(piles, g, self.options.redeal_own_place)
            return State(tuple(piles), (g + 1,))
        (src, dst), = move.steps
        si, di = self._index[src], self._index[dst]
        piles[di] = piles[di] + piles[si][-1:]
        piles[si] = piles[si][:-1]
        return State(tuple(piles), state.vars)

    # ---- the solver ------------------------------------------------------------------
    def solver_safe(self, state: State, legal: list[Move]) -> Move | None:
        """A card placed on the only packet of numerals that can ever take it, played first
        and alone. The move ``c``: ground packet ``g`` to the numerals ``n``, ``n`` wanting
        the value ``v`` of ``c``, is safe when

        1. no re-deal is legal now (under GT-5's default none is while a card can be placed;
           under the other reading this holds only once the re-deal is over), and
        2. ``c`` is the only card of value ``v`` left on the ground, or ``n`` is the only
           packet of numerals still to take a card of value ``v``, and
        3. under GT-3's default, the card beneath ``c`` fills no other vacancy.

        Why no win is lost. Each packet of numerals takes every value but its balcony
        card's once, at a fixed place in its count (GT-2), and a win places every card of
        the ground; so in a position that can be won the ground holds exactly as many cards
        of value ``v`` as there are packets still to take one. Under (2), then, either the
        position cannot be won (nothing is lost), or ``c`` is the one card of value ``v``
        and ``n`` the one packet to take it, and every winning line places ``c`` on ``n``.
        Such a line places it before its next re-deal: until then ``n`` wants ``v`` (no
        other card of value ``v`` exists), ``c`` stays uppermost on ``g`` (only a re-deal or
        its own placing moves it), so ``c`` to ``n`` stays legal except while a vacancy can
        be filled, and a re-deal is refused while any card can be placed (1). Now play
        ``c`` first: the placements the line made before it come from other packets to other
        numerals, so they end in the same position; each stays legal, since the only
        difference on the way is ``n`` wanting another value (no card of the line went
        there) and the card beneath ``c`` being uppermost on ``g``, and that card can make
        an addition refused only by filling a vacancy (Rule II looks at a card's own packet;
        GT-3's default at every uppermost card), which (3) excludes."""
        if any(m.action == "redeal" for m in legal):
            return None
        p = state.piles
        ground = [c.rank for g in GROUND_PILES for c in p[g]]
        for m in legal:
            (src, dst), = m.steps
            si, di = self._index[src], self._index[dst]
            v = p[si][-1].rank
            if ground.count(v) != 1 and sum(
                    1 for i in range(PACKETS)
                    if p[BALCONY_PILES[i]][0].rank != v
                    and all(c.rank != v for c in p[NUMERALS[i]])) != 1:
                continue
            if self.options.vacancy_first is VacancyFirst.EVERY and len(p[si]) > 1:
                beneath = p[si][-2].rank
                if any(not p[NUMERALS[i]] and NUMERALS[i] != di
                       and first_value(p[BALCONY_PILES[i]][0]) == beneath
                       for i in range(PACKETS)):
                    continue
            return m
        return None

    # ---- the end -----------------------------------------------------------------------
    def won(self, state: State) -> bool:
        return all(state.piles[n] and state.piles[n][-1].rank == KING for n in NUMERALS)

    def outcome_of(self, state: State) -> Outcome | None:
        if self.won(state):
            return Outcome.WON
        if self.redeal_over(state) and not self.placements(state):
            # GT-7: every ground packet has been re-dealt, the third process is the last,
            # and no card can be placed: the packets of numerals cannot all end with kings.
            return Outcome.LOST
        return None

    # ---- board -------------------------------------------------------------------------
    def card_faces(self, state: State, pile: int) -> list[dict[str, Any]]:
        """Every card is face up. The player may examine the cards beneath the uppermost of
        each ground packet (GT-4): they are shown, marked as not available."""
        cards = state.piles[pile]
        if pile in GROUND_PILES:
            return [{"c": str(c), "peek": True} for c in cards[:-1]] + \
                [{"c": str(c)} for c in cards[-1:]]
        return [{"c": str(c)} for c in cards]

    def status_line(self, state: State, out: Outcome | None) -> str:
        placed = self.placed(state)
        if out is Outcome.WON:
            return "Won: every packet of numerals ends with a king."
        if out is Outcome.LOST:
            return (f"Every ground packet has been re-dealt and no card can be placed: the "
                    f"game has failed with {placed} of 96 cards on the numerals.")
        vacant = sum(1 for n in NUMERALS if not state.piles[n])
        done = sum(1 for n in NUMERALS if state.piles[n] and state.piles[n][-1].rank == KING)
        g = self.next_to_redeal(state)
        if state.vars[0] == 0:
            stage = "first play: no packet re-dealt yet"
        elif g is None:
            stage = "every ground packet re-dealt"
        else:
            stage = f"re-deal: No. {g + 1} comes next"
        parts = [f"{placed} of 96 on the numerals",
                 f"{vacant} {'vacancy' if vacant == 1 else 'vacancies'}",
                 f"{done} of 8 ended with kings", stage]
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "redeal":
            g = self.next_to_redeal(state)
            if g is not None:
                return (f"Ground packet No. {g + 1} is taken up, turned face downward and dealt "
                        f"round, beginning on No. {(g + 1) % PACKETS + 1}.")
        if move.steps and self.refusal(state, move) is None:
            (src, dst), = move.steps
            card = self.card_at(state, src)
            assert card is not None
            i = self._index[dst] - NUMERALS.start
            bal = state.piles[BALCONY_PILES[i]][0]
            nums = state.piles[NUMERALS[i]]
            verb = "begins" if not nums else "goes on"
            return (f"The {card.name} of {self.label(src)} {verb} the numerals under the "
                    f"{bal.name} ({_why(bal, nums)}).")
        return super().describe(state, move)
