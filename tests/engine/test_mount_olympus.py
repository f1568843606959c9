"""Mount Olympus: every rule, every refusal (with the rule id it cites), the option, the end of
the game. Positions are written by hand and loaded through ``engine.load_position``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Outcome, PositionError
from engine.cards import pack
from engine.deal import shuffled
from engine.mount_olympus import (
    BATTERY_PILES,
    FOUNDATION_PILES,
    LAST,
    PILES,
    STOCK,
    TALON_PILE,
    TURNED,
    MountOlympus,
    _foundation_base,
)
from engine.solver import Budget, solve
from tests.engine.exhaustive import check_verdicts
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "mount-olympus"
R = f"{SLUG}-"
TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}


def run(i: int, stop: int | None = None) -> str:
    """Foundation ``i`` from its ace or two up to rank ``stop`` (default: its last card)."""
    base = _foundation_base(i)
    last = LAST[base.rank] if stop is None else stop
    return " ".join(TEXT.get(r, str(r)) + base.suit.value
                    for r in range(base.rank, last + 1, 2))


def game(piles: dict[str, str], options: str = "", rest_to: str = "stock",
         redeals: int = 0) -> MountOlympus:
    """A position with the given piles; each foundation not given holds only its ace or two,
    and every other card goes to ``rest_to``."""
    full = {f"f{i}": run(i, _foundation_base(i).rank) for i in FOUNDATION_PILES} | piles
    made = make_game(SLUG, full, vars={"redeals": redeals}, options=options or None,
                     rest_to=rest_to)
    text = made.position()
    assert "start=" in text
    g = engine.load_position(text)
    assert isinstance(g, MountOlympus) and g.state == made.state
    return g


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def pile(g: MountOlympus, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def faces(g: MountOlympus, pid: str) -> list[str | None]:
    view = engine.view_of(g)
    return [c["c"] for c in next(p for p in view["piles"] if p["id"] == pid)["cards"]]


def steps(g: MountOlympus) -> set[str]:
    return {str(m) for m in g.legal_moves() if m.steps}


def actions(g: MountOlympus) -> set[str]:
    return {str(m) for m in g.legal_moves() if m.action}


# f1 is the ace of spades' foundation, f0 the two of spades', f3 the ace of hearts', f2 the two
# of hearts' (the suits go round the pyramid in pairs: f8-f9 spades again, and so on).

def test_the_foundations_named_in_these_tests() -> None:
    assert [str(_foundation_base(i)) for i in (0, 1, 2, 3, 8, 9)] == [
        "2S", "AS", "2H", "AH", "2S", "AS"]


# ------------------------------------------------------------------------ the deal

@pytest.mark.rules("mount-olympus-pyramid", "mount-olympus-battery")
def test_the_deal_withdraws_the_aces_and_twos_and_lays_nine_cards_as_the_battery() -> None:
    for seed in range(20):
        g = engine.new_game(SLUG, seed=seed)
        s = g.state
        assert Counter(s.all_cards()) == Counter(pack(2))
        bases = [s.piles[f] for f in FOUNDATION_PILES]
        assert all(len(b) == 1 for b in bases)
        assert Counter(b[0] for b in bases) == Counter(c for c in pack(2) if c.rank <= 2)
        # aces and twos alternate all round the pyramid
        assert [b[0].rank for b in bases] == [2, 1] * 8
        deck = tuple(shuffled([c for c in pack(2) if c.rank > 2], seed))
        assert [s.piles[b] for b in BATTERY_PILES] == [(deck[-1 - k],) for k in range(9)]
        assert s.piles[STOCK] == deck[:-9] and len(s.piles[STOCK]) == 79
        assert not s.piles[TURNED] and not s.piles[TALON_PILE]
        assert all(faces(g, PILES[b].id)[0] is not None for b in BATTERY_PILES)


@pytest.mark.rules("mount-olympus-pyramid")
def test_the_pyramid_is_an_inverted_v_with_an_ace_and_a_two_at_its_apex() -> None:
    xs = [PILES[f].x for f in FOUNDATION_PILES]
    ys = [PILES[f].y for f in FOUNDATION_PILES]
    assert xs == sorted(xs)
    assert ys[7] == ys[8] == 0.0 and ys[0] == ys[15] == max(ys)
    assert ys[:8] == sorted(ys[:8], reverse=True) and ys[8:] == sorted(ys[8:])
    assert _foundation_base(7).rank == 1 and _foundation_base(8).rank == 2


# ------------------------------------------------------------------------ foundations

@pytest.mark.rules("mount-olympus-rule-1", "mount-olympus-rule-2", "mount-olympus-pyramid")
def test_the_aces_ascend_by_odd_numbers_in_suit_to_the_kings() -> None:
    g = game({"b0": "3S", "b1": "5S", "b2": "3H", "b3": "4S", "b4": "7S"})
    assert {"b0-f1", "b0-f9"} <= steps(g)
    assert refusal_rule(g, "b1-f1") == R + "rule-2"        # the three comes first
    assert refusal_rule(g, "b3-f1") == R + "rule-2"        # an even number on an ace
    assert refusal_rule(g, "b2-f1") == R + "rule-1"        # hearts on spades
    g.play("b0-f1")
    g.play("b1-f1")
    g.play("b4-f1")
    assert pile(g, "f1") == cards("AS 3S 5S 7S")
    g = game({"f1": run(1), "b0": "3S"})
    assert pile(g, "f1")[-1] == Card(13, engine.cards.Suit.SPADES)
    assert refusal_rule(g, "b0-f1") == R + "rule-2"        # finished with its king
    assert "b0-f9" in steps(g)


@pytest.mark.rules("mount-olympus-rule-1", "mount-olympus-rule-2", "mount-olympus-pyramid")
def test_the_twos_ascend_by_even_numbers_in_suit_to_the_queens() -> None:
    g = game({"b0": "4S", "b1": "3S", "b2": "4H", "f0": run(0, 10), "b3": "QS", "b4": "KS"})
    assert "b0-f8" in steps(g)
    assert refusal_rule(g, "b1-f8") == R + "rule-2"        # an odd number on a two
    assert refusal_rule(g, "b2-f8") == R + "rule-1"
    assert refusal_rule(g, "b4-f0") == R + "rule-2"        # the knave counts eleven
    g.play("b3-f0")                                        # the queen, twelve, on the ten
    assert pile(g, "f0") == cards("2S 4S 6S 8S 10S QS")
    assert refusal_rule(g, "b4-f0") == R + "rule-2"        # finished with its queen


@pytest.mark.rules("mount-olympus-rule-2", "mount-olympus-pyramid")
def test_the_foundations_and_the_cards_played_on_them_stay() -> None:
    g = game({"f1": "AS 3S", "b0": ""})
    assert refusal_rule(g, "f1-b0") == R + "rule-2"
    assert refusal_rule(g, "f0-b0") == R + "pyramid"
    assert refusal_rule(g, "f1:0-b0") == R + "pyramid"
    assert refusal_rule(g, "f1-f9") == R + "rule-2"


# ------------------------------------------------------------------------ the battery

@pytest.mark.rules("mount-olympus-rule-3", "mount-olympus-rule-1", "mount-olympus-battery-play")
def test_the_battery_descends_by_twos_in_suit_as_the_book_shows() -> None:
    g = game({"b0": "9S", "b1": "7S", "b2": "5S", "b3": "QH", "b4": "10H", "b5": "8H",
              "b6": "7H", "b7": "8S", "b8": "KD"})
    assert {"b1-b0", "b2-b1", "b4-b3", "b5-b4"} <= steps(g)
    assert refusal_rule(g, "b6-b0") == R + "rule-1"        # a heart on a spade
    assert refusal_rule(g, "b7-b0") == R + "rule-3"        # one lower, not two
    assert refusal_rule(g, "b2-b0") == R + "rule-3"        # four lower
    assert refusal_rule(g, "b0-b1") == R + "rule-3"        # never upwards
    g.play("b1-b0")                                        # on a nine place a seven,
    g.play("b2-b0")                                        # on the seven, a five;
    g.play("b4-b3")                                        # on a queen place a ten,
    g.play("b5-b3")                                        # then an eight
    assert pile(g, "b0") == cards("9S 7S 5S") and pile(g, "b3") == cards("QH 10H 8H")
    assert not pile(g, "b1") and not pile(g, "b2")


@pytest.mark.rules("mount-olympus-rule-3")
def test_a_knave_goes_on_a_king_and_nothing_on_a_three_or_four() -> None:
    g = game({"b0": "KC", "b1": "JC", "b2": "3C", "b3": "4C", "b4": "5C", "b5": "6C"})
    assert "b1-b0" in steps(g)
    assert refusal_rule(g, "b4-b2") == R + "rule-3"
    assert refusal_rule(g, "b5-b3") == R + "rule-3"
    assert not {s for s in steps(g) if s.endswith(("b2", "b3"))}


@pytest.mark.rules("mount-olympus-rule-4", "mount-olympus-battery-play")
def test_only_the_uppermost_card_of_the_battery_is_available() -> None:
    g = game({"b0": "9S 7S 5S", "b1": "KS", "f1": "AS 3S 5S", "f9": "AS 3S",
              "b2": "JS"})
    assert refusal_rule(g, "b0:1-f1") == R + "rule-4"      # the seven, beneath the five
    assert refusal_rule(g, "b0:0-b2") == R + "rule-4"      # not a run at once either
    assert "b0-f1" not in steps(g)                         # the five is not wanted
    g.play("b0-f9")                                        # the five goes to the other ace
    assert "b0-f1" in steps(g)                             # the seven, released
    g.play("b0-f1")
    assert "b0-b2" in steps(g)                             # and the nine beneath it


@pytest.mark.rules("mount-olympus-battery-play", "mount-olympus-spaces")
def test_battery_cards_are_played_or_placed_but_never_moved_into_a_space() -> None:
    g = game({"b0": "3D", "b1": "9D 7D", "b2": ""})
    assert {"b0-f5", "b0-f13"} <= steps(g)                 # the ace of diamonds' foundations
    assert refusal_rule(g, "b1-b2") == R + "spaces"
    assert refusal_rule(g, "b0-b2") == R + "spaces"
    assert not {s for s in steps(g) if s.endswith("b2")}


# ------------------------------------------------------------------------ pack and talon

@pytest.mark.rules("mount-olympus-deal", "mount-olympus-talon")
def test_turning_a_card_lays_the_last_one_on_the_talon() -> None:
    g = game({"b0": "KS", "stock": "8H 6C"})
    assert refusal_rule(g, "stock-b0") == R + "deal"       # turned up first
    g.play("deal")
    assert pile(g, "turned") == cards("6C")
    g.play("deal")
    assert pile(g, "turned") == cards("8H") and pile(g, "talon") == cards("6C")
    assert refusal_rule(g, "turned-talon") == R + "talon"


@pytest.mark.rules("mount-olympus-deal", "mount-olympus-rule-3", "mount-olympus-talon")
def test_the_card_turned_up_and_the_talons_top_are_played_and_placed() -> None:
    g = game({"b0": "9S", "b1": "QH", "turned": "7S", "talon": "KC 10H 3D"})
    assert {"turned-b0", "talon-f5", "talon-f13"} <= steps(g)
    assert refusal_rule(g, "talon:1-b1") == R + "talon"    # only the talon's top
    g.play("talon-f5")
    assert "talon-b1" in steps(g)
    g.play("talon-b1")
    g.play("turned-b0")
    assert pile(g, "b0") == cards("9S 7S") and pile(g, "b1") == cards("QH 10H")
    assert refusal_rule(g, "b1-talon") == R + "talon"      # nothing else goes there


@pytest.mark.rules("mount-olympus-spaces")
def test_a_space_is_refilled_from_the_pack_or_the_talon_when_the_player_chooses() -> None:
    g = game({"b0": "", "b1": "", "turned": "8C", "talon": "JD KD", "stock": "5H"})
    assert {"turned-b0", "talon-b0", "turned-b1", "talon-b1"} <= steps(g)
    assert "deal" in actions(g)                            # a space need not be filled
    g.play("talon-b1")
    g.play("turned-b0")
    assert pile(g, "b0") == cards("8C") and pile(g, "b1") == cards("KD")
    g.play("talon-b1")                                     # built on like the others
    assert pile(g, "b1") == cards("KD JD")


@pytest.mark.rules("mount-olympus-talon", "mount-olympus-deal")
def test_a_suitable_card_turned_up_must_be_used_before_the_next_is_turned() -> None:
    pos = {"b0": "9S", "b1": "", "turned": "7S", "stock": "8H"}
    g = game(pos)
    assert refusal_rule(g, "deal") == R + "talon"          # it could go on the nine
    g.play("turned-b1")                                    # or into the space
    assert "deal" in actions(g)
    g = game(pos | {"b0": "KC", "turned": "3S"})           # a foundation takes it
    assert refusal_rule(g, "deal") == R + "talon"
    g = game(pos | {"b0": "KC"})                           # only a space: no employment
    g.play("deal")
    assert pile(g, "talon") == cards("7S")
    g = game(pos, options="turned_card:no")                # the other reading
    g.play("deal")
    assert pile(g, "talon") == cards("7S") and pile(g, "turned") == cards("8H")


@pytest.mark.rules("mount-olympus-deal")
def test_the_pack_is_exhausted() -> None:
    g = game({"b0": "KS", "turned": "8H", "talon": "6C"}, rest_to="talon", redeals=1)
    assert not pile(g, "stock")
    assert refusal_rule(g, "deal") == R + "deal"


# ------------------------------------------------------------------------ the re-deal

@pytest.mark.rules("mount-olympus-redeal")
def test_the_talon_is_taken_up_and_re_dealt_once_unshuffled() -> None:
    g = game({"b0": "KS", "turned": "QC", "talon": "8H 6D"}, rest_to="talon")
    stock_before = pile(g, "stock")
    assert not stock_before
    talon = pile(g, "talon") + pile(g, "turned")
    g.play("redeal")
    assert pile(g, "stock") == talon[::-1]                 # the first card laid comes first
    assert not pile(g, "talon") and not pile(g, "turned")
    g.play("deal")
    assert pile(g, "turned") == talon[:1]
    assert refusal_rule(g, "redeal") == R + "redeal"       # with the pack not yet dealt
    while pile(g, "stock"):
        if g.refusal(g.state, engine.Move(action="deal")) is not None:
            g.play(next(m for m in g.legal_moves() if m.steps and m.steps[0][0] == "turned"))
            continue
        g.play("deal")
    assert refusal_rule(g, "redeal") == R + "redeal"       # once only


@pytest.mark.rules("mount-olympus-redeal", "mount-olympus-talon")
def test_the_redeal_waits_for_a_suitable_card_turned_up() -> None:
    g = game({"b0": "KS", "turned": "JS", "talon": "8H 6D"}, rest_to="talon")
    assert refusal_rule(g, "redeal") == R + "talon"
    g = game({"b0": "KS", "turned": "JS", "talon": "8H 6D"}, rest_to="talon",
             options="turned_card:no")
    assert "redeal" in actions(g)
    g = game({f"f{i}": run(i) for i in FOUNDATION_PILES} | {"f1": run(1, 11), "b0": "KS"})
    assert not pile(g, "stock") and not pile(g, "talon")   # nothing to re-deal
    assert refusal_rule(g, "redeal") == R + "redeal"


# ------------------------------------------------------------------------ the end

def _stuck(space: bool = False) -> dict[str, str]:
    """Ten foundations each short of their last two cards: the last nine of those cards fill
    the battery, frozen (a king or queen takes nothing and goes nowhere); the talon holds the
    cards the foundations want, under the tenth king or queen."""
    out: dict[str, str] = {}
    battery: list[str] = []
    talon_low: list[str] = []
    for i in range(10):
        full = run(i).split()
        out[f"f{i}"] = " ".join(full[:-2])
        talon_low.append(full[-2])
        battery.append(full[-1])
    for j in range(9):
        out[f"b{j}"] = battery[j]
    top = battery[9]
    if space:
        out["b8"] = ""
        top = battery[8] + " " + top
    out["talon"] = " ".join(talon_low + top.split())
    return out | {f"f{i}": run(i) for i in range(10, 16)}


@pytest.mark.rules("mount-olympus-success")
def test_the_game_is_won_with_the_pyramid_of_kings_and_queens() -> None:
    g = game({f"f{i}": run(i) for i in FOUNDATION_PILES})
    assert g.outcome() is Outcome.WON
    assert [pile(g, f"f{i}")[-1].rank for i in FOUNDATION_PILES] == [12, 13] * 8
    assert "Won" in g.status_of(g.state)


@pytest.mark.rules("mount-olympus-success", "mount-olympus-redeal")
def test_lost_when_nothing_can_reach_the_foundations_and_no_redeal_is_left() -> None:
    g = game(_stuck(), redeals=1)
    assert not pile(g, "stock") and len(pile(g, "talon")) == 11
    assert not g.legal_moves()
    assert g.outcome() is Outcome.LOST
    assert "failed" in g.status_of(g.state)
    assert game(_stuck(), redeals=0).outcome() is None     # the re-deal is still to come
    stuck = _stuck()
    g = game(stuck | {"talon": "", "stock": stuck["talon"]}, redeals=1)
    assert g.outcome() is None                             # the pack is still to come


@pytest.mark.rules("mount-olympus-success", "mount-olympus-spaces")
def test_not_lost_while_a_move_can_bring_a_wanted_or_unseen_card_within_reach() -> None:
    # A space: the talon's top may fill it, and would uncover a card not yet seen.
    g = game(_stuck(space=True), redeals=1)
    assert g.progress_reachable(g.state) is True and g.outcome() is None
    # The tenth king or queen turned up instead of lying on the talon: the talon's top is
    # then a card a foundation wants.
    stuck = _stuck()
    low, top = stuck["talon"].rsplit(" ", 1)
    g = game(stuck | {"talon": low, "turned": top}, redeals=1)
    assert g.outcome() is None and g.legal_moves()


@pytest.mark.rules("mount-olympus-success")
@pytest.mark.parametrize("seed", [1, 2, 3, 5])
def test_every_loss_verdict_survives_an_exhaustive_search(seed: int) -> None:
    # The last cards of a few foundations, dealt at random into the battery and the talon,
    # the pack exhausted and the re-deal spent or still to come; every position reachable is
    # searched, under each reading.
    rng = random.Random(seed)
    base = {f"f{i}": run(i) for i in FOUNDATION_PILES}
    loose: list[str] = []
    for j in rng.sample(range(16), 2):
        found = base[f"f{j}"].split()
        k = rng.randrange(1, 4)
        base[f"f{j}"] = " ".join(found[:-k])
        loose += found[-k:]
    rng.shuffle(loose)
    battery: dict[str, str] = {}
    talon: list[str] = []
    for c in loose:
        b = f"b{rng.randrange(9)}"
        if rng.random() < 0.5 and b not in battery:
            battery[b] = c
        else:
            talon.append(c)
    for opts in ("", "turned_card:no"):
        for redeals in (0, 1):
            g = game(base | battery | {"talon": " ".join(talon)}, options=opts,
                     rest_to="talon", redeals=redeals)
            result = check_verdicts(g, limit=50_000)
            found = solve(g, Budget(nodes=20_000))
            assert found.verdict == ("won" if result.winnable else "lost"), g.position()


# ------------------------------------------------------------------------ positions, views

def test_positions_are_checked() -> None:
    with pytest.raises(PositionError):      # a foundation begun with another card
        engine.load_position(make_game(SLUG, {"f0": "2H"}).position())
    full = {f"f{i}": run(i, _foundation_base(i).rank) for i in FOUNDATION_PILES}
    with pytest.raises(PositionError):      # out of order
        engine.load_position(make_game(SLUG, full | {"f1": "AS 5S"}).position())
    with pytest.raises(PositionError):      # the battery not built in sequence
        engine.load_position(make_game(SLUG, full | {"b0": "9S 8S"}).position())
    with pytest.raises(PositionError):      # two cards turned up
        engine.load_position(make_game(SLUG, full | {"turned": "9S 8S"}).position())
    with pytest.raises(PositionError):      # two re-deals
        engine.load_position(make_game(SLUG, full, vars={"redeals": 2}).position())


def test_the_deal_and_its_notation_round_trip() -> None:
    g = engine.new_game(SLUG, seed=123)
    for _ in range(5):
        legal = g.legal_moves()
        g.play(legal[0])
    same = engine.load_position(g.position())
    assert same.position() == g.position()
    assert engine.load_position(g.position(compact=True)).state == g.state


def test_the_view_hides_the_pack_and_the_talon_beneath_its_top() -> None:
    g = game({"b0": "9D 7D", "talon": "9S 8C", "stock": "KC"})
    assert faces(g, "talon") == [None, "8C"]
    assert all(c is None for c in faces(g, "stock"))
    assert faces(g, "b0") == ["9D", "7D"]


def test_a_click_on_the_pack_turns_a_card_then_redeals() -> None:
    g = game({"b0": "9S", "turned": "7S", "stock": "8H"})
    view = engine.view_of(g)
    assert view["pack"]["move"] == "deal" and not view["pack"]["legal"]
    g = game({"b0": "KS", "turned": "8H"}, rest_to="talon")
    assert engine.view_of(g)["pack"]["move"] == "redeal"


def test_random_play_keeps_every_card() -> None:
    for seed in range(3):
        g = engine.new_game(SLUG, seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            legal = g.legal_moves()
            if not legal:
                break
            g.play(rng.choice(legal))
            assert Counter(g.state.all_cards()) == Counter(pack(2))
