"""The Olga: every rule, every refusal (with the rule id it cites), the options, the end of the
game. Positions are written by hand and loaded through ``engine.load_position``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Outcome, PositionError
from engine.core import Fan, Game
from engine.deal import shuffled
from engine.olga import (
    BED,
    FOUNDATION_PILES,
    PILES,
    STOCK,
    TALON_PILE,
    TURNED,
    TheOlga,
    face_down,
    piquet_pack,
)
from engine.solver import Budget, solve
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "the-olga"
R = f"{SLUG}-"
PIQUET = "A 7 8 9 10 J Q K".split()


def run(suit: str, last: str = "K") -> str:
    """A foundation from the ace of ``suit`` up to ``last``."""
    return " ".join(r + suit for r in PIQUET[:PIQUET.index(last) + 1])


def game(piles: dict[str, str], options: str = "", rest_to: str = "stock",
         lows: dict[int, int] | None = None) -> TheOlga:
    """A position with the given piles (every other card in ``rest_to``). Each column's
    low-water mark is its length (at most seven) unless ``lows`` says otherwise: the column
    then looks as dealt, its second, fourth and sixth cards face down unless uncovered."""
    marks = {f"low{i}": min(7, len(piles.get(f"c{i}", "").split())) for i in range(7)}
    marks |= {f"low{i}": v for i, v in (lows or {}).items()}
    made = make_game(SLUG, piles, vars=marks, options=options or None, rest_to=rest_to)
    text = made.position()
    assert "start=" in text
    g = engine.load_position(text)
    assert isinstance(g, TheOlga) and g.state == made.state
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def pile(g: TheOlga, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def faces(g: TheOlga, pid: str) -> list[str | None]:
    view = engine.view_of(g)
    return [c["c"] for c in next(p for p in view["piles"] if p["id"] == pid)["cards"]]


def steps(g: TheOlga) -> set[str]:
    return {str(m) for m in g.legal_moves() if m.steps}


# ------------------------------------------------------------------------ the deal

@pytest.mark.rules("the-olga-flower-bed", "the-olga-faces")
def test_the_deal_lays_seven_rows_of_seven_face_up_and_face_down_by_turns() -> None:
    for seed in range(20):
        g = engine.new_game(SLUG, seed=seed)
        s = g.state
        deck = tuple(shuffled(piquet_pack(4), seed))
        assert Counter(s.all_cards()) == Counter(piquet_pack(4))
        for row in range(7):  # row by row, left to right, from the pack's top
            for col in range(7):
                assert s.piles[BED[col]][row] == deck[-1 - (7 * row + col)]
        assert all(len(s.piles[c]) == 7 for c in BED)
        assert len(s.piles[STOCK]) == 128 - 49
        assert not any(s.piles[f] for f in FOUNDATION_PILES)
        assert not s.piles[TURNED] and not s.piles[TALON_PILE]
        for c in BED:
            shown = faces(g, PILES[c].id)  # type: ignore[arg-type]
            assert [x is None for x in shown] == [False, True, False, True, False, True, False]


@pytest.mark.rules("the-olga-overlap")
def test_each_row_half_covers_the_one_before() -> None:
    for c in BED:
        assert PILES[c].fan is Fan.DOWN and PILES[c].y == 0.0


@pytest.mark.rules("the-olga-foundations")
def test_four_piquet_packs_and_sixteen_places_for_the_aces() -> None:
    full = TheOlga.full_pack()
    assert sum(full.values()) == 128
    assert {c.rank for c in full} == {1, 7, 8, 9, 10, 11, 12, 13}
    assert all(n == 4 for n in full.values())
    assert len(FOUNDATION_PILES) == 16


# ------------------------------------------------------------------------ Rule II

@pytest.mark.rules("the-olga-rule-2", "the-olga-first-plays")
def test_only_the_lowest_card_is_available_and_the_card_above_is_turned_up() -> None:
    g = game({"c0": "9S 8H 10D QC AD"})  # as dealt: the 8H (2nd row) and the QC (4th) down
    assert faces(g, "c0") == ["9S", None, "10D", None, "AD"]
    assert refusal_rule(g, "c0:3-c1") == R + "rule-2"          # face down
    assert refusal_rule(g, "c0:2-f0") == R + "rule-2"          # face up, but covered
    g.play("c0-f3")                                            # the ace, to any empty place
    assert faces(g, "c0") == ["9S", None, "10D", "QC"]          # turned up at once
    assert "c0-c1" in steps(g)                                  # the queen, now available
    g2 = game({"c0": "9S 8H 10D QC", "c1": "KD"}, lows={0: 4})
    assert "c0-c1" in steps(g2)                                 # the card so turned: available


@pytest.mark.rules("the-olga-rule-2")
def test_a_card_turned_up_stays_face_up_when_covered_again() -> None:
    g = game({"c0": "9S 8H 10D QC JH", "c1": "QS"})
    g.play("c0-c1")                 # the red knave onto the black queen
    assert faces(g, "c0") == ["9S", None, "10D", "QC"]
    g.play("c1-c0")                 # and back, onto the queen of clubs turned up
    assert faces(g, "c0") == ["9S", None, "10D", "QC", "JH"]


# ------------------------------------------------------------------------ foundations

@pytest.mark.rules("the-olga-foundations", "the-olga-rule-1")
def test_foundations_begin_with_any_ace_and_follow_suit_through_the_sevens() -> None:
    g = game({"c0": "8S", "c1": "7S", "c2": "7H", "c3": "AS", "c4": "9C"}, lows={})
    assert refusal_rule(g, "c1-f0") == R + "foundations"        # empty: only an ace
    assert {f"c3-f{j}" for j in range(16)} <= steps(g)
    g.play("c3-f9")
    assert refusal_rule(g, "c0-f9") == R + "foundations"        # the seven comes next
    assert refusal_rule(g, "c2-f9") == R + "rule-1"             # hearts on spades
    g.play("c1-f9")
    g.play("c0-f9")
    assert pile(g, "f9") == cards("AS 7S 8S")
    assert refusal_rule(g, "c4-f9") == R + "rule-1"
    assert refusal_rule(g, "f9-c1") == R + "foundations"        # cards played stay there


@pytest.mark.rules("the-olga-foundations")
def test_a_foundation_is_complete_with_its_king() -> None:
    g = game({"f0": run("S"), "c0": "AS"})
    assert refusal_rule(g, "c0-f0") == R + "foundations"
    assert "c0-f1" in steps(g)


# ------------------------------------------------------------------------ Rule III

@pytest.mark.rules("the-olga-rule-3", "the-olga-build")
def test_cards_descend_in_alternate_colours() -> None:
    g = game({"c0": "9H", "c1": "8C", "c2": "8D", "c3": "7C", "c4": "10S", "c5": "QD"})
    assert "c1-c0" in steps(g)                                  # a black eight on a red nine
    assert refusal_rule(g, "c2-c0") == R + "rule-3"             # red on red
    assert refusal_rule(g, "c3-c0") == R + "rule-3"             # not the next lower
    assert refusal_rule(g, "c4-c0") == R + "rule-3"             # never upwards
    assert refusal_rule(g, "c0-c5") == R + "rule-3"             # a nine on a queen
    g.play("c1-c0")
    assert pile(g, "c0") == cards("9H 8C") and not pile(g, "c1")


@pytest.mark.rules("the-olga-rule-3", "the-olga-build")
def test_the_ace_goes_below_the_seven_unless_the_other_reading() -> None:
    pos = {"c0": "7S", "c1": "AH", "c2": "AS", "c3": "AD"}
    g = game(pos)
    assert "c1-c0" in steps(g)                                  # red ace on a black seven
    assert refusal_rule(g, "c2-c0") == R + "rule-3"             # black on black
    g.play("c1-c0")
    assert refusal_rule(g, "c0-c3") == R + "rule-3"             # nothing on an ace
    g = game(pos, options="ace_on_seven:no")
    assert refusal_rule(g, "c1-c0") == R + "rule-3"
    assert "c1-c0" not in steps(g)


@pytest.mark.rules("the-olga-transfer", "the-olga-build")
def test_transfers_back_and_forth_one_card_at_a_time() -> None:
    g = game({"c0": "JS 10H", "c1": "JC", "c2": "10D"}, lows={0: 1})
    g.play("c0-c1")
    g.play("c1-c0")
    g.play("c0-c1")
    assert pile(g, "c1") == cards("JC 10H")
    g2 = game({"c0": "JS 10H 9C", "c1": "JD"}, lows={0: 1})
    assert refusal_rule(g2, "c0:1-c1") == R + "rule-2"          # not a run at once


@pytest.mark.rules("the-olga-transfer", "the-olga-build", "the-olga-space", "the-olga-rule-2")
def test_a_sequence_is_moved_whole_under_the_other_reading() -> None:
    # OL-3's other reading: "they" are the sequences built, lifted whole from one packet to
    # another; a space is still filled with one available card.
    g = game({"c0": "JS 10H 9C", "c1": "JC", "c2": "", "c3": "QS 8D 7S"},
             options="sequences:yes", lows={0: 1, 2: 0})
    assert "c0:1-c1" in steps(g)
    assert "sequence from the ten of hearts" in g.describe(g.state, engine.Move.parse("c0:1-c1"))
    g.play("c0:1-c1")                                        # the ten and the nine together
    assert pile(g, "c1") == cards("JC 10H 9C") and pile(g, "c0") == cards("JS")
    assert refusal_rule(g, "c1:1-c2") == R + "space"          # a space takes a single card
    assert refusal_rule(g, "c1:1-f0") == R + "rule-2"          # foundations: one card at a time
    assert refusal_rule(g, "c3:1-c1") == R + "rule-2"          # the eight lies face down
    g2 = game({"c0": "KS 8D 10H 9H", "c1": "JC"}, options="sequences:yes", lows={0: 4})
    assert refusal_rule(g2, "c0:2-c1") == R + "rule-3"         # not a sequence: no run
    # Lifting a run turns up the face-down card above it (Rule II).
    g3 = game({"c0": "KS 8H QD JC", "c1": "KC"}, options="sequences:yes", lows={0: 3})
    assert faces(g3, "c0") == ["KS", None, "QD", "JC"]
    g3.play("c0:2-c1")
    assert faces(g3, "c0") == ["KS", "8H"] and pile(g3, "c1") == cards("KC QD JC")


@pytest.mark.rules("the-olga-pack-talon", "the-olga-rule-3")
def test_the_card_turned_up_and_the_talons_top_go_on_the_flower_bed() -> None:
    g = game({"c0": "QH", "c1": "KS", "turned": "JC", "talon": "9D QD"})
    assert "turned-c0" in steps(g) and "talon-c1" in steps(g)
    assert refusal_rule(g, "talon:0-c1") == R + "talon"          # only the talon's top
    assert refusal_rule(g, "stock-c0") == R + "deal"             # from the pack: turned first
    g.play("turned-c0")
    g.play("talon-c1")
    assert pile(g, "c0") == cards("QH JC") and pile(g, "c1") == cards("KS QD")


@pytest.mark.rules("the-olga-not-obliged", "the-olga-first-plays")
def test_nothing_is_forced_a_card_for_the_foundations_may_go_on_the_flower_bed() -> None:
    g = game({"f0": "AH", "c0": "7H", "c1": "8S", "turned": "8C"})
    assert {"c0-f0", "c0-c1"} <= steps(g)
    g.play("c0-c1")
    assert pile(g, "c1") == cards("8S 7H")
    d = engine.new_game(SLUG, seed=5)
    assert not any(d.state.piles[f] for f in FOUNDATION_PILES)  # no ace is played unasked


# ------------------------------------------------------------------------ the pack, the talon

@pytest.mark.rules("the-olga-deal")
def test_turning_a_card_lays_the_last_one_on_the_talon() -> None:
    g = game({"c0": "KS", "turned": "9S", "stock": "8H 7C"})
    g.play("deal")
    assert pile(g, "turned") == cards("7C") and pile(g, "talon") == cards("9S")
    assert "turned up" in g.describe(g.state, engine.Move(action="deal"))


@pytest.mark.rules("the-olga-deal")
def test_there_is_no_redeal() -> None:
    g = game({"c0": "KS", "turned": "9S"}, rest_to="talon")
    assert not pile(g, "stock")
    assert refusal_rule(g, "deal") == R + "deal"
    assert refusal_rule(g, "redeal") == R + "deal"


@pytest.mark.rules("the-olga-talon")
def test_a_suitable_card_turned_up_must_be_used_before_the_next_is_turned() -> None:
    g = game({"c0": "10D", "turned": "9S", "stock": "8H"})
    assert refusal_rule(g, "deal") == R + "talon"
    g = game({"turned": "AH", "stock": "8H"})
    assert refusal_rule(g, "deal") == R + "talon"                 # an ace: to a foundation
    g = game({"c0": "10D", "turned": "9S", "stock": "8H"}, options="turned_card:no")
    g.play("deal")
    assert pile(g, "talon") == cards("9S")
    g = game({"c0": "10D", "turned": "9D", "stock": "8H"})      # unsuitable: laid aside
    g.play("deal")
    assert pile(g, "talon") == cards("9D")


@pytest.mark.rules("the-olga-talon")
def test_nothing_but_the_card_turned_up_goes_on_the_talon() -> None:
    g = game({"c0": "10D", "turned": "9D", "talon": "KS"})
    assert refusal_rule(g, "c0-talon") == R + "talon"
    assert refusal_rule(g, "turned-talon") == R + "talon"
    assert refusal_rule(g, "c0-turned") == R + "deal"


# ------------------------------------------------------------------------ the empty column

@pytest.mark.rules("the-olga-space")
def test_an_empty_column_takes_only_an_available_card_of_the_flower_bed() -> None:
    g = game({"c0": "", "c1": "9S 8H KD", "turned": "QC", "talon": "QS"}, lows={0: 0})
    assert refusal_rule(g, "turned-c0") == R + "space"
    assert refusal_rule(g, "talon-c0") == R + "space"
    assert refusal_rule(g, "c1:1-c0") == R + "rule-2"
    g.play("c1-c0")                                   # the king, when the player chooses
    assert faces(g, "c0") == ["KD"]
    g.play("talon-c0")                                # then built on like the others
    assert pile(g, "c0") == cards("KD QS")
    assert faces(g, "c1") == ["9S", "8H"]             # the card above turned up


@pytest.mark.rules("the-olga-space")
def test_an_empty_column_need_not_be_filled() -> None:
    g = game({"c0": "", "c1": "KD", "stock": "8H"}, lows={0: 0})
    assert "c1-c0" in steps(g)
    g.play("deal")                                   # the pack goes on with the space open
    assert not pile(g, "c0")


# ------------------------------------------------------------------------ the end

def _all_but(extra: dict[str, str], spades_to: str = "8") -> dict[str, str]:
    """The four spade foundations up to ``spades_to``, those of hearts, diamonds and clubs
    (four each) complete; ``extra`` places the remaining cards (or overrides a foundation)."""
    out = {f"f{j}": run("S", spades_to) for j in range(4)}
    for j in range(4, 16):
        out[f"f{j}"] = run("HDC"[(j - 4) // 4])
    return out | extra


@pytest.mark.rules("the-olga-foundations", "the-olga-deal")
def test_the_game_is_won_with_all_cards_on_the_foundations() -> None:
    g = game(_all_but({}, spades_to="K"))
    assert g.outcome() is Outcome.WON
    assert "Won" in g.status_of(g.state)


@pytest.mark.rules("the-olga-deal", "the-olga-rule-3")
def test_lost_when_the_pack_is_out_and_nothing_can_reach_the_foundations() -> None:
    stuck = {"c0": "9S 10S", "c1": "9S 10S", "c2": "9S 10S", "c3": "9S 10S",
             "c4": "JS QS", "c5": "JS QS", "c6": "JS QS", "talon": "JS QS KS KS KS KS"}
    g = game(_all_but(stuck), rest_to="talon")
    assert not pile(g, "stock")
    assert not g.legal_moves()
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)
    # The same cards with the pack still to come: no verdict.
    g = game(_all_but(stuck | {"talon": "", "stock": "JS QS KS KS KS KS"}))
    assert g.outcome() is None


@pytest.mark.rules("the-olga-deal", "the-olga-space")
def test_not_lost_while_a_move_can_uncover_a_wanted_or_unseen_card() -> None:
    # An empty column: the ten may go there, and the nine beneath is wanted.
    free = {"c0": "9S 10S", "c1": "9S 10S", "c2": "9S 10S", "c3": "9S 10S",
            "c4": "JS QS", "c5": "JS QS", "c6": "", "talon": "JS QS KS KS KS KS"}
    g = game(_all_but(free), rest_to="talon")
    assert g.progress_reachable(g.state) is True and g.outcome() is None
    # A face-down card can be uncovered: its face is not looked at.
    cols = {"c0": "JS 9S QS", "c1": "10S", "c2": "10S", "c3": "10S", "c4": "10S", "c5": "KS"}
    g = game(_all_but(cols | {"c6": "KS", "talon": "9S 9S 9S JS JS JS QS QS QS KS KS"}),
             rest_to="talon")
    assert faces(g, "c0") == ["JS", None, "QS"]
    assert g.outcome() is Outcome.LOST            # every column full: the queen cannot move
    g = game(_all_but(cols | {"c6": "", "talon": "9S 9S 9S JS JS JS QS QS QS KS KS KS"}),
             rest_to="talon", lows={6: 0})
    assert g.progress_reachable(g.state) is True
    assert g.outcome() is None                    # the queen may go to the empty column
    # The talon's top can be placed, and would uncover a card not yet seen.
    g = game(_all_but({"c0": "9S 10S", "c1": "9S 10S", "c2": "9S 10S", "c3": "9S 10S",
                       "c4": "JS QS", "c5": "JS QS", "c6": "JS KS", "f4": run("H", "10"),
                       "talon": "JS QS KS KS KS QS KH JH QH"}), rest_to="talon")
    assert "talon-c6" in steps(g)
    assert g.outcome() is None


@pytest.mark.rules("the-olga-deal", "the-olga-transfer")
def test_not_lost_while_a_sequence_moved_whole_can_free_a_wanted_card() -> None:
    # The nine of spades lies under the queen of hearts and the knave of spades: one card at a
    # time they cannot move, but under OL-3's other reading the two go on the king together.
    pos = _all_but({"f4": run("H", "10"), "c0": "9S QH JS", "c1": "JH KS", "c2": "10S",
                    "c3": "10S", "c4": "10S", "c5": "10S", "c6": "QS", "talon": "KH KS"})
    g = game(pos, rest_to="talon", lows={0: 2, 1: 2})
    assert not g.legal_moves() and g.outcome() is Outcome.LOST
    g = game(pos, options="sequences:yes", rest_to="talon", lows={0: 2, 1: 2})
    assert g.outcome() is None
    g.play("c0:1-c1")
    assert "c0-f0" in steps(g)


@pytest.mark.rules("the-olga-deal")
@pytest.mark.parametrize("seed", [1, 3, 5, 8])
def test_every_loss_verdict_survives_an_exhaustive_search(seed: int) -> None:
    # The last cards of a few foundations, dealt at random into the columns (as if dealt,
    # some face down) and the talon; every position reachable is searched, under each
    # reading.
    rng = random.Random(seed)
    base = _all_but({}, spades_to="K")
    loose: list[str] = []
    for j in rng.sample(range(16), 3):
        found = base[f"f{j}"].split()
        k = rng.randrange(1, 3)
        base[f"f{j}"] = " ".join(found[:-k])
        loose += found[-k:]
    rng.shuffle(loose)
    cols: dict[str, list[str]] = {f"c{k}": [] for k in range(7)}
    talon: list[str] = []
    for c in loose:
        (talon if rng.random() < 0.3 else cols[f"c{rng.randrange(7)}"]).append(c)
    for opts in ("", "ace_on_seven:no", "turned_card:no", "sequences:yes"):
        g = game(base | {k: " ".join(v) for k, v in cols.items()} | {"talon": " ".join(talon)},
                 options=opts, rest_to="talon")
        result = check_verdicts(g, limit=50_000)
        found = solve(g, Budget(nodes=20_000))
        assert found.verdict == ("won" if result.winnable else "lost"), g.position()


# ------------------------------------------------------------------------ positions, views

def test_positions_are_checked() -> None:
    with pytest.raises(PositionError):      # a foundation begun with another card
        engine.load_position(make_game(SLUG, {"f0": "7H"}).position())
    with pytest.raises(PositionError):      # out of order
        engine.load_position(make_game(SLUG, {"f0": "AH 8H"}).position())
    with pytest.raises(PositionError):      # a mark above the column's height
        engine.load_position(make_game(SLUG, {"c0": "9S"}, vars={"low0": 3}).position())
    with pytest.raises(PositionError):      # below the mark, not built in sequence
        engine.load_position(make_game(SLUG, {"c0": "9S 8S"}, vars={"low0": 1}).position())
    with pytest.raises(PositionError):      # two cards turned up
        engine.load_position(make_game(SLUG, {"turned": "9S 8S"}).position())


def test_the_deal_and_its_notation_round_trip() -> None:
    g = engine.new_game(SLUG, seed=123)
    g.play("deal")
    if engine.Move(action="deal") in g.legal_moves():
        g.play("deal")
    same = engine.load_position(g.position())
    assert same.position() == g.position()
    assert engine.load_position(g.position(compact=True)).state == g.state


def test_the_view_hides_the_pack_and_the_talon_beneath_its_top() -> None:
    g = game({"c0": "10D", "talon": "9S 8C", "stock": "KC"})
    assert faces(g, "talon") == [None, "8C"]
    assert all(c is None for c in faces(g, "stock"))


def test_face_down_marks() -> None:
    assert [face_down(k, 7) for k in range(7)] == [False, True, False, True, False, True,
                                                   False]
    assert [face_down(k, 4) for k in range(6)] == [False, True, False, False, False, False]
    assert not any(face_down(k, 0) for k in range(9))


@pytest.mark.parametrize("options", ["", "ace_on_seven:no", "turned_card:no",
                                     "sequences:yes"])
def test_fast_legal_moves_match_the_rules(options: str) -> None:
    for seed in range(8):
        g = engine.new_game(SLUG, seed=seed, options=options)
        rng = random.Random(seed)
        for _ in range(150):
            fast = g.legal_moves()
            assert fast == Game.legal_in(g, g.state), (seed, g.position())
            if not fast:
                break
            g.play(rng.choice(fast))


def test_aces_are_safe_to_play_to_the_first_empty_place() -> None:
    g = game({"f0": "AH", "c0": "AS", "turned": "AD", "c1": "7H"})
    legal = g.legal_moves()
    assert {str(m) for m in g.safe_moves(g.state, legal)} == {"c0-f1", "turned-f1"}


def test_a_click_on_the_pack_turns_a_card() -> None:
    g = game({"c0": "10D", "turned": "9S", "stock": "8H"})
    view = engine.view_of(g)
    assert view["pack"]["move"] == "deal" and not view["pack"]["legal"]
