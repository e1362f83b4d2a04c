"""`python -m aloftnb fingerprints`: digests that stay equal while behaviour does."""

from __future__ import annotations

from aloftnb.games.alu.rules import AluRules
from aloftnb.playtest.fingerprints import KINDS, configuration_digests, simulation_digest


def test_the_digests_are_reproducible_and_catch_a_changed_log_sentence(monkeypatch):
    first = configuration_digests("alu", {"players": 2}, games=1, drawings=1)
    assert set(first) == set(KINDS)
    assert configuration_digests("alu", {"players": 2}, games=1, drawings=1) == first
    monkeypatch.setattr(AluRules, "describe_action",
                        lambda self, state, action: f"played {action}")
    changed = configuration_digests("alu", {"players": 2}, games=1, drawings=1)
    assert changed["log"] != first["log"]
    assert {k: v for k, v in changed.items() if k != "log"} == {
        k: v for k, v in first.items() if k != "log"}


def test_a_seeded_simulation_has_one_digest():
    one = simulation_digest("alu", {"players": 2}, "random", games=2)
    assert one == simulation_digest("alu", {"players": 2}, "random", games=2)
    assert one.endswith("(2 rows)")
