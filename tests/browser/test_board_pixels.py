"""What a person sees: every registered board, at mid-game positions and in every view, looks like
its own drawing.

The DOM tests elsewhere check that the live board holds exactly `board.svg`; they passed while the
shared CSS painted the hex maps white. Here the live drawing is photographed in JupyterLab and
compared with the same SVG shown alone in a plain page (as `IPython.display.SVG(board.svg)` shows
it), part by part for a drawing the board lays out in parts (a map and its panel). The two
pictures, aligned to the pixel, are compared by the ink lost (what the drawing
paints and the board does not) and by the mean pixel difference: the board's own highlights
(outlines of legal and recent moves) add ink and weigh little in the mean.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from test_drawing_patches import views_match_python

from aloftnb.core.registry import BUILT_IN_GAMES, board_class

BOARD = ".aloft-board"
# Past either bound a picture differs "beyond the highlights". Measured over these positions and
# views, part by part: on the fixed boards at most 0.028 lost ink and 9.4 mean difference
# (outlines of legal and recent moves, ALU's tinted tiles and dimmed action buttons); with the
# hex maps washed white by the shared CSS, 0.149 and 15.8 (commodores' map), 0.240 and 25.2
# (Cloudspire's).
LOST_INK_TOLERANCE = 0.06
MEAN_DIFFERENCE_TOLERANCE = 12.0
INK = 40  # a pixel is painted when a channel differs from the background by more than this
# Set to a folder to keep every pair of pictures there, to look at them.
SHOTS = os.environ.get("ALOFTNB_SHOTS")

GAMES = {  # game: (players, steps to two mid-game positions of a random game, seed 5)
    "balloons": (3, (9, 30)),
    "alu": (2, (6, 22)),
    "commodores": (3, (14, 150)),
    "cloudspire": (2, (8, 24)),
}

# Show one part of the drawing (or all of it) alone, scaled to `width` px as the board scales it.
ALONE_JS = """([part, background, width]) => {
  const whole = document.body.firstElementChild;
  const svg = part ? whole.querySelector(`:scope > [data-part="${part}"]`).cloneNode(true) : whole;
  svg.removeAttribute("x"); svg.removeAttribute("y");
  svg.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  const frame = document.createElement("div");
  frame.id = "alone";
  frame.style.width = `${width}px`;
  svg.style.cssText = "display:block;width:100%;height:auto";
  frame.append(svg);
  document.body.replaceChildren(frame);
  document.body.style.cssText = `margin:0;background:${background}`;
}"""
PARTS_JS = ("(svg) => svg.hasAttribute('data-parts') ? "
            "[...svg.children].map((part) => part.getAttribute('data-part')) : []")

SETUP = '''import random
import aloftnb

match = aloftnb.new_match({game!r}, players={players}, seed=5)
rng = random.Random(5)
while match.position < {last} and not match.is_over:
    match.play(rng.choice(match.legal_actions()))
board = match.board()
board'''


def test_every_board_is_covered():
    # The built-in games: other test modules register test games in the same process.
    boards = {g for g in BUILT_IN_GAMES if board_class(g) is not None}
    assert boards == set(GAMES), "add each new board to GAMES, with positions worth a look"


@dataclass(frozen=True)
class Measures:
    lost_ink: float  # share of the picture painted in the drawing alone but not on the board
    mean_difference: float  # mean pixel difference, of 255 over the three channels

    def problems(self) -> list[str]:
        return [f"{what} {value:.3f} over {bound}" for what, value, bound in (
            ("lost ink", self.lost_ink, LOST_INK_TOLERANCE),
            ("mean difference", self.mean_difference, MEAN_DIFFERENCE_TOLERANCE)) if value > bound]


def _picture(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _aligned(live: Image.Image, alone: Image.Image, reach: int = 2
             ) -> tuple[Image.Image, Image.Image]:
    """The two pictures cropped to their overlap at the shift of up to `reach` px that matches
    them best: element screenshots round fractional positions, often a pixel apart."""
    width, height = live.size
    best: tuple[float, Image.Image, Image.Image] | None = None
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            a = live.crop((max(0, dx), max(0, dy), width + min(0, dx), height + min(0, dy)))
            b = alone.crop((max(0, -dx), max(0, -dy), width + min(0, -dx), height + min(0, -dy)))
            small = (max(1, a.width // 4), max(1, a.height // 4))
            score = sum(ImageStat.Stat(ImageChops.difference(a.resize(small),
                                                             b.resize(small))).mean)
            if best is None or score < best[0]:
                best = (score, a, b)
    assert best is not None
    return best[1], best[2]


def compare(live: Image.Image, alone: Image.Image, background: tuple[int, int, int]
            ) -> Measures:
    """How far the live picture is from the drawing alone (scaled to the live one's size)."""
    live, alone = _aligned(live, alone.resize(live.size, Image.LANCZOS))

    def ink(picture: Image.Image) -> Image.Image:
        ground = Image.new("RGB", picture.size, background)
        return ImageChops.difference(picture, ground).convert("L").point(
            lambda v: 255 if v > INK else 0)

    lost = ImageChops.subtract(ink(alone), ink(live))
    return Measures(
        lost_ink=ImageStat.Stat(lost).mean[0] / 255,
        mean_difference=sum(ImageStat.Stat(ImageChops.difference(live, alone)).mean) / 3)


def test_compare_tells_a_washed_out_picture_from_a_highlighted_one():
    """The measure itself: an outline added is within bounds, a washed-out fill is not."""
    from PIL import ImageDraw

    base = Image.new("RGB", (400, 300), (255, 255, 255))
    draw = ImageDraw.Draw(base)
    for i in range(6):
        draw.regular_polygon(((60 + 60 * i, 150), 30), 6, fill=(120, 170, 90))
    outlined = base.copy()
    ImageDraw.Draw(outlined).regular_polygon(((120, 150), 32), 6, outline=(46, 125, 50), width=3)
    washed = Image.new("RGB", (400, 300), (255, 255, 255))
    ImageDraw.Draw(washed).regular_polygon(((120, 150), 32), 6, outline=(46, 125, 50), width=3)
    assert compare(outlined, base, (255, 255, 255)).problems() == []
    assert compare(washed, base, (255, 255, 255)).problems()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_live_board_looks_like_its_drawing(game, lab, lab_server, chromium, wait_until,
                                               browser_report, tmp_path):
    players, positions = GAMES[game]
    path = lab_server.write_notebook(f"scratch/pixels-{game}.ipynb", [SETUP.format(
        game=game, players=players, last=max(positions))])
    lab.open(path)
    lab.run_all()
    lab.output(f"{BOARD} svg")
    kernel = lab.kernel()
    page = lab.page
    page.mouse.move(0, 0)  # no hover highlight
    alone_page = chromium.new_page(viewport={"width": 2000, "height": 1600})
    try:
        reached = kernel.eval_json("match.position")
        views = ["designer", "turn"] + [f"seat:{p}" for p in range(players)]
        worst = [0.0, 0.0]
        for position in positions:
            kernel.execute(f"match.goto({min(position, reached)})")
            for viewer in views:
                kernel.execute(f"board.viewer = {viewer!r}")
                views_match_python(lab, kernel, wait_until, 1, f"{viewer} at step {position}")
                background = page.evaluate(
                    "(el) => getComputedStyle(el).backgroundColor", page.locator(BOARD).first
                    .element_handle())
                rgb = tuple(int(c) for c in background[background.index("(") + 1:-1]
                            .split(",")[:3])
                drawing = kernel.eval_json("board.svg")
                alone_page.set_content(f"<html><body>{drawing}</body></html>")
                # A drawing in parts (a map and its panel) is laid out apart on the board:
                # each part is compared with the same part of the drawing shown alone.
                parts = alone_page.eval_on_selector("body > svg", PARTS_JS)
                for part in parts or [None]:
                    shown = page.locator(f'{BOARD} [data-part="{part}"]' if part
                                         else f"{BOARD} .aloft-svg > svg").first
                    shown.scroll_into_view_if_needed()
                    box = shown.bounding_box()
                    assert box and box["width"] > 100, f"the live {part or 'drawing'} has a size"
                    live = _picture(shown.screenshot())
                    # The part alone, as its own picture at the live width.
                    alone_page.set_content(f"<html><body>{drawing}</body></html>")
                    alone_page.evaluate(ALONE_JS, [part, background, box["width"]])
                    alone = _picture(alone_page.locator("#alone > svg").screenshot())
                    measures = compare(live, alone, rgb)
                    name = f"{game}-{position}-{viewer.replace(':', '')}" + (
                        f"-{part}" if part else "")
                    problems = measures.problems()
                    folder = Path(SHOTS) if SHOTS else tmp_path
                    if SHOTS or problems:
                        folder.mkdir(parents=True, exist_ok=True)
                        live.save(folder / f"{name}-live.png")
                        alone.save(folder / f"{name}-alone.png")
                    assert not problems, f"{name}: {', '.join(problems)} (pictures in {folder})"
                    worst = [max(worst[0], measures.lost_ink),
                             max(worst[1], measures.mean_difference)]
        browser_report(f"pixels {game}: worst lost ink {worst[0]:.3f}, "
                       f"mean difference {worst[1]:.1f}")
    finally:
        alone_page.close()
