"""The hex boards played by keyboard alone, in real JupyterLab (issue 24, items 1, 5 and 7): after
every kind of move the focus stays on the board where play goes on, the choices menu is one Tab
stop right after the map with arrow keys inside it and a heading, and whole turns are played by
keys alone with every key press counted (printed in the browser report).

ALOFTNB_KBD_MEASURE=1 runs the counted turns without the focus checks, bringing the focus back
with Tab presses (counted) whenever it left the board: that measures the keys the old board
needed. ALOFTNB_SHOTS names a folder to keep screenshots of the focus after the moves."""

from __future__ import annotations

import os
from pathlib import Path

MEASURE = os.environ.get("ALOFTNB_KBD_MEASURE") == "1"
SHOTS = os.environ.get("ALOFTNB_SHOTS")
BOARD = ".aloft-board"

COMMODORES = '''import aloftnb
match = aloftnb.new_match("commodores", players=3, seed=11)


def move_to_explore():
    """A corner the ship can reach from which it can explore."""
    for action in match.legal_actions():
        if action.type == "move":
            trial = match.fork()
            trial.play(action)
            if any(a.type == "explore" for a in trial.legal_actions()):
                return action.to


board = match.board()
board'''

CLOUDSPIRE = '''import aloftnb
match = aloftnb.new_match("cloudspire", players=2, seed=1)
board = match.board()
board'''

# What has the focus: its map key or menu key, and whether it is a control inside the board.
FOCUS_JS = """() => {
  const el = document.activeElement;
  const board = el && el.closest('.aloft-board');
  return {key: el && el.getAttribute('data-key'), menuKey: el && el.getAttribute('data-menu-key'),
          text: el ? (el.textContent || '').trim().slice(0, 60) : '', tag: el ? el.tagName : '',
          inBoard: !!board && el !== board, inMenu: !!(el && el.closest('.aloft-menu')),
          inMap: !!(el && el.closest('.aloft-svg'))};
}"""

# The shortest arrow-key path on the map from the focused element to `target`, with the same
# rule as board.js's moveFocus (nearest element of the region in that direction).
ARROWS_JS = """(target) => {
  const box = document.querySelector('.aloft-board .aloft-svg');
  const nodes = [...box.querySelectorAll('[data-key]')];
  const centre = (n) => { const r = n.getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2]; };
  const region = (n) => { const g = n.parentElement && n.parentElement.closest('[role=group]');
    return g && box.contains(g) ? g : box; };
  const at = nodes.map(centre);
  const keys = ['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp'];
  function next(i, key) {
    let best = -1, bestScore = Infinity;
    nodes.forEach((n, j) => {
      if (j === i || region(n) !== region(nodes[i])) return;
      const dx = at[j][0] - at[i][0], dy = at[j][1] - at[i][1];
      const along = {ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy}[key];
      const across = key === 'ArrowRight' || key === 'ArrowLeft' ? Math.abs(dy) : Math.abs(dx);
      if (along <= 1) return;
      const score = along + 2 * across;
      if (score < bestScore) { best = j; bestScore = score; }
    });
    return best;
  }
  const start = nodes.indexOf(document.activeElement);
  const goal = nodes.findIndex((n) => n.getAttribute('data-key') === target);
  if (start < 0 || goal < 0) return null;
  const how = new Map([[start, []]]);
  const queue = [start];
  while (queue.length) {
    const i = queue.shift();
    if (i === goal) return how.get(i);
    for (const key of keys) {
      const j = next(i, key);
      if (j >= 0 && !how.has(j)) { how.set(j, [...how.get(i), key]); queue.push(j); }
    }
  }
  return null;
}"""

# Whether `selector` comes after the focused element in the document (Tab reaches it forwards).
AFTER_JS = """(selector) => {
  const target = document.querySelector(selector);
  return !!(document.activeElement.compareDocumentPosition(target) &
            Node.DOCUMENT_POSITION_FOLLOWING);
}"""


