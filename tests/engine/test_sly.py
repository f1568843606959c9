"""Sly: every rule, every refusal (with the rule id it cites), the deals of twenty, the end."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine import Card, Move, Outcome, PositionError
from engine.deal import shuffled
from engine.sly import (
    FOUNDATION_PILES, PACKETS, PILES, STOCK, TURNED, VARS, Sly, SlyOptions, base_of,
)
from tests.engine.fixtures import make_game, refusal_rule

SLUG = "sly"
BASES = {f"f{f}": str(base_of(f)) for f in FOUNDATION_PILES}
#: Twenty cards no bare foundation takes (neither a two nor a queen).
FILLER = "9H 9D 9S 9C 10H 10D 10S 10C 8H 8D 8S 8C 7H 7D 7S 7C 6H 6D 6S 6C".split()


def game(piles: dict[str, str], vars: dict[str, int] | None = None, bases: bool = True,
         **kw: object) -> Sly:
    """A position with the given piles (every other card at the bottom of the pack, unless
    ``rest_to`` says otherwise), loaded through ``engine.load_position`` with an explicit
    start. By default the eight foundations hold their aces and kings."""
    given = {**(BASES if bases else {}), **piles}
    made = make_game(SLUG, given, vars={"deal": 1, "placed": 0, **(vars or {})},
                     **kw)  # type: ignore[arg-type]
    g = engine.load_position(made.position())
    assert isinstance(g, Sly) and g.state == made.state
    return g


def promenade(**over: str) -> dict[str, str]:
    """All twenty packets filled with a card no bare foundation takes; ``p3="..."`` etc.
    replace a packet's cards (bottom to top)."""
    out = {f"p{k + 1}": FILLER[k] for k in range(20)}
    out.update(over)
    return out


def between(stock: str = "", deal: int = 2, **over: str) -> Sly:
    """A position between deals: the promenade full, ``deal`` deals complete; ``stock`` are
    the top cards of the pack (last is top)."""
    piles = promenade(**over)
    if stock:
        piles["stock"] = stock
    return game(piles, {"deal": deal, "placed": 20})


def pile(g: Sly, pid: str) -> tuple[Card, ...]:
    return g.state.piles[g.pile_index(pid)]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


# ----------------------------------------------------------------------------- the deal

@pytest.mark.rules("sly-promenade", "sly-foundations")
def test_the_deal_starts_with_an_empty_table_and_the_whole_pack() -> None:
    for seed in range(5):
        g = engine.new_game(SLUG, seed=seed)
        s = g.state
        assert s.piles[STOCK] == tuple(shuffled(sorted(engine.pack(2)), seed))
        assert all(not s.piles[i] for i in range(len(PILES)) if i != STOCK)
        assert s.vars == (1, 0)
        assert Counter(s.all_cards()) == Counter(engine.pack(2))
        assert g.outcome() is None
    # two rows of ten, the aces on the left and the kings on the right above them
    specs = {p.id: p for p in Sly.PILES}
    assert [specs[f"p{k}"].y for k in range(1, 11)] == [specs["p1"].y] * 10
    assert [specs[f"p{k}"].y for k in range(11, 21)] == [specs["p11"].y] * 10
    assert specs["p11"].y > specs["p1"].y > specs["f0"].y
    assert [base_of(f) for f in FOUNDATION_PILES] == list(cards("AH AD AS AC KH KD KS KC"))
    # the book's other arrangement, four rows of five, serves the phone
    narrow = Sly.LAYOUTS[0]
    rows = Counter(narrow.at[f"p{k}"][1] for k in range(1, 21))
    assert sorted(rows.values()) == [5, 5, 5, 5]


