"""The board as a designer lives in it, in real JupyterLab: keys stay on the board, any window
width, no stale messages, last moves marked, a visible kernel loss, a layout that never jumps and
a timeline on every board."""

from __future__ import annotations

BOARD = ".aloft-board"

BALLOONS = """
import aloftnb
match = aloftnb.new_match("balloons", players=3, seed=7)
board = match.board()
board
"""

ALU = """
import aloftnb
match = aloftnb.new_match("alu", players=2, seed=1)
board = match.board()
board
"""

OPEN_FILE_BROWSER = "() => window.jupyterapp.shell.activateById('filebrowser')"

CELLS_JS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  return panel.content.widgets.map((cell) => [cell.model.type, cell.model.sharedModel.getSource()]);
}"""

KERNEL_ID_JS = "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.id"


def key(name: str, board: str = BOARD) -> str:
    return f'{board} [data-key="{name}"]'


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def test_keys_typed_on_a_board_stay_on_the_board(lab, lab_server, wait_until):
    path = lab_server.write_notebook("scratch/keys.ipynb", [ALU, "marker = 41 + 1"])
    lab.open(path)
    lab.run_all()
    page = lab.page
    kernel = lab.kernel()
    lab.output(f"{BOARD} svg")
    cells_before = page.evaluate(CELLS_JS)
    kernel_before = page.evaluate(KERNEL_ID_JS)

    page.locator(key("tile:a1")).click()  # a tile has the focus, the notebook is in command mode
    assert page.evaluate("() => document.activeElement.getAttribute('data-key')") == "tile:a1"
    for keys in ["a", "b", "m", "d", "d", "0", "0", "z", "x", "c", "v", "Shift+M"]:
        page.keyboard.press(keys)
    page.wait_for_timeout(500)  # a restart or a new cell would have begun by now

    assert page.evaluate(CELLS_JS) == cells_before
    assert page.evaluate(KERNEL_ID_JS) == kernel_before
    assert kernel.eval_json("marker") == 42  # the kernel kept its variables: no restart
    assert page.locator(f"{BOARD} .aloft-svg > svg").count() == 1

    # Escape (with nothing selected) gives the keyboard back to the notebook.
    page.keyboard.press("Escape")
    assert "selected" not in page.locator(key("tile:a1")).get_attribute("class")
    page.keyboard.press("Escape")
    assert page.evaluate("() => !document.activeElement.closest('.aloft-board') && "
                         "!!document.activeElement.closest('.jp-Notebook')")
    page.keyboard.press("b")  # now the notebook's own shortcut works again: a cell below
    wait_until(lambda: len(page.evaluate(CELLS_JS)) == len(cells_before) + 1,
               what="the notebook to take 'b' after Escape")


def _text_sizes(page) -> list[tuple[str, float]]:
    """(text, rendered font size in px) of every text on the board, SVG and HTML."""
    return page.evaluate(f"""() => {{
      const board = document.querySelector('{BOARD}');
      const out = [];
      for (const node of board.querySelectorAll('svg text')) {{
        const svg = node.ownerSVGElement;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        const size = parseFloat(getComputedStyle(node).fontSize);
        if (node.textContent.trim()) out.push([node.textContent, size * scale]);
      }}
      for (const node of board.querySelectorAll('div, span, li, button, label, option, select')) {{
        const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
        if (own && node.getClientRects().length)
          out.push([node.textContent.slice(0, 30), parseFloat(getComputedStyle(node).fontSize)]);
      }}
      return out;
    }}""")


def test_boards_stay_playable_at_any_window_width(lab, lab_server, browser_report):
    path = lab_server.write_notebook("scratch/widths.ipynb", [ALU, BALLOONS])
    lab.open(path)
    lab.run_all()
    page = lab.page
    page.evaluate(OPEN_FILE_BROWSER)
    lab.output(f"{BOARD} svg")
    for width in (800, 1024, 1400):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        for index in range(2):
            board = page.locator(BOARD).nth(index)
            board.scroll_into_view_if_needed()
            figures = board.evaluate("""(root) => {
              const svg = root.querySelector('.aloft-svg svg');
              const shown = root.querySelector('.aloft-svg');
              const side = root.querySelector('.aloft-side').getBoundingClientRect();
              const play = root.querySelector('.aloft-play').getBoundingClientRect();
              return {drawn: svg.getBoundingClientRect().width, natural: +svg.getAttribute('width'),
                      visible: shown.clientWidth, board: root.getBoundingClientRect().width,
                      overlap: side.left < play.right - 1 && side.top < play.bottom - 1};
            }""")
            # The drawing keeps its own size while the board has room for it, and scales down
            # to fit a narrower one (never scrolled away); the panel never covers it.
            assert figures["drawn"] >= min(figures["natural"], figures["board"] - 20) - 1, (
                width, index, figures)
            assert figures["drawn"] <= figures["visible"] + 1, (width, index, figures)
            assert not figures["overlap"], (width, index, figures)
            # It gets the whole width of the board when it needs it (the panel goes below).
            assert figures["visible"] >= min(figures["natural"], figures["board"] - 20), (
                width, index, figures)
            browser_report(f"window {width} px, board {index}: drawing {figures['drawn']:.0f} px "
                           f"(own size {figures['natural']}), {figures['visible']} px visible")
            if width == 1400:
                small = [(text, size) for text, size in _text_sizes(page) if size < 11]
                assert small == [], small
            # A legal element can be clicked (scrolled into view inside the board if need be).
            first_legal = board.locator(".aloft-svg [data-key].legal").first.get_attribute("data-key")
            legal = board.locator(f'.aloft-svg [data-key="{first_legal}"]')
            legal.scroll_into_view_if_needed()
            legal.click()
            assert "selected" in legal.get_attribute("class") or board.locator(
                ".aloft-menu .aloft-choice").count()
            page.keyboard.press("Escape")


def test_messages_go_when_position_view_or_selection_change(lab, lab_server, wait_until):
    path = lab_server.write_notebook("scratch/messages.ipynb", [BALLOONS])
    lab.open(path)
    lab.run_all()
    page = lab.page
    kernel = lab.kernel()
    lab.output(f"{BOARD} svg")
    message = page.locator(f"{BOARD} .aloft-message")

    def refusal():
        page.locator(key("truck:0")).click(force=True)  # a truck first: explained
        wait_until(lambda: message.text_content() != "", what="a refusal")
        return message.text_content()

    # 12. A truck first says what to do first.
    assert "pick a balloon first" in refusal()

    # A change of position from a cell clears it.
    kernel.execute("match.play(match.legal_actions()[0])")
    wait_until(lambda: message.text_content() == "", what="the message to go after a move")
    refusal()
    lab.run_cell("match.undo()")
    wait_until(lambda: message.text_content() == "", what="the message to go after an undo")
    refusal()
    kernel.execute("match.goto(0)")  # already there: no change, the message stays
    page.wait_for_timeout(300)
    assert message.text_content() != ""
    # A change of view clears it.
    page.locator(f"{BOARD} .aloft-viewer").select_option("designer")
    wait_until(lambda: message.text_content() == "", what="the message to go after a view change")

    # 4. In a one-seat view, a click on the other seat's turn says whose turn and which view.
    page.locator(f"{BOARD} .aloft-viewer").select_option("seat:1")
    page.wait_for_function(f"() => document.querySelector('{BOARD} .aloft-moves').disabled")
    page.locator(key("balloon:RW")).click(force=True)
    wait_until(lambda: "seat 0's turn" in message.text_content(), what="the one-seat refusal")
    assert "seat 1 only" in message.text_content()
    assert "is legal" not in message.text_content()

    # 12. An illegal second click (a balloon, then a taken truck) keeps the balloon selected.
    page.locator(f"{BOARD} .aloft-viewer").select_option("turn")
    # Python has the new view before the move (a view change arriving later clears a selection)
    wait_until(lambda: kernel.eval_json("board.viewer") == "turn", what="the hot-seat view")
    kernel.execute("match.play({'type': 'unpack', 'balloon': 'RW', 'truck': 1})")
    page.wait_for_function(
        f"() => [...document.querySelectorAll('{BOARD} [aria-label]')]"
        ".some((n) => n.getAttribute('aria-label').includes('unpacked on truck 1'))")
    packed = page.locator(key("balloon:GP"))
    packed.click()
    page.locator(key("truck:1")).click(force=True)
    wait_until(lambda: message.text_content() != "", what="the taken-truck refusal")
    assert "selected" in packed.get_attribute("class")


def test_last_moves_are_marked_and_focus_rings_are_for_keys(lab, lab_server, wait_until):
    path = lab_server.write_notebook("scratch/recent.ipynb", ["""