class Keyboard:
    """Plays a board by keys alone, counting every key pressed."""

    def __init__(self, page, kernel, wait_until) -> None:
        self.page, self.kernel, self.wait_until = page, kernel, wait_until
        self.count = 0
        self.moves: list[str] = []
        self.lost: list[str] = []  # the moves after which the focus left the board (measured)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1

    def focus(self) -> dict:
        return self.page.evaluate(FOCUS_JS)

    def tab_to(self, where: str) -> None:
        """Tab (or Shift+Tab) until the focus is in `where`: "map" or "menu"."""
        selector = {"map": f"{BOARD} .aloft-svg [data-key]", "menu": f"{BOARD} .aloft-menu button"}
        for _ in range(120):
            if self.focus()["in" + where.title()]:
                return
            forward = self.page.evaluate(AFTER_JS, selector[where])
            self.press("Tab" if forward else "Shift+Tab")
        raise AssertionError(f"Tab never reached the {where}: {self.focus()}")

    def to_map(self, key: str) -> None:
        self.tab_to("map")
        path = self.page.evaluate(ARROWS_JS, key)
        assert path is not None, f"no arrow-key path to {key} from {self.focus()}"
        for arrow in path:
            self.press(arrow)
        assert self.focus()["key"] == key

    def to_menu(self, menu_key: str | None = None, text: str | None = None) -> None:
        self.tab_to("menu")
        labels = self.page.evaluate(f"""() => [...document.querySelectorAll(
          '{BOARD} .aloft-menu button')].map((b) => [b.getAttribute('data-menu-key'),
          b.textContent, b.getAttribute('tabindex')])""")
        index = next(i for i, (k, t, _) in enumerate(labels)
                     if (menu_key is None or k == menu_key) and (text is None or text in t))
        here = next(i for i, (k, t, _) in enumerate(labels)
                    if k == self.focus()["menuKey"] and t.strip()[:60] == self.focus()["text"])
        roving = any(tabindex == "-1" for _, _, tabindex in labels)
        step = ("ArrowRight", "ArrowLeft") if roving else ("Tab", "Shift+Tab")
        for _ in range(abs(index - here)):
            self.press(step[0] if index > here else step[1])
        assert self.page.evaluate(f"() => document.activeElement === document.querySelectorAll("
                                  f"'{BOARD} .aloft-menu button')[{index}]")

    def play(self, what: str, moved=None) -> None:
        """Enter on the focused choice; the move's redraw must leave the focus on the board."""
        revision = self.page.locator(BOARD).get_attribute("data-revision")
        position = self.kernel.eval_json("match.position")
        self.press("Enter")
        self.wait_until(moved or (lambda: self.kernel.eval_json("match.position") > position),
                        what=f"the move: {what}")
        self.wait_until(lambda: self.page.locator(BOARD).get_attribute("data-revision")
                        != revision, what=f"the redraw after: {what}")
        self.page.wait_for_timeout(150)  # a frame or two for the focus to settle
        focus = self.focus()
        self.moves.append(f"{what} -> {focus['key'] or focus['menuKey'] or focus['tag']}")
        if MEASURE:
            if not focus["inBoard"]:
                self.lost.append(what)
                self.tab_to("map")  # the old board: the person Tabs back from where it fell
            return
        assert focus["inBoard"], f"the focus left the board after {what}: {focus}"


def open_board(lab, lab_server, name: str, cells: list[str]):
    lab.open(lab_server.write_notebook(name, cells))
    lab.run_all()
    lab.page.set_viewport_size({"width": 1024, "height": 900})
    board = lab.page.locator(BOARD).first
    board.locator(".aloft-svg svg").wait_for(state="visible")
    return board


def shot(page, name: str) -> None:
    """The board with its focus ring, when ALOFTNB_SHOTS names a folder."""
    if SHOTS and not MEASURE:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.locator(BOARD).first.screenshot(path=str(Path(SHOTS) / name))


