"""Cards, moves, seeded deals, options and positions: the core every game shares."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, strategies as st

import engine
from engine import Card, Move, PositionError, Suit
from engine.cards import RANK_TEXT, pack
from engine.deal import DealRandom, shuffled


def test_card_notation_round_trips_for_every_card() -> None:
    for c in pack(1):
        assert Card.parse(str(c)) == c
    assert str(Card.parse("TH")) == "10H"
    assert Card.parse("qs") == Card(12, Suit.SPADES)
    assert Card.parse("10D").name == "ten of diamonds"
    assert Card.parse("JC").name == "knave of clubs"


@pytest.mark.parametrize("bad", ["", "1S", "11H", "QX", "Q", "AS ", "10", "KK"])
def test_bad_card_text_is_refused(bad: str) -> None:
    if bad == "AS ":  # surrounding space is tolerated
        assert Card.parse(bad) == Card(1, Suit.SPADES)
        return
    with pytest.raises(ValueError):
        Card.parse(bad)


def test_card_identity_ignores_the_pack() -> None:
    two = pack(2)
    assert two[0] == two[52] and hash(two[0]) == hash(two[52])
    assert len(set(two)) == 52
    assert Card.parse("AS").red is False and Card.parse("AH").red is True
    assert sorted([Card.parse("KS"), Card.parse("2H"), Card.parse("AS")])[0] == Card.parse("AS")
    assert set(RANK_TEXT) == set(range(1, 14))


@pytest.mark.parametrize("text", ["deal", "redeal", "l0-a1", "stock-f3", "l3:2-a0",
                                  "a3-g1+n7-d2"])
def test_move_notation_round_trips(text: str) -> None:
    m = Move.parse(text)
    assert str(m) == text
    assert Move.parse(str(m)) == m


@pytest.mark.parametrize("bad", ["", "l0-", "-a1", "L0-A1", "l0-a1+", "a b", "l0:x-a1", "1-2"])
def test_bad_move_text_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        Move.parse(bad)


def test_splitmix_is_the_specified_generator() -> None:
    # First outputs of SplitMix64 seeded with 0 (the published reference values).
    r = DealRandom(0)
    assert [r.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@given(st.integers(min_value=0, max_value=2**53 - 1))
def test_shuffle_is_a_permutation_and_repeatable(seed: int) -> None:
    items = list(range(60))
    a = shuffled(items, seed)
    assert sorted(a) == items
    assert a == shuffled(items, seed)


def test_below_is_uniform_enough() -> None:
    r = DealRandom(12345)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.below(6)] += 1
    assert all(850 < c < 1150 for c in counts)


def deal_fingerprint(seeds: range = range(50)) -> str:
    """A digest of the first deals of every game (compared between CPython and Pyodide)."""
    h = hashlib.sha256()
    for slug in sorted(engine.GAMES):
        for n in seeds:
            h.update(engine.new_game(slug, seed=n).position().encode())
    return h.hexdigest()


def test_deal_fingerprint_is_stable_within_a_run() -> None:
    assert deal_fingerprint(range(3)) == deal_fingerprint(range(3))


def test_new_game_and_games_registry() -> None:
    assert "la-nivernaise" in engine.GAMES
    with pytest.raises(KeyError):
        engine.new_game("the-patience-of-job")
    g = engine.new_game("la-nivernaise", seed=1, options="pickup:over")
    assert engine.options_to_text(g.options) == "pickup:over"


CORRUPT = [
    "",
    "hello",
    "game=la-nivernaise",
    "game=no-such-game;deal=1",
    "game=la-nivernaise;deal=x1",
    "game=la-nivernaise;deal=1;opts=pickup:sideways",
    "game=la-nivernaise;deal=1;moves=zz-top",
    "game=la-nivernaise;deal=1;moves=redeal",
    "game=la-nivernaise;deal=1;redo=redeal",
    "game=la-nivernaise;deal=1;deal=2",
    "game=la-nivernaise;deal=1;colour=blue",
]


@pytest.mark.parametrize("text", CORRUPT)
def test_corrupt_positions_raise_position_error(text: str) -> None:
    with pytest.raises(PositionError):
        engine.load_position(text)


def test_tampered_start_positions_are_refused() -> None:
    g = engine.new_game("la-nivernaise", seed=9)
    text = g.position()
    # a card changed: the position no longer holds exactly two packs
    with pytest.raises(PositionError):
        engine.load_position(text.replace("stock:", "stock:AS.", 1))
    with pytest.raises(PositionError):
        engine.load_position(text.replace("|f0:", "|f9:", 1))
    with pytest.raises(PositionError):
        engine.load_position(text.replace("vars=redeals:0", "vars=redeals:x"))
    with pytest.raises(PositionError):
        engine.load_position(text[: len(text) // 2])


def test_registry_slugs_match_the_game_classes() -> None:
    book = ["la-belle-lucie", "the-sultan", "la-nivernaise", "the-empress-of-india",
            "the-constitution", "the-zodiac", "the-kings"]  # in the book's order
    assert [s for s in engine.GAMES if s in book] == book
    for slug, cls in engine.GAMES.items():
        assert cls.slug == slug
    with pytest.raises(KeyError):
        engine.GAMES["the-patience-of-job"]