@pytest.mark.rules("sly-deal", "sly-rule-4", "sly-foundations")
def test_the_first_ace_and_king_of_a_suit_go_at_once_to_their_places() -> None:
    g = game({"stock": "AH"}, bases=False)
    g.play("deal")
    assert pile(g, "f0") == cards("AH") and not pile(g, "turned")
    g = game({"stock": "KS"}, bases=False)
    g.play("deal")
    assert pile(g, "f6") == cards("KS") and not pile(g, "turned")
    # the second ace of a suit is an ordinary card: turned up, to be placed or played
    g = game({"f0": "AH", "stock": "AH"}, bases=False)
    g.play("deal")
    assert pile(g, "f0") == cards("AH") and pile(g, "turned") == cards("AH")


@pytest.mark.rules("sly-deal", "sly-rule-4")
def test_a_card_turned_up_may_be_played_or_placed_and_must_go_before_the_next() -> None:
    g = game({"stock": "3H 2H"})
    g.play("deal")
    assert pile(g, "turned") == cards("2H")
    legal = {str(m) for m in g.legal_moves()}
    assert "turned-f0" in legal and "turned-p1" in legal and "deal" not in legal
    assert refusal_rule(g, "deal") == "sly-deal"
    g.play("turned-f0")          # played as it turns up
    assert pile(g, "f0") == cards("AH 2H") and g.state.vars == (1, 0)
    g.play("deal")
    g.play("turned-p5")          # or placed, though it could be played
    assert pile(g, "p5") == cards("3H") and g.state.vars == (1, 1)
    assert refusal_rule(g, "stock-p1") == "sly-deal"
    assert refusal_rule(g, "f0-p2") == "sly-foundations"


@pytest.mark.rules("sly-promenade", "sly-heaping")
def test_the_first_deal_lays_one_card_on_each_place_played_cards_not_counted() -> None:
    g = game({"stock": " ".join(FILLER[:19] + ["2H"] + FILLER[19:])})
    # the pack's top is the last card: 6C first, then 2H, then the other nineteen
    g.play("deal")
    g.play("turned-p1")
    g.play("deal")
    assert pile(g, "turned") == cards("2H")
    assert refusal_rule(g, "turned-p1") == "sly-promenade"
    g.play("turned-f0")          # played during the deal: not one of the twenty
    for k in range(2, 21):
        assert g.state.vars[1] == k - 1
        assert g.dealing(g.state)
        g.play("deal")
        g.play(f"turned-p{k}")
    assert g.state.vars == (1, 20)
    assert all(len(pile(g, f"p{k}")) == 1 for k in range(1, 21))
    assert not g.dealing(g.state)


@pytest.mark.rules("sly-rule-4", "sly-examine", "sly-rule-3")
def test_nothing_on_the_promenade_is_played_until_the_twenty_are_complete() -> None:
    over = promenade(p1="2H")
    del over["p20"]
    g = game({**over, "stock": "5C"}, {"placed": 19})
    assert refusal_rule(g, "p1-f0") == "sly-rule-4"
    g.play("deal")
    assert refusal_rule(g, "p1-f0") == "sly-rule-4"
    g.play("turned-p20")         # the twentieth: the first deal is complete
    assert not g.dealing(g.state)
    g.play("p1-f0")
    assert pile(g, "f0") == cards("AH 2H")


@pytest.mark.rules("sly-rule-4", "sly-second", "sly-covering")
def test_in_a_later_deal_even_an_uncovered_card_of_an_earlier_deal_waits() -> None:
    g = game({**promenade(p3="2H", p4="2S"), "stock": "9C 5D"}, {"deal": 2, "placed": 20},
             options=SlyOptions(plays_first=False))
    g.play("deal")               # a third deal begins
    assert g.state.vars == (3, 0)
    assert refusal_rule(g, "p3-f0") == "sly-rule-4"
    g.play("turned-p1")          # covering a card of the first row
    assert pile(g, "p1") == cards(f"{FILLER[0]} 5D")
    assert refusal_rule(g, "p3-f0") == "sly-rule-4"


