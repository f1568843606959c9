"""The Besieged City: every rule, every refusal (with the rule id it cites), the deal, the
deal-out, the transposition at the end, and the end itself."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome
from engine.besieged_city import (
    ENDS, FOUNDATION_ORDER, FOUNDS, LINE, PILES, RAMPART_DEAL, RAMPART_PILES, RESERVE, STOCK,
    TALON, BesiegedCityOptions, Pairs, TheBesiegedCity, joins, reserve_at,
)
from engine.cards import SUITS, Suit
from engine.core import Fan, Role
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-besieged-city"
R = f"{SLUG}-"
ID = {p.id: i for i, p in enumerate(PILES)}
RAMPART_IDS = [PILES[i].id for i in RAMPART_PILES]
RESERVE_IDS = [PILES[i].id for i in RESERVE]

#: Cards that neither join one another (Rule II, under either reading of BC-1) nor suit an
#: empty foundation: threes, fives, eights and kings, two of each.
INERT = [Card(r, s) for r in (3, 5, 8, 13) for s in SUITS for _ in range(2)]


def filled(piles: dict[str, str], empty: str = "", avoid: str = "") -> dict[str, str]:
    """The piles given (bottom to top), and one inert card in every other Rampart and Reserve
    place (none in the places named in ``empty``, none of the suits named in ``avoid``)."""
    given = dict(piles)
    used: Counter[Card] = Counter()
    for text in given.values():
        used.update(Card.parse(t) for t in text.split())
    pool = [c for c in INERT if c.suit.value not in avoid]
    skip = set(empty.split())
    for pid in RAMPART_IDS + RESERVE_IDS:
        if pid in given or pid in skip:
            continue
        card = next((c for c in pool if used[c] < 2), None)
        assert card is not None, "not enough inert cards: give this place a card"
        used[card] += 1
        given[pid] = str(card)
    return given


def city(piles: dict[str, str], empty: str = "", options: str | None = None,
         rest_to: str = "stock", avoid: str = "") -> TheBesiegedCity:
    """A position: the piles given (bottom to top); every other Rampart and Reserve place
    holds one inert card (see :func:`filled`); the rest of the cards lie under ``rest_to``'s.
    The position is checked by loading it back (``engine.load_position``)."""
    g = make_game(SLUG, filled(piles, empty, avoid), options=options, rest_to=rest_to)
    loaded = engine.load_position(g.position())
    assert isinstance(loaded, TheBesiegedCity) and loaded.state == g.state
    return loaded


def finale(piles: dict[str, str]) -> TheBesiegedCity:
    """A position at the end of the patience, the pack and the talon used up: the piles given;
    every other card of each suit on its foundation. The cards given of each suit must be the
    last its foundation takes (its foundation then holds all the ones before)."""
    given = {pid: text for pid, text in piles.items()}
    for k, suit in enumerate(SUITS):
        mine = [Card.parse(t) for text in piles.values() for t in text.split()
                if Card.parse(t).suit is suit]
        n = 26 - len(mine)
        assert Counter(c.rank for c in mine) == Counter(FOUNDATION_ORDER[n:]), suit
        given[f"f{k + 1}"] = " ".join(str(Card(r, suit)) for r in FOUNDATION_ORDER[:n])
    g = make_game(SLUG, {**given, "stock": "", "talon": ""}, rest_to="stock")
    assert not g.state.piles[STOCK]
    loaded = engine.load_position(g.position())
    assert isinstance(loaded, TheBesiegedCity) and loaded.state == g.state
    return loaded


def unloadable(piles: dict[str, str]) -> str:
    """The position text of piles that the rules cannot produce (not checked on the way)."""
    return make_game(SLUG, filled(piles)).position()


#: An end of the patience: hearts want their second queen, the other suits their second
#: king. The queen of hearts lies in the Reserve at the head of row 1 and column 1, where no
#: Rampart at the ends of its lines takes it; the two of hearts, which would, ends row 2.
ENDGAME = {"r11": "QH", "w1": "KS", "e1": "KD", "n1": "KC", "s1": "AD", "w2": "2H",
           "e2": "AC", "n3": "AS", "e4": "KH", "s3": "AH"}


def top(g: TheBesiegedCity, pid: str) -> str:
    return str(g.card_at(g.state, pid) or "")


def pile(g: TheBesiegedCity, pid: str) -> list[str]:
    return [str(c) for c in g.state.piles[ID[pid]]]


def legal(g: TheBesiegedCity) -> set[str]:
    return {str(m) for m in g.legal_moves()}


def moves_of(g: TheBesiegedCity, src: str) -> set[str]:
    return {m for m in legal(g) if m.startswith(src + "-")}


SPADES_DONE = "AS KS 2S QS 3S JS 4S 10S 5S 9S 6S 8S 7S 7S 8S 6S 9S 5S 10S 4S JS 3S QS 2S KS AS"


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("the-besieged-city-deal")
def test_twelve_cards_in_four_rows_of_three_then_the_pack() -> None:
    g = engine.new_game(SLUG, seed=7)
    s = g.state
    assert all(len(s.piles[i]) == 1 for i in RESERVE)
    assert len(s.piles[STOCK]) == 104 - 26 and not s.piles[TALON]
    assert all(not s.piles[f] for f in FOUNDS)
    assert Counter(s.all_cards()) == Counter(engine.pack(2))
    from engine.deal import shuffled
    order = shuffled(engine.pack(2), 7)[::-1]
    # The Reserve first, row by row, each row from left to right.
    assert [s.piles[reserve_at(r, c)][0] for r in range(4) for c in range(3)] == order[:12]
    # Then the Ramparts, clockwise from the top left.
    assert [s.piles[i][0] for i in RAMPART_DEAL] == order[12:26]


@pytest.mark.rules("the-besieged-city-deal")
def test_same_deal_number_same_deal() -> None:
    a, b, c = (engine.new_game(SLUG, seed=n).state for n in (3, 3, 4))
    assert a == b and a != c


@pytest.mark.rules("the-besieged-city-ramparts")
def test_an_outside_row_of_fourteen_crossways_round_the_reserve() -> None:
    assert len(RAMPART_PILES) == 14 and sorted(RAMPART_DEAL) == list(RAMPART_PILES)
    assert all(PILES[i].rotate == 90 for i in RAMPART_PILES)  # crossways
    assert all(PILES[i].rotate == 0 for i in RESERVE)          # the Reserve upright
    assert {PILES[i].role for i in RESERVE} == {Role.RESERVE}
    # Every Rampart is the end of one line of the Reserve (a row or a column) ...
    for i in RAMPART_PILES:
        assert len(LINE[i]) in (3, 4)
    # ... and every Reserve card lies on one row and one column, with four Ramparts at their
    # ends, all outside the Reserve.
    for i in RESERVE:
        assert len(set(ENDS[i])) == 4 and all(e in RAMPART_PILES for e in ENDS[i])
        assert all(i in LINE[e] for e in ENDS[i])
    # The plate's letters: A and C end the first row, B and D the first column.
    assert [PILES[ID[p]].label for p in ("w1", "n1", "e1", "s1")] == [
        "left Rampart, row 1 (A)", "top Rampart, column 1 (B)", "right Rampart, row 1 (C)",
        "bottom Rampart, column 1 (D)"]
    assert set(ENDS[ID["r11"]]) == {ID["w1"], ID["n1"], ID["e1"], ID["s1"]}


@pytest.mark.rules("the-besieged-city-ramparts")
def test_the_layout_keeps_the_crossways_cards_apart() -> None:
    """No two piles overlap on the board, with the crossways cards' real extent (a card 0.9 by
    1.26 slot widths, a slot 1.36 widths high), in the wide and the narrow layouts."""
    def boxes(at: dict[str, tuple[float, float, int]]) -> dict[str, tuple[float, ...]]:
        out = {}
        for p in PILES:
            x, y, rot = at.get(p.id, (p.x, p.y, p.rotate))
            cx, cy = x + 0.5, y * 1.36 + 0.63
            w, h = (1.26, 0.9) if rot == 90 else (0.9, 1.26)
            x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
            # a Rampart's fan, outwards, turned with the card
            spread = (p.fan_limit or 0) * (1.26 if p.fan in (Fan.DOWN, Fan.UP) else 0.9)
            if p.fan is Fan.DOWN:
                x0 -= spread
            elif p.fan is Fan.UP:
                x1 += spread
            elif p.fan is Fan.LEFT:
                y0 -= spread
            elif p.fan is Fan.RIGHT:
                y1 += spread
            out[p.id] = (x0, y0, x1, y1)
        return out

    layouts = [({}, TheBesiegedCity.GRID)] + [
        (dict(lay.at), lay.grid) for lay in TheBesiegedCity.LAYOUTS]
    for at, (gw, gh) in layouts:
        b = boxes(at)
        for p, (x0, y0, x1, y1) in b.items():
            assert 0 <= x0 and x1 <= gw and 0 <= y0 and y1 <= gh * 1.36, p
        ids = sorted(b)
        for k, p in enumerate(ids):
            for q in ids[k + 1:]:
                a, c = b[p], b[q]
                assert a[2] <= c[0] or c[2] <= a[0] or a[3] <= c[1] or c[3] <= a[1], (p, q)


def test_the_narrow_layout_is_for_phones() -> None:
    lay = TheBesiegedCity.LAYOUTS[0]
    assert lay.max_width == 560 and lay.grid[0] < 7.1  # cards over 36 px on a 360 px board
    assert 360 / lay.grid[0] * 0.9 >= 36


def test_the_view_shows_every_dealt_card_and_only_the_talons_top() -> None:
    g = city({"n1": "6H 5H", "talon": "2S 3S 9S"})
    faces = {p["id"]: p["cards"] for p in engine.view_of(g)["piles"]}
    assert faces["talon"] == [{"c": None}, {"c": None}, {"c": "9S"}]
    assert all(c == {"c": None} for c in faces["stock"])
    assert faces["n1"] == [{"c": "6H"}, {"c": "5H"}]  # built by the player, in view


# ----------------------------------------------------------------------------- foundations

@pytest.mark.rules("the-besieged-city-foundations", "the-besieged-city-play-and-fill")
def test_an_ace_in_the_ramparts_may_be_played_at_once_on_its_place() -> None:
    g = city({"e2": "AH"})
    assert "e2-f2" in legal(g)
    assert refusal_rule(g, "e2-f1") == R + "rule-6"  # the spades' place
    g.play("e2-f2")
    assert pile(g, "f2") == ["AH"]


@pytest.mark.rules("the-besieged-city-foundations")
def test_an_empty_foundation_takes_only_its_ace() -> None:
    g = city({"n1": "KS", "n2": "2S"})
    assert refusal_rule(g, "n1-f1") == R + "foundations"
    assert refusal_rule(g, "n2-f1") == R + "foundations"
    assert not moves_of(g, "n1") & {"n1-f1"}


@pytest.mark.rules("the-besieged-city-order")
def test_the_order_of_a_foundation_from_ace_to_ace() -> None:
    assert [engine.cards.RANK_TEXT[r] for r in FOUNDATION_ORDER] == (
        "A K 2 Q 3 J 4 10 5 9 6 8 7 7 8 6 9 5 10 4 J 3 Q 2 K A".split())
    assert Counter(FOUNDATION_ORDER) == Counter(2 * list(range(1, 14)))  # both packs' cards


@pytest.mark.rules("the-besieged-city-order")
def test_kings_then_deuces_queens_threes_alternately() -> None:
    g = city({"f3": "AD", "n1": "2D", "n2": "QD KD"})
    assert refusal_rule(g, "n1-f3") == R + "order"  # the king comes before the two
    g.play("n2-f3")
    g.play("n1-f3")
    assert pile(g, "f3") == ["AD", "KD", "2D"]


@pytest.mark.rules("the-besieged-city-order")
def test_the_two_sevens_follow_each_other_and_the_second_ace_ends_it() -> None:
    g = city({"f1": "AS KS 2S QS 3S JS 4S 10S 5S 9S 6S 8S 7S", "n1": "7S"})
    g.play("n1-f1")
    assert top(g, "f1") == "7S"
    g = city({"f1": SPADES_DONE[:-3], "w3": "AS", "w4": "10D", "w2": "10C"})
    g.play("w3-f1")
    assert len(pile(g, "f1")) == 26
    g = city({"f1": SPADES_DONE, "w3": "3H", "w4": "10D", "w2": "10C"})
    assert refusal_rule(g, "f1-w3") == R + "order"  # cards played stay there


@pytest.mark.rules("the-besieged-city-rule-6")
def test_rule_6_the_foundations_follow_suit() -> None:
    g = city({"f2": "AH", "n1": "KS"})
    assert refusal_rule(g, "n1-f2") == R + "rule-6"


# ----------------------------------------------------------------------------- Rule I

@pytest.mark.rules("the-besieged-city-rule-1")
def test_rule_1_reserve_cards_are_never_played_directly() -> None:
    g = city({"r22": "AC"})
    assert refusal_rule(g, "r22-f4") == R + "rule-1"
    assert not any(m.endswith("-f4") for m in legal(g))


@pytest.mark.rules("the-besieged-city-rule-1")
def test_rule_1_talon_cards_only_pass_through_the_reserve() -> None:
    g = city({"talon": "AC", "n1": "2C"})
    for dst in ("f4", "n1", "r11", "n2"):
        assert refusal_rule(g, f"talon-{dst}") == R + "rule-1"
    assert not any(m.startswith("talon") for m in legal(g))


@pytest.mark.rules("the-besieged-city-rule-1", "the-besieged-city-rule-5")
def test_rule_1_a_talon_card_reaches_a_foundation_by_the_reserve_and_ramparts() -> None:
    # The ace of clubs on the talon comes into the Reserve when a Reserve card leaves it, then
    # fills the Rampart at the end of its line when that is emptied, and is played.
    g = city({"f1": "AS", "n1": "KS", "w1": "2S", "talon": "AC"})
    assert refusal_rule(g, "talon-f4") == R + "rule-1"
    g.play("n1-f1")            # B is emptied: it must be filled from column 1
    g.play("r11-n1")           # a card of column 1 fills it; the talon's top fills r11
    assert pile(g, "r11") == ["AC"] and pile(g, "talon") == []
    assert refusal_rule(g, "r11-f4") == R + "rule-1"
    g.play("w1-f1")            # A is emptied: it must be filled from row 1
    g.play("r11-w1")           # the ace of clubs passes into the Ramparts ...
    g.play("w1-f4")            # ... and is played
    assert pile(g, "f4") == ["AC"]


# ----------------------------------------------------------------------------- Rule II

@pytest.mark.rules("the-besieged-city-rule-2")
def test_rule_2_the_usual_sequences_up_and_down_in_suit() -> None:
    piles = {"n1": "6H", "n2": "5H", "n3": "7H"}
    g = city(piles)
    assert {"n2-n1", "n3-n1", "n1-n2", "n1-n3"} <= legal(g)
    assert refusal_rule(g, "n3-n2") == R + "rule-2"  # seven and five: not next to each other
    g.play("n2-n1")                                  # descending: the five on the six
    assert pile(g, "n1") == ["6H", "5H"]
    g = city(piles)
    g.play("n3-n1")                                  # ascending: the seven on the six
    assert pile(g, "n1") == ["6H", "7H"]


@pytest.mark.rules("the-besieged-city-rule-2")
def test_rule_2_queen_on_two_knave_on_three_and_vice_versa() -> None:
    g = city({"n1": "2C", "n2": "QC", "n3": "3C", "w1": "JC", "w2": "7D", "w3": "7D",
              "e1": "AS", "e2": "KS"})
    got = legal(g)
    assert {"n2-n1", "n1-n2", "w1-n3", "n3-w1", "w2-w3", "w3-w2", "e2-e1", "e1-e2"} <= got
    g.play("n2-n1")
    assert pile(g, "n1") == ["2C", "QC"]


@pytest.mark.rules("the-besieged-city-rule-2")
def test_rule_2_cards_must_be_of_the_same_suit() -> None:
    g = city({"n1": "6H", "n2": "5D", "n3": "QS", "w1": "2C"})
    assert refusal_rule(g, "n2-n1") == R + "rule-2"
    assert refusal_rule(g, "n3-w1") == R + "rule-2"


@pytest.mark.rules("the-besieged-city-rule-2")
def test_rule_2_other_ranks_are_refused() -> None:
    g = city({"n1": "6H", "n2": "9H", "n3": "QH", "w1": "4H"})
    assert refusal_rule(g, "n2-n1") == R + "rule-2"  # six and nine: 15, not 14
    assert refusal_rule(g, "n3-n2") == R + "rule-2"
    assert refusal_rule(g, "w1-n1") == R + "rule-2"


@pytest.mark.rules("the-besieged-city-rule-2")
def test_bc_1_the_neighbours_reading_adds_king_on_two_queen_on_three() -> None:
    piles = {"n1": "2C", "n2": "KC", "n3": "3C", "w1": "QC", "w2": "9H", "w3": "6H"}
    g = city(piles)
    assert refusal_rule(g, "n2-n1") == R + "rule-2"
    g = city(piles, options="pairs:neighbours")
    assert {"n2-n1", "n1-n2", "w1-n3", "n3-w1", "w2-w3", "w3-w2"} <= legal(g)
    assert not joins(Card(1, Suit.HEARTS), Card(2, Suit.CLUBS), Pairs.NEIGHBOURS)
    # The pairs never wrap round: an ace and a two are next in rank, a king and an ace a couple.
    assert joins(Card(13, Suit.HEARTS), Card(1, Suit.HEARTS), Pairs.FOURTEEN)
    assert joins(Card(1, Suit.HEARTS), Card(13, Suit.HEARTS), Pairs.NEIGHBOURS)


@pytest.mark.rules("the-besieged-city-rule-2")
def test_rule_2_one_packet_may_hold_both_directions_and_both_kinds() -> None:
    g = city({"n1": "6H", "n2": "4H 5H", "n3": "10H 9H", "w1": "9H 10H"})
    g.play("n2-n1")   # down: six, five
    g.play("n3-n1")   # the five and nine: a couple
    g.play("w1-n1")   # up: nine, ten
    assert pile(g, "n1") == ["6H", "5H", "9H", "10H"]
    # A packet built so is a legal position.
    assert engine.load_position(g.position()).state == g.state


# ----------------------------------------------------------------------------- transfers

@pytest.mark.rules("the-besieged-city-transfer")
def test_transfers_from_any_packet_to_any_other() -> None:
    g = city({"n1": "8D", "e4": "6D", "s3": "6D 7D"})
    assert {"s3-n1", "s3-e4", "n1-s3"} <= legal(g)
    g.play("s3-n1")   # from the bottom right to the top left
    g.play("n1-e4")   # and on again, to the right of row 4
    assert pile(g, "e4") == ["6D", "7D"] and pile(g, "n1") == ["8D"]


@pytest.mark.rules("the-besieged-city-transfer")
def test_the_top_card_of_each_packet_is_alone_available() -> None:
    g = city({"n1": "8D 7D", "n2": "9D"})
    assert refusal_rule(g, "n1:0-n2") == R + "transfer"
    assert refusal_rule(g, "n1:0-f3") == R + "transfer"


@pytest.mark.rules("the-besieged-city-transfer", "the-besieged-city-rule-5")
def test_rampart_cards_never_enter_the_reserve() -> None:
    g = city({"n2": "8D"})
    assert refusal_rule(g, "n2-r11") == R + "rule-5"
    assert not any(m.startswith("n2-r") for m in legal(g))


# ----------------------------------------------------------------------------- Rule III

@pytest.mark.rules("the-besieged-city-rule-3")
def test_rule_3_a_reserve_card_goes_only_to_the_ends_of_its_row_and_column() -> None:
    # r23 lies in row 2 (ends w2, e2) and column 3 (ends n3, s3).
    g = city({"r23": "6C", "w2": "7C", "e2": "5C", "n3": "8C", "s3": "QC", "n1": "7C",
              "s1": "5C"})
    assert moves_of(g, "r23") == {"r23-w2", "r23-e2", "r23-n3"}
    for far in ("n1", "s1"):
        assert refusal_rule(g, f"r23-{far}") == R + "rule-3"
    assert refusal_rule(g, "r23-s3") == R + "rule-3"  # an end, but the queen does not suit


@pytest.mark.rules("the-besieged-city-rule-3")
def test_rule_3_any_card_of_the_line_not_only_the_nearest() -> None:
    g = city({"r13": "4H", "w1": "3H"})  # the far end of row 1
    assert "r13-w1" in legal(g)
    g.play("r13-w1")
    assert pile(g, "w1") == ["3H", "4H"]


@pytest.mark.rules("the-besieged-city-note-3", "the-besieged-city-rule-3")
def test_note_3_on_the_plate_the_four_of_clubs_goes_only_on_d() -> None:
    g = city(PLATE)
    assert moves_of(g, "r11") == {"r11-s1"}
    for other in ("w1", "n1", "e1"):
        assert refusal_rule(g, f"r11-{other}") == R + "rule-3"
    for far in ("w2", "n2", "e3", "s3"):
        assert refusal_rule(g, f"r11-{far}") == R + "rule-3"


#: The plate's cards that the Notes name, with suits for the others that keep the Notes true
#: (the plate's pips cannot be read).
PLATE = {"r11": "4C", "r12": "3C", "r13": "AD", "r21": "7S", "r31": "AC", "r41": "6S",
         "w1": "5H", "n1": "7H", "e1": "6D", "s1": "3C"}


# ----------------------------------------------------------------------------- Rule IV

@pytest.mark.rules("the-besieged-city-rule-4", "the-besieged-city-play-and-fill")
def test_rule_4_an_emptied_rampart_is_filled_at_once_from_its_line() -> None:
    g = city({"f2": "AH", "e2": "KH", "r21": "QS", "r22": "10D", "r23": "4C", "n1": "QD"})
    g.play("e2-f2")   # the right Rampart of row 2 is emptied
    assert legal(g) == {"r21-e2", "r22-e2", "r23-e2"}
    assert refusal_rule(g, "r11-e2") == R + "rule-4"          # not of row 2
    assert refusal_rule(g, "n1-e2") == R + "rule-4"           # not from the Ramparts
    assert refusal_rule(g, "deal") == R + "play-and-fill"
    assert refusal_rule(g, "r22-n1") == R + "play-and-fill"   # nothing else first
    g.play("r21-e2")
    assert pile(g, "e2") == ["QS"]


@pytest.mark.rules("the-besieged-city-rule-4")
def test_rule_4_a_transfer_that_empties_a_rampart_makes_a_vacancy_too() -> None:
    g = city({"n2": "9C", "n3": "10C"})
    g.play("n2-n3")
    assert legal(g) == {f"r{r}2-n2" for r in range(1, 5)}


@pytest.mark.rules("the-besieged-city-rule-4")
def test_rule_4_a_vacancy_with_no_card_in_its_line_waits() -> None:
    # At the end, with column 3 of the Reserve empty, an emptied Rampart at its foot waits.
    g = finale(ENDGAME)
    g.play("s3-e4")   # the ace of hearts on the king: the foot of column 3 is emptied
    assert pile(g, "s3") == [] and not g.pending(g.state)
    assert not any(m.endswith("-s3") for m in legal(g))


@pytest.mark.rules("the-besieged-city-note-4", "the-besieged-city-rule-4")
def test_note_4_on_the_plate_b_and_d_from_column_1_a_and_c_from_row_1() -> None:
    for rampart, line in (("n1", "r11 r21 r31 r41"), ("s1", "r11 r21 r31 r41"),
                          ("w1", "r11 r12 r13"), ("e1", "r11 r12 r13")):
        g = city({**PLATE, rampart: "", "talon": "QH"}, empty=rampart)
        assert legal(g) == {f"{r}-{rampart}" for r in line.split()}
        names = {top(g, r) for r in line.split()}
        assert names == ({"4C", "AC", "7S", "6S"} if rampart in ("n1", "s1")
                         else {"AD", "3C", "4C"})


# ----------------------------------------------------------------------------- Rule V

@pytest.mark.rules("the-besieged-city-rule-5")
def test_rule_5_a_reserve_vacancy_takes_the_talons_top_card() -> None:
    g = city({"n1": "9C", "r11": "10C", "talon": "2S 4D"})
    g.play("r11-n1")
    assert pile(g, "r11") == ["4D"] and pile(g, "talon") == ["2S"]


@pytest.mark.rules("the-besieged-city-rule-5")
def test_rule_5_when_there_is_no_talon_from_the_pack() -> None:
    g = city({"n1": "9C", "r11": "10C", "stock": "2S 4D"})
    before = len(g.state.piles[STOCK])
    g.play("r11-n1")
    assert pile(g, "r11") == ["4D"] and len(g.state.piles[STOCK]) == before - 1


@pytest.mark.rules("the-besieged-city-rule-5", "the-besieged-city-rule-1")
def test_rule_5_a_card_from_the_pack_that_fills_the_reserve_is_a_reserve_card() -> None:
    # The ace of hearts comes from the pack into the Reserve: it is not played, though its
    # foundation is empty, but must pass into the Ramparts first (Rule I).
    g = city({"n1": "9C", "r11": "10C", "stock": "AH"})
    g.play("r11-n1")
    assert pile(g, "r11") == ["AH"] and pile(g, "f2") == []
    assert refusal_rule(g, "r11-f2") == R + "rule-1"


@pytest.mark.rules("the-besieged-city-rule-5")
def test_rule_5_with_neither_the_place_stays_empty() -> None:
    g = finale({**ENDGAME, "r11": "", "r21": "QH"})  # the queen of hearts on the two, in row 2
    g.play("r21-w2")
    assert pile(g, "r21") == [] and pile(g, "w2") == ["2H", "QH"]


@pytest.mark.rules("the-besieged-city-rule-5", "the-besieged-city-rule-4")
def test_the_two_vacancies_follow_each_other_as_the_text_says() -> None:
    # A play empties a Rampart (Rule IV); the Reserve card that fills it leaves a vacancy in
    # the Reserve (Rule V), filled at once from the pack when there is no talon.
    g = city({"f1": "AS", "w1": "KS", "r12": "2S", "stock": "QS"})
    g.play("w1-f1")
    g.play("r12-w1")
    assert pile(g, "r12") == ["QS"]
    g.play("w1-f1")
    assert pile(g, "f1") == ["AS", "KS", "2S"]


# ----------------------------------------------------------------------------- the deal-out

@pytest.mark.rules("the-besieged-city-deal-out")
def test_the_deal_out_plays_a_suitable_card_and_lays_the_others_on_the_talon() -> None:
    g = city({"f3": "AD", "stock": "9H KD 5C"})
    g.play("deal")
    assert pile(g, "talon") == ["5C"]
    g.play("deal")
    assert pile(g, "f3") == ["AD", "KD"] and pile(g, "talon") == ["5C"]
    g.play("deal")
    assert pile(g, "talon") == ["5C", "9H"]


@pytest.mark.rules("the-besieged-city-deal-out", "the-besieged-city-foundations")
def test_an_ace_turned_from_the_pack_is_played_on_its_place() -> None:
    g = city({"stock": "AC"})
    g.play("deal")
    assert pile(g, "f4") == ["AC"] and pile(g, "talon") == []


@pytest.mark.rules("the-besieged-city-deal-out", "the-besieged-city-then-transfer")
def test_moves_may_be_made_between_the_cards_dealt() -> None:
    g = city({"n1": "9C", "n2": "10C", "stock": "2H 3H"})
    g.play("deal")
    assert pile(g, "talon") == ["3H"]
    assert {"n1-n2", "deal"} <= legal(g)
    g.play("n1-n2")
    g.play("r21-n1")   # B filled from column 1; the talon's card fills the Reserve
    assert pile(g, "r21") == ["3H"] and pile(g, "talon") == []


@pytest.mark.rules("the-besieged-city-deal-out")
def test_all_dealt_there_is_no_re_deal() -> None:
    g = city({"stock": "", "talon": "2H"}, rest_to="talon")
    assert refusal_rule(g, "deal") == R + "deal-out"
    assert refusal_rule(g, "redeal") == R + "deal-out"
    assert "deal" not in legal(g)


@pytest.mark.rules("the-besieged-city-deal-out")
def test_the_pack_is_dealt_only_card_by_card_and_nothing_goes_back() -> None:
    g = city({"n1": "9C"})
    assert refusal_rule(g, "stock-n1") == R + "deal-out"
    assert refusal_rule(g, "n1-talon") == R + "deal-out"
    assert refusal_rule(g, "n1-stock") == R + "deal-out"


# ----------------------------------------------------------------------------- playing

@pytest.mark.rules("the-besieged-city-play-and-fill")
def test_plays_are_the_players_choice() -> None:
    g = city({"f1": "AS", "n1": "KS", "n2": "QS"})
    assert {"n1-f1", "n2-n1", "n1-n2", "deal"} <= legal(g)
    g.play("n2-n1")   # the king is covered instead of played: allowed
    assert top(g, "n1") == "QS" and pile(g, "f1") == ["AS"]


@pytest.mark.rules("the-besieged-city-then-transfer", "the-besieged-city-rule-3")
def test_transfers_and_reserve_cards_at_any_time() -> None:
    g = city({"n1": "9C", "n2": "10C", "r12": "JC", "talon": "4D"})
    assert {"n1-n2", "n2-n1", "r12-n2"} <= legal(g)
    g.play("r12-n2")
    assert pile(g, "r12") == ["4D"] and pile(g, "n2") == ["10C", "JC"]


# ----------------------------------------------------------------------------- transposing

@pytest.mark.rules("the-besieged-city-transpose")
def test_transposition_only_when_talon_and_pack_are_both_used_up() -> None:
    piles = {"r11": "6H", "w2": "7H"}
    assert refusal_rule(city(piles), "r11-r22") == R + "transpose"
    g = city({**piles, "stock": "", "talon": "2S"}, rest_to="talon")
    assert refusal_rule(g, "r11-r22") == R + "transpose"


@pytest.mark.rules("the-besieged-city-transpose", "the-besieged-city-rule-3")
def test_transposed_into_another_place_a_card_is_transferred_from_there() -> None:
    g = finale(ENDGAME)
    assert {"r11-r21", "r11-r22", "r11-r23"} <= moves_of(g, "r11")
    g.play("r11-r21")
    assert pile(g, "r21") == ["QH"] and pile(g, "r11") == []
    g.play("r21-w2")   # from its new row, on the two of hearts (Rule III)
    g.play("w2-f2")
    assert top(g, "f2") == "QH"


@pytest.mark.rules("the-besieged-city-transpose")
def test_transposition_may_exchange_two_reserve_cards() -> None:
    g = finale({**ENDGAME, "n3": "", "r21": "AS"})
    assert "r11-r21" in legal(g)
    g.play("r11-r21")
    assert pile(g, "r21") == ["QH"] and pile(g, "r11") == ["AS"]


@pytest.mark.rules("the-besieged-city-transpose")
def test_only_cards_that_cannot_be_transferred_and_only_to_effect_it() -> None:
    g = finale(ENDGAME)
    # From the head of column 3 the queen could go on neither the ace of spades nor the ace
    # of hearts at its ends, nor on the kings ending row 1.
    assert refusal_rule(g, "r11-r13") == R + "transpose"
    # The ace of hearts can go on the king of hearts at A, where it lies: it stays there.
    g = finale({**ENDGAME, "r11": "AH", "w1": "KH", "e4": "KS", "s3": "QH"})
    assert refusal_rule(g, "r11-r22") == R + "transpose"
    assert "r11-w1" in legal(g)


@pytest.mark.rules("the-besieged-city-transpose", "the-besieged-city-rule-4")
def test_transposed_into_a_line_whose_ramparts_are_empty_it_fills_one() -> None:
    g = finale(ENDGAME)
    assert not g.pending(g.state)
    g.play("r11-r12")  # column 2 has no card, and both its Ramparts are empty
    assert legal(g) == {"r12-n2", "r12-s2"}
    g.play("r12-n2")
    assert pile(g, "n2") == ["QH"] and not g.pending(g.state)


# ----------------------------------------------------------------------------- the end

def test_won_when_all_four_foundations_run_from_ace_to_ace() -> None:
    g = finale({})
    assert g.outcome() is Outcome.WON
    assert g.status_of(g.state).startswith("Won")


def test_winning_the_last_card() -> None:
    g = finale({"n1": "AS"})
    assert g.outcome() is None
    g.play("n1-f1")
    assert g.outcome() is Outcome.WON


def test_never_lost_while_the_pack_has_cards() -> None:
    g = city({})
    assert g.outcome() is None and legal(g) == {"deal"}


def test_lost_when_nothing_can_move() -> None:
    g = city({"stock": ""}, rest_to="talon")
    assert g.legal_moves() == []
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)


def test_lost_when_cards_can_only_shuttle_among_the_ramparts() -> None:
    # The queen of spades may pass between the two kings for ever, and a king may follow it,
    # emptying a Rampart, whose filling brings the talon's top card, the three of diamonds,
    # into the Reserve: none of this brings a card to a foundation.
    g = city({"n1": "KS QS", "n2": "KS", "s3": "10H", "stock": "", "talon": "3D"},
             rest_to="talon", avoid="S")
    assert legal(g) == {"n1-n2", "n2-n1"}
    assert g.outcome() is Outcome.LOST


def test_not_lost_while_a_series_of_moves_brings_a_card_to_a_foundation() -> None:
    # The ace of clubs lies in the Reserve: moving the nine off B and filling B with the ace
    # lets it be played.
    g = city({"n1": "9C", "n2": "10C", "r21": "AC", "stock": ""}, rest_to="talon", avoid="C")
    assert g.outcome() is None


def test_lost_at_the_end_when_each_king_lies_under_its_ace() -> None:
    # Every suit wants its second king, and each lies under the second ace, which has no card
    # of its suit to go to: the patience has failed.
    g = finale({"n1": "KS AS", "w3": "KH AH", "e2": "KD AD", "s3": "KC AC"})
    assert g.legal_moves() == [] and g.outcome() is Outcome.LOST


def test_not_lost_at_the_end_while_a_transposition_leads_to_a_play() -> None:
    # The queen of hearts, wanted next, can reach the two of hearts only by a transposition.
    g = finale(ENDGAME)
    assert not g.transferable(g.state.piles, ID["r11"], Card.parse("QH"))
    assert g.outcome() is None


def test_no_verdict_when_it_would_take_a_talon_card_not_yet_seen() -> None:
    # Two vacancies can be made; filling the second would bring into the Reserve a talon card
    # still covered, so the board does not judge.
    g = city({"n1": "9C", "n2": "10C", "n3": "4D", "w2": "5D", "stock": ""},
             rest_to="talon", avoid="C")
    assert g.outcome() is None and g._reachable_play(g.state) is None
    # With a single vacancy to be made, the talon's top card is enough to judge.
    g = city({"n1": "9C", "n2": "10C", "stock": ""}, rest_to="talon", avoid="C")
    assert g._reachable_play(g.state) is False and g.outcome() is Outcome.LOST


# ----------------------------------------------------------------------------- the board

def test_the_status_line_counts_the_pack_the_talon_and_the_foundations() -> None:
    g = city({"talon": "2S", "f1": "AS KS"})
    assert g.status_of(g.state) == "Pack: 75 cards · talon: 1 card · 2 of 104 on the foundations"


def test_the_status_line_names_a_vacancy_to_fill() -> None:
    g = city({"f2": "AH", "e2": "KH"})
    g.play("e2-f2")
    assert g.status_of(g.state).endswith("fill the right Rampart, row 2 from the Reserve")


def test_moves_are_described_in_words() -> None:
    g = city({"f1": "AS", "n1": "KS", "n2": "QS", "r12": "JS", "stock": "9H"})
    s = g.state
    assert g.describe(s, Move.parse("n1-f1")) == (
        "The king of spades is played from the top Rampart, column 1 (B).")
    assert g.describe(s, Move.parse("n2-n1")) == (
        "The queen of spades is placed from the top Rampart, column 2 on the top Rampart, "
        "column 1 (B).")
    assert g.describe(s, Move.parse("deal")) == "The nine of hearts is dealt onto the talon."


# ----------------------------------------------------------------------------- positions

def test_positions_round_trip() -> None:
    g = engine.new_game(SLUG, seed=11)
    for m in g.legal_moves():
        h = g.copy()
        h.play(m)
        assert engine.load_position(h.position()).state == h.state


@pytest.mark.parametrize("piles", [
    {"f1": "AS 2S"},                  # a foundation out of its order
    {"f2": "AS"},                     # on another suit's place
    {"r11": "2S 4D"},                 # two cards in one Reserve place
    {"r11": "", "talon": "4D"},       # a Reserve vacancy left while there is a talon
    {"n1": "2S 9H"},                  # a Rampart packet not built by Rule II
])
def test_positions_the_rules_cannot_reach_are_refused(piles: dict[str, str]) -> None:
    with pytest.raises(engine.PositionError):
        engine.load_position(unloadable(piles))


def test_every_candidate_is_legal() -> None:
    for seed in range(5):
        g = engine.new_game(SLUG, seed=seed)
        for _ in range(40):
            moves = list(g.candidate_moves(g.state))
            assert all(g.refusal(g.state, m) is None for m in moves)
            if not moves:
                break
            g.play(moves[(seed * 7 + len(moves)) % len(moves)])


def test_options_have_notes_and_labels() -> None:
    d = engine.describe_options(BesiegedCityOptions)
    assert [o["name"] for o in d] == ["pairs"] and d[0]["note"] == "note-bc-1"
    assert d[0]["default"] == "fourteen"


def test_the_drawn_diagram_deals_no_ace_to_the_ramparts_as_on_the_plate() -> None:
    s = TheBesiegedCity.new(TheBesiegedCity.DIAGRAM_DEAL).state
    assert not any(c.rank == 1 for i in RAMPART_PILES for c in s.piles[i])
    assert sum(c.rank == 1 for i in RESERVE for c in s.piles[i]) == 2