def test_commodores_setup_and_a_whole_turn_by_keys_alone(lab, lab_server, wait_until,
                                                         browser_report):
    board = open_board(lab, lab_server, "kbd-commodores.ipynb", [COMMODORES])
    page, kernel = lab.page, lab.kernel()
    keys = Keyboard(page, kernel, wait_until)
    board.locator('.aloft-svg [data-key][tabindex="0"]').first.focus()  # Tab into the board

    # Setup, hot seat: each seat places its starter on a corner, then takes a free resource.
    for seat in range(3):
        keys.to_map(kernel.eval_json("board.choices[0]['path'][0]"))
        keys.play(f"seat {seat} places its starter")
    shot(page, "commodores-after-starters.png")
    for seat in range(3):
        keys.to_menu("free canvas")
        keys.play(f"seat {seat} takes a free canvas")
    assert kernel.eval_json("match.phase") == "forage"
    shot(page, "commodores-after-free-resource.png")

    # Enough to explore, set from the cell: the board redraws.
    kernel.execute('pools = match.state.to_dict()["pools"]\n'
                   'pools[0] = {"canvas": 3, "breath": 1, "glass": 1, "wood": 3, "metal": 0}\n'
                   'match.edit(pools=pools)\nboard._publish()')
    page.wait_for_timeout(300)
    if not keys.focus()["inBoard"]:  # a redraw made by a cell may not take the focus
        board.locator('.aloft-svg [data-key][tabindex="0"]').first.focus()
    setup_keys, keys.count = keys.count, 0

    # One whole turn: forage, pick the ship, move it, explore and pay, place the hex, end the ship.
    keys.to_menu("forage on 2")
    keys.play("forage")
    shot(page, "commodores-after-forage.png")
    keys.to_map("ship:0:1")
    keys.play("pick the ship", moved=lambda: kernel.eval_json("match.state.active") == 0)
    corner = kernel.eval_json("move_to_explore()")
    assert corner, "seed 11 gives the starter a corner from which to explore"
    keys.to_map(f"corner:{corner}")
    keys.play("move the ship")
    shot(page, "commodores-after-move.png")
    keys.to_menu("explore")
    keys.press("Enter")  # the first step of two: the focus goes to the first way to pay
    wait_until(lambda: keys.focus()["inMenu"], what="the payments in the menu")
    keys.to_menu(text="paying 1 canvas")
    keys.play("explore and pay",
              moved=lambda: kernel.eval_json("match.state.step") == "place_hex")
    # The top hex was drawn first: now a space next to the ship on the map places it.
    space = kernel.eval_json("match.legal_actions()[0].space")
    keys.to_map(f"space:{space}")
    keys.play("place the hex drawn")
    shot(page, "commodores-after-explore.png")
    keys.to_menu("end ship")
    keys.play("end the ship")
    shot(page, "commodores-after-end-ship.png")
    turn = keys.count
    browser_report(f"keyboard ({'old board, measured' if MEASURE else 'this board'}): "
                   f"commodores setup (3 starters, 3 free resources) {setup_keys} key presses; "
                   f"a whole turn (forage, pick, move, explore and pay, place, end ship) {turn} key presses")
    if MEASURE:
        browser_report(f"  focus left the board after: {'; '.join(keys.lost) or 'no move'}")
    browser_report(f"  focus after each move: {'; '.join(keys.moves)}")


