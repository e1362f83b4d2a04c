"""No secret in a seat's board, in real JupyterLab: after seat 0 built its Cloudspire stack, the
board in "Seat 1 only" view names none of the units under the stack's top anywhere a person or
a screen reader reads (text, aria labels, titles), while the designer view does; and after an
exploration the explorer's view draws the landmark face it saw, the rival's does not.

ALOFTNB_SCREENSHOTS=<folder> keeps pictures of the views for a person to look at.
"""

from __future__ import annotations

import os
from pathlib import Path

SETUP = '''import random

import aloftnb

match = aloftnb.new_match("cloudspire", players=2, seed=2)
rng = random.Random(2)


def play_to_prep_of(seat):
    for _ in range(5000):
        if match.phase == "prep" and match.current_player == seat:
            return True
        actions = match.legal_actions()
        match.play(rng.choice([a for a in actions if a.type not in ("deploy", "ready")]
                              or actions))
    return False


assert play_to_prep_of(0)
# Seat 0 builds its stack: a first unit (the open top), then every copy it can pay for of
# the other kinds, so its barracks keep none of the hidden ones; then it is done.
for _ in range(200):
    actions = match.legal_actions()
    marks = [a for a in actions if a.type == "mark"]
    if marks:
        match.play(marks[0])
        continue
    stack = match.state.sides[0].stack
    top = stack[0].members[0] if stack else None
    deploys = [a for a in actions if a.type == "deploy" and a.unit != top
               and not (a.group and len(stack) < 2)]
    if not deploys or match.current_player != 0:
        break
    match.play(deploys[-1])
if match.current_player == 0:
    match.play({"type": "ready"})
rules = match.rules
stack = match.state.sides[0].stack
hidden = {uid for i, band in enumerate(stack) for uid in band.members[1 if i == 0 else 0:]}
open_svg = rules.render_svg(match.view(1))
# The kinds under the top whose names nothing open shows (not the top, barracks or market).
secret = sorted(uid for uid in hidden
                if rules.catalogue.units[uid].name not in open_svg
                and uid != stack[0].members[0])
secret_words = sorted({w for uid in secret for w in (uid, uid.replace("_", " "),
                                                     rules.catalogue.units[uid].name)})
board = match.board(viewer="seat:1")
board'''
BOARD = ".aloft-board >> nth=0"
READ = """(board) => {
  const parts = [board.innerText, board.textContent];
  for (const node of board.querySelectorAll('[aria-label], [title], title, option')) {
    parts.push(node.getAttribute('aria-label') || '', node.getAttribute('title') || '',
               node.textContent || '');
  }
  return parts.join('\\n').toLowerCase();
}"""


def test_seat_1_reads_nothing_of_seat_0s_stack_but_its_top(lab_server, lab, wait_until):
    lab.open(lab_server.write_notebook("cloudspire-secrets.ipynb", [SETUP]))
    lab.run_all()
    page = lab.page
    board = page.locator(BOARD)
    board.locator("svg").first.wait_for(state="visible")
    kernel = lab.kernel()
    words = kernel.eval_json("secret_words")
    assert words, "seat 0's stack holds kinds that nothing open names"
    assert kernel.eval_json("len(match.state.sides[0].stack)") >= 3
    log = board.locator(".aloft-log")
    wait_until(lambda: "finish the deployment stack" in log.text_content(),
               what="the whole log, up to seat 0's last prep step")
    text = board.evaluate(READ)
    leaked = [w for w in words if w.lower() in text]
    assert not leaked, f"seat 1's board names {leaked}"
    assert "add a chip to the stack, face down" in log.text_content()
    shots = os.environ.get("ALOFTNB_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        board.screenshot(path=str(Path(shots) / "cloudspire-seat1-after-seat0-stack.png"))
        log.evaluate("element => { element.scrollTop = element.scrollHeight; }")
        log.screenshot(path=str(Path(shots) / "cloudspire-seat1-log.png"))

    # The same scan finds them in the designer view: the check above can fail.
    board.locator(".aloft-viewer").select_option("designer")
    wait_until(lambda: any(w.lower() in board.evaluate(READ) for w in words),
               what="the designer view to name the stack's units")
    if shots:
        board.screenshot(path=str(Path(shots) / "cloudspire-designer-after-seat0-stack.png"))
        log.evaluate("element => { element.scrollTop = element.scrollHeight; }")
        log.screenshot(path=str(Path(shots) / "cloudspire-designer-log.png"))


EXPLORE = '''import random

import aloftnb

match = aloftnb.new_match("cloudspire", players=2, seed=3)
rng = random.Random(3)
for _ in range(3000):
    seen = [(i, f) for i, lm in enumerate(match.state.landmarks) for f in range(2)
            if lm.face and not lm.revealed and lm.known[f] and not lm.known[1 - f]]
    if seen and match.current_player == seen[0][1]:
        break
    match.play(rng.choice(match.legal_actions()))
landmark, explorer = seen[0]
where = match.state.landmarks[landmark].hex
face = match.rules.catalogue.faces[match.state.landmarks[landmark].face].name
board = match.board(viewer=f"seat:{explorer}")
board'''


def test_the_explorer_sees_the_face_it_looked_at_and_the_rival_does_not(lab_server, lab,
                                                                        wait_until):
    lab.open(lab_server.write_notebook("cloudspire-landmark.ipynb", [EXPLORE]))
    lab.run_all()
    page = lab.page
    board = page.locator(BOARD)
    board.locator("svg").first.wait_for(state="visible")
    kernel = lab.kernel()
    where, face, explorer = kernel.eval_json("[where, face, explorer]")
    hex_part = board.locator(f'[data-key="hex:{where}"]')
    seen = hex_part.locator(".landmark-seen")
    wait_until(lambda: seen.count() == 1, what="the seen face drawn on the landmark")
    assert face in seen.text_content()
    assert seen.is_visible()
    shots = os.environ.get("ALOFTNB_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        board.screenshot(path=str(Path(shots) / f"cloudspire-landmark-seat{explorer}.png"))
    board.locator(".aloft-viewer").select_option(f"seat:{1 - explorer}")
    wait_until(lambda: hex_part.locator(".landmark-seen").count() == 0,
               what="the rival's view to draw the landmark face down only")
    assert face.lower() not in board.evaluate(READ)
    if shots:
        board.screenshot(path=str(Path(shots) / f"cloudspire-landmark-seat{1 - explorer}.png"))
