"""The Great Thirteen, probed sentence by sentence (1914 printing, pp. 115-117, plate p. 114).

Each test builds a small position from position text with ``engine.load_position`` and puts one
sentence of the chapter (or one editorial note) to the test: the move it allows is played, the
move it forbids is refused with that sentence's anchor and nothing changed, and the words the
board shows (the move's description, the refusal, the status line) say what the print says.
The end of the game is checked against an exhaustive search of small end positions."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, IllegalMove, Move, Outcome, PositionError
from engine.cards import KING, pack
from engine.deal import shuffled
from engine.great_thirteen import BALCONY_PILES, GROUND_PILES, NUMERALS, PILES, \
    TheGreatThirteen, reduce
from engine.solver import Budget, solve
from tests.engine.exhaustive import check_verdicts
# the plate's balcony and numerals (p. 114), and ground tops that suit none of them
from tests.engine.test_great_thirteen import DEAD, DEAD2, PLATE, PLATE_NUMERALS, R, SLUG

RANK = {1: "A", 11: "J", 12: "Q", 13: "K"}


def load(ground: dict[int, str], balcony: list[str] | None = None,
         numerals: dict[int, str] | None = None, redealt: int = 0, opts: str = "",
         rest: int = 7) -> TheGreatThirteen:
    """The position written out as position text (every pile, bottom to top) and loaded:
    the balcony (the plate's unless given), the numerals and ground packets given, every other
    card of the two packs at the bottom of ground packet ``rest``."""
    piles: dict[str, list[str]] = {p.id: [] for p in PILES}
    for i, c in enumerate(balcony or PLATE):
        piles[f"b{i}"] = [c]
    for i, text in (numerals or {}).items():
        piles[f"n{i}"] = text.split()
    for g, text in ground.items():
        piles[f"g{g}"] = text.split()
    used = Counter(Card.parse(c) for cs in piles.values() for c in cs)
    left = TheGreatThirteen.full_pack() - used
    assert not used - TheGreatThirteen.full_pack(), "a card given three times"
    piles[f"g{rest}"] = [str(c) for c in sorted(left.elements())] + piles[f"g{rest}"]
    start = "|".join(f"{p.id}:{'.'.join(piles[p.id])}" for p in PILES)
    text = (f"game={SLUG};deal=0;opts={opts};start={start};vars=redealt:{redealt};"
            "moves=;redo=")
    g = engine.load_position(text)
    assert isinstance(g, TheGreatThirteen)
    return g


def dead(base: list[str] = DEAD, **tops: str) -> dict[int, str]:
    out = {g: base[g] for g in range(8)}
    for key, text in tops.items():
        out[int(key[1:])] = text
    return out


def pile(g: TheGreatThirteen, pid: str) -> list[str]:
    return [str(c) for c in g.state.piles[g.pile_index(pid)]]


def tops(g: TheGreatThirteen) -> list[str | None]:
    return [(pile(g, f"g{i}") or [None])[-1] for i in range(8)]


def refused(g: TheGreatThirteen, move: str) -> IllegalMove:
    """The refusal of ``move``, checking that nothing changed and that it is not listed."""
    before = g.position()
    with pytest.raises(IllegalMove) as e:
        g.play(move)
    assert g.position() == before, "a refused move changed the game"
    assert Move.parse(move) not in g.legal_moves()
    return e.value


def steps(g: TheGreatThirteen) -> set[str]:
    return {str(m) for m in g.legal_moves() if m.steps}


def status(g: TheGreatThirteen) -> str:
    return g.status_line(g.state, g.outcome())


def column(b: int, suit: str, k: int) -> str:
    """The first ``k`` numerals under a balcony card of value ``b``, in one suit."""
    return " ".join(f"{RANK.get(reduce(n * b), reduce(n * b))}{suit}" for n in range(2, 2 + k))


# ---- Rules I-III ---------------------------------------------------------------------------

@pytest.mark.rules("the-great-thirteen-rule-1")
def test_rule_1_the_uppermost_card_alone_available_until_its_removal_releases_the_one_beneath(
) -> None:
    g = load(dead(g0="6H AH"))                  # a six (for the three) under an ace
    e = refused(g, "g0:0-n1")
    assert e.rule == R + "rule-1"
    assert e.message == ("Only the uppermost card of each ground packet is available: the six "
                         "of hearts lies beneath the ace of hearts.")
    assert steps(g) == {"g0-n0"}                # the ace, under the seven
    g.play("g0-n0")
    assert steps(g) == {"g0-n1"}                # its removal releases the six
    g.play("g0-n1")
    assert pile(g, "n1") == ["6H"] and pile(g, "g0") == []
    # the last card gone, the packet is played off: nothing there to move
    assert refused(g, "g0-n2").rule == R + "board"


@pytest.mark.rules("the-great-thirteen-rule-2")
@pytest.mark.parametrize("opts", ["", "vacancy_first:same"])
def test_rule_2_a_card_equally_suitable_for_a_vacancy_or_addition_fills_the_vacancy(
        opts: str) -> None:
    # the three's packet is vacant (wants a six); the two's holds a four: four and two, six
    nums = {i: c for i, c in enumerate(PLATE_NUMERALS) if i != 1}
    g = load(dead(DEAD2, g4="6D", g5="6S"), numerals=nums, opts=opts, redealt=3)
    e = refused(g, "g4-n7")
    assert e.rule == R + "rule-2"
    assert e.message == ("The six of diamonds can fill the vacancy under the three of "
                         "diamonds: the preference must be given to filling the vacancy.")
    g.play("g4-n1")
    g.play("g5-n7")                             # no vacancy left: the other six is added
    assert pile(g, "n1") == ["6D"] and pile(g, "n7") == ["4S", "6S"]


@pytest.mark.rules("the-great-thirteen-rule-3", "the-great-thirteen-next-packet")
def test_rule_3_counted_one_to_eight_the_packet_or_the_vacancy_treated_in_like_manner() -> None:
    # Nos. 1 and 2 re-dealt already; No. 4 and No. 6 played off (vacancies).
    ground = dead(g0="7S", g1="8S", g2="7C 8C 9C QC 7D 8D 9D", g3="", g4="QH", g5="",
                  g6="9H", g7="8H")
    g = load(ground, redealt=2)
    assert g.legal_moves() == [Move(action="redeal")]
    assert g.describe(g.state, Move(action="redeal")) == (
        "Ground packet No. 3 is taken up, turned face downward and dealt round, beginning on "
        "No. 4.")
    g.play("redeal")
    # turned face downward: its lowest card first, on No. 4, ... No. 8, then No. 1 and No. 2
    assert [pile(g, f"g{i}")[-1:] for i in range(8)] == [
        ["8D"], ["9D"], [], ["7C"], ["8C"], ["9C"], ["QC"], ["7D"]]
    assert pile(g, "g3") == ["7C"] and pile(g, "g5") == ["9C"]       # the vacancies too
    assert pile(g, "g4") == ["QH", "8C"] and pile(g, "g0") == ["7S", "8D"]
    assert g.var(g.state, "redealt") == 3
    assert status(g) == ("0 of 96 on the numerals · 8 vacancies · 0 of 8 ended with kings · "
                         "re-deal: No. 4 comes next")
    # the next packet is No. 4, the card just dealt on its vacancy, dealt on No. 5
    g.play("redeal")
    assert pile(g, "g3") == [] and pile(g, "g4") == ["QH", "8C", "7C"]


# ---- the play: the deal ---------------------------------------------------------------------

@pytest.mark.rules("the-great-thirteen-no-foundations", "the-great-thirteen-numeral-line")
def test_it_has_no_foundation_cards_and_a_ground_card_goes_only_to_the_numerals() -> None:
    g = load(dead(g0="KH", g1="AH", g2="6C"))
    # a king or an ace (foundation cards elsewhere) begins no packet but by its value
    for i in range(8):
        assert refused(g, f"g0-n{i}").rule in (R + "doubled", R + "excess")
    assert {m for m in steps(g) if m.startswith("g1")} == {"g1-n0"}   # twice seven, less 13
    for bad in ("g2-g3", "g2-b1", "g2-g2"):
        assert refused(g, bad).rule == R + "numeral-line"
    # the line of numerals lies between the balcony and the ground packets, card for card
    for i in range(8):
        assert PILES[BALCONY_PILES[i]].y < PILES[NUMERALS[i]].y < PILES[GROUND_PILES[i]].y
        assert PILES[BALCONY_PILES[i]].x == PILES[NUMERALS[i]].x == PILES[GROUND_PILES[i]].x


@pytest.mark.rules("the-great-thirteen-ground", "the-great-thirteen-order",
                   "the-great-thirteen-kings", "the-great-thirteen-balcony")
def test_eight_packets_of_thirteen_dealt_together_left_to_right_kings_under_then_balcony(
) -> None:
    slipped = 0
    for seed in range(60):
        g = engine.new_game(SLUG, seed=seed)
        p = g.state.piles
        order = shuffled(list(pack(2)), seed)
        for i in range(8):
            dealt = [order.pop() for _ in range(13)]          # No. 1 first, then No. 2 ...
            while dealt[-1].rank == KING:                     # on the surface: slipped under
                dealt.insert(0, dealt.pop())
                slipped += 1
            assert list(p[GROUND_PILES[i]]) + list(p[BALCONY_PILES[i]]) == dealt
            assert len(p[GROUND_PILES[i]]) == 12 and not p[NUMERALS[i]]
            assert p[BALCONY_PILES[i]][0].rank != KING        # the uppermost, taken above
    assert slipped >= 5


@pytest.mark.rules("the-great-thirteen-kings")
def test_kings_slipped_under_only_in_the_first_deal_a_king_uncovered_later_stays() -> None:
    g = load(dead(g0="KH AH", g1="KS 7S 9S", g2="7C 8C 9C KC", g5="QC"))
    g.play("g0-n0")                             # the ace under the seven uncovers a king
    assert pile(g, "g0") == ["KH"]
    for i in range(8):                          # there it stays, and suits no packet yet
        assert refused(g, f"g0-n{i}").rule in (R + "doubled", R + "excess", R + "addition")
    # in the re-deal a king dealt on a surface stays there too: no more slipping under
    assert g.legal_moves() == [Move(action="redeal")]
    g.play("redeal")                            # No. 1, the king alone, dealt on No. 2
    assert pile(g, "g0") == [] and pile(g, "g1") == ["KS", "7S", "9S", "KH"]
    g.play("redeal")                            # No. 2 turned over: its lowest, a king, first
    assert tops(g)[2:6] == ["KS", "7S", "9S", "KH"]
    assert pile(g, "g2") == ["7C", "8C", "9C", "KC", "KS"]


@pytest.mark.rules("the-great-thirteen-kings")
def test_gt1_a_king_uncovered_by_taking_the_balcony_stays_unless_the_other_reading() -> None:
    found = 0
    for seed in range(300):
        g = engine.new_game(SLUG, seed=seed)
        h = engine.new_game(SLUG, seed=seed, options="slip_after_balcony:yes")
        assert [p for p in g.state.piles[:8]] == [p for p in h.state.piles[:8]]
        for i in GROUND_PILES:
            gp, hp = g.state.piles[i], h.state.piles[i]
            assert Counter(gp) == Counter(hp) and hp[-1].rank != KING
            if gp[-1].rank == KING:
                found += 1
                n = next(k for k in range(12) if gp[-1 - k].rank != KING)
                assert hp == gp[12 - n:] + gp[:12 - n]     # the kings over it, slipped under
            else:
                assert hp == gp
        if found >= 3:
            break
    assert found >= 3


@pytest.mark.rules("the-great-thirteen-balcony")
def test_the_balcony_cards_are_counted_never_moved_and_never_a_king() -> None:
    g = load(dead(g0="6H"))
    for bad in ("b0-n0", "b1-g1", "b2-b3"):
        e = refused(g, bad)
        assert e.rule == R + "balcony"
        assert e.message == "The balcony cards stay in their line: they are counted, never moved."
    with pytest.raises(PositionError, match="no balcony card is a king"):
        load(dead(), balcony=["KD", *PLATE[1:]])


# ---- the counting -------------------------------------------------------------------------

@pytest.mark.rules("the-great-thirteen-values", "the-great-thirteen-doubled",
                   "the-great-thirteen-excess")
@pytest.mark.parametrize("b", range(1, 13))
def test_doubled_value_knave_eleven_queen_twelve_and_the_excess_over_thirteen(b: int) -> None:
    """Under a balcony card of every value, of the thirteen values only the doubled one (less
    thirteen when above) begins the numerals, and the others are refused with the sentence
    that applies: the doubling, or the excess over thirteen."""
    want = 2 * b if 2 * b <= 13 else 2 * b - 13
    balcony = [f"{RANK.get(b, b)}H", *DEAD[1:]]
    kings = ["", "KC", "KC", "KD", "KD", "KH", "KH", "KS"]   # no packet begins with a king
    for v in range(1, 14):
        card = f"{RANK.get(v, v)}S"
        g = load(dead(kings, g0=card), balcony=balcony)
        if v == want:
            assert "g0-n0" in steps(g)
            g.play("g0-n0")
            assert pile(g, "n0") == [card]
        else:
            e = refused(g, "g0-n0")
            assert e.rule == R + ("doubled" if 2 * b <= 13 else "excess")


@pytest.mark.rules("the-great-thirteen-doubled", "the-great-thirteen-tableau-example")
def test_the_numeral_6_is_placed_under_a_three_the_4_under_a_two() -> None:
    g = load(dead(g0="6H", g1="4C", g2="6D"))
    assert g.describe(g.state, Move.parse("g0-n1")) == (
        "The six of hearts of ground packet No. 1 begins the numerals under the three of "
        "diamonds (twice three is six).")
    e = refused(g, "g1-n1")
    assert e.rule == R + "doubled"
    assert e.message == ("A six begins the numerals under the three of diamonds (twice three "
                         "is six), not the four of clubs.")
    g.play("g0-n1")
    g.play("g1-n7")
    assert pile(g, "n1") == ["6H"] and pile(g, "n7") == ["4C"]
    # the other six is no longer wanted there: six and three make nine
    e = refused(g, "g2-n1")
    assert e.rule == R + "addition"
    assert e.message == ("A nine goes next on the numerals under the three of diamonds (six "
                         "and three make nine), not the six of diamonds.")


@pytest.mark.rules("the-great-thirteen-excess", "the-great-thirteen-excess-examples")
def test_an_ace_under_a_seven_a_knave_under_a_queen_a_three_under_an_eight_in_the_words() -> None:
    """The words the board shows reckon as the book does: “the double of seven being fourteen,
    which is one in excess of thirteen” (the old words, “twice seven is 14, 1 in excess of
    thirteen”, “twice ace is 2”, mixed figures and card names)."""
    g = load(dead(g0="AH", g1="JD", g2="3C", g3="2S", g4="KH"))
    said = {str(m): g.describe(g.state, m) for m in g.legal_moves() if m.steps}
    assert said == {
        "g0-n0": "The ace of hearts of ground packet No. 1 begins the numerals under the seven "
                 "of diamonds (twice seven is fourteen, one in excess of thirteen).",
        "g1-n4": "The knave of diamonds of ground packet No. 2 begins the numerals under the "
                 "queen of spades (twice twelve is twenty-four, eleven in excess of thirteen).",
        "g2-n6": "The three of clubs of ground packet No. 3 begins the numerals under the eight "
                 "of clubs (twice eight is sixteen, three in excess of thirteen).",
        "g3-n3": "The two of spades of ground packet No. 4 begins the numerals under the ace of "
                 "diamonds (twice one is two).",
    }
    e = refused(g, "g4-n0")                     # fourteen is not a king: the excess counts
    assert e.rule == R + "excess"
    assert e.message == ("An ace begins the numerals under the seven of diamonds (twice seven "
                         "is fourteen, one in excess of thirteen), not the king of hearts.")
    assert refused(g, "g1-n6").rule == R + "excess"       # under the eight, a three
    for m in ("g0-n0", "g1-n4", "g2-n6"):
        g.play(m)
    assert [pile(g, f"n{i}") for i in (0, 4, 6)] == [["AH"], ["JD"], ["3C"]]


@pytest.mark.rules("the-great-thirteen-vacancies")
def test_vacant_spaces_remain_and_are_filled_as_the_game_develops() -> None:
    # the three's packet vacant: no six shows, so it remains; additions go on meanwhile
    nums = {i: c for i, c in enumerate(PLATE_NUMERALS) if i != 1}
    g = load(dead(DEAD2, g0="6C 8D"), numerals=nums)
    assert steps(g) == {"g0-n0"}                # one and seven make eight
    g.play("g0-n0")
    assert steps(g) == {"g0-n1"}                # the six released fills the vacancy
    g.play("g0-n1")
    assert pile(g, "n1") == ["6C"]
    # and in the re-deal, when the six comes up at last
    h = load(dead(DEAD2, g3="6C 7S"), numerals=nums, redealt=3)
    assert steps(h) == set() and h.outcome() is None
    h.play("redeal")                            # No. 4 turned over: the six first, on No. 5
    assert tops(h)[4:6] == ["6C", "7S"] and steps(h) == {"g4-n1"}
    h.play("g4-n1")
    assert pile(h, "n1") == ["6C"]


@pytest.mark.rules("the-great-thirteen-addition-next", "the-great-thirteen-vacancies-first")
def test_when_all_suitable_cards_are_transferred_the_next_process_is_addition() -> None:
    nums = {i: c for i, c in enumerate(PLATE_NUMERALS) if i not in (1, 3)}
    ground = dead(DEAD2, g0="8C", g3="6H")     # an addition on the ace; a six for the three
    g = load(ground, numerals=nums)            # (the ace's packet wants a two: none shows)
    e = refused(g, "g0-n0")
    assert e.rule == R + "vacancies-first"
    assert e.message == ("The refilling of the vacancies must be the first object (GT-3): the "
                         "six of hearts of ground packet No. 4 can fill the vacancy under the "
                         "three of diamonds.")
    assert steps(g) == {"g3-n1"}
    g.play("g3-n1")
    # a vacancy remains (under the ace), but no card can fill it: addition goes on
    assert not pile(g, "n3")
    assert steps(g) == {"g0-n0"}
    g.play("g0-n0")
    # GT-3's other reading: only the card that could fill a vacancy is held back
    h = load(ground, numerals=nums, opts="vacancy_first:same")
    assert steps(h) == {"g0-n0", "g3-n1"}
    h.play("g0-n0")
    h.play("g3-n1")
    assert pile(h, "n0") == ["AS", "8C"] and pile(h, "n1") == ["6H"]


@pytest.mark.rules("the-great-thirteen-addition", "the-great-thirteen-addition-examples")
def test_on_the_numeral_ace_an_eight_on_the_knave_a_ten_under_their_own_balcony_card() -> None:
    g = load(dead(DEAD2, g0="8C", g1="10D", g2="8S"), numerals=dict(enumerate(PLATE_NUMERALS)))
    said = {str(m): g.describe(g.state, m) for m in g.legal_moves() if m.steps}
    assert said == {
        "g0-n0": "The eight of clubs of ground packet No. 1 goes on the numerals under the "
                 "seven of diamonds (one and seven make eight).",
        "g1-n4": "The ten of diamonds of ground packet No. 2 goes on the numerals under the "
                 "queen of spades (eleven and twelve make twenty-three, ten in excess of "
                 "thirteen).",
        "g2-n0": "The eight of spades of ground packet No. 3 goes on the numerals under the "
                 "seven of diamonds (one and seven make eight).",
    }
    # “placed on the numeral which is exactly underneath the balcony card to whose value it is
    # added”: not under any other
    for i in range(1, 8):
        assert refused(g, f"g0-n{i}").rule == R + "addition"
    e = refused(g, "g1-n0")
    assert e.message == ("An eight goes next on the numerals under the seven of diamonds (one "
                         "and seven make eight), not the ten of diamonds.")
    g.play("g0-n0")
    g.play("g1-n4")
    assert pile(g, "n0") == ["AS", "8C"] and pile(g, "n4") == ["JS", "10D"]
    assert refused(g, "g2-n0").rule == R + "addition"     # now eight and seven: a two
    # a card once on the numerals stays there
    for bad in ("n0-n1", "n0-g0", "n4-n0"):
        assert refused(g, bad).rule == R + "addition"


@pytest.mark.rules("the-great-thirteen-choice")
def test_two_cards_equally_suitable_select_which_you_please_and_examine_those_beneath() -> None:
    g = load(dead(g0="9S 6H", g5="4D 6S"))
    assert steps(g) == {"g0-n1", "g5-n1"}
    h = load(dead(g0="9S 6H", g5="4D 6S"))
    g.play("g0-n1")
    h.play("g5-n1")                             # which releases a four, for the two
    assert pile(g, "n1") == ["6H"] and pile(h, "n1") == ["6S"]
    assert "g5-n7" not in steps(g) and "g5-n7" in steps(h)
    # every card of the ground shows, face up; the uppermost alone available (GT-4)
    view = engine.view_of(h)
    for i in range(8):
        faces = view["piles"][h.pile_index(f"g{i}")]["cards"]
        assert [c["c"] for c in faces] == pile(h, f"g{i}")
        assert [bool(c.get("peek")) for c in faces] == [True] * (len(faces) - 1) + [False]
    assert all(c["c"] is not None for p in view["piles"] for c in p["cards"])


# ---- the re-deal --------------------------------------------------------------------------

#: Ground tops nothing wants under the plate's balcony, even once a six is under the three.
DEAD_R = "7H 8H QH KH 7C 8C QC KC".split()


@pytest.mark.rules("the-great-thirteen-redeal")
def test_when_further_progress_is_impossible_take_up_the_first_packet_from_the_left() -> None:
    g = load(dead(DEAD_R, g0="7S 6H"))
    e = refused(g, "redeal")
    assert e.rule == R + "redeal"
    assert e.message == ("The re-deal comes when further progress is impossible (GT-5): the "
                         "six of hearts of ground packet No. 1 can go on the numerals under the "
                         "three of diamonds.")
    g.play("g0-n1")
    assert g.legal_moves() == [Move(action="redeal")]
    g.play("redeal")                            # No. 1, the seven left, dealt on No. 2
    assert pile(g, "g0") == [] and pile(g, "g1") == ["8H", "7S"]
    assert g.var(g.state, "redealt") == 1
    # GT-5's other reading: the player re-deals when he chooses
    h = load(dead(DEAD_R, g0="7S 6H"), opts="redeal_at_will:yes")
    assert Move(action="redeal") in h.legal_moves()
    h.play("redeal")                            # the seven first on No. 2, the six on No. 3
    assert tops(h)[:3] == [None, "7S", "6H"] and steps(h) == {"g2-n1"}


@pytest.mark.rules("the-great-thirteen-played-off", "the-great-thirteen-next-packet")
def test_if_no_1_has_been_played_off_you_take_no_2_and_so_on() -> None:
    g = load(dead(DEAD_R, g0="", g1=""))
    assert g.describe(g.state, Move(action="redeal")) == (
        "Ground packet No. 3 is taken up, turned face downward and dealt round, beginning on "
        "No. 4.")
    g.play("redeal")
    assert pile(g, "g2") == [] and pile(g, "g3") == ["KH", "QH"]
    assert g.var(g.state, "redealt") == 3
    # a place emptied between the deals is passed over at its turn, as a played-off packet
    h = load(dead(DEAD_R, g0="6H 7S", g1=""))
    h.play("redeal")                            # the six on No. 2, the seven on No. 3
    assert status(h) == ("0 of 96 on the numerals · 8 vacancies · 0 of 8 ended with kings · "
                         "re-deal: No. 2 comes next")
    e = refused(h, "redeal")
    assert e.rule == R + "next-packet"
    assert e.message == ("Between the deals, suitable cards are placed on the numerals first "
                         "(GT-5): the six of hearts of ground packet No. 2 can go on the "
                         "numerals under the three of diamonds.")
    h.play("g1-n1")
    assert status(h).endswith("re-deal: No. 3 comes next")
    h.play("redeal")
    assert pile(h, "g2") == [] and h.var(h.state, "redealt") == 3
    assert pile(h, "g3") == ["KH", "QH"] and pile(h, "g4")[-1] == "7S"


@pytest.mark.rules("the-great-thirteen-deal-round", "the-great-thirteen-wrap",
                   "the-great-thirteen-next-packet", "the-great-thirteen-rule-3")
@pytest.mark.parametrize("own", [True, False])
def test_turned_face_downward_dealt_from_the_next_on_the_right_past_no_8_to_no_1(
        own: bool) -> None:
    # nine cards in No. 1, the lowest a six (which the three's packet wants)
    held = "6D 8D QD KD 7S 8S QS KS 9C".split()
    g = load(dead(DEAD_R, g0=" ".join(held)), opts="" if own else "redeal_own_place:no")
    assert g.legal_moves() == [Move(action="redeal")]
    g.play("redeal")
    # the lowest first, on No. 2 ... No. 8; then No. 1 itself (GT-6's default) and No. 2,
    # or (the other reading) No. 2 and No. 3, passing over No. 1
    places = [1, 2, 3, 4, 5, 6, 7, 0, 1] if own else [1, 2, 3, 4, 5, 6, 7, 1, 2]
    want: list[list[str]] = [[c] for c in DEAD_R]
    want[0] = []
    for card, place in zip(held, places):
        want[place].append(card)
    got = [pile(g, f"g{i}") for i in range(8)]
    got[7] = got[7][-len(want[7]):]             # No. 8 holds the rest of the packs beneath
    assert got == want
    # the six was released on No. 2 during the deal, and covered again before it was over:
    # the deal is complete before any card is placed
    assert pile(g, "g1")[-2] == "6D" and "6D" not in tops(g)
    assert steps(g) == set()


@pytest.mark.rules("the-great-thirteen-wrap", "the-great-thirteen-next-packet",
                   "the-great-thirteen-failed")
def test_each_packet_re_dealt_once_no_8_dealt_on_no_1_and_then_the_game_has_failed() -> None:
    g = load(dead(DEAD_R, g6="7S", g7=""), redealt=6, rest=0)
    assert g.describe(g.state, Move(action="redeal")) == (
        "Ground packet No. 7 is taken up, turned face downward and dealt round, beginning on "
        "No. 8.")
    g.play("redeal")                            # the seven on No. 8, emptied before
    assert pile(g, "g7") == ["7S"] and g.outcome() is None
    assert g.describe(g.state, Move(action="redeal")) == (
        "Ground packet No. 8 is taken up, turned face downward and dealt round, beginning on "
        "No. 1.")
    g.play("redeal")                            # No. 8, the card just dealt, on No. 1
    assert pile(g, "g0")[-1] == "7S" and pile(g, "g7") == []
    assert g.var(g.state, "redealt") == 8
    # No. 1 holds cards again, but is not re-dealt twice: the third process is the last
    e = refused(g, "redeal")
    assert e.rule == R + "next-packet"
    assert e.message == "Every ground packet has been re-dealt: the third process is the last."
    assert g.outcome() is Outcome.LOST and g.legal_moves() == []
    assert status(g) == ("Every ground packet has been re-dealt and no card can be placed: the "
                         "game has failed with 0 of 96 cards on the numerals.")
    view = engine.view_of(g)
    assert view["outcome"] == "lost" and view["safe"] == [] and view["moves"] == []


@pytest.mark.rules("the-great-thirteen-failed")
def test_after_re_dealing_all_the_packets_a_card_still_placed_before_the_verdict() -> None:
    g = load(dead(DEAD_R, g2="3H 2H"), redealt=8)
    assert g.outcome() is None and steps(g) == {"g2-n3"}
    assert status(g) == ("0 of 96 on the numerals · 8 vacancies · 0 of 8 ended with kings · "
                         "every ground packet re-dealt")
    g.play("g2-n3")                             # twice one is two
    assert g.outcome() is None                  # two and one make three: the three shows,
    assert refused(g, "g2-n3").rule == R + "rule-2"     # but it fills the eight's vacancy
    g.play("g2-n6")
    assert g.outcome() is Outcome.LOST
    assert status(g).endswith("the game has failed with 2 of 96 cards on the numerals.")
    # before the re-deal is over there is no verdict, however hopeless the cards look
    h = load(dead(DEAD_R), redealt=0)
    assert h.outcome() is None and h.legal_moves() == [Move(action="redeal")]
    # the last packets played off: nothing left to re-deal ends the re-deal too
    k = load({**dead(DEAD_R), 5: "", 6: "", 7: ""}, redealt=5, rest=0)
    assert k.outcome() is Outcome.LOST
    assert refused(k, "redeal").rule == R + "next-packet"


@pytest.mark.rules("the-great-thirteen-failed", "the-great-thirteen-values")
def test_every_packet_of_numerals_ending_with_its_king_wins() -> None:
    values, suits = [7, 3, 9, 1, 12, 5, 8, 2], "SSHHDDCC"
    balcony = [f"{RANK.get(v, v)}{suits[i]}" for i, v in enumerate(values)]
    nums = {i: column(v, suits[i], 12) for i, v in enumerate(values)}
    assert all(n.split()[-1][0] == "K" for n in nums.values())
    nums[3] = column(1, "H", 11)               # the ace's packet: its king still to come
    g = load({i: "" for i in range(8)}, balcony=balcony, numerals=nums, rest=5, redealt=4)
    assert pile(g, "g5") == ["KH"] and steps(g) == {"g5-n3"}
    assert status(g) == ("95 of 96 on the numerals · 0 vacancies · 7 of 8 ended with kings · "
                         "re-deal: No. 6 comes next")
    assert g.describe(g.state, Move.parse("g5-n3")) == (
        "The king of hearts of ground packet No. 6 goes on the numerals under the ace of hearts "
        "(twelve and one make thirteen).")
    e = refused(g, "g5-n0")
    assert e.rule == R + "values"
    assert e.message == ("The numerals under the seven of spades end with their king: the "
                         "packet is finished.")
    g.play("g5-n3")
    assert g.outcome() is Outcome.WON and g.legal_moves() == []
    assert status(g) == "Won: every packet of numerals ends with a king."


# ---- the end of the game, against an exhaustive search ------------------------------------

_VALUES, _SUITS = [7, 3, 9, 1, 12, 5, 8, 2], "SSHHDDCC"


def _end(kept: list[int], ground: dict[int, str], redealt: int, opts: str) -> TheGreatThirteen:
    """The won layout (each balcony card over its twelve numerals, a suit to a column) with
    only ``kept[i]`` numerals left under balcony card ``i``; the others on the ground given."""
    balcony = [f"{RANK.get(v, v)}{_SUITS[i]}" for i, v in enumerate(_VALUES)]
    nums = {i: " ".join(column(v, _SUITS[i], 12).split()[:kept[i]])
            for i, v in enumerate(_VALUES) if kept[i]}
    return load(ground, balcony=balcony, numerals=nums, redealt=redealt, opts=opts)


@pytest.mark.rules("the-great-thirteen-failed")
@pytest.mark.parametrize("opts", ["", "vacancy_first:same", "redeal_own_place:no",
                                  "redeal_at_will:yes"])
def test_the_verdicts_agree_with_an_exhaustive_search_of_small_end_positions(opts: str) -> None:
    """In every position reachable from small end positions (a few numerals taken back and
    scattered on the ground, the re-deal at any stage): the game is won exactly when every
    packet of numerals ends with a king; lost only when nothing can move, and never where a
    win can still be reached; and a position where nothing can move always has its verdict.
    The solver's verdict on each start agrees with the search."""
    import random
    rng = random.Random(1914)
    starts = {"won": 0, "lost": 0}
    lost_seen = 0
    for _ in range(20):
        kept = [rng.choice([12, 12, 12, 11, 10, 9]) for _ in range(8)]
        taken = [c for i, v in enumerate(_VALUES)
                 for c in column(v, _SUITS[i], 12).split()[kept[i]:]]
        while len(taken) > 7:                  # keep the search small
            i = rng.randrange(8)
            kept[i] = 12
            taken = [c for j, v in enumerate(_VALUES)
                     for c in column(v, _SUITS[j], 12).split()[kept[j]:]]
        rng.shuffle(taken)
        ground: dict[int, str] = {g: "" for g in range(8)}
        places = rng.sample(range(8), 3)        # a few packets, so that cards block others
        for c in taken:
            g = rng.choice(places)
            ground[g] = f"{ground[g]} {c}".strip()
        game = _end(kept, ground, rng.choice([0, 4, 6, 7, 8, 8]), opts)
        search = check_verdicts(game, limit=20_000)
        assert search.lost_with_moves == 0
        # the whole graph again, for the verdict of each position
        seen, todo = {game.state}, [game.state]
        while todo:
            s = todo.pop()
            h = TheGreatThirteen(s, game.options, game.deal)
            out, legal = h.outcome(), h.legal_moves()
            kings = all(p and p[-1].rank == KING for p in (s.piles[n] for n in NUMERALS))
            assert (out is Outcome.WON) == kings
            assert (out is Outcome.LOST) == (not legal and not kings), h.position()
            lost_seen += out is Outcome.LOST
            for m in legal:
                t = game.apply(s, m)
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        found = solve(game, Budget(nodes=100_000, seconds=None))
        assert found.verdict == ("won" if search.winnable else "lost"), game.position()
        starts["won" if search.winnable else "lost"] += 1
    assert starts["won"] >= 2 and starts["lost"] >= 2 and lost_seen >= 10, (starts, lost_seen)


# ---- the plate and the editorial notes ------------------------------------------------------

@pytest.mark.rules("the-great-thirteen-tableau-example", "the-great-thirteen-kings",
                   "the-great-thirteen-addition")
def test_gt8_the_plate_its_numerals_and_the_tops_of_its_ground_packets() -> None:
    """The plate (p. 114): the balcony 7 3 9 A Q 5 8 2, under each its first numeral (ace, 6,
    5, 2, knave, 10, 3, 4), and the tops of the ground packets a nine, a four, an ace, a six,
    a knave, a two, a ten and a king. The additions they make are the ones the board offers:
    the four suits nothing, and the king waits on the eighth packet (GT-1)."""
    g = load({i: c for i, c in enumerate("9D 4D AD 6H JD 2D 10H KD".split())},
             numerals=dict(enumerate(PLATE_NUMERALS)))
    assert steps(g) == {"g0-n1", "g2-n2", "g3-n7", "g4-n6", "g5-n5", "g6-n4"}
    assert g.describe(g.state, Move.parse("g2-n2")) == (
        "The ace of diamonds of ground packet No. 3 goes on the numerals under the nine of "
        "clubs (five and nine make fourteen, one in excess of thirteen).")
    assert refused(g, "redeal").rule == R + "redeal"
    assert status(g) == ("8 of 96 on the numerals · 0 vacancies · 0 of 8 ended with kings · "
                         "first play: no packet re-dealt yet")


@pytest.mark.rules("the-great-thirteen-values", "the-great-thirteen-rule-1")
@pytest.mark.parametrize("b", [1, 2, 6, 7, 11, 12])
def test_gt2_the_packet_under_a_card_of_value_b_runs_2b_3b_and_ends_with_the_king_13b(
        b: int) -> None:
    """Played card by card from one ground packet (the other seven packets of numerals
    finished): the twelve numerals under a balcony card of value b are its multiples reckoned
    in thirteens, the king last, which wins: with its balcony card each packet holds one card
    of every value, so eight of them use both packs exactly."""
    want = [reduce(k * b) for k in range(2, 14)]
    assert want[-1] == 13 and sorted(want + [b]) == list(range(1, 14))
    values = [b, *_VALUES[1:]]
    balcony = [f"{RANK.get(v, v)}{_SUITS[i]}" for i, v in enumerate(values)]
    nums = {i: column(v, _SUITS[i], 12) for i, v in enumerate(values) if i}
    cards = column(b, _SUITS[0], 12).split()
    assert [Card.parse(c).rank for c in cards] == want
    g = load({0: " ".join(reversed(cards)), **{i: "" for i in range(1, 8)}},
             balcony=balcony, numerals=nums, rest=0)
    for k, card in enumerate(cards):
        if k < 11:
            assert refused(g, "g0:0-n0").rule == R + "rule-1"
        assert g.outcome() is None and steps(g) == {"g0-n0"}
        g.play("g0-n0")
        assert pile(g, "n0")[-1] == card
    assert g.outcome() is Outcome.WON and pile(g, "g0") == []


@pytest.mark.rules("the-great-thirteen-balcony", "the-great-thirteen-addition",
                   "the-great-thirteen-next-packet")
def test_positions_that_break_the_rules_are_refused_by_the_loader() -> None:
    with pytest.raises(PositionError, match="do not follow the count"):
        load(dead(), numerals={0: "2S"})           # under a seven an ace comes first
    with pytest.raises(PositionError, match="do not follow the count"):
        load(dead(), numerals={0: "AS 9S"})        # then an eight
    with pytest.raises(PositionError, match="at most eight"):
        load(dead(), redealt=9)
    one = {i: c for i, c in enumerate(PLATE_NUMERALS) if i == 0}
    g = load(dead(), numerals=one)
    assert status(g) == ("1 of 96 on the numerals · 7 vacancies · 0 of 8 ended with kings · "
                         "first play: no packet re-dealt yet")
    nums = {i: c for i, c in enumerate(PLATE_NUMERALS) if i != 1}
    assert status(load(dead(DEAD2), numerals=nums)).startswith(
        "7 of 96 on the numerals · 1 vacancy · ")
