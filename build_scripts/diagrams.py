"""mkdocs hook: draws each chapter's tableau in modern cards with Pillow.

Replaces ``<div class="cadogan-diagram" data-chapter="SLUG"></div>`` (or ``data-game="SLUG"``
for another game played on the chapter's page) with one ``<figure>``
per entry of the game's ``FIGURES`` (``id="diagram-SLUG"`` for the first,
``diagram-SLUG-KEY`` for the others), drawn from the engine's own layout (``PILES``: grid
positions, fans, rotation) and the position after deal ``DIAGRAM_DEAL``. Images are written to
``assets/diagrams/`` at 1x and 2x, deterministically (no timestamps, fixed fonts), each twice
with the same pixels: a lossless WebP, which the page offers first (a third of the bytes:
the Clock's 2x 154 KB as PNG, 48 KB as WebP; the diagram is the largest image in view on
some chapters, so its bytes are their Largest Contentful Paint), and a PNG, the ``<img>``'s
own source for any browser without WebP and the file other pages link.
"""

from __future__ import annotations

import dataclasses
import html
import io
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PIL import Image, ImageDraw, ImageFont  # noqa: E402

import engine  # noqa: E402
from engine.core import Fan, Figure, Game, Role  # noqa: E402

#: ``data-chapter`` names the chapter's game; ``data-game`` another game the chapter's page
#: plays (La Belle Lucie's page draws The House in the Wood's tableau too).
PLACEHOLDER = re.compile(r'<div class="cadogan-diagram" data-(?:chapter|game)="([a-z-]+)"></div>')
OUT_DIR = "assets/diagrams"

# Card geometry at 1x, in pixels.
CARD_W, CARD_H, GAP = 64, 90, 14
SLOT_W, SLOT_H = CARD_W + GAP, CARD_H + GAP
FAN_UP, FAN_DOWN = 0.24, 0.07  # fan offsets (card heights) for face-up / face-down cards
FAN_SIDE = 0.36  # a sideways fan's offset for face-up cards (card widths): room for "10" and suit
#: The edge of a covered card left in view by each fan: its index is drawn there, upright.
EDGE = {Fan.DOWN: "top", Fan.UP: "bottom", Fan.RIGHT: "left", Fan.LEFT: "right"}
MARGIN = 16
INK = (40, 32, 28)
RED = (178, 34, 34)
PAPER = (253, 250, 242)
CARD = (255, 255, 255)
BACK = (122, 62, 48)
OUTLINE = (150, 140, 128)


@dataclass(frozen=True)
class Drawn:
    """One finished image."""

    name: str
    png: bytes
    width: int
    height: int
    webp: bytes

    @property
    def webp_name(self) -> str:
        return webp_of(self.name)


def webp_of(png: str) -> str:
    """The name (or URL) of a diagram's WebP file, from its PNG's."""
    return png.removesuffix(".png") + ".webp"


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # Pillow's bundled scalable font: the same on every machine.
    return ImageFont.load_default(size=size)


def _suit_shape(d: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, r: float,
                fill: tuple[int, int, int]) -> None:
    """Draw a suit sign of half-size ``r`` centred on (cx, cy)."""
    if suit == "D":
        d.polygon([(cx, cy - r), (cx + 0.75 * r, cy), (cx, cy + r), (cx - 0.75 * r, cy)],
                  fill=fill)
    elif suit == "H":
        d.ellipse([cx - r, cy - 0.75 * r, cx, cy + 0.1 * r], fill=fill)
        d.ellipse([cx, cy - 0.75 * r, cx + r, cy + 0.1 * r], fill=fill)
        d.polygon([(cx - 0.97 * r, cy - 0.2 * r), (cx + 0.97 * r, cy - 0.2 * r), (cx, cy + r)],
                  fill=fill)
    elif suit == "S":
        d.ellipse([cx - r, cy - 0.3 * r, cx, cy + 0.55 * r], fill=fill)
        d.ellipse([cx, cy - 0.3 * r, cx + r, cy + 0.55 * r], fill=fill)
        d.polygon([(cx - 0.97 * r, cy + 0.15 * r), (cx + 0.97 * r, cy + 0.15 * r), (cx, cy - r)],
                  fill=fill)
        d.polygon([(cx, cy + 0.2 * r), (cx - 0.35 * r, cy + r), (cx + 0.35 * r, cy + r)],
                  fill=fill)
    else:  # clubs
        q = 0.4 * r
        for ox, oy in ((0, -0.55 * r), (-0.55 * r, 0.12 * r), (0.55 * r, 0.12 * r)):
            d.ellipse([cx + ox - q, cy + oy - q, cx + ox + q, cy + oy + q], fill=fill)
        d.polygon([(cx, cy), (cx - 0.35 * r, cy + r), (cx + 0.35 * r, cy + r)], fill=fill)


