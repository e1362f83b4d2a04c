"""Every registered game's board fits the notebook, in real JupyterLab with the file browser open:
at 800, 1024 and 1400 px no text of the board is cut off (no element scrolls sideways, no SVG
text runs out of its drawing's visible box), the status line keeps room to be read, and the
prompt and its choices are on one screen together. A zoomed hex map opens on where the play is.

Set ALOFTNB_SHOTS to a folder to keep screenshots of the hex boards at each width.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from aloftnb.core.registry import BUILT_IN_GAMES

BOARD = ".aloft-board"
OPEN_FILE_BROWSER = "() => window.jupyterapp.shell.activateById('filebrowser')"
WIDTHS = (800, 1024, 1400)
HEIGHT = 900

COMMODORES = '''import aloftnb
match = aloftnb.new_match("commodores", players=3, seed=11)
while match.phase == "setup":
    match.play(match.legal_actions()[0])
board = match.board()
board'''

CLOUDSPIRE = '''import random
import aloftnb
match = aloftnb.new_match("cloudspire", players=2, seed=1)
rng = random.Random(1)
while not any(a.type == "construct" for a in match.legal_actions()):
    match.play(rng.choice(match.legal_actions()))
board = match.board()
board'''

# A position with a prompt for each registered game (mid-game for the hex maps).
BOARDS = {
    "balloons": 'import aloftnb\nboard = aloftnb.new_match("balloons", players=3, seed=7).board()'
                '\nboard',
    "alu": 'import aloftnb\nboard = aloftnb.new_match("alu", players=2, seed=1).board()\nboard',
    "commodores": COMMODORES,
    "cloudspire": CLOUDSPIRE,
}

# Longer panels and a grown sky: four factions in an onslaught, five commodores later on.
GROWN = {
    "cloudspire, 4 players": '''import random
import aloftnb
match = aloftnb.new_match("cloudspire", players=4, seed=5)
rng = random.Random(5)
while match.phase != "onslaught" or match.round < 2:
    match.play(rng.choice(match.legal_actions()))
aloftnb.Board(match, viewer="designer")''',
    "commodores, 5 players": '''import random
import aloftnb
match = aloftnb.new_match("commodores", players=5, seed=5)
rng = random.Random(5)
for _ in range(150):
    match.play(rng.choice(match.legal_actions()))
aloftnb.Board(match, viewer="designer")''',
}

# What a person at this board cannot read: elements whose content runs out sideways (they
# scroll or clip it), and SVG texts outside the part of their drawing that is on screen.
CLIPPED_JS = """(root) => {
  const out = [];
  const name = (el) => el.localName + (el.className && el.className.baseVal === undefined &&
    el.className ? '.' + String(el.className).trim().split(/\\s+/).join('.') : '');
  for (const el of [root, ...root.querySelectorAll('*')]) {
    if (!(el instanceof HTMLElement) || !el.clientWidth) continue;
    if (el.scrollWidth > el.clientWidth + 1)
      out.push(`${name(el)} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
  }
  // The box of `el` that can be seen: clipped by every svg and by every box that hides or
  // scrolls its overflow, up to the board.
  const visible = (el) => {
    let box = el.getBoundingClientRect();
    let [left, top, right, bottom] = [-1e9, -1e9, 1e9, 1e9];
    for (let node = el.parentElement; node && node !== root.parentElement;
         node = node.parentElement) {
      const style = getComputedStyle(node);
      if (node.localName === 'svg' || style.overflowX !== 'visible' ||
          style.overflowY !== 'visible') {
        const r = node.getBoundingClientRect();
        left = Math.max(left, r.left); top = Math.max(top, r.top);
        right = Math.min(right, r.right); bottom = Math.min(bottom, r.bottom);
      }
    }
    return [box, {left, top, right, bottom}];
  };
  for (const text of root.querySelectorAll('svg text')) {
    if (!text.textContent.trim()) continue;
    const [box, clip] = visible(text);
    if (!box.width) continue;
    if (box.left < clip.left - 1 || box.right > clip.right + 1 ||
        box.top < clip.top - 1 || box.bottom > clip.bottom + 1)
      out.push(`svg text "${text.textContent.slice(0, 40)}" at ` +
               `${Math.round(box.left)}..${Math.round(box.right)} x ` +
               `${Math.round(box.top)}..${Math.round(box.bottom)} outside ` +
               `${Math.round(clip.left)}..${Math.round(clip.right)} x ` +
               `${Math.round(clip.top)}..${Math.round(clip.bottom)}`);
  }
  return out;
}"""

# With the status line scrolled to the top of the notebook: whether it and the choices are on
# screen (inside the notebook's visible area), and the status line's width.
PROMPT_JS = """(root) => {
  const status = root.querySelector('.aloft-status');
  status.scrollIntoView({block: 'start'});
  let view = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
  for (let node = root.parentElement; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.overflowY !== 'visible' && node.scrollHeight > node.clientHeight) {
      const r = node.getBoundingClientRect();
      view = {left: Math.max(view.left, r.left), top: Math.max(view.top, r.top),
              right: Math.min(view.right, r.right), bottom: Math.min(view.bottom, r.bottom)};
    }
  }
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.left >= view.left - 1 && r.right <= view.right + 1 &&
      r.top >= view.top - 1 && r.bottom <= view.bottom + 1;
  };
  const buttons = [...root.querySelectorAll('.aloft-menu .aloft-choice')];
  const drawn = [...root.querySelectorAll('.aloft-svg [data-key].legal')];
  return {status: inside(status), statusWidth: status.clientWidth,
          buttons: buttons.map((b) => [b.textContent, inside(b)]),
          drawn: drawn.filter(inside).length, legalDrawn: drawn.length,
          viewHeight: Math.round(view.bottom - view.top)};
}"""


def test_every_registered_game_has_a_board_here():
    # The built-in games: other test modules register test games in the same process.
    assert set(BOARDS) == set(BUILT_IN_GAMES), "add a position for every built-in game"


def test_every_board_fits_the_notebook_at_any_width(lab, lab_server, browser_report):
    boards = {**BOARDS, **GROWN}
    names = list(boards)
    path = lab_server.write_notebook("scratch/layout.ipynb", [boards[n] for n in names])
    lab.open(path)
    lab.run_all()
    page = lab.page
    page.evaluate(OPEN_FILE_BROWSER)
    lab.output(f"{BOARD} svg")
    shots = os.environ.get("ALOFTNB_SHOTS")
    problems = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": HEIGHT})
        page.wait_for_timeout(400)
        for index, game in enumerate(names):
            board = page.locator(BOARD).nth(index)
            board.scroll_into_view_if_needed()
            page.wait_for_timeout(100)
            for line in board.evaluate(CLIPPED_JS):
                problems.append(f"{game} at {width} px: {line}")
            prompt = board.evaluate(PROMPT_JS)
            page.wait_for_timeout(100)
            prompt = board.evaluate(PROMPT_JS)  # measured again once the scroll has settled
            browser_report(f"layout {game} at {width} px: status {prompt['statusWidth']} px wide,"
                           f" {len(prompt['buttons'])} choice buttons, notebook shows "
                           f"{prompt['viewHeight']} px")
            if prompt["statusWidth"] < 120:
                problems.append(f"{game} at {width} px: the status line is "
                                f"{prompt['statusWidth']} px wide")
            if not prompt["status"]:
                problems.append(f"{game} at {width} px: the status line is not on screen")
            hidden = [label for label, seen in prompt["buttons"] if not seen]
            if hidden:
                problems.append(f"{game} at {width} px: choices off screen with the status "
                                f"line: {hidden}")
            if not prompt["buttons"] and not prompt["drawn"]:
                problems.append(f"{game} at {width} px: no choice on screen with the status "
                                f"line ({prompt['legalDrawn']} legal elements drawn)")
            if shots:
                folder = Path(shots)
                folder.mkdir(parents=True, exist_ok=True)
                name = game.replace(", ", "-").replace(" ", "-")
                page.screenshot(path=str(folder / f"{name}-{width}-screen.png"))
                board.screenshot(path=str(folder / f"{name}-{width}-board.png"))
    assert problems == [], "\n".join(problems)


def _zoomed_focus(lab, kernel, wait_until, zoom: float) -> dict:
    board = lab.page.locator(BOARD).first
    drawing = board.locator(".aloft-svg > svg")
    width = float(drawing.get_attribute("width"))
    board.locator('select[data-control="zoom"]').select_option(label=f"{zoom * 100:g}%")
    wait_until(lambda: kernel.eval_json("board.zoom") == zoom, what="the zoom")
    wait_until(lambda: float(drawing.get_attribute("width")) > 1.2 * width,
               what="the zoomed map")
    lab.page.wait_for_timeout(300)  # the map is centred in the frame after the redraw
    return board.evaluate("""(root) => {
      const frame = root.querySelector('.aloft-svg');
      const f = frame.getBoundingClientRect();
      return {left: frame.scrollLeft, top: frame.scrollTop,
              maxLeft: frame.scrollWidth - frame.clientWidth,
              maxTop: frame.scrollHeight - frame.clientHeight,
              frame: [f.left, f.top, f.left + frame.clientWidth, f.top + frame.clientHeight]};
    }""")


def _centre(board, selector: str) -> tuple[float, float]:
    box = board.locator(selector).first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("game", ["commodores", "cloudspire"])
def test_a_zoomed_map_opens_on_where_the_play_is(lab, lab_server, wait_until, game):
    if game == "commodores":  # the acting ship
        cells = [COMMODORES.replace("board = match.board()", """match.play(match.legal_actions()[0])  # forage
match.play({"type": "ship", "captain": 1})
board = match.board()""")]
        target = '[data-key="ship:0:1"]'
    else:  # the faction to play's units and spires: here its gate
        cells = [CLOUDSPIRE]
        target = None
    lab.open(lab_server.write_notebook(f"scratch/zoom-{game}.ipynb", cells))
    lab.run_all()
    page = lab.page
    kernel = lab.kernel()
    board = page.locator(BOARD).first
    lab.output(f"{BOARD} svg")
    if target is None:
        gate = kernel.eval_json("[f['gate_hex'] for f in match.view(None)['board']['factions'] "
                                "if f['faction'] == match.view(None)['board']['turn_of']][0]")
        target = f'[data-key="hex:{gate}"]'
    board.scroll_into_view_if_needed()
    for label in (2.0, 3.0):
        frame = _zoomed_focus(lab, kernel, wait_until, label)
        x, y = _centre(board, f".aloft-svg {target}")
        left, top, right, bottom = frame["frame"]
        # The play is on screen in the frame...
        assert left <= x <= right and top <= y <= bottom, (label, frame, x, y)
        # ...in its middle, as far as the frame can scroll that way.
        for at, start, end, scrolled, most in ((x, left, right, "left", "maxLeft"),
                                               (y, top, bottom, "top", "maxTop")):
            wanted = at - start + frame[scrolled] - (end - start) / 2
            assert abs(frame[scrolled] - min(max(wanted, 0), frame[most])) < 40, (
                label, scrolled, frame, x, y)
        assert frame["left"] > 0 or frame["top"] > 0, frame  # not the frame's top-left
    if shots := os.environ.get("ALOFTNB_SHOTS"):
        Path(shots).mkdir(parents=True, exist_ok=True)
        board.screenshot(path=str(Path(shots) / f"{game}-zoom-300.png"))