def test_cloudspire_market_build_and_prep_by_keys_alone(lab, lab_server, wait_until,
                                                        browser_report):
    board = open_board(lab, lab_server, "kbd-cloudspire.ipynb", [CLOUDSPIRE])
    page, kernel = lab.page, lab.kernel()
    keys = Keyboard(page, kernel, wait_until)
    board.locator('.aloft-svg [data-key][tabindex="0"]').first.focus()

    # Market: seat 0 buys, seat 1 passes (the phase ends when both have passed).
    keys.to_menu("buy market slot 0")
    keys.play("seat 0 buys at the market")
    shot(page, "cloudspire-after-buy.png")
    for _ in range(6):
        if kernel.eval_json("match.phase") != "market":
            break
        keys.to_menu("pass")
        keys.play("a pass at the market")
    assert kernel.eval_json("match.phase") == "build"
    market, keys.count = keys.count, 0

    # Build: each seat constructs a spire (the well on the map, the spire, its upgrades' order),
    # then both pass.
    for seat in range(2):
        path = kernel.eval_json("next(c['path'] for c in board.choices "
                                "if c['path'][0].startswith('hex:'))")
        keys.to_map(path[0])
        keys.press("Enter")
        wait_until(lambda: keys.focus()["inMenu"], what="the spires in the menu")
        keys.to_menu(path[1])
        keys.press("Enter")  # the second step: the focus goes to the orders
        if MEASURE:
            board.locator(f'.aloft-menu [data-menu-key="{path[2]}"]').wait_for()
            page.wait_for_timeout(150)
            if not keys.focus()["inBoard"]:
                keys.lost.append(f"seat {seat} chooses the spire")
        else:
            wait_until(lambda: (keys.focus()["menuKey"] or "").startswith("upgrades"),
                       what="the focus on the orders")
        keys.to_menu(path[2])
        keys.play(f"seat {seat} constructs")
        if seat == 0:
            shot(page, "cloudspire-after-construct.png")
    for _ in range(4):
        if kernel.eval_json("match.phase") != "build":
            break
        keys.to_menu("pass")
        keys.play("a pass in the build")
    assert kernel.eval_json("match.phase") == "prep"
    build, keys.count = keys.count, 0

    # Prep: seat 0 deploys twice and finishes its stack; seat 1 deploys once and finishes.
    for seat, deploys in ((0, 2), (1, 1)):
        for _ in range(deploys):
            key = kernel.eval_json("next(c['path'][0] for c in board.choices "
                                   "if c['path'][0].startswith('deploy'))")
            keys.to_menu(key)
            keys.play(f"seat {seat} deploys")
        if seat == 0:
            shot(page, "cloudspire-after-deploy.png")
        keys.to_menu("ready")
        keys.play(f"seat {seat} finishes its stack")
    prep = keys.count
    browser_report(f"keyboard ({'old board, measured' if MEASURE else 'this board'}): "
                   f"cloudspire market {market}, build phase (2 constructs, passes) {build}, "
                   f"prep (3 deploys, 2 stacks finished) {prep} key presses")
    if MEASURE:
        browser_report(f"  focus left the board after: {'; '.join(keys.lost) or 'no move'}")
    browser_report(f"  focus after each move: {'; '.join(keys.moves)}")


CLOUDSPIRE_MARKET = CLOUDSPIRE  # a new game opens at the market: five choices, all in the menu
MENU_BUTTONS_JS = f"() => [...document.querySelectorAll('{BOARD} .aloft-menu button')]"
FOCUSED_INDEX_JS = f"() => ({MENU_BUTTONS_JS})().indexOf(document.activeElement)"
# The menu's accessible name, from what aria-labelledby names.
MENU_NAME_JS = f"""() => {{
  const menu = document.querySelector('{BOARD} .aloft-menu');
  return (menu.getAttribute('aria-labelledby') || '').split(' ').filter(Boolean)
    .map((id) => document.getElementById(id).textContent).join(' ');
}}"""


def test_the_choices_come_right_after_the_map_in_the_tab_order(lab, lab_server, wait_until,
                                                               browser_report):
    board = open_board(lab, lab_server, "kbd-menu.ipynb", [CLOUDSPIRE_MARKET])
    page = lab.page
    board.locator(".aloft-menu button").first.wait_for()

    # From the header's first control to the first choice, Tab by Tab (printed).
    board.locator(".aloft-viewer").focus()
    tabs = 0
    while tabs < 40 and page.evaluate(FOCUSED_INDEX_JS) != 0:
        page.keyboard.press("Tab")
        tabs += 1
    browser_report(f"keyboard: Tabs from the board's first control (the view menu) to the "
                   f"first market choice: {tabs}")

    # The choices come right after the map: one Tab from the map to the first choice, and one
    # Shift+Tab back.
    board.locator('.aloft-svg [data-key][tabindex="0"]').first.focus()
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_INDEX_JS) == 0, page.evaluate(FOCUS_JS)
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUS_JS)["inMap"]

    # Someone typing in a cell keeps the focus there when a move made from code redraws the
    # board (the board only moves the focus it had).
    editor = page.locator(".jp-Cell .cm-content").first
    editor.click()
    revision = board.get_attribute("data-revision")
    lab.kernel().execute("match.play(match.legal_actions()[-1])")
    wait_until(lambda: board.get_attribute("data-revision") != revision, what="the redraw")
    page.wait_for_timeout(300)
    assert page.evaluate("() => !!document.activeElement.closest('.jp-Cell .cm-editor')"), \
        page.evaluate(FOCUS_JS)