def _card_image(face: str | None, scale: int, peek: bool = False,
                edge: str | None = None) -> Image.Image:
    """One card (``face`` like ``10H``; None for a card face down). ``edge`` names the strip
    a fan leaves in view of a covered card (top, bottom, left, right): its index, rank and
    suit, is drawn upright in that strip, as real packs index every corner."""
    w, h = CARD_W * scale, CARD_H * scale
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    rad = 5 * scale
    if face is None:
        d.rounded_rectangle([0, 0, w - 1, h - 1], rad, fill=BACK, outline=INK, width=scale)
        step = 6 * scale
        for x in range(-h, w, step):
            d.line([(x, 0), (x + h, h)], fill=(150, 88, 70), width=max(1, scale))
        d.rounded_rectangle([3 * scale, 3 * scale, w - 3 * scale - 1, h - 3 * scale - 1],
                            rad, outline=(240, 225, 200), width=scale)
        return img
    rank, suit = face[:-1], face[-1]
    colour = RED if suit in "HD" else INK
    d.rounded_rectangle([0, 0, w - 1, h - 1], rad, fill=CARD if not peek else (246, 240, 226),
                        outline=INK, width=scale)
    f = _font((15 if len(rank) > 1 else 17) * scale)
    rank_w = d.textlength(rank, font=f)
    if edge in ("top", "bottom"):  # a strip across the card: rank and suit side by side
        y = 3 * scale if edge == "top" else h - 21 * scale
        d.text((5 * scale, y), rank, font=f, fill=colour)
        _suit_shape(d, suit, 5 * scale + rank_w + 8 * scale, y + 9 * scale, 6 * scale, colour)
    elif edge == "right":  # a strip down the right edge: rank over suit, right-aligned
        d.text((w - 4 * scale - rank_w, 3 * scale), rank, font=f, fill=colour)
        _suit_shape(d, suit, w - 12 * scale, 32 * scale, 7 * scale, colour)
    else:  # the whole card, or a strip down the left edge: rank over suit
        d.text((4 * scale, 3 * scale), rank, font=f, fill=colour)
        _suit_shape(d, suit, 12 * scale, 32 * scale, 7 * scale, colour)
    if rank in ("J", "Q", "K"):
        d.rectangle([22 * scale, 24 * scale, w - 10 * scale, h - 10 * scale],
                    outline=colour, width=scale)
        big = _font(30 * scale)
        d.text((w / 2 + 3 * scale, h / 2 + 8 * scale), rank, font=big, fill=colour, anchor="mm")
    else:
        _suit_shape(d, suit, w / 2 + 4 * scale, h / 2 + 8 * scale, 15 * scale, colour)
    return img


