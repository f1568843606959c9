"""Each game's action buttons have their own keys, distinct from the board's own."""

from __future__ import annotations

import pytest

import engine
from build_scripts.board_embed import RESERVED_KEYS


@pytest.mark.parametrize("slug", sorted(engine.GAMES))
def test_action_keys_are_unique_and_free(slug: str) -> None:
    keys = [a.key.lower() for a in engine.GAMES[slug].ACTIONS]
    assert len(keys) == len(set(keys)), keys
    assert not set(keys) & set(RESERVED_KEYS), f"{slug} uses a key the board keeps: {keys}"


def test_move_descriptions_keep_their_capitals() -> None:
    g = engine.new_game("la-nivernaise", seed=1)
    m = next(m for m in g.legal_moves() if m.steps and m.steps[0][0].startswith("f"))
    said = g.describe(g.state, m)
    assert said[0].isupper() and "Flank" in said, said