def test_the_choices_are_one_tab_stop_with_arrow_keys_and_a_heading(lab, lab_server, wait_until):
    board = open_board(lab, lab_server, "kbd-menu-keys.ipynb", [CLOUDSPIRE_MARKET])
    page, kernel = lab.page, lab.kernel()
    board.locator(".aloft-menu button").first.wait_for()
    buttons = board.locator(".aloft-menu button")
    count = buttons.count()
    assert count >= 4
    buttons.first.focus()

    # Arrows move inside the menu (round at its ends), Home and End go to its ends.
    for key, index in [("ArrowRight", 1), ("ArrowDown", 2), ("ArrowUp", 1), ("ArrowLeft", 0),
                       ("ArrowLeft", count - 1), ("ArrowRight", 0), ("End", count - 1),
                       ("Home", 0), ("ArrowRight", 1)]:
        page.keyboard.press(key)
        assert page.evaluate(FOCUSED_INDEX_JS) == index, (key, page.evaluate(FOCUS_JS))
    # The whole menu is one Tab stop: Tab leaves it, Shift+Tab comes back to the choice left.
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_INDEX_JS) == -1
    assert page.evaluate(FOCUS_JS)["inBoard"]  # the timeline, next
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED_INDEX_JS) == 1
    assert [buttons.nth(i).get_attribute("tabindex") for i in range(count)] == [
        "0" if i == 1 else "-1" for i in range(count)]
    # The arrow keys never reach JupyterLab (the notebook's cell stays the same).
    assert page.evaluate("() => document.activeElement.closest('.aloft-board') !== null")

    # The group is named by a visible heading: "Choose:" and the status (who does what).
    name = page.evaluate(MENU_NAME_JS)
    status = board.locator(".aloft-status").text_content()
    assert name.startswith("Choose:") and status in name, name
    assert board.locator(".aloft-menu-label").is_visible()

    # Enter on the choice the arrows reached plays it; the menu is one Tab stop again after.
    steps = kernel.eval_json("len(match.history)")
    arrowed = kernel.eval_json("board.choices[1]['action']")
    page.keyboard.press("Enter")
    wait_until(lambda: kernel.eval_json("len(match.history)") > steps, what="the arrowed choice")
    assert kernel.eval_json(f"match.history[{steps}].action.to_dict()") == arrowed
    wait_until(lambda: page.evaluate(FOCUS_JS)["inMenu"], what="the focus back on the menu")
    stops = [buttons.nth(i).get_attribute("tabindex") for i in range(buttons.count())]
    assert stops.count("0") == 1, stops

    # A step chosen on the map: the heading is the hint of what to choose next.
    kernel.execute("while match.phase != 'build': match.play(match.legal_actions()[-1])\n"
                   "board._publish()")
    well = kernel.eval_json("next(c['path'][0] for c in board.choices "
                            "if c['path'][0].startswith('hex:'))")
    board.locator(f'[data-key="{well}"]').focus()
    page.keyboard.press("Enter")
    wait_until(lambda: page.evaluate(FOCUS_JS)["inMenu"], what="the spires in the menu")
    name = page.evaluate(MENU_NAME_JS)
    assert "choose the spire" in name and board.locator(".aloft-hint").is_visible(), name
    shot(page, "cloudspire-menu-heading.png")