import aloftnb
match = aloftnb.new_match("balloons", players=3, seed=7)
board = match.board(bots={1: "random", 2: "random"}, bot_delay=0.05)
board
"""])
    lab.open(path)
    lab.run_all()
    page = lab.page
    kernel = lab.kernel()
    lab.output(f"{BOARD} svg")
    page.locator(key("balloon:RW")).click()
    # A mouse click leaves no focus ring (it looked like a highlight).
    assert page.evaluate(f"() => document.querySelector('{key('balloon:RW')}')"
                         ".matches(':focus-visible')") is False
    page.locator(f"{BOARD} .aloft-svg [data-key].legal[data-key^='truck:']").first.click()
    wait_until(lambda: kernel.eval_json("match.position") == 3, timeout=30,
               what="both bots to play")
    page.wait_for_function(f"() => document.querySelectorAll('{BOARD} .aloft-log li.recent')"
                           ".length === 2")
    expected = kernel.eval_json(
        "[k for i in (1, 2) for k in match.rules.action_path(match.state_at(i), match.history[i].action)]")
    marked = page.eval_on_selector_all(f"{BOARD} .aloft-svg [data-key].recent",
                                       "(nodes) => nodes.map((n) => n.getAttribute('data-key'))")
    assert marked and set(marked) <= set(expected)
    assert [k for k in expected if k in marked]
    texts = page.eval_on_selector_all(f"{BOARD} .aloft-log li.recent",
                                      "(nodes) => nodes.map((n) => n.textContent)")
    assert [t.split(":")[0] for t in texts] == ["seat 1", "seat 2"]
    # The designer view marks the same moves (every seat's since seat 0 last played).
    page.locator(f"{BOARD} .aloft-viewer").select_option("designer")
    page.wait_for_timeout(300)
    assert page.locator(f"{BOARD} .aloft-log li.recent").count() == 2
    # Keyboard focus shows, on playable and unplayable elements alike.
    page.locator(key("truck:0")).focus()
    page.keyboard.press("ArrowRight")
    stroke = page.evaluate("() => { const n = document.activeElement; return "
                           "[n.matches(':focus-visible'), getComputedStyle(n.querySelector('.hit')).stroke]; }")
    assert stroke[0] is True and stroke[1] in ("rgb(255, 111, 0)", "#ff6f00")


def test_a_restarted_kernel_shows_at_once_without_moving_the_board(lab, lab_server):
    path = lab_server.write_notebook("scratch/restart.ipynb", [BALLOONS])
    lab.open(path)
    lab.run_all()
    page = lab.page
    lab.output(f"{BOARD} svg")
    before = box(page, f"{BOARD} .aloft-svg")
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
                  ".restart()")
    notice = page.locator(f"{BOARD} .aloft-offline")
    notice.wait_for(state="visible", timeout=3000)  # long before the 4 s no-answer timer
    assert "restarted" in notice.text_content()
    assert box(page, f"{BOARD} .aloft-svg") == before


def test_nothing_under_the_pointer_moves_between_moves(lab, lab_server, wait_until):
    # ALU's status line grows from one line to two once it says what was just played, and a
    # refusal appears and goes: at 1024 px neither may move anything on the board.
    path = lab_server.write_notebook("scratch/steady.ipynb", [ALU])
    lab.open(path)
    lab.run_all()
    page = lab.page
    page.set_viewport_size({"width": 1024, "height": 900})
    kernel = lab.kernel()
    lab.output(f"{BOARD} svg")
    page.locator(BOARD).scroll_into_view_if_needed()
    parts = [".aloft-svg", ".aloft-undo", ".aloft-scrubber", ".aloft-message", ".aloft-menu",
             ".aloft-moves", ".aloft-viewer", ".aloft-seats"]

    def layout():
        return {part: box(page, f"{BOARD} {part}") for part in parts}

    first = layout()
    lines = []
    for step in range(4):
        kernel.execute("match.play(match.legal_actions()[0])")
        wait_until(lambda n=step + 1: kernel.eval_json("match.position") == n, what="a move")
        page.wait_for_timeout(200)
        lines.append(page.evaluate(f"() => document.querySelector('{BOARD} .aloft-status')"
                                   ".textContent"))
        assert layout() == first, lines[-1]
        page.locator(key("tile:e3")).click(force=True)  # a refusal appears...
        wait_until(lambda: page.locator(f"{BOARD} .aloft-message").text_content() != "",
                   what="a refusal")
        assert layout() == first
    kernel.execute("board.set_seat(1, 'random'); board.control.autoplay = False; board._publish()")
    page.wait_for_timeout(300)
    assert layout() == first  # a longer status line (a bot's name)
    assert any(len(line) > 90 for line in lines)  # the status did say more than one line's worth


def test_replay_a_simulated_game_on_its_own_timeline(lab, lab_server, wait_until):
    path = lab_server.write_notebook("scratch/replay.ipynb", ["""
