"""Clicks on a board while a cell uses its match, in real JupyterLab.

JupyterLab 4.6 sends widget messages to a kernel subshell, and ipykernel answers a comm on the
shell that last spoke on it: while a cell only reads the match (saves it), the board's clicks
and the bot's moves (played on the subshell's event loop) run meanwhile; once the cell changes
the match, later clicks wait for it. Whatever the interleaving, each change must be whole: every
save the cell took reloads, and every step of the timeline is legal where it stands.
"""

from __future__ import annotations

import inspect

BOARD = ".aloft-board"

SETUP = """
import random, sys, threading, time
import aloftnb
from aloftnb.errors import AloftnbError

sys.setswitchinterval(1e-5)  # threads take turns often, so a short run shows the races

match = aloftnb.new_match("alu", players=2, seed=4)
board = match.board(bots={1: "random"}, bot_delay=0)
changes = []  # (made on the cell's own thread, the loop's phase then) for every change
loop = {"thread": None, "phase": None}
match.subscribe(lambda m, change: changes.append(
    (threading.get_ident() == loop["thread"], loop["phase"])))
board
"""

# The cell: saves, then plays, undos and gotos as well, all on the board's match. ipykernel sends
# a comm's messages to the shell that last spoke on it, so while the cell only reads (a save
# publishes nothing) the clicks are answered on the subshell meanwhile, and so are the bot's
# moves; once the cell changes the match, later clicks wait for it, while the subshell still
# answers those already sent and plays the bot's move it was thinking of.
LOOP = """
loop["thread"], loop["phase"] = threading.get_ident(), "reading"
print("loop started", flush=True)
rng, saves, step = random.Random(5), [], 0
def answered_meanwhile(phase):
    return sum(1 for own, then in changes if then == phase and not own)
while answered_meanwhile("reading") < 12 and step < 100_000:  # the board played meanwhile
    saves.append(match.to_json())
    time.sleep(0)
    step += 1
loop["phase"] = "writing"
for step in range(150):
    saves.append(match.to_json())
    try:
        roll = rng.random()
        if roll < 0.5 and match.current_player == 0:
            match.play(rng.choice(match.legal_actions()))
        elif roll < 0.8:
            match.undo()
        else:
            match.goto(rng.randint(0, len(match.timeline)))
    except AloftnbError:
        pass  # a click made this one stale, or there is nothing to undo
    time.sleep(0.005)
loop["phase"] = None
print("loop done", flush=True)
"""

START_CELL_JS = """
async (code) => {
  const app = window.jupyterapp;
  const notebook = app.shell.currentWidget.content;
  notebook.activeCellIndex = notebook.widgets.length - 1;
  await app.commands.execute('notebook:insert-cell-below');
  notebook.activeCell.model.sharedModel.setSource(code);
  app.commands.execute('notebook:run-cell');  // not awaited: the cell runs on
  return true;
}"""

# A person's quick clicks on the board's own controls: a legal move from its moves menu when it
# offers one (this view may play seat 0), else undo. The events go through board.js as a
# pointer's would; dispatched from the page, they never wait for an element to settle.
CLICK_JS = """
(board) => {
  const root = document.querySelector(board);
  const moves = root.querySelector('.aloft-moves');
  if (!moves.disabled && moves.options.length > 1) {
    moves.selectedIndex = 1 + Math.floor(Math.random() * (moves.options.length - 1));
    moves.dispatchEvent(new Event('change'));
    return 'play';
  }
  const undo = root.querySelector('.aloft-undo');
  if (!undo.disabled) { undo.click(); return 'undo'; }
  return 'nothing';
}"""


def timeline_problems(match):
    """Every step of the timeline played again from the start: the seat to move played it, it
    was legal there, and it leads to the state the match holds there (ALU has no chance)."""
    rules, state, problems = match.rules, match.rules.initial_state(match.seed), []
    for number, entry in enumerate(match.timeline, start=1):
        if entry.kind != "action":
            problems.append(f"step {number} is a {entry.kind}")
            break
        if rules.current_player(state) != entry.seat:
            problems.append(f"step {number}: seat {entry.seat} played in another's turn")
        if entry.action not in rules.legal_actions(state):
            problems.append(f"step {number}: {entry.action} is not legal there")
            break
        state = rules.apply(state, entry.action)
        if rules.state_data(state) != rules.state_data(match.state_at(number)):
            problems.append(f"step {number}: the match holds another state there")
            break
    return problems


def test_clicks_while_a_cell_plays_on_the_same_match_leave_it_whole(
        lab, lab_server, browser_report, wait_until):
    lab.open(lab_server.write_notebook("scratch/one_writer.ipynb", [SETUP]))
    lab.run_all()
    page = lab.page
    board = page.locator(BOARD).first
    board.locator(".aloft-svg svg").first.wait_for()
    kernel = lab.kernel()
    # Answered from the page, the board's messages go to the subshell from now on.
    for viewer in ("designer", "turn"):
        board.locator(".aloft-viewer").select_option(viewer)
        wait_until(lambda v=viewer: kernel.eval_json("board.viewer") == v, what="a view change")

    page.evaluate(START_CELL_JS, LOOP)
    page.locator(".jp-OutputArea-output", has_text="loop started").wait_for(timeout=30_000)
    done = page.locator(".jp-OutputArea-output", has_text="loop done")
    clicks = 0
    while not done.is_visible() and clicks < 2000:
        page.evaluate(CLICK_JS, BOARD)
        clicks += 1
        page.wait_for_timeout(20)  # a person's pace; nothing here is timed
    done.wait_for(timeout=120_000)
    lab.wait_idle(120)

    kernel.execute(inspect.getsource(timeline_problems))
    kernel.execute("""
def reload_problem(text):
    try:
        return None if aloftnb.Match.from_json(text).to_json() == text else "another save"
    except aloftnb.InvalidSave as exc:
        return str(exc)
with match.lock:  # one moment, whatever clicks are still on their way
    problems, saved = timeline_problems(match), match.to_json()
broken_saves = [problem for text in {saved, *saves} if (problem := reload_problem(text))]
""")
    reading, writing = kernel.eval_json(
        "[answered_meanwhile('reading'), answered_meanwhile('writing')]")
    browser_report(f"one writer: {clicks} clicks during the cell; changes made on another "
                   f"thread while it saved: {reading}, while it played and undid: {writing}; "
                   f"{kernel.eval_json('len(saves)')} saves")
    assert reading >= 1, "no click was answered while the cell ran: nothing ran at once"
    assert kernel.eval_json("problems") == []
    assert kernel.eval_json("broken_saves") == []