@pytest.mark.rules("sly-rule-3", "sly-between")
def test_only_the_uppermost_card_is_available_between_deals() -> None:
    g = between(stock="9C", p2="3H 2H", p7="2D 4C")
    assert refusal_rule(g, "p7:0-f1") == "sly-rule-3"
    assert refusal_rule(g, "p2:0-f0") == "sly-rule-3"
    g.play("p2-f0")
    g.play("p2-f0")              # its removal released the card beneath
    assert pile(g, "f0") == cards("AH 2H 3H")


@pytest.mark.rules("sly-rule-1", "sly-foundations")
def test_the_foundations_follow_suit_aces_ascend_kings_descend() -> None:
    g = between(stock="9C", p1="2D", p2="QH", p3="3H", p4="QS", p5="2H")
    assert refusal_rule(g, "p1-f0") == "sly-rule-1"
    assert refusal_rule(g, "p2-f6") == "sly-rule-1"
    assert refusal_rule(g, "p3-f0") == "sly-foundations"   # the two first
    assert refusal_rule(g, "p4-f2") == "sly-foundations"   # a queen on an ace
    g.play("p2-f4")              # the queen of hearts on the king of hearts
    g.play("p5-f0")
    g.play("p3-f0")
    assert pile(g, "f4") == cards("KH QH") and pile(g, "f0") == cards("AH 2H 3H")
    full = game({"f0": " ".join(f"{r}H" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()),
                 **promenade(p1="2H"), "stock": "9C"}, {"placed": 20})
    assert refusal_rule(full, "p1-f0") == "sly-foundations"
    # a bare foundation begins only with its ace or king
    bare = game({**promenade(p1="2H"), "stock": "9C"}, {"placed": 20}, bases=False)
    assert refusal_rule(bare, "p1-f0") == "sly-foundations"
    assert refusal_rule(g, "f0-p1") == "sly-foundations"


@pytest.mark.rules("sly-rule-2", "sly-covering", "sly-heaping")
def test_later_deals_go_on_any_packet_any_card_heaped_as_one_pleases() -> None:
    g = game({**promenade(), "stock": "QS 2C JD 3H"}, {"deal": 2, "placed": 20},
             options=SlyOptions(plays_first=False))
    for _ in range(4):
        g.play("deal")
        legal = {str(m) for m in g.legal_moves()}
        assert {f"turned-p{k}" for k in range(1, 21)} <= legal
        g.play("turned-p4")      # all four heaped on one packet, no suit, no sequence
    assert pile(g, "p4") == cards(f"{FILLER[3]} 3H JD 2C QS")
    assert g.state.vars == (3, 4)
    assert g.dealing(g.state)


@pytest.mark.rules("sly-heaping", "sly-rounds")
def test_a_deal_counts_twenty_placed_and_the_last_ends_with_the_pack() -> None:
    g = game({**promenade(), "stock": "5C 2H"}, {"deal": 3, "placed": 18}, rest_to="p9")
    g.play("deal")
    g.play("turned-f0")          # played: not counted
    assert g.state.vars == (3, 18) and g.dealing(g.state)
    g.play("deal")
    g.play("turned-p1")
    assert g.state.vars == (3, 19)
    # the pack is now exhausted: the last deal is complete with nineteen
    assert not pile(g, "stock") and not g.dealing(g.state)
    assert refusal_rule(g, "deal") == "sly-rounds"


@pytest.mark.rules("sly-second", "sly-examine")
def test_the_next_deal_waits_until_no_more_can_be_played_unless_sy4_says_otherwise() -> None:
    g = between(stock="9C", p6="2H")
    assert refusal_rule(g, "deal") == "sly-second"
    g.play("p6-f0")
    g.play("deal")
    assert g.state.vars[0] == 3
    loose = game({**promenade(p6="2H"), "stock": "9C"}, {"deal": 2, "placed": 20},
                 options=SlyOptions(plays_first=False))
    loose.play("deal")
    assert loose.state.vars == (3, 0)


