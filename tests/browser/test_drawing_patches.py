"""Incremental drawing updates in a real browser: after moves, undos, replays, view changes and a
view that joins late, every view's drawing equals the whole drawing Python holds (`board.svg`),
and a view whose drawing a patch does not fit asks for the whole drawing and shows it."""

from __future__ import annotations

import pytest

BOARD = ".aloft-board"

# A legal move every key of which is drawn (so it is played by clicks alone).
PICK_MOVE = ("[c['path'] for c in board.choices "
             "if all(f'data-key=\"{k}\"' in board.svg for k in c['path'])][0]")

# Each view's drawing and the whole drawing parsed as the board parses it, compared element by
# element, attribute order aside. What the board itself adds to clickable elements (legal,
# selected, recent, role, tabindex, aria-*, an action said before the name) is left out on both
# sides.
COMPARE_JS = """
(svgText) => {
  const MANAGED = ["role", "tabindex", "aria-disabled", "aria-pressed", "data-action",
    "data-drawn-label"];
  const MARKS = ["legal", "selected", "recent"];
  const canon = (el) => {
    const keyed = el.hasAttribute("data-key");
    const attrs = [];
    for (const a of el.attributes) {
      let value = a.value;
      if (keyed && MANAGED.includes(a.name)) continue;
      // An element that says its action keeps the drawing's own name aside (board.js).
      if (keyed && a.name === "aria-label" && el.hasAttribute("data-action")) {
        value = el.getAttribute("data-drawn-label");
      }
      if (keyed && a.name === "class") {
        value = value.split(/\\s+/).filter((c) => c && !MARKS.includes(c)).join(" ");
        if (!value) continue;
      }
      attrs.push([a.name, value]);
    }
    attrs.sort();
    const children = [];
    for (const node of el.childNodes) {
      if (node.nodeType === 1) children.push(canon(node));
      else if (node.nodeType === 3 && node.data.trim()) children.push(["#text", node.data]);
    }
    return [el.localName, attrs, children];
  };
  const reference = document.createElement("div");
  reference.innerHTML = svgText;
  const expected = JSON.stringify(canon(reference.firstElementChild));
  // A drawing in parts: its parts, laid out apart in the drawing's frame and the panel box.
  const expectedParts = JSON.stringify([...reference.firstElementChild.children].map(canon));
  return [...document.querySelectorAll(".aloft-board")].map((board) => {
    const box = board.querySelector(".aloft-svg");
    if (!board.classList.contains("aloft-parts"))
      return !!box.firstElementChild && JSON.stringify(canon(box.firstElementChild)) === expected;
    const parts = [...box.children, ...board.querySelector(".aloft-panel").children];
    return JSON.stringify(parts.map(canon)) === expectedParts;
  });
}
"""


def views_match_python(lab, kernel, wait_until, views: int, what: str) -> None:
    """Wait until each of `views` board views draws exactly `board.svg`."""
    def check():
        svg = kernel.eval_json("board.svg")
        matched = lab.page.evaluate(COMPARE_JS, svg)
        return len(matched) == views and all(matched)
    wait_until(check, what=f"every view to draw board.svg ({what})")


def play_by_clicks(lab, kernel, wait_until, view: int = 0) -> None:
    position = kernel.eval_json("match.position")
    board = lab.page.locator(BOARD).nth(view)
    for key in kernel.eval_json(PICK_MOVE):
        board.locator(f'[data-key="{key}"]').click()
    wait_until(lambda: kernel.eval_json("match.position") == position + 1, what="the move in Python")


