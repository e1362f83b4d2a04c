"""The match save format: a match written as a versioned dict, and read back with every check.

`Match.to_dict`, `to_json`, `from_dict` and `from_json` are its public face; docs/saves.md says
what a save promises and how the format may change.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ..errors import AloftnbError, IllegalAction, InvalidSave, InvalidState
from .chance import chance_rng
from .options import NOT_SET, is_whole_number
from .registry import make_rules, rules_class

if TYPE_CHECKING:
    from .match import Match

SAVE_FORMAT = "aloftnb.match"
# 2 added chance steps and auto_chance. 3: saves hold game data only (no derived texts), the
# state's form (Rules.state_form), and a catalogue's data rather than a path or "the shipped one".
SAVE_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)


def save_dict(match: Match) -> dict[str, Any]:
    """The match as a save: options, seed, the whole timeline and the current position."""
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "game": match.game,
        "players": match.players,
        "seed": match.seed,
        "auto_chance": match._auto_chance,
        "options": match.rules.options_for_save(),
        "timeline": [entry.to_dict() for entry, _ in match._timeline],
        "position": match._position,
        "state_form": match.rules.state_form,
        "state": match.rules.state_data(match.state),
    }


def load_save(cls: type[Match], data: Any) -> Match:
    """A save's dict as a match of class `cls` (see `Match.from_dict`); InvalidSave naming the
    problem."""
    if not isinstance(data, dict):
        raise InvalidSave("a save must be a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise InvalidSave(f"not an aloftnb match save (format is {data.get('format')!r:.60})")
    version = data.get("version")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        raise InvalidSave(
            f"save version {version!r:.60} is not supported (this aloftnb reads "
            f"versions {', '.join(map(str, READABLE_VERSIONS))})"
        )
    auto_chance = data.get("auto_chance", True)
    if not isinstance(auto_chance, bool):
        raise InvalidSave(f"'auto_chance' must be true or false, not {auto_chance!r:.60}")
    required = ("game", "players", "seed", "options", "timeline", "position", "state")
    missing = [key for key in required if key not in data]
    if missing:
        raise InvalidSave(f"the save has no {missing[0]!r}")
    if not isinstance(data["options"], dict) or not all(
            isinstance(name, str) for name in data["options"]):
        raise InvalidSave("'options' must be an object whose keys are option names")
    if not isinstance(data["timeline"], list):
        raise InvalidSave("'timeline' must be a list")
    form = data.get("state_form", 1)  # saves before version 3 hold the first form
    if not is_whole_number(form) or form < 1:
        raise InvalidSave(f"'state_form' must be a whole number >= 1, not {form!r:.60}")
    _refuse_file_options(data["game"], data["options"])
    try:
        options = _with_older_defaults(data["game"], data["options"])
        rules = make_rules(data["game"], data["players"], **options)
        match = cls(rules, data["seed"], auto_chance=False)  # the save lists every outcome
    except AloftnbError as exc:
        raise InvalidSave(f"the save's game settings are invalid: {exc}") from None
    if form > rules.state_form:
        raise InvalidSave(f"the save's states have form {form}, newer than this aloftnb's "
                          f"{rules.state_form} for {rules.name}: it was written by a later "
                          "version")
    for number, step in enumerate(data["timeline"], start=1):
        _replay_step(match, number, step, form)
    match._auto_chance = auto_chance
    position = data["position"]
    if not is_whole_number(position):
        raise InvalidSave(f"'position' must be a whole number, not {position!r:.60}")
    if not 0 <= position <= len(match._timeline):
        raise InvalidSave(f"'position' {position} is outside the timeline")
    match._position = position
    # The saved state is a check on the timeline (which decides): comparable only in its own
    # form. Derived keys (texts for drawings) are never compared: rewording one breaks nothing.
    if form == rules.state_form:
        saved = data["state"]
        if isinstance(saved, dict):
            saved = {k: v for k, v in saved.items() if k not in rules.derived_keys}
        if rules.state_data(match.state) != saved:
            raise InvalidSave(
                "the saved state does not match the one its history leads to "
                "(the file was edited or is corrupt)"
            )
    return match


def _replay_step(match: Match, number: int, step: Any, form: int) -> None:
    if not isinstance(step, dict) or step.get("kind") not in ("action", "chance", "edit"):
        raise InvalidSave(f"timeline step {number} is not an action, a chance step or an edit")
    try:
        if step["kind"] == "chance":
            _replay_chance(match, number, step)
        elif step["kind"] == "action":
            seat = match.current_player
            if not is_whole_number(step.get("seat")) or step.get("seat") != seat:
                raise InvalidSave(
                    f"timeline step {number} says seat {step.get('seat')!r:.60} played, "
                    f"but it was seat {seat}'s turn"
                )
            match.play(step.get("action"))
        else:
            edited = step.get("state")
            if isinstance(edited, dict) and form < match.rules.state_form:
                edited = match.rules.upgrade_state_dict(copy.deepcopy(edited), form)
            match.set_state(edited)
    except (IllegalAction, InvalidState) as exc:
        raise InvalidSave(f"timeline step {number} cannot be replayed: {exc}") from None


def _replay_chance(match: Match, number: int, step: dict[str, Any]) -> None:
    forced = step.get("forced", False)
    if not isinstance(forced, bool):
        raise InvalidSave(f"timeline step {number}: 'forced' must be true or false")
    rules, state = match.rules, match.state
    if not rules.is_chance(state):
        raise InvalidSave(f"timeline step {number} is a chance outcome, but the game "
                          "was not at a chance step")
    outcome = rules.check_chance(state, step.get("outcome"))
    if not forced:
        # A drawn outcome is the seed's: a save cannot say chance did something else.
        drawn = rules.sample_chance(state, chance_rng(match.seed, match._position))
        if drawn != outcome:
            raise InvalidSave(
                f"timeline step {number} says chance drew "
                f"{rules.describe_chance(state, outcome)!r:.120}, but this match's seed "
                f"draws {rules.describe_chance(state, drawn)!r:.120} there (an outcome "
                "a person chose must be marked forced; was the seed changed?)")
    match._push_chance(state, outcome, forced)


def _refuse_file_options(game: Any, options: dict[str, Any]) -> None:
    """A save holds a catalogue's data: a path in it would make loading read a local file."""
    try:
        spec = rules_class(game).option_spec
    except AloftnbError:
        return  # make_rules says what is wrong with the game's name
    for name, option in spec.items():
        if option.from_file and isinstance(options.get(name), str):
            raise InvalidSave(f"the save's option {name!r} is a file path; a save holds the "
                              f"{name}'s data itself, and loading a save never opens a file")


def _with_older_defaults(game: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The save's options, with the value each option the save does not list had before the
    option was added (Option.older_saves): a rule made optional later keeps its old form."""
    try:
        spec = rules_class(game).option_spec
    except AloftnbError:
        return options  # make_rules says what is wrong with the game's name
    older = {name: option.older_saves for name, option in spec.items()
             if name not in options and option.older_saves is not NOT_SET}
    return {**options, **copy.deepcopy(older)}