@pytest.mark.rules("sly-between", "sly-deal")
def test_a_vacancy_between_deals_is_refilled_at_once_from_the_pack() -> None:
    # no ace of hearts founded yet
    g = game({**{k: v for k, v in BASES.items() if k != "f0"},
              **promenade(p6="2S"), "stock": "5C 3S AH"}, {"deal": 2, "placed": 20},
             bases=False)
    g.play("p6-f2")              # the two of spades played: its packet is empty
    # refilled at once: the ace of hearts founds its foundation, the three of spades fills
    assert pile(g, "f0") == cards("AH")
    assert pile(g, "p6") == cards("3S")
    assert g.state.vars == (2, 20)   # not part of the next deal
    g.play("p6-f2")              # available at once, and refilled again
    assert pile(g, "p6") == cards("5C")
    assert not g.dealing(g.state)


@pytest.mark.rules("sly-between", "sly-rounds")
def test_with_the_pack_exhausted_an_emptied_packet_stays_empty() -> None:
    g = game({**promenade(p6="2H"), "stock": ""}, {"deal": 5, "placed": 12},
             rest_to="p9")
    g.play("p6-f0")
    assert not pile(g, "p6")


@pytest.mark.rules("sly-transfer")
def test_cards_are_not_transferable_from_one_packet_to_another() -> None:
    g = between(stock="9C", p1="5H", p2="6H")
    assert refusal_rule(g, "p1-p2") == "sly-transfer"
    assert refusal_rule(g, "p2-p1") == "sly-transfer"
    dealing = game({**promenade(p1="5H"), "stock": "9C"}, {"placed": 3})
    assert refusal_rule(dealing, "p1-p2") == "sly-transfer"


@pytest.mark.rules("sly-no-redeal")
def test_there_is_no_redeal_and_a_blocked_end_is_lost() -> None:
    g = between(stock="9C")
    assert refusal_rule(g, "redeal") == "sly-no-redeal"
    end = game(promenade(p1="3H 2S 9D", p9=FILLER[8]), {"deal": 5, "placed": 7},
               rest_to="p1")
    assert not pile(end, "stock")
    assert end.outcome() is Outcome.LOST
    assert end.legal_moves() == []
    assert refusal_rule(end, "deal") == "sly-rounds"


def test_won_when_all_eight_foundations_are_complete() -> None:
    ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    piles = {}
    for f in FOUNDATION_PILES:
        s = base_of(f).suit.name[0]
        seq = [f"{r}{s}" for r in ranks]
        piles[f"f{f}"] = " ".join(seq if f < 4 else seq[::-1])
    g = game(piles, {"deal": 5, "placed": 20}, bases=False)
    assert g.outcome() is Outcome.WON
    almost = game({**piles, "f0": " ".join(f"{r}H" for r in ranks[:-1]), "p1": "KH"},
                  {"deal": 5, "placed": 20}, bases=False)
    assert almost.outcome() is None
    almost.play("p1-f0")
    assert almost.outcome() is Outcome.WON


def test_positions_are_checked() -> None:
    with pytest.raises(PositionError):
        game({"f0": "AH 3H"}, {"placed": 0})
    with pytest.raises(PositionError):
        game({}, {"placed": 21})
    with pytest.raises(PositionError):
        game({}, {"deal": 0})
    with pytest.raises(PositionError):
        game({"turned": "5H 6H"}, {})
    assert VARS == ("deal", "placed")


def test_legal_in_agrees_with_refusal_and_losses_are_dead_ends() -> None:
    for seed in range(6):
        g = engine.new_game(SLUG, seed=seed)
        g.options = SlyOptions(plays_first=seed % 2 == 0)
        rng = random.Random(seed)
        while g.outcome() is None:
            s = g.state
            legal = {str(m) for m in g.legal_in(s)}
            by_refusal = {str(m) for m in g.candidate_moves(s) if g.refusal(s, m) is None}
            assert legal == by_refusal
            assert legal
            ms = g.legal_moves()
            plays = [m for m in ms if not m.action and m.steps[0][1].startswith("f")]
            g.play(rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(ms))
            assert Counter(g.state.all_cards()) == Counter(engine.pack(2))
        if g.outcome() is Outcome.LOST:
            assert g.legal_moves() == []


