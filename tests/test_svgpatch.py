"""Incremental drawing updates (aloftnb/widget/svgpatch.py and the board's use of them): a patch
applied to the old drawing gives the new one, the whole drawing is sent when a patch would not
do, and `board.svg` stays the whole current drawing."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

import aloftnb
from aloftnb.core.drawing import draw_view_table
from aloftnb.widget import svgpatch


def patched(old: str, new: str):
    """The ops from `old` to `new`, checked: applied to `old` they give `new`."""
    ops = svgpatch.diff(svgpatch.parse(old), svgpatch.parse(new))
    if ops is not None:
        json.dumps(ops)  # plain JSON, as it travels
        assert svgpatch.apply_patch(old, ops).canonical() == svgpatch.tree(new).canonical()
    return ops


GAMES = [
    ("balloons", {"players": 3, "seed": 7}),
    ("balloons", {"players": 2, "seed": 3, "edition": "choice"}),
    ("balloons", {"players": 1, "seed": 5, "mode": "solo"}),
    ("alu", {"players": 2, "seed": 1}),
    ("commodores", {"players": 3, "seed": 2}),
]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_patches_rebuild_every_drawing_of_games_with_undos_and_view_changes(game, options):
    match = aloftnb.new_match(game, **options)
    board = match.board(viewer="designer")
    rng = random.Random(11)
    viewers = ["turn", "designer"] + [f"seat:{p}" for p in range(match.players)]
    patches = wholes = 0
    patch_sizes, whole_sizes = [], []
    for _ in range(80):
        before = board.svg
        roll = rng.random()
        if roll < 0.1 and match.position:
            match.goto(rng.randrange(match.position))
        elif roll < 0.2:
            board._set_viewer(rng.choice(viewers))
            board._publish()
        elif match.is_over:
            match.undo()
        elif match.is_chance:  # a goto may stop at a draw
            match.resolve_chance()
        else:
            match.play(rng.choice(match.legal_actions()))
        if board.svg == before:
            continue
        ops = patched(before, board.svg)
        if ops is None:
            wholes += 1
        else:
            patches += 1
            patch_sizes.append(len(json.dumps(ops)))
            whole_sizes.append(len(board.svg))
    assert patches > 40 and wholes < patches / 4
    # A typical move sends a small part of the drawing.
    median = len(patch_sizes) // 2
    assert sorted(patch_sizes)[median] < sorted(whole_sizes)[median] / 4


def test_the_default_table_drawing_is_patched_row_by_row():
    view = {f"key {i}": i for i in range(12)}
    old = draw_view_table("A game", view)
    new = draw_view_table("A game", {**view, "key 3": "changed", "key 12": [1, 2]})
    ops = patched(old, new)
    assert ops is not None
    markup = "".join(s[2] for op in ops for s in op.get("splices", []))
    assert "changed" in markup and "key 0" not in markup  # unchanged rows stay where they are


def test_elements_that_change_a_little_are_patched_in_place():
    old = ('<svg width="10"><g data-key="tile:a1" class="tile" aria-label="a1: empty">'
           '<rect x="1"/><text>a1</text></g><text>head</text></svg>')
    new = ('<svg width="12"><g data-key="tile:a1" class="tile camp" aria-label="a1: camp">'
           '<rect x="1"/><circle r="3"/><text>a1</text></g><text>head</text></svg>')
    ops = patched(old, new)
    assert ops == [
        {"at": [], "tag": "svg", "n": 2, "attrs": {"width": "12"}},
        {"at": [0], "tag": "g", "n": 2, "attrs": {"class": "tile camp", "aria-label": "a1: camp"},
         "splices": [[1, 0, '<circle r="3"/>', 1]]},
    ]


def test_inserted_and_removed_elements_keep_their_neighbours():
    rows = [f'<g data-key="b:{i}"><rect x="{i}"/><text>{i}</text></g>' for i in range(30)]
    old = f'<svg>{"".join(rows)}</svg>'
    new = f'<svg>{"".join(rows[:5] + rows[6:20] + ["<text>new</text>"] + rows[20:])}</svg>'
    ops = patched(old, new)
    assert ops == [{"at": [], "tag": "svg", "n": 30,
                    "splices": [[5, 1, "", 0], [19, 0, "<text>new</text>", 1]]}]


def test_attribute_values_are_unescaped_and_may_hold_brackets():
    rects = "<rect/>" * 20
    old = f"""<svg><g id="g" aria-label="a &amp; b" data-x='1 > 0'>{rects}</g></svg>"""
    new = f"""<svg><g id="g" aria-label="a &lt; b's" data-x='2 > 1'>{rects}</g></svg>"""
    assert patched(old, new) == [
        {"at": [0], "tag": "g", "n": 20, "attrs": {"aria-label": "a < b's", "data-x": "2 > 1"}}]


@pytest.mark.parametrize(("old", "new"), [
    ("<svg><rect/></svg>", "<svg><!-- a comment --><rect/></svg>"),  # not parsed: sent whole
    ("<svg><rect/></svg>", "text<svg><rect/></svg>"),
    ("<svg><rect/></svg>", "<svg><rect></svg>"),  # not well formed
    ("<svg><rect/></svg>", "<svg><rect/></svg><svg/>"),  # two roots
    ("<svg><rect/></svg>", "<div><rect/></div>"),  # another root element
    ('<svg xmlns="a"><rect/></svg>', '<svg xmlns="b"><rect/></svg>'),  # a namespace changed
    ("<svg>" + "<rect/>" * 20 + "</svg>", "<svg>" + "<circle/>" * 20 + "</svg>"),  # all new
])
def test_the_whole_drawing_is_sent_when_a_patch_would_not_do(old, new):
    assert svgpatch.diff(svgpatch.parse(old), svgpatch.parse(new)) is None


def test_an_element_whose_namespaced_attribute_changes_is_replaced_not_patched():
    big = "<rect/>" * 10
    old = f'<svg><use xlink:href="#a"/><g id="x" xlink:title="a">{big}</g>{big}</svg>'
    new = f'<svg><use xlink:href="#b"/><g id="x" xlink:title="b">{big}</g>{big}</svg>'
    ops = patched(old, new)
    assert ops is not None and all("attrs" not in op for op in ops)
    assert [s[:2] for s in ops[0]["splices"]] == [[0, 2]]


def test_a_patch_that_does_not_fit_its_drawing_is_refused():
    old, new = "<svg><g><rect/></g><text>a</text></svg>", "<svg><g><rect/></g><text>b</text></svg>"
    ops = svgpatch.diff(svgpatch.parse(old), svgpatch.parse(new))
    assert ops is not None
    with pytest.raises(svgpatch.PatchError):
        svgpatch.apply_patch("<svg><g><rect/></g></svg>", ops)  # one element short


# -- the board ---------------------------------------------------------------------------------
def sent_states(board):
    """Collect the state updates a board sends to its front end (there is no kernel here)."""
    sent: list[dict] = []
    board._send = lambda msg, buffers=None: sent.append(msg)
    return sent


def test_a_move_sends_a_patch_and_board_svg_stays_the_whole_drawing():
    match = aloftnb.new_match("balloons", players=3, seed=7)
    board = match.board()
    sent = sent_states(board)
    revision = board.svg_revision
    match.play({"type": "unpack", "balloon": "RW", "truck": 1})
    [update] = [m["state"] for m in sent if m.get("method") == "update"]
    assert "svg" not in update and "svg_revision" not in update
    patch = update["svg_patch"]
    assert patch["base"] == revision and patch["revision"] == revision + 1 == board.svg_revision
    whole = match.rules.render_svg(board.view_dict())
    assert board.svg == whole and "unpacked on truck 1" in whole
    assert board.get_state("svg")["svg"] == whole  # what a reloaded page receives
    assert len(json.dumps(patch)) < len(whole)


def test_views_that_need_the_whole_drawing_get_it():
    match = aloftnb.new_match("alu", players=2, seed=1)
    board = match.board()
    sent = sent_states(board)
    match.play(match.legal_actions()[0])
    match.play(match.legal_actions()[0])
    sent.clear()
    # A view that could not apply a patch asks for the drawing; a new view says hello.
    for intent in ("drawing", "hello"):
        board._on_front_end_message(board, {"intent": intent, "id": 1}, [])
        wholes = [m["state"] for m in sent if "svg" in m.get("state", {})]
        assert wholes[-1] == {"svg": board.svg, "svg_revision": board.svg_revision}
        sent.clear()
    # A board shown again (a second cell) sends the whole drawing first, if it changed since.
    match.play(match.legal_actions()[0])
    sent.clear()
    board._repr_mimebundle_()
    assert [m["state"] for m in sent] == [{"svg": board.svg, "svg_revision": board.svg_revision}]
    sent.clear()
    board._repr_mimebundle_()
    assert sent == []  # nothing new to send


def test_a_drawing_that_cannot_be_patched_travels_whole():
    match = aloftnb.new_match("balloons", players=3, seed=7)
    board = match.board()
    sent = sent_states(board)
    board._publish_drawing("<svg><!-- no patch for comments --></svg>")
    [update] = [m["state"] for m in sent]
    assert update["svg"] == board.svg == "<svg><!-- no patch for comments --></svg>"
    assert update["svg_revision"] == board.svg_revision


def test_a_notebook_saved_after_moves_holds_the_current_drawing(tmp_path):
    """nbclient (nbconvert --execute) saves each widget's state from the messages it saw: after
    moves made by patches, a cell's end sends the whole drawing, so the saved one is current."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in [
        "import aloftnb\nmatch = aloftnb.new_match('balloons', players=3, seed=7)\n"
        "board = match.board()\nboard",
        "for _ in range(3):\n    match.play(match.legal_actions()[0])\n"
        "print(board.model_id, board.svg_revision, board.svg_patch['revision'])",
        "import hashlib\nprint(hashlib.sha256(board.svg.encode()).hexdigest())",
    ]]
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    model_id, revision, patched_revision = notebook.cells[1].outputs[0]["text"].split()
    assert revision == patched_revision  # the moves did travel as patches
    saved = notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]
    state = saved["state"][model_id]["state"]
    assert state["svg_revision"] == int(revision)
    assert hashlib.sha256(state["svg"].encode()).hexdigest() == \
        notebook.cells[2].outputs[0]["text"].strip()
