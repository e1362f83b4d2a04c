"""Nothing a designer records is lost: saves replay exactly, across versions, or are refused.

- Every save in tests/saves/v*/ (written by that version: see write_corpus.py) loads in this one at
  the same position, player to move and outcome, and plays on.
- A save cannot rewrite what chance did, cannot make loading read a file, and holds no display
  text, so rewording a label breaks no save.
- `Match.replay()` puts every forced outcome and edit back at the step where it was made.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import aloftnb
from aloftnb.core import registry
from aloftnb.core.match import SAVE_VERSION
from aloftnb.core.options import Option
from aloftnb.errors import InvalidSave

SAVES = Path(__file__).parent / "saves"
CORPUS = sorted(path for path in SAVES.glob("v*/*.json") if path.name != "expected.json")


def _expected(path: Path) -> dict[str, Any]:
    return json.loads((path.parent / "expected.json").read_text("utf-8"))[path.stem]


# -- the corpus: every earlier version's saves load here ----------------------------------------
def test_the_corpus_holds_every_game_and_this_versions_saves():
    games = {json.loads(path.read_text("utf-8"))["game"] for path in CORPUS}
    assert games == {"balloons", "alu", "commodores", "cloudspire"}
    versions = {path.parent.name for path in CORPUS}
    assert f"v{SAVE_VERSION}" in versions, "run tests/saves/write_corpus.py for the new version"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_corpus_save_loads_at_the_same_position_and_outcome_and_plays_on(path):
    expected = _expected(path)
    match = aloftnb.Match.from_json(path.read_text("utf-8"))
    outcome = match.outcome()
    assert match.position == expected["position"]
    assert match.current_player == expected["current_player"]
    assert match.is_over == expected["is_over"]
    assert (sorted(outcome.winners) if outcome else None) == expected["winners"]
    assert {str(seat): score for seat, score in match.scores().items()} == expected["scores"]
    # Saved again by this version, it loads to the same state.
    again = aloftnb.Match.from_json(match.to_json())
    assert again.state == match.state and again.position == match.position
    # And it plays on.
    rng = random.Random(path.stem)
    for _ in range(6):
        if match.is_over:
            break
        if match.is_chance:
            match.resolve_chance()
        else:
            match.play(rng.choice(match.legal_actions()))
    assert match.position > expected["position"] or expected["is_over"]


# -- a save cannot rewrite chance ---------------------------------------------------------------
def _forced_match() -> aloftnb.Match:
    """Commodores set-up with the first outcome forced and the rest drawn."""
    m = aloftnb.new_match("commodores", players=3, seed=1, auto_chance=False)
    m.force(m.chance_outcomes()[-1][0])
    for _ in range(3):
        m.resolve_chance()
    return m


def _chance_steps(data: dict[str, Any]) -> list[int]:
    return [n for n, step in enumerate(data["timeline"]) if step["kind"] == "chance"]


def test_a_forced_outcome_relabelled_as_drawn_is_refused_naming_the_step():
    data = _forced_match().to_dict()
    first = _chance_steps(data)[0]
    assert data["timeline"][first]["forced"] is True
    data["timeline"][first]["forced"] = False
    with pytest.raises(InvalidSave, match=f"timeline step {first + 1} says chance drew .* but "
                                          "this match's seed draws"):
        aloftnb.Match.from_dict(data)


def test_a_changed_seed_is_refused_at_the_first_drawn_step():
    data = _forced_match().to_dict()
    data["seed"] += 1
    with pytest.raises(InvalidSave, match="timeline step 2 says chance drew"):
        aloftnb.Match.from_dict(data)


def test_a_drawn_outcome_swapped_for_another_is_refused():
    m = aloftnb.new_match("cloudspire", players=2, seed=3, auto_chance=False)
    while m.is_chance:
        m.resolve_chance()
    data = m.to_dict()
    drawn = [n for n in _chance_steps(data) if not data["timeline"][n]["forced"]]
    # Another outcome that was possible at that step, still marked as drawn.
    replay = aloftnb.new_match("cloudspire", players=2, seed=3, auto_chance=False)
    for _ in range(drawn[0]):
        replay.resolve_chance()
    others = [o.to_dict() for o, _ in replay.chance_outcomes()
              if o.to_dict() != data["timeline"][drawn[0]]["outcome"]]
    data["timeline"][drawn[0]]["outcome"] = others[0]
    with pytest.raises(InvalidSave, match=f"timeline step {drawn[0] + 1} says chance drew"):
        aloftnb.Match.from_dict(data)


def test_drawn_outcomes_marked_forced_still_load_to_the_same_state():
    m = _forced_match()
    data = m.to_dict()
    for n in _chance_steps(data):
        data["timeline"][n]["forced"] = True  # a person may choose what the seed would draw
    assert aloftnb.Match.from_dict(data).state == m.state


# -- saves hold game data, never display text ---------------------------------------------------
@pytest.mark.parametrize("game, players", [("commodores", 3), ("cloudspire", 2), ("alu", 2),
                                           ("balloons", 3)])
def test_saves_hold_no_derived_keys_and_rewording_them_breaks_nothing(game, players):
    m = aloftnb.new_match(game, players=players, seed=5)
    rng = random.Random(5)
    for _ in range(12):
        m.play(rng.choice(m.legal_actions()))
    m.set_state(m.state.to_dict())
    data = m.to_dict()
    derived = m.rules.derived_keys
    assert derived and not set(derived) & set(data["state"])
    edits = [step for step in data["timeline"] if step["kind"] == "edit"]
    assert edits and not set(derived) & set(edits[0]["state"])
    assert data["state_form"] == m.rules.state_form


def test_a_version_2_save_whose_display_texts_were_reworded_still_loads():
    path = SAVES / "v2" / "cloudspire-competitive-3p-mid.json"
    data = json.loads(path.read_text("utf-8"))
    assert "board" in data["state"]  # version 2 saved the board's texts
    data["state"]["board"] = {"reworded": "every label of a later version"}
    for step in data["timeline"]:
        if step["kind"] == "edit":
            step["state"]["board"] = {"reworded": True}
    assert aloftnb.Match.from_dict(data).position == _expected(path)["position"]


def test_the_saved_state_is_still_compared_in_its_own_form():
    data = json.loads(_forced_match().to_json())
    data["state"]["turn"] = 3
    with pytest.raises(InvalidSave, match="the saved state does not match"):
        aloftnb.Match.from_dict(data)


def test_a_save_from_a_later_state_form_is_refused():
    data = _forced_match().to_dict()
    data["state_form"] = 99
    with pytest.raises(InvalidSave, match="newer than this aloftnb's"):
        aloftnb.Match.from_dict(data)


def _finished_cloudspire_with_an_edit() -> tuple[aloftnb.Match, dict[str, Any]]:
    """A finished one-wave Cloudspire game, its last state set again from a cell (an edit)."""
    m = aloftnb.new_match("cloudspire", players=2, seed=3, waves=1)
    rng = random.Random(3)
    while not m.is_over:
        m.play(rng.choice(m.legal_actions()))
    m.set_state(m.state.to_dict())
    return m, m.to_dict()


def test_a_cloudspire_save_of_the_first_state_form_with_a_finished_game_edited_still_loads():
    """State form 1 marked a finished Cloudspire game by its actor (-2) alone and kept the phase
    it ended in; form 2 records the phase "over". An old save's edit is read in today's shape."""
    m, data = _finished_cloudspire_with_an_edit()
    edit = data["timeline"][-1]
    assert edit["kind"] == "edit" and edit["state"]["phase"] == "over"
    for state in (edit["state"], data["state"]):  # as state form 1 wrote them
        state["phase"] = "onslaught"
    data["state_form"] = 1
    loaded = aloftnb.Match.from_dict(data)
    assert loaded.state == m.state and loaded.state.phase == "over" and loaded.is_over
    assert loaded.position == m.position and loaded.outcome() == m.outcome()
    data["state_form"] = 2  # the same dict in today's form is not a finished game
    with pytest.raises(InvalidSave, match="actor is -2 .nobody. exactly when the phase is over"):
        aloftnb.Match.from_dict(data)


# -- a save never reads a file ------------------------------------------------------------------
@pytest.mark.parametrize("game, players", [("commodores", 3), ("cloudspire", 2)])
def test_a_catalogue_path_in_a_save_is_refused_without_touching_the_file(game, players,
                                                                        tmp_path, monkeypatch):
    real = tmp_path / "catalogue.json"
    real.write_text("{}", "utf-8")
    data = aloftnb.new_match(game, players=players, seed=2).to_dict()
    opened: list[Any] = []
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: opened.append(self))
    messages = set()
    for path in (str(real), str(tmp_path / "missing.json"), "/etc/passwd"):
        data["options"]["catalogue"] = path
        with pytest.raises(InvalidSave) as info:
            aloftnb.Match.from_dict(data)
        messages.add(str(info.value))
    assert opened == []
    # One message for every path: it tells nothing about the files on this machine.
    assert messages == {"the save's option 'catalogue' is a file path; a save holds the "
                        "catalogue's data itself, and loading a save never opens a file"}


@pytest.mark.parametrize("game, players", [("commodores", 3), ("cloudspire", 2)])
def test_saves_hold_the_catalogue_data_and_load_it_back_as_the_shipped_one(game, players):
    m = aloftnb.new_match(game, players=players, seed=2)
    data = m.to_dict()
    assert isinstance(data["options"]["catalogue"], dict) and data["options"]["catalogue"]
    loaded = aloftnb.Match.from_dict(data)
    assert loaded.options["catalogue"] is None and loaded.rules == m.rules


def test_a_catalogue_file_given_to_new_match_is_saved_as_data(tmp_path):
    mine = aloftnb.new_match("commodores", players=3, seed=4).to_dict()["options"]["catalogue"]
    mine["basic"]["name"] = "Skiff"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(mine), "utf-8")
    m = aloftnb.new_match("commodores", players=3, seed=4, catalogue=str(path))
    path.unlink()  # the save does not need the file any more
    loaded = aloftnb.Match.from_json(m.to_json())
    assert loaded.options["catalogue"]["basic"]["name"] == "Skiff"
    assert loaded.rules == m.rules and loaded.state == m.state


# -- options added later: old saves keep the old rule --------------------------------------------
def test_an_option_a_save_does_not_list_takes_its_older_saves_value():
    from harbour_game import HarbourRules

    class HouseHarbour(HarbourRules):
        name = "house-harbour"
        option_spec = {**HarbourRules.option_spec,
                       "house_rule": Option("house_rule", 2, "which house rule", choices=(1, 2),
                                            older_saves=1)}

    registry.register(HouseHarbour)
    try:
        m = aloftnb.new_match("house-harbour", players=2, seed=1)
        assert m.options["house_rule"] == 2
        data = m.to_dict()
        assert aloftnb.Match.from_dict(data).options["house_rule"] == 2
        del data["options"]["house_rule"]  # a save from before the option existed
        assert aloftnb.Match.from_dict(data).options["house_rule"] == 1
    finally:
        registry._GAMES.pop("house-harbour")


# -- replay puts forced outcomes and edits where they were made ----------------------------------
def test_replay_of_the_issues_recipe_keeps_the_forced_outcome_at_its_step():
    m = aloftnb.new_match("commodores", players=3, seed=1, auto_chance=False)
    m.resolve_chance()
    m.force(m.legal_actions()[0])
    r = m.replay()
    assert r.position == m.position == 2 and r.state == m.state
    assert [e.to_dict() for e in r.history] == [e.to_dict() for e in m.history]
    assert r.replay_report == "replayed 1 of 1 decisions under the same options"


@pytest.mark.parametrize("game, players", [("commodores", 3), ("cloudspire", 2),
                                           ("cloudspire", 3)])
@pytest.mark.parametrize("seed", range(4))
def test_replay_of_games_with_forced_outcomes_and_edits_reaches_the_same_state(game, players,
                                                                              seed):
    rng = random.Random(seed)
    m = aloftnb.new_match(game, players=players, seed=seed, auto_chance=False)
    for step in range(90):
        if m.is_over:
            break
        if m.is_chance:
            if rng.random() < 0.3:
                m.force(rng.choice(m.chance_outcomes())[0])
            else:
                m.resolve_chance()
        elif step % 23 == 11:
            m.set_state(m.state.to_dict())
        else:
            m.play(rng.choice(m.legal_actions()))
    for upto in (m.position, m.position // 2):
        r = m.replay(upto=upto)
        assert "stopped" not in r.replay_report, r.replay_report
        assert r.position == upto and r.state == m.state_at(upto)
        assert [e.to_dict() for e in r.history] == [e.to_dict() for e in m.history[:upto]]