def test_the_view_shows_every_card_of_a_packet_and_hides_the_pack() -> None:
    g = between(stock="9C", p1="5H 6H")
    assert g.card_faces(g.state, g.pile_index("p1")) == [{"c": "5H"}, {"c": "6H"}]
    assert all(f["c"] is None for f in g.card_faces(g.state, STOCK))
    g = game({**promenade(), "stock": "9C 4D"}, {"placed": 3})
    g.play("deal")
    assert g.card_faces(g.state, TURNED) == [{"c": "4D"}]


def test_board_notation_and_pack_click() -> None:
    g = engine.new_game(SLUG, seed=3)
    assert g.pack_move(g.state, g.legal_in(g.state)) == Move(action="deal")
    g.play("deal")
    assert "from the card turned up to packet 1" in g.describe(g.state, Move.step("turned", "p1"))
    assert refusal_rule(g, "turned-turned") == "sly-board"
    assert engine.load_position(g.position()).state == g.state
    assert TURNED == STOCK + 1 and list(PACKETS) == list(range(8, 28))


@pytest.mark.rules("sly-no-redeal", "sly-rounds")
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_every_loss_verdict_survives_an_exhaustive_search(seed: int) -> None:
    # The last cards of three foundations taken off: some lie in one packet of the promenade,
    # the others wait in the pack for the end of the last deal (the other packets are empty);
    # every position reachable is searched, under each reading, and the solver agrees.
    from engine.solver import Budget, solve
    from tests.engine.exhaustive import check_verdicts
    rng = random.Random(seed)
    ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    found: dict[str, list[str]] = {}
    for f in FOUNDATION_PILES:
        s = str(base_of(f).suit.value)
        seq = [r + s for r in ranks]
        found[f"f{f}"] = seq if f < 4 else seq[::-1]
    loose: list[str] = []
    for f in rng.sample(range(8), 3):
        k = rng.randrange(1, 3)
        loose += found[f"f{f}"][-k:]
        found[f"f{f}"] = found[f"f{f}"][:-k]
    rng.shuffle(loose)
    cut = rng.randrange(1, len(loose))
    piles = {k: " ".join(v) for k, v in found.items()}
    piles["p1"] = " ".join(loose[:cut])
    piles["stock"] = " ".join(loose[cut:])
    piles.update({f"p{k}": "" for k in range(2, 21)})
    for opts in ("", "plays_first:no"):
        made = make_game(SLUG, piles, vars={"deal": 5, "placed": 17}, options=opts or None,
                         rest_to="p20")
        g = engine.load_position(made.position())
        result = check_verdicts(g, limit=50_000)
        solved = solve(g, Budget(nodes=20_000))
        assert solved.verdict == ("won" if result.winnable else "lost"), g.position()


@pytest.mark.rules("sly-heaping", "sly-transfer", "sly-rounds")
@pytest.mark.parametrize("deal, opts", [(61, ""), (77, ""), (61, "plays_first:no")])
def test_whole_deals_are_won_by_the_perfect_player_and_replayed(deal: int, opts: str) -> None:
    # The game can be won on this board from a fresh deal: the perfect player, guided by
    # the order of the pack (Sly.solver_order), finds a winning line within a small budget,
    # and the line, replayed move by move through play(), ends WON with all 104 cards played.
    from engine.solver import Budget, solve
    g = engine.new_game(SLUG, deal, options=opts or None)
    found = solve(g, Budget(nodes=1000))
    assert found.verdict == "won", found
    replay = engine.new_game(SLUG, deal, options=opts or None)
    for move in found.line:
        replay.play(move)
    assert replay.outcome() is Outcome.WON
    assert replay.played(replay.state) == 104
    assert not replay.state.piles[STOCK]
