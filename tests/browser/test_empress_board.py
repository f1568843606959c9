"""The Empress of India's board in headless Chromium, against the built site on 127.0.0.1.

One page carries the main flow of deal 1: all 208 cards drawn and legible, a pair played by
mouse, a pair played by keyboard, two cards paired and drawn as one overlapped unit, that
pair played by keyboard (its buried card included), a refusal quoting Rule I, dealing a card
from the pack, undo. Separate pages check a refusal quoting Rule III (a deal with a talon) and the
board on a 390-pixel phone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Watch, drawing, open_context, scroll_in, wait_drawn

pytestmark = pytest.mark.browser

SLUG = "the-empress-of-india"
BOARD = f".cadogan-board[data-game='{SLUG}']"
READY = f"{BOARD}[data-engine='ready']"
BOOT_TIMEOUT = 90_000
ROOT = Path(__file__).resolve().parents[2]


def view(page: Any) -> dict[str, Any]:
    return page.evaluate(f"document.querySelector(\"{BOARD}\").cadoganBoard.view")


def position(page: Any) -> str:
    return page.evaluate(f"document.querySelector(\"{BOARD}\").cadoganBoard.position")


def said(page: Any) -> str:
    return page.get_attribute(f"{BOARD} [data-cb=live]", "data-last") or ""


def wait_played(page: Any, n: int) -> None:
    page.wait_for_function(
        f"document.querySelector(\"{BOARD}\").cadoganBoard.view.played === {n}", timeout=15_000)


def piles(v: dict[str, Any]) -> dict[str, list[str | None]]:
    return {p["id"]: [c["c"] for c in p["cards"]] for p in v["piles"]}


def card_at(v: dict[str, Any], ref: str) -> str | None:
    pid, _, k = ref.partition(":")
    cs = piles(v)[pid]
    return cs[int(k)] if k else cs[-1]


def click(loc: Any) -> None:
    """Click an element brought to the middle of the window (clear of the sticky header),
    once the page has drawn it there (see conftest's reload_if_stalled)."""
    loc.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
    assert drawing(loc.page), "headless Chromium stopped drawing the page after a scroll"
    loc.click(force=True)


def click_card(page: Any, ref: str) -> None:
    click(page.locator(f"{BOARD} .cb-card[data-ref='{ref}']"))


def click_pile(page: Any, pile_id: str) -> None:
    top = page.locator(f"{BOARD} .cb-card[data-ref='{pile_id}']")
    click(top if top.count() else page.locator(f"{BOARD} .cb-pile[data-pile='{pile_id}']"))


def key_on(page: Any, selector: str, key: str = "Enter") -> None:
    page.locator(f"{BOARD} {selector}").focus()
    page.keyboard.press(key)


def pair_moves(v: dict[str, Any], *, loose: bool = True) -> list[list[list[str]]]:
    """The two-step moves of the view; ``loose``: of two unpaired cards."""
    out = []
    for m in v["moves"]:
        steps = m["steps"]
        if len(steps) == 2 and loose == all(":" not in s and len(piles(v)[s]) == 1
                                            for s, _ in steps):
            out.append(steps)
    return out


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return page.evaluate(f"""Array.from(document.querySelectorAll("{BOARD} {selector}"))
        .map(e => {{ const r = e.getBoundingClientRect();
                    return {{x: r.left, y: r.top, w: r.width, h: r.height,
                            ref: e.getAttribute('data-ref')}}; }})""")


@pytest.fixture(scope="module")
def flow(browser: Any, site: str) -> Iterator[tuple[Any, Watch]]:
    watch = Watch()
    ctx = open_context(browser, watch)
    page = ctx.new_page()
    page.goto(site + f"{SLUG}/")
    page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
    scroll_in(page, f"{BOARD} .cb-table", READY)
    yield page, watch
    ctx.close()
    watch.check()


def test_all_208_cards_drawn_and_legible_at_1280(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    v = view(page)
    assert v["deal"] == 1 and v["played"] == 0
    wait_drawn(page, BOARD)
    assert page.locator(f"{BOARD} .cb-card").count() == 208
    cards = boxes(page, ".cb-card")
    assert min(c["w"] for c in cards) >= 44, "cards too small to read at 1280 px"
    table = page.evaluate(f"""(() => {{ const t = document.querySelector("{BOARD} .cb-table");
        return [t.clientWidth, t.scrollWidth]; }})()""")
    assert table[1] <= table[0] + 1, f"the board overflows sideways: {table}"
    # The Army and Navy: 48 places, none overlapping another.
    tops = [b for b in cards if b["ref"] and b["ref"][0] in "an" and b["ref"][1:].isdigit()]
    assert len(tops) == 48
    for i, a in enumerate(tops):
        for b in tops[i + 1:]:
            assert (a["x"] + a["w"] <= b["x"] + 0.5 or b["x"] + b["w"] <= a["x"] + 0.5
                    or a["y"] + a["h"] <= b["y"] + 0.5 or b["y"] + b["h"] <= a["y"] + 0.5), \
                (a["ref"], b["ref"])
    # The central figure as in the plate: sideways and 45-degree cards.
    rot = page.evaluate(f"""Array.from(document.querySelectorAll("{BOARD} .cb-card[data-pile^='g']"))
        .map(e => e.style.transform)""")
    assert any("45deg" in r for r in rot) and any("90deg" in r for r in rot)
    # Both talons are on the board, with the deal-out button.
    assert page.locator(f"{BOARD} .cb-pile[data-pile='tr']").count() == 1
    assert page.locator(f"{BOARD} .cb-pile[data-pile='tb']").count() == 1
    assert page.locator(f"{BOARD} button[data-cb-action='deal']").is_visible()


def test_a_pair_played_by_mouse(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    v = view(page)
    (red, gen), (black, adm) = pair_moves(v)[0]
    moved = card_at(v, red), card_at(v, black)
    click_card(page, red)
    click_pile(page, gen)
    page.wait_for_function(
        f"document.querySelector(\"{BOARD} [data-cb=live]\").getAttribute('data-last')"
        ".startsWith('Step 1')", timeout=5_000)
    assert view(page)["played"] == 0          # half a pair is not a move
    click_card(page, black)
    click_pile(page, adm)
    wait_played(page, 1)
    after = piles(view(page))
    assert (after[gen][-1], after[adm][-1]) == moved
    assert f"moves={red}-{gen}+{black}-{adm}" in position(page)


def test_a_pair_played_by_keyboard(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    v = view(page)
    (red, gen), (black, adm) = pair_moves(v)[0]
    moved = card_at(v, red), card_at(v, black)
    # the black card first: the steps may come in either order
    key_on(page, f".cb-pile[data-pile='{black}']")
    assert page.locator(f"{BOARD} .cb-card[data-selected][data-ref='{black}']").count() == 1
    key_on(page, f".cb-pile[data-pile='{adm}']")
    assert view(page)["played"] == 1
    key_on(page, f".cb-pile[data-pile='{red}']")
    key_on(page, f".cb-pile[data-pile='{gen}']")
    wait_played(page, 2)
    after = piles(view(page))
    assert (after[gen][-1], after[adm][-1]) == moved


def test_pairing_draws_one_overlapped_unit(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    v = view(page)
    # An Army card and a Navy card that could go up now: paired, they stay playable.
    steps = next(s for s in pair_moves(v) if s[0][0].startswith("a") and s[1][0].startswith("n"))
    army, navy = steps[0][0], steps[1][0]
    red, black = card_at(v, army), card_at(v, navy)
    click_card(page, army)
    click_card(page, navy)
    wait_played(page, 3)
    after = piles(view(page))
    assert after[navy] == [black, red]
    assert after[army] and after[army][-1] != red      # refilled from the red talon or pack
    two = boxes(page, f".cb-card[data-pile='{navy}']")
    assert len(two) == 2
    bottom, top = sorted(two, key=lambda b: b["y"])
    assert abs(bottom["x"] - top["x"]) < 1
    assert 0.1 * bottom["h"] < top["y"] - bottom["y"] < 0.6 * bottom["h"]   # both show


def test_the_stacked_pair_played_by_keyboard(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    v = view(page)
    stacked = pair_moves(v, loose=False)
    assert stacked, "the pair just made fits: it must be playable"
    steps = stacked[0]
    buried = next(s for s in steps if ":" in s[0])
    top = next(s for s in steps if ":" not in s[0])
    # the buried card is reachable by keyboard on its own
    key_on(page, f".cb-table [data-key='{buried[0]}']")
    key_on(page, f".cb-pile[data-pile='{buried[1]}']")
    key_on(page, f".cb-pile[data-pile='{top[0]}']")
    key_on(page, f".cb-pile[data-pile='{top[1]}']")
    wait_played(page, 4)
    assert len(piles(view(page))[top[0]]) == 1            # the place refilled with one card


def test_two_red_cards_are_refused_quoting_rule_1(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    v = view(page)
    before = position(page)
    (red, gen), _ = pair_moves(v)[0]
    other = next(a for a in (f"a{k}" for k in range(24)) if a != red and piles(v)[a])
    other_gen = next(g for g in (f"g{i}" for i in range(8)) if g != gen)
    click_card(page, red)
    click_pile(page, gen)
    click_card(page, other)
    click_pile(page, other_gen)
    msg = page.locator(f"{BOARD} .cb-message.cb-refusal")
    msg.wait_for(state="visible", timeout=10_000)
    assert msg.get_attribute("data-rule") == f"{SLUG}-rule-1"
    quoted = msg.locator("blockquote.cb-quote").inner_text()
    assert "played in pairs" in quoted and "at the same time on another foundation" in quoted
    assert "Rule I" in msg.locator("p").inner_text()
    assert position(page) == before


def test_dealing_a_card_lays_it_face_up_on_its_talon(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    before = piles(view(page))
    n = view(page)["played"]
    assert before["stock"]
    page.locator(f"{BOARD} button[data-cb-action='deal']").click()
    wait_played(page, n + 1)
    p = piles(view(page))
    # One card at a time (EM-15): it goes on the talon of its colour, its face seen there.
    assert len(p["stock"]) == len(before["stock"]) - 1
    (talon,) = [t for t in ("tr", "tb") if len(p[t]) == len(before[t]) + 1]
    top = page.locator(f"{BOARD} .cb-card[data-ref='{talon}']")
    assert top.count() == 1 and "cb-back" not in (top.get_attribute("class") or "")
    assert top.get_attribute("data-name")       # its name
    assert "is dealt onto the" in said(page)
    assert p[talon][:-1] == [None] * (len(p[talon]) - 1)   # the rest of the talon unseen
    assert page.get_attribute(f"{BOARD} button[data-cb-action='deal']",
                              "aria-disabled") != "true"


def test_undo_takes_back_the_card_dealt(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    n = view(page)["played"]
    stock = len(piles(view(page))["stock"])
    page.locator(f"{BOARD} button[data-cb-cmd=undo]").click()
    wait_played(page, n - 1)
    assert len(piles(view(page))["stock"]) == stock + 1
    assert page.locator(f"{BOARD} .cb-card").count() == 208


def test_a_talon_card_is_refused_quoting_rule_3(browser: Any, site: str, watch: Watch) -> None:
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.goto(site + f"{SLUG}/#game={SLUG}&deal=3")  # deal 3 sends six cards to a talon
        page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
        v = view(page)
        assert v["deal"] == 3
        talon = "tr" if piles(v)["tr"] else "tb"
        dest = "g2" if talon == "tr" else "ad2"      # on the right arm, clear of the header
        scroll_in(page, f"{BOARD} .cb-table", READY)
        click_card(page, talon)
        click_pile(page, dest)
        msg = page.locator(f"{BOARD} .cb-message.cb-refusal")
        msg.wait_for(state="visible", timeout=10_000)
        assert msg.get_attribute("data-rule") == f"{SLUG}-rule-3"
        assert "must first pass through the Army or Navy" in msg.locator(
            "blockquote.cb-quote").inner_text()
        assert view(page)["played"] == 0
    finally:
        ctx.close()
    watch.check()


def test_usable_on_a_390_pixel_phone(browser: Any, site: str, watch: Watch) -> None:
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(site + f"{SLUG}/")
        page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
        scroll_in(page, f"{BOARD} .cb-table", READY)
        table = page.evaluate(f"""(() => {{ const t = document.querySelector("{BOARD} .cb-table");
            return [t.clientWidth, t.scrollWidth]; }})()""")
        assert table[1] <= table[0] + 1, f"the board overflows sideways: {table}"
        places = [b for b in boxes(page, ".cb-card")
                  if b["ref"] and b["ref"][0] in "an" and b["ref"][1:].isdigit()]
        assert len(places) == 48 and min(b["w"] for b in places) >= 36
        # a pair played on the small board
        v = view(page)
        (red, gen), (black, adm) = pair_moves(v)[0]
        for ref, dst in ((red, gen), (black, adm)):
            click_card(page, ref)
            click_pile(page, dst)
        wait_played(page, 1)
    finally:
        ctx.close()
    watch.check()