@pytest.mark.parametrize("make_match", [
    'aloftnb.new_match("balloons", players=3, seed=7)',
    'aloftnb.new_match("alu", players=2, seed=1)',
    'aloftnb.new_match("commodores", players=3, seed=11)',  # a drawing in parts
])
def test_patched_drawings_equal_the_whole_drawing(lab, lab_server, wait_until, make_match):
    path = lab_server.write_notebook("scratch/patches.ipynb", [
        f"import aloftnb\nmatch = {make_match}\nboard = match.board()\nboard"])
    lab.open(path)
    lab.run_all()
    lab.output(f"{BOARD} svg")
    kernel = lab.kernel()
    page = lab.page
    views_match_python(lab, kernel, wait_until, 1, "at the start")

    # Moves are patched into the drawing shown: the same svg element stays on the page.
    page.evaluate(f"() => {{ document.querySelector('{BOARD} svg').keptByPatches = true; }}")
    for _ in range(3):
        play_by_clicks(lab, kernel, wait_until)
        views_match_python(lab, kernel, wait_until, 1, "after a move")
    assert page.evaluate(f"() => document.querySelector('{BOARD} svg').keptByPatches === true")
    assert kernel.eval_json("board.svg_patch['revision']") == kernel.eval_json("board.svg_revision")

    # Undo from a cell, a step back on the timeline, a change of view.
    kernel.execute("match.undo()")
    views_match_python(lab, kernel, wait_until, 1, "after an undo from a cell")
    back_to = kernel.eval_json("match.position") - 1
    page.locator(f"{BOARD} .aloft-back").click()
    wait_until(lambda: kernel.eval_json("match.position") == back_to,
               what="the timeline step back")
    views_match_python(lab, kernel, wait_until, 1, "after a step back")
    page.locator(f"{BOARD} .aloft-viewer").select_option("designer")
    wait_until(lambda: kernel.eval_json("board.viewer") == "designer", what="the designer view")
    views_match_python(lab, kernel, wait_until, 1, "after a change of view")
    play_by_clicks(lab, kernel, wait_until)
    views_match_python(lab, kernel, wait_until, 1, "after a move in the designer view")

    # A second view of the same board, shown after all that, starts from the current drawing,
    # and both follow moves made on either.
    lab.run_cell("board")
    page.wait_for_function(f"() => document.querySelectorAll('{BOARD}').length === 2")
    views_match_python(lab, kernel, wait_until, 2, "a view joining late")
    play_by_clicks(lab, kernel, wait_until, view=1)
    views_match_python(lab, kernel, wait_until, 2, "after a move on the second view")
    kernel.execute("match.undo(); match.play(match.legal_actions()[-1])")
    views_match_python(lab, kernel, wait_until, 2, "after an undo and a move from a cell")

    if "commodores" in make_match:
        # A part replaced whole (a patch splicing the root's parts): both views lay it out,
        # keeping the other parts they show.
        page.evaluate(f"() => document.querySelectorAll('{BOARD} .aloft-svg > svg')"
                      ".forEach((svg) => { svg.keptBySplice = true; })")
        kernel.execute("import re\n"
                       "small = re.sub(r'(data-part=\"panel\"[^>]*>).*</svg></svg>$', "
                       "r'\\1<text x=\"700\" y=\"20\">a new panel</text>"
                       "</svg></svg>', board.svg, flags=re.S)\n"
                       "assert small != board.svg\n"
                       "board._publish_drawing(small)")
        assert kernel.eval_json("board.svg_patch['ops']").startswith('[{"at":[],')
        views_match_python(lab, kernel, wait_until, 2, "after a part was replaced")
        assert page.locator(f"{BOARD} .aloft-panel", has_text="a new panel").count() == 2
        assert page.evaluate(f"() => [...document.querySelectorAll('{BOARD} .aloft-svg > svg')]"
                             ".map((svg) => svg.keptBySplice === true)") == [True, True]
        kernel.execute("match.play(match.legal_actions()[0])")
        views_match_python(lab, kernel, wait_until, 2, "after the whole panel came back")

    # A drawing the next patch does not fit (an element gone): that view asks for the whole
    # drawing, and both views end up right.
    page.evaluate(f"() => document.querySelector('{BOARD} svg').lastElementChild.remove()")
    kernel.execute("match.play(match.legal_actions()[0])")
    views_match_python(lab, kernel, wait_until, 2, "after a patch that did not fit one view")

    # A patch made from a revision the views never saw (as if a message were lost): both views
    # ask for the whole drawing rather than apply it.
    kernel.execute("board._trait_values['svg_revision'] += 3\n"
                   "match.undo()")
    views_match_python(lab, kernel, wait_until, 2, "after a patch from a revision never seen")


