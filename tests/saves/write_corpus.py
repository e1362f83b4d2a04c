"""Write the save corpus of this aloftnb version: tests/saves/v<SAVE_VERSION>/.

Each file is exactly what `Match.to_json()` wrote: every game, mode and edition, mid-game and
finished, with drawn and forced chance steps, edits and a designer's own catalogue.
`expected.json` beside them records what each must load to in every later version (test_saves.py):
its position, the player to move, whether it is over, and the winners and scores.

Run it once per save version, when the version goes up, and commit its output; never rewrite an
older version's folder:  python tests/saves/write_corpus.py
A case added later (a new rule, a new state form) goes in the current version's folder with
python tests/saves/write_corpus.py --add
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import aloftnb
from aloftnb.core.match import SAVE_VERSION
from aloftnb.core.options import packaged_json

HERE = Path(__file__).resolve().parent

# (file name, game, players, options, random decisions before saving or None to play to the end,
#  forced chance steps, edit)
CASES: list[tuple[str, str, int, dict[str, Any], int | None, bool, bool]] = [
    ("balloons-competitive-fixed-2p-mid", "balloons", 2, {}, 12, False, True),
    ("balloons-competitive-fixed-5p-end", "balloons", 5, {}, None, False, False),
    ("balloons-competitive-choice-3p-mid", "balloons", 3, {"edition": "choice"}, 15, False, False),
    ("balloons-competitive-choice-2p-end", "balloons", 2, {"edition": "choice"}, None, False, True),
    ("balloons-solo-fixed-end", "balloons", 1, {"mode": "solo"}, None, False, False),
    ("balloons-solo-choice-mid", "balloons", 1, {"mode": "solo", "edition": "choice"}, 10, False,
     True),
    ("balloons-cooperative-fixed-3p-mid", "balloons", 3, {"mode": "cooperative"}, 14, False,
     False),
    ("balloons-cooperative-choice-2p-end", "balloons", 2,
     {"mode": "cooperative", "edition": "choice"}, None, False, False),
    ("alu-2p-mid", "alu", 2, {}, 20, False, True),
    ("alu-2p-end", "alu", 2, {}, None, False, False),
    ("alu-small-board-end", "alu", 2, {"columns": 6, "rows": 4}, None, False, False),
    ("commodores-3p-mid-forced", "commodores", 3, {}, 40, True, True),
    ("commodores-4p-mid", "commodores", 4, {}, 120, False, False),
    ("commodores-5p-end", "commodores", 5, {"turn_limit": 12}, None, False, False),
    ("commodores-2p-mid-forced", "commodores", 2, {"two_players": True}, 60, True, False),
    ("commodores-3p-end-forced", "commodores", 3, {"turn_limit": 10}, None, True, True),
    ("commodores-3p-own-catalogue-mid", "commodores", 3, {"catalogue": "commodores"}, 50, False,
     False),
    ("cloudspire-competitive-2p-mid-forced", "cloudspire", 2, {}, 50, True, True),
    ("cloudspire-competitive-2p-end", "cloudspire", 2, {"waves": 2}, None, False, False),
    ("cloudspire-competitive-3p-mid", "cloudspire", 3, {}, 120, False, False),
    ("cloudspire-competitive-4p-mid-forced", "cloudspire", 4, {}, 150, True, False),
    ("cloudspire-simplified-2p-end-forced", "cloudspire", 2, {"variant": "simplified",
                                                               "waves": 2}, None, True, True),
    ("cloudspire-solo-mid", "cloudspire", 1, {"mode": "solo"}, 30, False, True),
    ("cloudspire-solo-end", "cloudspire", 1, {"mode": "solo", "waves": 2}, None, False, False),
    ("cloudspire-cooperative-2p-mid-forced", "cloudspire", 2, {"mode": "cooperative"}, 60, True,
     False),
    ("cloudspire-cooperative-3p-end", "cloudspire", 3, {"mode": "cooperative", "waves": 2}, None,
     False, False),
    ("cloudspire-own-catalogue-2p-mid", "cloudspire", 2, {"catalogue": "cloudspire"}, 40, False,
     False),
    # Added to version 3's corpus with `--add` once the rulings of issue 19 were the default
    # (saves with rulings 2, and sky commodores' second state form).
    ("commodores-rulings2-3p-mid-forced", "commodores", 3, {}, 60, True, True),
    ("commodores-rulings2-4p-end", "commodores", 4, {"turn_limit": 10}, None, False, False),
    ("cloudspire-rulings2-2p-mid-forced", "cloudspire", 2, {}, 70, True, True),
    ("cloudspire-rulings2-4p-end", "cloudspire", 4, {"waves": 2}, None, False, False),
    ("cloudspire-rulings2-solo-mid", "cloudspire", 1, {"mode": "solo"}, 40, False, False),
    # Cloudspire's second state form (a finished game's phase is "over", issue 20).
    ("cloudspire-form2-2p-end", "cloudspire", 2, {"waves": 2}, None, False, True),
    # Competitive 4-player games on the map's competitive gates (gate_layout, issue 21).
    ("cloudspire-balanced-gates-4p-mid-forced", "cloudspire", 4, {}, 120, True, False),
    # Sky commodores' rulings 3 (the centre merchant is never cut off), the default from
    # December 2026. commodores-rulings2-centre-cut-off-mid.json beside them is no case here:
    # a scripted save written before rulings 3, whose terraform left the centre alone.
    ("commodores-rulings3-3p-mid-forced", "commodores", 3, {}, 60, True, True),
]


def play_case(game: str, players: int, options: dict[str, Any], decisions: int | None,
              forced: bool, edit: bool, seed: int) -> aloftnb.Match:
    options = dict(options)
    if options.get("catalogue") == game:  # a designer's own catalogue, given as a dict
        options["catalogue"] = packaged_json(f"aloftnb.games.{game}", "data/catalogue.json")
    rng = random.Random(seed)
    m = aloftnb.new_match(game, players=players, seed=seed, **options)
    limit = decisions if decisions is not None else 100_000
    for number in range(limit):
        if m.is_over:
            break
        if forced and number % 7 == 3:
            m.auto_chance = False  # a stretch where chance steps are forced or drawn by hand
        if forced and number % 7 == 6:
            m.auto_chance = True
        if m.is_chance:
            if rng.random() < 0.6:
                outcomes = m.chance_outcomes()
                m.force(rng.choice(outcomes)[0])
            else:
                m.resolve_chance()
            continue
        if edit and number >= (limit // 2 if decisions is not None else 5):
            m.set_state(m.state.to_dict())  # an edit from a cell (here one that changes nothing)
            edit = False
        m.play(rng.choice(m.legal_actions()))
    if decisions is None:
        m.auto_chance = True
        while not m.is_over:
            m.play(rng.choice(m.legal_actions()))
    return m


def expected_of(m: aloftnb.Match) -> dict[str, Any]:
    outcome = m.outcome()
    return {
        "position": m.position,
        "current_player": m.current_player,
        "is_over": m.is_over,
        "winners": sorted(outcome.winners) if outcome else None,
        "scores": {str(seat): score for seat, score in sorted(m.scores().items())},
    }


def main() -> None:
    """Write this version's corpus. `--add` writes only the cases this version's folder does not
    hold yet (a case added after the corpus was first written); nothing written is rewritten."""
    folder = HERE / f"v{SAVE_VERSION}"
    adding = "--add" in sys.argv
    if folder.exists() and not adding and "--force" not in sys.argv:
        raise SystemExit(f"{folder} exists: an older version's corpus is never rewritten "
                         "(--add writes the cases it does not hold yet)")
    folder.mkdir(exist_ok=True)
    expected = {}
    if adding and (folder / "expected.json").exists():
        expected = json.loads((folder / "expected.json").read_text("utf-8"))
    for number, (name, game, players, options, decisions, forced, edit) in enumerate(CASES):
        if adding and (folder / f"{name}.json").exists():
            continue
        for tries in range(50):  # a mid-game case takes the first seed whose game is not over
            m = play_case(game, players, options, decisions, forced, edit,
                          seed=1000 + number + 100 * tries)
            if decisions is None or not m.is_over:
                break
        else:
            raise SystemExit(f"{name}: every game ended within {decisions} decisions")
        (folder / f"{name}.json").write_text(m.to_json(), "utf-8")
        expected[name] = expected_of(m)
        print(f"{name}: {m.position} steps, {len(m.to_json()):,} characters")
    (folder / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n",
                                          "utf-8")


if __name__ == "__main__":
    main()