def _outline_image(label: str, scale: int) -> Image.Image:
    """An empty place: a dashed outline with a short label."""
    w, h = CARD_W * scale, CARD_H * scale
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    dash = 6 * scale
    for x in range(0, w, 2 * dash):
        d.line([(x, 0), (min(x + dash, w - 1), 0)], fill=OUTLINE, width=scale)
        d.line([(x, h - 1), (min(x + dash, w - 1), h - 1)], fill=OUTLINE, width=scale)
    for y in range(0, h, 2 * dash):
        d.line([(0, y), (0, min(y + dash, h - 1))], fill=OUTLINE, width=scale)
        d.line([(w - 1, y), (w - 1, min(y + dash, h - 1))], fill=OUTLINE, width=scale)
    lines = _wrap(label, 9)
    f = _font(10 * scale)
    for k, line in enumerate(lines):
        ty = h / 2 + (k - (len(lines) - 1) / 2) * 12 * scale
        d.text((w / 2, ty), line, font=f, fill=OUTLINE, anchor="mm")
    return img


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def draw_figure(cls: type[Game], fig: Figure, scale: int) -> Image.Image:
    """Draw one figure of a game at ``scale`` (1 or 2)."""
    game = cls.new(cls.DIAGRAM_DEAL)
    state = game.state
    wanted = set(fig.piles) if fig.piles is not None else None
    piles = [(i, p) for i, p in enumerate(cls.PILES) if wanted is None or p.id in wanted]
    if fig.layout is not None:  # the figure's own arrangement of the piles (Layout.at)
        at = next(lay for lay in cls.LAYOUTS if lay.name == fig.layout).at
        piles = [(i, dataclasses.replace(p, x=at[p.id][0], y=at[p.id][1], rotate=at[p.id][2])
                  if p.id in at else p) for i, p in piles]
    # Lay out every card first, to find the bounding box.
    items: list[tuple[float, float, Image.Image, int]] = []
    for i, spec in piles:
        faces = game.card_faces(state, i)
        x0, y0 = spec.x * SLOT_W * scale, spec.y * SLOT_H * scale
        if not faces:
            items.append((x0, y0, _outline_image(cls.label(spec.id), scale),
                          spec.rotate))
            continue
        shown = faces if spec.fan is not Fan.NONE else faces[-1:]
        if spec.role is Role.STOCK:
            shown = faces[-1:]
        unit = (CARD_H if spec.fan in (Fan.DOWN, Fan.UP) else CARD_W) * scale
        up = FAN_SIDE if spec.fan in (Fan.RIGHT, Fan.LEFT) else FAN_UP
        steps = [(up if f.get("c") else FAN_DOWN) * unit for f in shown[:-1]]
        if spec.fan_limit is not None and sum(steps) > spec.fan_limit * unit:
            steps = [st * spec.fan_limit * unit / sum(steps) for st in steps]
        off = 0.0
        for k, f in enumerate(shown):
            covered = k < len(shown) - 1
            img = _card_image(f.get("c"), scale, bool(f.get("peek")),
                              EDGE.get(spec.fan) if covered else None)
            dx = dy = 0.0
            if spec.fan is Fan.DOWN:
                dy = off
            elif spec.fan is Fan.UP:
                dy = -off
            elif spec.fan is Fan.RIGHT:
                dx = off
            elif spec.fan is Fan.LEFT:
                dx = -off
            items.append((x0 + dx, y0 + dy, img, spec.rotate))
            off += steps[k] if k < len(steps) else 0.0
    rendered = []
    for x, y, img, rot in items:
        if rot:
            cx, cy = x + img.width / 2, y + img.height / 2
            img = img.rotate(-rot, resample=Image.Resampling.BICUBIC, expand=True)
            x, y = cx - img.width / 2, cy - img.height / 2
        rendered.append((x, y, img))
    minx = min(x for x, _, _ in rendered)
    miny = min(y for _, y, _ in rendered)
    maxx = max(x + im.width for x, _, im in rendered)
    maxy = max(y + im.height for _, y, im in rendered)
    m = MARGIN * scale
    canvas = Image.new("RGBA", (math.ceil(maxx - minx) + 2 * m, math.ceil(maxy - miny) + 2 * m),
                       PAPER + (255,))
    for x, y, im in rendered:
        canvas.alpha_composite(im, (round(x - minx + m), round(y - miny + m)))
    return canvas.convert("RGB")


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _webp(img: Image.Image) -> bytes:
    """The same pixels as a lossless WebP (libwebp's default effort: method 6 saves under 1%
    for twenty times the time)."""
    buf = io.BytesIO()
    img.save(buf, format="WEBP", lossless=True, method=4, exact=True)
    return buf.getvalue()