import aloftnb
results = aloftnb.simulate("balloons", players=3, games=1, bots=["random", "greedy", "random"],
                           seed=3, workers=1)
match = aloftnb.results_match(results, 0)
board = match.board()
board
"""])
    lab.open(path)
    lab.run_all(timeout=300)
    page = lab.page
    kernel = lab.kernel()
    lab.output(f"{BOARD} svg")
    end = kernel.eval_json("match.position")
    assert end > 10 and kernel.eval_json("match.is_over")
    scrubber = page.locator(f"{BOARD} .aloft-scrubber")
    # It opens at the end, and each seat names the bot that played it.
    assert scrubber.get_attribute("max") == str(end) and scrubber.input_value() == str(end)
    seats = page.eval_on_selector_all(f"{BOARD} .aloft-seat select",
                                      "(nodes) => nodes.map((s) => s.selectedOptions[0].textContent)")
    assert seats == ["random (replay)", "greedy (replay)", "random (replay)"]

    page.locator(f"{BOARD} .aloft-first").click()
    wait_until(lambda: kernel.eval_json("match.position") == 0, what="the start")
    page.wait_for_function(f"() => document.querySelector('{BOARD} .aloft-scrubber').value === '0'")
    # Two clicks before Python answers either are two steps (each steps on from the one asked),
    # then one back.
    page.eval_on_selector(f"{BOARD} .aloft-forward", "(b) => { b.click(); b.click(); }")
    wait_until(lambda: kernel.eval_json("match.position") == 2, what="two steps forward")
    page.wait_for_function(f"() => document.querySelector('{BOARD} .aloft-scrubber').value === '2'")
    page.eval_on_selector(f"{BOARD} .aloft-back", "(b) => { b.click(); b.click(); }")
    wait_until(lambda: kernel.eval_json("match.position") == 0, what="two steps back")
    page.locator(f"{BOARD} .aloft-forward").click()
    page.locator(f"{BOARD} .aloft-forward").click()
    wait_until(lambda: kernel.eval_json("match.position") == 2, what="two steps forward")
    page.wait_for_function(f"() => document.querySelector('{BOARD} .aloft-scrubber').value === '2'")
    # The scrubber goes anywhere.
    scrubber.fill(str(end - 4))
    wait_until(lambda: kernel.eval_json("match.position") == end - 4, what="the scrubber")
    # match.goto from a cell moves the scrubber, and the log follows the position.
    lab.run_cell("match.goto(7)")
    page.wait_for_function(f"() => document.querySelector('{BOARD} .aloft-scrubber').value === '7'")
    current = page.locator(f"{BOARD} .aloft-log li.current")
    assert current.get_attribute("data-step") == "7"
    inside = page.evaluate(f"""() => {{
      const log = document.querySelector('{BOARD} .aloft-log');
      const li = log.querySelector('li.current');
      const a = log.getBoundingClientRect(), b = li.getBoundingClientRect();
      return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
    }}""")
    assert inside
    assert page.locator(f"{BOARD} .aloft-log li.undone").count() == end - 7
    # Undo on the board moves the scrubber too.
    page.locator(f"{BOARD} .aloft-undo").click()
    page.wait_for_function(f"() => document.querySelector('{BOARD} .aloft-scrubber').value === '6'")
    page.locator(f"{BOARD} .aloft-last").click()
    wait_until(lambda: kernel.eval_json("match.position") == end, what="the end again")


def test_a_board_with_many_choices_fetches_those_after_a_selection(lab, lab_server, wait_until):
    path = lab_server.write_notebook("scratch/many.ipynb", ["""
import aloftnb
match = aloftnb.new_match("alu", players=2, seed=1)
board = match.board()
type(board).choices_limit = 5  # pretend 22 legal actions are many
board._publish()
board
"""])
    lab.open(path)
    lab.run_all()
    page = lab.page
    kernel = lab.kernel()
    lab.output(f"{BOARD} svg")
    assert "legal" in page.locator(key("tile:a1")).get_attribute("class")
    assert kernel.eval_json("sum(1 for c in board.choices if c.get('partial'))") == 22
    page.locator(key("tile:a1")).click()
    page.wait_for_function(f"() => document.querySelector('{key('do:camp')}')"
                           ".classList.contains('legal')")
    assert "selected" in page.locator(key("tile:a1")).get_attribute("class")
    page.locator(key("do:camp")).click()
    wait_until(lambda: kernel.eval_json("match.position") == 1, what="the camp on a1")
    assert kernel.eval_json("match.state.to_dict()['board']['a1']") == "circle"