# Records attribute writes on the board's clickable elements that set the value already there:
# each such write of a tabindex makes the browser recompute the page's style before going on.
WATCH_WRITES_JS = """
() => {
  const box = document.querySelector('.aloft-board .aloft-svg');
  const records = [];
  const observer = new MutationObserver((found) => records.push(...found));
  observer.observe(box, { subtree: true, attributes: true, attributeOldValue: true,
    attributeFilter: ['role', 'tabindex', 'aria-disabled', 'aria-pressed'] });
  window.redundantWrites = () => {
    records.push(...observer.takeRecords());
    observer.disconnect();
    const redundant = [];
    records.forEach((record, i) => {
      const later = records.slice(i + 1).find((r) => r.target === record.target &&
        r.attributeName === record.attributeName);
      const written = later ? later.oldValue : record.target.getAttribute(record.attributeName);
      if (written === record.oldValue) redundant.push(record.attributeName + '=' + written);
    });
    return redundant;
  };
}
"""


def test_a_redraw_rebuilds_and_rewrites_only_what_changed(lab, lab_server, wait_until):
    path = lab_server.write_notebook("scratch/writes.ipynb", [
        "import aloftnb\nmatch = aloftnb.new_match('balloons', players=3, seed=7)\n"
        "board = match.board()\nboard"])
    lab.open(path)
    lab.run_all()
    lab.output(f"{BOARD} svg")
    kernel = lab.kernel()
    page = lab.page
    # The side panel's menus outlive a move: only their texts and marks change.
    page.evaluate(f"""() => {{
        for (const s of document.querySelectorAll('{BOARD} .aloft-seat select, {BOARD} .aloft-viewer'))
            s.keptAcrossMoves = true;
    }}""")
    move = kernel.eval_json(PICK_MOVE)
    board = page.locator(BOARD)
    for key in move[:-1]:
        board.locator(f'[data-key="{key}"]').click()
    page.evaluate(WATCH_WRITES_JS)
    revision = board.get_attribute("data-revision")
    board.locator(f'[data-key="{move[-1]}"]').click()
    wait_until(lambda: kernel.eval_json("match.position") == 1, what="the move in Python")
    page.wait_for_function(f"() => document.querySelector('{BOARD}').getAttribute('data-revision')"
                           f" !== '{revision}'")
    assert page.evaluate("() => window.redundantWrites()") == []
    kept = page.eval_on_selector_all(f"{BOARD} .aloft-seat select, {BOARD} .aloft-viewer",
                                     "(nodes) => nodes.map((n) => n.keptAcrossMoves === true)")
    assert kept == [True] * 4
    # ... and still say what they should: seat 1 is to move now, the view is the hot seat.
    assert "to-move" in board.locator(".aloft-seat").nth(1).get_attribute("class")
    assert "to-move" not in board.locator(".aloft-seat").nth(0).get_attribute("class")
    assert board.locator(".aloft-viewer").input_value() == "turn"

    # The log keeps the entries it shows and replaces those from the first that changed.
    kernel.execute("match.play(match.legal_actions()[0])")
    items = board.locator(".aloft-log li")
    wait_until(lambda: items.count() == 2, what="two log entries")
    page.evaluate(f"() => {{ document.querySelector('{BOARD} .aloft-log li').keptAcrossMoves = true; }}")
    kernel.execute("match.undo()\nmatch.play(match.legal_actions()[-1])")
    python_log = kernel.eval_json("[e['text'] for e in board.log]")
    wait_until(lambda: items.all_text_contents() == python_log, what="the log to follow Python's")
    assert page.evaluate(f"() => document.querySelector('{BOARD} .aloft-log li').keptAcrossMoves")
    assert "current" in items.nth(1).get_attribute("class").split()