def _drawn(name: str, img: Image.Image) -> Drawn:
    return Drawn(name, _png(img), img.width, img.height, _webp(img))


def picture(src: str, src2: str, img_attrs: str) -> str:
    """A diagram's ``<picture>``: its WebP files offered first, then the ``<img>`` on the PNG
    ones (``src``, ``src2``: the 1x and 2x PNG URLs; ``img_attrs``: the rest of the img's
    attributes, alt first)."""
    w, w2 = webp_of(src), webp_of(src2)
    return (f'<picture><source type="image/webp" srcset="{w} 1x, {w2} 2x">'
            f'<img src="{src}" srcset="{src} 1x, {src2} 2x" {img_attrs}></picture>')


def figures_of(cls: type[Game]) -> tuple[Figure, ...]:
    return cls.FIGURES or (Figure("tableau", f"{cls.title}, in modern cards.",
                                  f"The tableau of {cls.title} drawn in modern cards."),)


def draw_game(slug: str) -> list[tuple[Figure, Drawn, Drawn]]:
    cls = engine.GAMES[slug]
    out = []
    for n, fig in enumerate(figures_of(cls)):
        name = slug if n == 0 else f"{slug}-{fig.key}"
        one, two = draw_figure(cls, fig, 1), draw_figure(cls, fig, 2)
        out.append((fig,
                    _drawn(f"{name}.png", one), _drawn(f"{name}@2x.png", two)))
    return out


# ---------------------------------------------------------------------------- the hook

_made: dict[str, list[tuple[Figure, Drawn, Drawn]]] = {}


def _figure_html(slug: str, n: int, fig: Figure, one: Drawn, two: Drawn, base: str) -> str:
    fid = f"diagram-{slug}" if n == 0 else f"diagram-{slug}-{fig.key}"
    src = f"{base}{OUT_DIR}/{one.name}"
    src2 = f"{base}{OUT_DIR}/{two.name}"
    return (
        f'<figure class="cadogan-diagram-figure" id="{fid}">'
        + picture(src, src2, f'width="{one.width}" height="{one.height}" '
                  f'alt="{html.escape(fig.alt, quote=True)}" loading="lazy"') +
        f'<figcaption>{html.escape(fig.caption)} <span class="figure-kind">The tableau in '
        f'modern cards, drawn for this edition.</span></figcaption></figure>'
    )


def _base_url(page: Any) -> str:
    depth = page.url.count("/") if page.url else 0
    return "../" * depth


def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    def replace(m: re.Match[str]) -> str:
        slug = m.group(1)
        if slug not in engine.GAMES:
            return ('<p class="cadogan-diagram-missing">No diagram: this chapter has no rules '
                    'engine yet.</p>')
        if slug not in _made:
            _made[slug] = draw_game(slug)
        base = _base_url(page)
        return "".join(_figure_html(slug, n, fig, one, two, base)
                       for n, (fig, one, two) in enumerate(_made[slug]))

    return PLACEHOLDER.sub(replace, html_text)


def on_post_build(config: Any) -> None:
    out = Path(config["site_dir"]) / OUT_DIR
    out.mkdir(parents=True, exist_ok=True)
    for slug in sorted(engine.GAMES):  # every game, so the home page can show thumbnails
        if slug not in _made:
            _made[slug] = draw_game(slug)
        for _, one, two in _made[slug]:
            for drawn in (one, two):
                (out / drawn.name).write_bytes(drawn.png)
                (out / drawn.webp_name).write_bytes(drawn.webp)


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    _made.clear()
    return server
