"""The Great Thirteen: every rule, every refusal (with the rule id it cites), the book's own
examples, the deal, the re-deal of the ground packets, and the end of the game."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.cards import KING, Suit, pack
from engine.deal import shuffled
from engine.great_thirteen import (
    BALCONY_PILES,
    GROUND_PILES,
    NUMERALS,
    PILES,
    TheGreatThirteen,
    deal_round,
    first_value,
    next_value,
    reduce,
)
from tests.engine.exhaustive import win_reachable
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-great-thirteen"
R = f"{SLUG}-"
#: The plate's balcony: a seven, a three, a nine, an ace, a queen, a five, an eight, a two.
PLATE = "7D 3D 9C AD QS 5D 8C 2C".split()
#: The plate's numerals, one under each balcony card (suits are not drawn: any will do).
PLATE_NUMERALS = "AS 6S 5S 2S JS 10S 3S 4S".split()
#: Ground tops that suit none of the plate's empty numerals (which want 1 6 5 2 J 10 3 4).
DEAD = "7H 8H 9H QH 7C 8D 9D QD".split()
#: Ground tops that suit nothing once the plate's numerals are placed (whether or not the
#: three's six is there: they want 8 9-or-6 1 3 10 2 J 6).
DEAD2 = "7H QH 4H 5H 7C QC 4C 5C".split()


def game(balcony: list[str] | None = None, numerals: dict[int, str] | None = None,
         ground: dict[int, str] | None = None, redealt: int = 0, options: str = "",
         rest_to: str = "g7") -> TheGreatThirteen:
    """A position: the balcony (the plate's unless given), the numerals and ground packets
    given (bottom to top), every other card at the bottom of ``rest_to``. Loaded through
    ``engine.load_position`` with an explicit start, so that the position itself is checked."""
    given: dict[str, str] = {f"b{i}": c for i, c in enumerate(balcony or PLATE)}
    for i, text in (numerals or {}).items():
        given[f"n{i}"] = text
    for g, text in (ground or {}).items():
        given[f"g{g}"] = text
    made = make_game(SLUG, given, vars={"redealt": redealt}, options=options, rest_to=rest_to)
    g = engine.load_position(made.position())
    assert isinstance(g, TheGreatThirteen) and g.state == made.state
    return g


def dead_ground(base: list[str] = DEAD, **tops: str) -> dict[int, str]:
    """Ground packets whose tops suit nothing (``DEAD``: on the plate's balcony with no
    numerals; ``DEAD2``: with the plate's numerals), with the changes given."""
    out = {g: base[g] for g in range(8)}
    for key, text in tops.items():
        out[int(key[1:])] = text
    return out


def pile(g: TheGreatThirteen, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def column(b: int, suit: str, k: int) -> str:
    """The first ``k`` numerals under a balcony card of value ``b``, in one suit."""
    out, n = [], 2 * b
    for _ in range(k):
        v = reduce(n)
        out.append(f"{'A23456789'[v - 1] if v < 10 else {10: '10', 11: 'J', 12: 'Q', 13: 'K'}[v]}"
                   f"{suit}")
        n += b
    return " ".join(out)


# ---- the deal ---------------------------------------------------------------------------

@pytest.mark.rules("the-great-thirteen-ground", "the-great-thirteen-order",
                   "the-great-thirteen-balcony", "the-great-thirteen-kings")
def test_the_deal_makes_eight_ground_packets_and_the_balcony() -> None:
    for seed in range(40):
        g = engine.new_game(SLUG, seed=seed)
        assert isinstance(g, TheGreatThirteen)
        p = g.state.piles
        order = shuffled(list(pack(2)), seed)
        for i in range(8):
            # thirteen cards dealt together, packet No. 1 first, from the top of the packs
            dealt = [order.pop() for _ in range(13)]
            packet = list(p[GROUND_PILES[i]]) + list(p[BALCONY_PILES[i]])
            assert Counter(packet) == Counter(dealt)
            kings = 0
            while dealt[-1].rank == KING:        # the kings on the surface, slipped under
                dealt.insert(0, dealt.pop())
                kings += 1
            assert packet == dealt
            assert p[BALCONY_PILES[i]][0].rank != KING
            assert len(p[GROUND_PILES[i]]) == 12 and not p[NUMERALS[i]]
        assert g.var(g.state, "redealt") == 0
        assert Counter(g.state.all_cards()) == TheGreatThirteen.full_pack()


def _seed_with_king_under_balcony() -> int:
    for seed in range(500):
        g = engine.new_game(SLUG, seed=seed)
        if any(g.state.piles[GROUND_PILES[i]][-1].rank == KING for i in range(8)):
            return seed
    raise AssertionError("no such deal")


@pytest.mark.rules("the-great-thirteen-kings")
def test_a_king_uncovered_after_the_first_deal_stays_unless_gt1_other_reading() -> None:
    seed = _seed_with_king_under_balcony()
    g = engine.new_game(SLUG, seed=seed)
    h = engine.new_game(SLUG, seed=seed, options="slip_after_balcony:yes")
    assert [p[0] for p in g.state.piles[:8]] == [p[0] for p in h.state.piles[:8]]
    for i in GROUND_PILES:
        gp, hp = g.state.piles[i], h.state.piles[i]
        assert Counter(gp) == Counter(hp)
        assert hp[-1].rank != KING
        if gp[-1].rank == KING:
            assert hp != gp
    # A king met later in the game is never slipped under: it waits on its packet.
    k = game(ground=dead_ground(g3="KH"))
    assert pile(k, "g3")[-1] == Card.parse("KH")
    assert refusal_rule(k, "g3-n0") == R + "excess"


@pytest.mark.rules("the-great-thirteen-numeral-line", "the-great-thirteen-no-foundations")
def test_the_numerals_lie_between_the_balcony_and_the_ground() -> None:
    for i in range(8):
        b, n, gr = PILES[BALCONY_PILES[i]], PILES[NUMERALS[i]], PILES[GROUND_PILES[i]]
        assert b.x == n.x == gr.x == float(i)
        assert b.y < n.y < gr.y
    g = game(ground=dead_ground())
    # no foundations and no building among the ground packets
    assert refusal_rule(g, "g0-g1") == R + "numeral-line"
    assert refusal_rule(g, "g0-b0") == R + "numeral-line"
    assert refusal_rule(g, "b0-n0") == R + "balcony"
    assert refusal_rule(g, "b0-g0") == R + "balcony"


# ---- counting ---------------------------------------------------------------------------

@pytest.mark.rules("the-great-thirteen-values", "the-great-thirteen-excess")
def test_the_counting_and_every_packet_ending_with_its_king() -> None:
    assert [reduce(n) for n in (13, 14, 23, 24, 25)] == [13, 1, 10, 11, 12]
    for b in range(1, 13):
        bal = Card(b, Suit.SPADES)
        assert first_value(bal) == (2 * b if 2 * b <= 13 else 2 * b - 13)
        nums: tuple[Card, ...] = ()
        seen = {b}
        while (v := next_value(bal, nums)) is not None:
            nums += (Card(v, Suit.HEARTS),)
            seen.add(v)
        # twelve numerals, the last a king; with the balcony card, one card of every value
        assert len(nums) == 12 and nums[-1].rank == KING and seen == set(range(1, 14))


@pytest.mark.rules("the-great-thirteen-doubled", "the-great-thirteen-tableau-example")
def test_the_book_s_tableau_six_under_a_three_four_under_a_two() -> None:
    g = game(ground=dead_ground(g0="6H", g1="4C"))
    g.play("g0-n1")
    assert pile(g, "n1") == cards("6H")
    g.play("g1-n7")
    assert pile(g, "n7") == cards("4C")


@pytest.mark.rules("the-great-thirteen-doubled", "the-great-thirteen-no-foundations")
def test_a_vacancy_takes_only_the_doubled_value() -> None:
    g = game(ground=dead_ground(g0="3H", g1="AH", g2="2H"))
    # under a three a six is wanted, under a two a four: a three and an ace are refused
    assert refusal_rule(g, "g0-n1") == R + "doubled"
    assert refusal_rule(g, "g1-n7") == R + "doubled"
    # the ace (wanted under the seven) does not begin the numerals under the ace
    assert refusal_rule(g, "g1-n3") == R + "doubled"
    g.play("g2-n3")                             # twice one is two


@pytest.mark.rules("the-great-thirteen-excess", "the-great-thirteen-excess-examples")
def test_the_book_s_excess_ace_under_seven_knave_under_queen_three_under_eight() -> None:
    g = game(ground=dead_ground(g0="AH", g1="JD", g2="3C"))
    g.play("g0-n0")
    g.play("g1-n4")
    g.play("g2-n6")
    assert pile(g, "n0") == cards("AH")
    assert pile(g, "n4") == cards("JD")
    assert pile(g, "n6") == cards("3C")


@pytest.mark.rules("the-great-thirteen-excess")
def test_over_thirteen_the_doubled_value_itself_is_refused() -> None:
    g = game(ground=dead_ground(g0="KH", g1="2H", g2="10H"))
    assert refusal_rule(g, "g0-n0") == R + "excess"     # fourteen is not a king
    assert refusal_rule(g, "g1-n4") == R + "excess"     # under the queen: a knave
    assert refusal_rule(g, "g2-n2") == R + "excess"     # under the nine: a five


# ---- addition ---------------------------------------------------------------------------

@pytest.mark.rules("the-great-thirteen-addition", "the-great-thirteen-addition-examples")
def test_the_book_s_addition_eight_on_the_ace_ten_on_the_knave() -> None:
    nums = dict(enumerate(PLATE_NUMERALS))
    g = game(numerals=nums, ground=dead_ground(g0="7S 8C", g1="10D"))
    g.play("g0-n0")                             # one and seven make eight
    g.play("g1-n4")                             # eleven and twelve, ten in excess of thirteen
    assert pile(g, "n0") == cards("AS 8C")
    assert pile(g, "n4") == cards("JS 10D")


@pytest.mark.rules("the-great-thirteen-addition")
def test_an_addition_goes_only_under_its_own_balcony_card() -> None:
    nums = dict(enumerate(PLATE_NUMERALS))
    g = game(numerals=nums, ground=dead_ground(g0="8C", g1="5H"))
    assert refusal_rule(g, "g0-n1") == R + "addition"   # three and six make nine
    assert refusal_rule(g, "g1-n0") == R + "addition"
    assert refusal_rule(g, "n0-n1") == R + "addition"   # the numerals stay
    assert refusal_rule(g, "n0-g0") == R + "addition"
    assert Move.parse("g0-n0") in g.legal_moves()


@pytest.mark.rules("the-great-thirteen-values")
def test_a_king_ends_the_packet_of_numerals() -> None:
    full = column(2, "H", 12)                   # under a two: 4 6 8 10 Q A 3 5 7 9 J K
    assert full.split()[-1] == "KH"
    g = game(numerals={7: column(2, "H", 11)}, ground=dead_ground(g0="KD", g1="7D"))
    g.play("g0-n7")                             # eleven and two make thirteen: the king
    assert pile(g, "n7")[-1] == Card.parse("KD")
    assert refusal_rule(g, "g1-n7") == R + "values"


@pytest.mark.rules("the-great-thirteen-rule-1")
def test_only_the_uppermost_card_of_a_ground_packet_is_available() -> None:
    g = game(ground=dead_ground(g0="6H 9H"))
    assert refusal_rule(g, "g0:0-n1") == R + "rule-1"
    assert Move.parse("g0:0-n1") not in g.legal_moves()


# ---- vacancies --------------------------------------------------------------------------

@pytest.mark.rules("the-great-thirteen-vacancies")
def test_a_vacancy_remains_until_a_suitable_card_is_released() -> None:
    nums = {i: c for i, c in enumerate(PLATE_NUMERALS) if i != 1}
    g = game(numerals=nums, ground=dead_ground(DEAD2, g2="6C 7D"))
    assert not pile(g, "n1")
    assert not [m for m in g.legal_moves() if m.steps]
    g = game(numerals=nums, ground=dead_ground(DEAD2, g2="6C 8D"))
    g.play("g2-n0")                             # one and seven make eight
    g.play("g2-n1")                             # the six released fills the vacancy
    assert pile(g, "n1") == cards("6C")


@pytest.mark.rules("the-great-thirteen-rule-2")
@pytest.mark.parametrize("opts", ["", "vacancy_first:same"])
def test_a_card_suitable_for_both_must_fill_the_vacancy(opts: str) -> None:
    # Under the three a vacancy wants a six; on the four under the two, four and two make
    # six: a six suits both, and must fill the vacancy.
    nums = {i: c for i, c in enumerate(PLATE_NUMERALS) if i != 1}
    g = game(numerals=nums, ground=dead_ground(DEAD2, g4="6D"), options=opts)
    assert refusal_rule(g, "g4-n7") == R + "rule-2"
    g.play("g4-n1")
    assert pile(g, "n1") == cards("6D")


@pytest.mark.rules("the-great-thirteen-vacancies-first", "the-great-thirteen-addition-next")
def test_the_vacancies_first_default_and_the_other_reading() -> None:
    nums = {i: c for i, c in enumerate(PLATE_NUMERALS) if i != 1}
    ground = dead_ground(DEAD2, g0="8C", g3="6H")   # an addition on the ace; the three's six
    g = game(numerals=nums, ground=ground)
    assert refusal_rule(g, "g0-n0") == R + "vacancies-first"
    g.play("g3-n1")
    g.play("g0-n0")                             # the vacancy filled, addition goes on
    h = game(numerals=nums, ground=ground, options="vacancy_first:same")
    h.play("g0-n0")
    h.play("g3-n1")


@pytest.mark.rules("the-great-thirteen-choice")
def test_equally_suitable_cards_the_player_chooses_and_may_examine() -> None:
    g = game(ground=dead_ground(g0="9S 6H", g5="6S"))
    legal = g.legal_moves()
    assert Move.parse("g0-n1") in legal and Move.parse("g5-n1") in legal
    view = engine.view_of(g)
    faces = view["piles"][g.pile_index("g0")]["cards"]
    assert [c["c"] for c in faces] == ["9S", "6H"]
    assert faces[0].get("peek") is True and not faces[1].get("peek")
    assert all(c["c"] is not None for p in view["piles"] for c in p["cards"])


# ---- the re-deal ------------------------------------------------------------------------

@pytest.mark.rules("the-great-thirteen-redeal")
def test_the_re_deal_waits_until_further_progress_is_impossible() -> None:
    g = game(ground=dead_ground(g0="6H"))
    assert refusal_rule(g, "redeal") == R + "redeal"
    h = game(ground=dead_ground(g0="6H"), options="redeal_at_will:yes")
    assert Move(action="redeal") in h.legal_moves()
    s = game(ground=dead_ground())
    assert s.legal_moves() == [Move(action="redeal")]


@pytest.mark.rules("the-great-thirteen-redeal", "the-great-thirteen-deal-round",
                   "the-great-thirteen-wrap", "the-great-thirteen-rule-3")
def test_packet_no_1_is_turned_over_and_dealt_round_from_no_2() -> None:
    ten = "7C 8C 9C QC 7D 8D 9D QD 7S 8S"
    ground = dead_ground(g0=ten, g4="")        # No. 5 played off: a vacancy
    g = game(ground=ground)
    before = [pile(g, f"g{i}") for i in range(8)]
    g.play("redeal")
    held = cards(ten)
    # the packet turned face down: its lowest card comes first, on No. 2, then No. 3 ... 8,
    # then No. 1 again (its own place, now a vacancy) and on; No. 5's vacancy takes its card
    expect = [list(p) for p in before]
    expect[0] = []
    for n, card in enumerate(held):
        expect[(1 + n) % 8].append(card)
    assert [list(pile(g, f"g{i}")) for i in range(8)] == expect
    assert pile(g, "g4") == held[3:4]
    assert pile(g, "g0") == held[7:8]
    assert g.var(g.state, "redealt") == 1


@pytest.mark.rules("the-great-thirteen-played-off", "the-great-thirteen-next-packet")
def test_a_played_off_packet_is_passed_over_and_the_next_taken_up() -> None:
    ground = dead_ground(g0="", g1="9C 7H")
    g = game(ground=ground)
    g.play("redeal")                           # No. 1 played off: No. 2 is taken
    assert not pile(g, "g1") and g.var(g.state, "redealt") == 2
    assert pile(g, "g2")[-1] == Card.parse("9C") and pile(g, "g3")[-1] == Card.parse("7H")
    g.play("redeal")                           # then No. 3, with the card just dealt on it
    assert not pile(g, "g2") and g.var(g.state, "redealt") == 3


@pytest.mark.rules("the-great-thirteen-next-packet")
def test_between_the_deals_the_cards_produced_are_placed_first() -> None:
    ground = dead_ground(g0="6H 9S")           # the six lies under the nine
    g = game(ground=ground)
    g.play("redeal")
    # turned face down, the packet deals the six first, on No. 2, then the nine on No. 3
    assert pile(g, "g1")[-1] == Card.parse("6H")
    assert refusal_rule(g, "redeal") == R + "next-packet"
    g.play("g1-n1")
    while steps := [m for m in g.legal_moves() if m.steps]:   # six and three make nine ...
        assert refusal_rule(g, "redeal") == R + "next-packet"
        g.play(steps[0])
    g.play("redeal")
    assert g.var(g.state, "redealt") == 2


@pytest.mark.rules("the-great-thirteen-next-packet", "the-great-thirteen-failed")
def test_after_every_packet_is_re_dealt_the_game_has_failed() -> None:
    g = game(ground=dead_ground(), redealt=8)
    assert g.outcome() is Outcome.LOST
    assert refusal_rule(g, "redeal") == R + "next-packet"
    # the last packets played off: nothing left to re-deal, and nothing to place
    h = game(ground={**dead_ground(), 5: "", 6: "", 7: "7H 9H 9D"}, redealt=5, rest_to="g0")
    assert h.outcome() is None                 # No. 8 still to come
    h.play("redeal")
    assert h.outcome() is Outcome.LOST
    # a card still to place: not lost yet
    k = game(ground=dead_ground(g2="2H"), redealt=8)
    assert k.outcome() is None
    k.play("g2-n3")                            # then three wanted: none shows
    assert k.outcome() is Outcome.LOST
    assert engine.new_game(SLUG, seed=1).outcome() is None


@pytest.mark.rules("the-great-thirteen-failed", "the-great-thirteen-values")
def test_the_game_is_won_when_every_packet_of_numerals_ends_with_a_king() -> None:
    # Each column (a balcony card and its twelve numerals) holds one card of every value:
    # eight columns, each in one suit, two of each suit, are the two packs exactly.
    suits = "SSHHDDCC"
    values = [7, 3, 9, 1, 12, 5, 8, 2]
    nums = {i: column(values[i], suits[i], 12) for i in range(8)}
    nums[3] = column(1, suits[3], 11)          # under the ace, the king still to come
    balcony = [f"{'A' if v == 1 else 'Q' if v == 12 else v}{suits[i]}"
               for i, v in enumerate(values)]
    g = game(balcony=balcony, numerals=nums, rest_to="g2")
    assert [str(c) for c in pile(g, "g2")] == ["KH"]
    assert g.outcome() is None
    g.play("g2-n3")
    assert g.outcome() is Outcome.WON
    assert g.status_line(g.state, g.outcome()).startswith("Won")


# ---- positions --------------------------------------------------------------------------

@pytest.mark.rules("the-great-thirteen-balcony", "the-great-thirteen-addition")
def test_positions_are_checked() -> None:
    with pytest.raises(PositionError):
        game(balcony=["KD", *PLATE[1:]])
    with pytest.raises(PositionError):
        game(numerals={0: "2S"})
    with pytest.raises(PositionError):
        game(numerals={0: "AS 9S"})
    g = engine.new_game(SLUG, seed=9)
    for _ in range(30):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(moves[-1])
    again = engine.load_position(g.position())
    assert again.state == g.state and again.position() == g.position()


def test_deal_round_matches_a_plain_count() -> None:
    piles = [()] * len(PILES)
    packets = [cards("AS 2S 3S"), (), cards("4S"), (), (), (), (), cards("5S 6S")]
    for i, p in enumerate(packets):
        piles[GROUND_PILES[i]] = p
    work = list(piles)
    deal_round(work, 7)
    assert [work[GROUND_PILES[i]] for i in range(8)] == [
        cards("AS 2S 3S 5S"), cards("6S"), cards("4S"), (), (), (), (), ()]


@pytest.mark.rules("the-great-thirteen-deal-round", "the-great-thirteen-wrap",
                   "the-great-thirteen-rule-3")
def test_gt6_other_reading_deals_on_the_other_ground_packets_only() -> None:
    # “deal the cards on to the other ground packets”: under GT-6's other reading the place
    # of the packet in hand is passed over when the deal comes round again past No. 8.
    ten = "7C 8C 9C QC 7D 8D 9D QD 7S 8S"
    ground = dead_ground(g0=ten, g4="")        # No. 5 played off: still a vacancy dealt on
    g = game(ground=ground, options="redeal_own_place:no")
    before = [pile(g, f"g{i}") for i in range(8)]
    g.play("redeal")
    held = cards(ten)
    expect = [list(p) for p in before]
    expect[0] = []
    places = [1, 2, 3, 4, 5, 6, 7]             # No. 2 to No. 8, never No. 1 itself
    for n, card in enumerate(held):
        expect[places[n % 7]].append(card)
    assert [list(pile(g, f"g{i}")) for i in range(8)] == expect
    assert not pile(g, "g0") and pile(g, "g4") == held[3:4]
    assert g.var(g.state, "redealt") == 1


# ---- the solver's safe moves --------------------------------------------------------------

#: The balcony values of the won layout below, and each column's suit.
_WON_VALUES = [7, 3, 9, 1, 12, 5, 8, 2]
_WON_SUITS = "SSHHDDCC"


def _near_end(kept: dict[int, int], ground: dict[int, str], options: str = "") -> \
        TheGreatThirteen:
    """The won layout (each balcony card with its twelve numerals, one suit to a column), with
    only ``kept[i]`` numerals left under balcony card ``i`` (all twelve where not given); the
    cards taken off lie on the ground packets given, the rest at the bottom of No. 8."""
    rank = {1: "A", 11: "J", 12: "Q", 13: "K"}
    balcony = [f"{rank.get(v, v)}{_WON_SUITS[i]}" for i, v in enumerate(_WON_VALUES)]
    nums = {i: " ".join(column(v, _WON_SUITS[i], 12).split()[:kept.get(i, 12)])
            for i, v in enumerate(_WON_VALUES)}
    return game(balcony=balcony, numerals={i: t for i, t in nums.items() if t},
                ground=ground, options=options)


def test_solver_safe_a_card_with_no_rival_and_no_other_packet() -> None:
    # Under the seven the six is wanted, under the ace the queen: one six and one queen are
    # left on the ground, each for one packet (the two kings have two packets to choose).
    g = _near_end({0: 10, 3: 10}, {0: "KH 6S", 1: "KS QH"})
    assert set(g.legal_moves()) == {Move.parse("g0-n0"), Move.parse("g1-n3")}
    assert g.solver_safe(g.state, g.legal_moves()) == Move.parse("g0-n0")
    g.play("g0-n0")
    assert g.solver_safe(g.state, g.legal_moves()) == Move.parse("g1-n3")
    g.play("g1-n3")
    # two kings on the ground, two packets wanting a king: a choice, left to the search
    assert len(g.legal_moves()) == 4
    assert g.solver_safe(g.state, g.legal_moves()) is None


@pytest.mark.parametrize("opts,safe", [("", None), ("vacancy_first:same", "g0-n3")])
def test_solver_safe_not_when_the_card_beneath_fills_another_vacancy(opts: str,
                                                                      safe: str | None) -> None:
    # The ace's packet and the two's are vacant; the one two left (the ace's first numeral)
    # covers a four, which would begin the two's packet. Under GT-3's default the four's
    # release can hold back additions, so the two is left to the search.
    g = _near_end({3: 0, 7: 0}, {0: "4C 2H", 1: "KH"}, opts)
    assert g.legal_moves() == [Move.parse("g0-n3")]
    want = Move.parse(safe) if safe else None
    assert g.solver_safe(g.state, g.legal_moves()) == want


@pytest.mark.parametrize("opts", ["", "redeal_at_will:yes", "vacancy_first:same",
                                  "redeal_own_place:no"])
def test_solver_safe_never_loses_a_win(opts: str) -> None:
    """Random end positions (the won layout with the last numerals of some packets, or all
    of them, taken back and scattered on the ground): wherever a safe move is offered, the
    position and the one after the move are both winnable or both not, by an exhaustive
    search, and the safe moves are followed to the end."""
    import random
    rng = random.Random(22)
    checked, wins = 0, 0
    for _ in range(30):
        kept = {i: rng.choice([12, 12, 11, 10, 9, 0]) for i in range(8)}
        taken = [c for i, v in enumerate(_WON_VALUES)
                 for c in column(v, _WON_SUITS[i], 12).split()[kept[i]:]]
        rng.shuffle(taken)
        ground = {g: "" for g in range(8)}
        for c in taken:
            g = rng.randrange(8)
            ground[g] = f"{ground[g]} {c}".strip()
        redealt = rng.choice([0, 0, 3, 6, 7, 8])
        balcony = [f"{({1: 'A', 12: 'Q'}).get(v, v)}{_WON_SUITS[i]}"
                   for i, v in enumerate(_WON_VALUES)]
        nums = {i: " ".join(column(v, _WON_SUITS[i], 12).split()[:kept[i]])
                for i, v in enumerate(_WON_VALUES)}
        h = game(balcony=balcony, numerals={i: t for i, t in nums.items() if t},
                 ground=ground, redealt=redealt, options=opts)
        while (m := h.solver_safe(h.state, h.legal_moves())) is not None:
            before = win_reachable(h, 2000)
            after = h.copy()
            after.play(m)
            if before is not None:
                assert win_reachable(after, 2000) == before, h.position()
                checked += 1
                wins += before
            h = after
    assert checked >= 5 and wins >= 1, (checked, wins)
