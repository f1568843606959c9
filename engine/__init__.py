"""Rules engines for the games of Lady Cadogan's *Illustrated Games of Patience* (1914).

Public API::

    import engine
    game = engine.new_game("la-nivernaise", seed=42)
    game.legal_moves(); game.play("f3-a1"); game.undo(); game.redo()
    game.outcome(); text = game.position(); game.view()
    same = engine.load_position(text)

Pure Python, no dependencies; runs on CPython 3.11+ and in Pyodide.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from .cards import Card, Suit, pack
from .core import (
    Game,
    IllegalMove,
    Move,
    Outcome,
    PositionError,
    describe_options,
    options_from_text,
    options_to_text,
    view_of,
)

__all__ = [
    "GAMES", "Card", "Suit", "pack", "Game", "Move", "IllegalMove", "Outcome",
    "PositionError", "new_game", "load_position", "describe_options", "options_from_text",
    "options_to_text", "view_of",
]

#: Where each game lives, by slug (the chapter's title, as in its page's address), in the
#: book's order.
_GAME_CLASSES: dict[str, tuple[str, str]] = {
    "la-belle-lucie": ("belle_lucie", "LaBelleLucie"),
    "the-house-in-the-wood": ("belle_lucie", "TheHouseInTheWood"),
    "the-house-on-the-hill": ("belle_lucie", "TheHouseOnTheHill"),
    "napoleon-at-st-helena": ("napoleon", "NapoleonAtStHelena"),
    "the-fifteen": ("fifteen", "TheFifteen"),
    "the-salic-law": ("salic_law", "TheSalicLaw"),
    "the-four-corners": ("four_corners", "TheFourCorners"),
    "the-mill": ("mill", "TheMill"),
    "the-shah": ("shah", "TheShah"),
    "the-blockade": ("blockade", "TheBlockade"),
    "the-clock": ("clock", "TheClock"),
    "fortress": ("fortress", "Fortress"),
    "the-fourteenth": ("fourteenth", "TheFourteenth"),
    "the-sultan": ("sultan", "TheSultan"),
    "la-nivernaise": ("nivernaise", "LaNivernaise"),
    "the-empress-of-india": ("empress", "TheEmpressOfIndia"),
    "the-besieged-city": ("besieged_city", "TheBesiegedCity"),
    "the-flower-garden": ("flower_garden", "TheFlowerGarden"),
    "the-hemispheres": ("hemispheres", "TheHemispheres"),
    "napoleons-square": ("napoleons_square", "NapoleonsSquare"),
    "the-constitution": ("constitution", "TheConstitution"),
    "the-zodiac": ("zodiac", "TheZodiac"),
    "the-kings": ("kings", "TheKings"),
    "babette": ("babette", "Babette"),
    "nestor": ("nestor", "Nestor"),
    "light-and-shade": ("light_and_shade", "LightAndShade"),
    "the-labyrinth": ("labyrinth", "TheLabyrinth"),
    "spensers-fairie-queen": ("spensers_fairie_queen", "SpensersFairieQueen"),
    "the-terrace": ("terrace", "TheTerrace"),
    "general-sedgewick": ("general_sedgewick", "GeneralSedgewick"),
    "the-queens": ("queens", "TheQueens"),
    "the-herring-bone": ("herring_bone", "TheHerringBone"),
    "the-olga": ("olga", "TheOlga"),
    "caesar": ("caesar", "Caesar"),
    "red-and-black": ("red_and_black", "RedAndBlack"),
    "the-square": ("square", "TheSquare"),
    "margarethe": ("margarethe", "Margarethe"),
    "mount-olympus": ("mount_olympus", "MountOlympus"),
    "the-wheel": ("wheel", "TheWheel"),
    "two-rings": ("two_rings", "TwoRings"),
    "the-nation": ("nation", "TheNation"),
    "the-carpet": ("carpet", "TheCarpet"),
    "the-fish-bone": ("fish_bone", "TheFishBone"),
    "the-congress": ("congress", "TheCongress"),
    "the-louis-patience": ("louis", "TheLouisPatience"),
    "sly": ("sly", "Sly"),
    "the-great-thirteen": ("great_thirteen", "TheGreatThirteen"),
    "canfield-or-klondike": ("canfield", "CanfieldOrKlondike"),
    "anna": ("anna", "Anna"),
}


class _Registry(Mapping[str, type[Game]]):
    """Game classes by slug, each module imported when its game is first asked for (the
    browser then loads only the chapter's own game)."""

    def __getitem__(self, slug: str) -> type[Game]:
        module, name = _GAME_CLASSES[slug]
        cls: type[Game] = getattr(importlib.import_module(f".{module}", __name__), name)
        return cls

    def __iter__(self) -> Iterator[str]:
        return iter(_GAME_CLASSES)

    def __len__(self) -> int:
        return len(_GAME_CLASSES)


#: Game classes by slug.
GAMES: Mapping[str, type[Game]] = _Registry()


def new_game(slug: str, seed: int = 0, options: Any = None) -> Game:
    """A new game of ``slug`` from deal number ``seed``. ``options`` is the game's options
    dataclass, or its text form (``"examine_count:with-top"``), or None for the defaults."""
    cls = _game_class(slug)
    if isinstance(options, str):
        options = options_from_text(cls.Options, options)
    return cls.new(seed, options)


def _game_class(slug: str) -> type[Game]:
    try:
        return GAMES[slug]
    except KeyError:
        raise KeyError(f"no game {slug!r}; known: {', '.join(sorted(GAMES))}") from None


def load_position(text: str) -> Game:
    """Restore a game exactly from :meth:`Game.position` text. Raises
    :class:`PositionError` for anything corrupt, unknown or illegal."""
    fields: dict[str, str] = {}
    for part in text.strip().split(";"):
        key, sep, value = part.partition("=")
        if not sep or key in fields:
            raise PositionError(f"malformed position field {part[:40]!r}")
        fields[key] = value
    known = {"game", "deal", "opts", "start", "vars", "moves", "redo"}
    if not fields.keys() <= known or "game" not in fields:
        raise PositionError("not a position: unknown or missing fields")
    try:
        cls = _game_class(fields["game"])
    except KeyError as e:
        raise PositionError(str(e)) from None
    try:
        options: Any = options_from_text(cls.Options, fields.get("opts", ""))
    except ValueError as e:
        raise PositionError(str(e)) from None
    deal: int | None = None
    if "deal" in fields:
        if not fields["deal"].isdigit():
            raise PositionError("the deal number must be a whole number")
        deal = int(fields["deal"])
    if "start" in fields:
        start = cls.parse_state(fields["start"], fields.get("vars"), options)
    elif deal is not None:
        start = cls.initial_state(deal, options)
    else:
        raise PositionError("a position needs a deal number or a start position")
    game = cls(start, options, deal)
    try:
        moves = [Move.parse(t) for t in filter(None, fields.get("moves", "").split(","))]
        redo = [Move.parse(t) for t in filter(None, fields.get("redo", "").split(","))]
    except ValueError as e:
        raise PositionError(str(e)) from None
    for i, m in enumerate(moves):
        try:
            game.play(m)
        except IllegalMove as e:
            raise PositionError(f"move {i + 1} ({m}) is illegal: {e.message}") from None
    # The moves undone must replay legally from here, latest first.
    trial = game.copy()
    for m in reversed(redo):
        try:
            trial.play(m)
        except IllegalMove as e:
            raise PositionError(f"undone move {m} cannot be redone: {e.message}") from None
    game._redo = list(redo)
    return game
