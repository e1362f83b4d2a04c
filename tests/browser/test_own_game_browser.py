"""The make-your-own-game notebook in real JupyterLab: a game written in cells gets a board that
plays by clicking, draws its dice as chance steps, and lets the designer view force a roll."""

from __future__ import annotations

NOTEBOOK = "notebooks/make-your-own-game.ipynb"
BOARD = ".aloft-board >> nth=0"  # the notebook's first board shows `match` in the designer view


def test_a_notebook_game_plays_by_clicking_and_the_designer_forces_a_roll(lab, wait_until):
    lab.open(NOTEBOOK)
    lab.run_all()
    board = lab.page.locator(BOARD)
    board.locator("svg").first.wait_for(state="visible")
    kernel = lab.kernel()
    assert kernel.eval_json("match.current_player") == 0
    start = kernel.eval_json("match.position")

    # The game does not draw itself: its state shows as a table, its moves as buttons.
    assert board.locator(".aloft-view-table").count() == 1
    board.locator('.aloft-menu [data-menu-key="action:roll"]').click()
    # The roll is a decision; the die that follows is a chance step drawn from the seed.
    wait_until(lambda: kernel.eval_json("match.position") == start + 2,
               what="Python to play the roll and draw the die")
    assert kernel.eval_json("match.history[-1].kind") == "chance"
    drawn = kernel.eval_json("str(match.history[-1])")
    board.locator(".aloft-log").get_by_text(drawn).wait_for()

    # The designer stops at chance steps; the board then offers each face and a random draw.
    before = kernel.eval_json("match.position")
    lab.run_cell('match.auto_chance = False\nmatch.play({"type": "roll"})')
    six = board.locator('.aloft-menu [data-menu-key="chance:5"]')
    six.wait_for()
    assert six.text_content().startswith("rolled 6")
    assert "A chance step" in board.locator(".aloft-status").text_content()
    six.click()
    wait_until(lambda: kernel.eval_json("match.position") == before + 2,
               what="Python to take the forced roll")
    assert kernel.eval_json("[match.history[-1].forced, match.history[-1].action.face]") == [
        True, 6]
    board.locator(".aloft-log").get_by_text("(forced)").first.wait_for()
    assert "Round" in board.locator(".aloft-status").text_content()
