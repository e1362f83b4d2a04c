"""Kite fair: a tiny game written on a declared flow (aloftnb/core/flow.py), for its tests.

Each round a kite card worth 1-3 is drawn (chance), every seat in turn may bid for it or pass
until all have passed (the highest bid takes it; bids cost nothing, ties go to the first bidder),
then each seat flies once: it trims (a stage) and then launches, scoring the kite's worth, or
rests. Three rounds; the highest score wins.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from aloftnb.core.action import Action, ActionTypes, action_type
from aloftnb.core.chance import CHANCE
from aloftnb.core.flow import ONCE_EACH, OVER, UNTIL_ALL_PASS, Flow, Phase, Stage
from aloftnb.core.records import record
from aloftnb.core.rules import Rules
from aloftnb.core.traits import Traits

ROUNDS = 3


class KiteAction(Action):
    __slots__ = ()


# Every action type once: its fields, its sentence and (for the adapters' numbering) the values
# each field can take.
ACTIONS = ActionTypes(
    KiteAction,
    action_type("bid", "bid {amount}", amount=(int, lambda rules: range(1, 4))),
    action_type("pass", "pass"),
    action_type("trim", "trim the kite"),
    action_type("skip_trim", "fly it untrimmed"),
    action_type("launch", "launch the kite"),
    action_type("rest", "rest this round"),
    action_type("kite", lambda p: f"drew a kite worth {p['worth']}", chance=True,
                worth=(int, lambda rules: range(1, 4))),
)
A = KiteAction


@record
class KiteState(NamedTuple):
    phase: str  # OVER once the game has ended
    stage: str
    round: int
    actor: int
    turn: int
    card: int
    bids: tuple[int, ...]
    passed: tuple[bool, ...]
    kites: tuple[int, ...]
    trimmed: bool
    scores: tuple[int, ...]


def draw_begin(rules: KiteRules, s: KiteState) -> KiteState:
    return s._replace(actor=CHANCE, card=0)


def on_draw(rules: KiteRules, s: KiteState, a: Action) -> KiteState:
    s = s._replace(card=a.worth)
    return rules.flow.end_phase(rules, s)


def bid_begin(rules: KiteRules, s: KiteState) -> KiteState:
    n = rules.players
    return _next_bidder(rules, s._replace(turn=0, bids=(0,) * n, passed=(False,) * n))


def _next_bidder(rules: KiteRules, s: KiteState) -> KiteState:
    index = UNTIL_ALL_PASS.next_turn(range(rules.players), s.turn, lambda seat: s.passed[seat])
    if index is None:
        return rules.flow.end_phase(rules, s)
    return s._replace(actor=index, turn=index)


def bid_legal(rules: KiteRules, s: KiteState, seat: int) -> list[Action]:
    top = max(s.bids)
    return [A("bid", amount=top + 1), A("pass")] if top < 3 else [A("pass")]


def on_bid(rules: KiteRules, s: KiteState, a: Action) -> KiteState:
    seat = s.actor
    if a.type == "bid":
        bids = tuple(a.amount if i == seat else b for i, b in enumerate(s.bids))
        s = s._replace(bids=bids)
    else:
        s = s._replace(passed=tuple(p or i == seat for i, p in enumerate(s.passed)))
    return _next_bidder(rules, s._replace(turn=(seat + 1) % rules.players))


def fly_begin(rules: KiteRules, s: KiteState) -> KiteState:
    if max(s.bids):
        winner = s.bids.index(max(s.bids))
        s = s._replace(kites=tuple(k + s.card * (i == winner) for i, k in enumerate(s.kites)))
    return _next_flyer(rules, s._replace(turn=0))


def _next_flyer(rules: KiteRules, s: KiteState) -> KiteState:
    index = ONCE_EACH.next_turn(range(rules.players), s.turn)
    if index is None:
        if s.round == ROUNDS:
            return s._replace(phase=OVER, stage="")
        return rules.flow.enter(rules, s._replace(round=s.round + 1, stage=""), "draw")
    return s._replace(actor=index, stage="trim", trimmed=False)


def trim_legal(rules: KiteRules, s: KiteState, seat: int) -> list[Action]:
    return [A("trim"), A("skip_trim")]


def on_trim(rules: KiteRules, s: KiteState, a: Action) -> KiteState:
    return rules.flow.next_stage(rules, s._replace(trimmed=a.type == "trim"))  # launch


def launch_legal(rules: KiteRules, s: KiteState, seat: int) -> list[Action]:
    return [A("launch"), A("rest")] if s.kites[seat] else [A("rest")]


def on_launch(rules: KiteRules, s: KiteState, a: Action) -> KiteState:
    seat = s.actor
    if a.type == "launch":
        gain = s.kites[seat] + s.trimmed
        s = s._replace(scores=tuple(x + gain * (i == seat) for i, x in enumerate(s.scores)))
    return _next_flyer(rules, s._replace(turn=s.turn + 1))


FLOW = Flow(
    phases=(
        Phase("draw", actions=("kite",), begin=draw_begin, on=on_draw, next="bid",
              text="a kite card is drawn"),
        Phase("bid", actions=("bid", "pass"), turns=UNTIL_ALL_PASS, begin=bid_begin,
              legal=bid_legal, on=on_bid, next="fly"),
        Phase("fly", turns=ONCE_EACH, begin=fly_begin, stages=(
            Stage("trim", actions=("trim", "skip_trim"), legal=trim_legal, on=on_trim),
            Stage("launch", actions=("launch", "rest"), legal=launch_legal, on=on_launch),
        )),
    ),
    stage_field="stage",
    ended=OVER,
    ended_phase="fly",
    rounds=lambda rules, s: s.round,
)


class KiteRules(Rules[KiteState, Action]):
    name = "kites"
    title = "Kite fair"
    traits = Traits(player_counts=(2, 3), chance="explicit")
    flow = FLOW
    actions = ACTIONS
    state_class = KiteState
    encoding = "flow_game"  # the observation below; the numbering comes from ACTIONS

    def max_length(self) -> int:
        return ROUNDS * (1 + 4 * self.players + 2 * self.players)

    def initial_state(self, seed: int) -> KiteState:
        n = self.players
        start = KiteState("draw", "", 1, 0, 0, 0, (0,) * n, (False,) * n, (0,) * n, False,
                          (0,) * n)
        return self.flow.enter(self, start, "draw")

    def current_player(self, s: KiteState) -> int | None:
        return None if s.phase == OVER else s.actor

    def is_over(self, s: KiteState) -> bool:
        return s.phase == OVER

    def scores(self, s: KiteState) -> dict[int, float]:
        return dict(enumerate(map(float, s.scores)))

    def why_illegal(self, s: KiteState, action: Action) -> str:
        problem = self.phase_problem(s, action) or self.stage_problem(s, action)
        if problem:
            return problem
        top = max(s.bids)
        if action.type == "bid" and top == 3:
            return "the bid is at 3, the most a kite is worth: only pass is left"
        if action.type == "bid":
            return f"a bid raises the top bid ({top}) by one: bid {top + 1}"
        if action.type == "launch":
            return "you won no kite to launch"
        return f"{action} is not a legal action now"

    def chance_outcomes(self, s: KiteState) -> list[tuple[Action, float]]:
        return [(A("kite", worth=w), 1 / 3) for w in (1, 2, 3)]



class KiteHooks:
    """The bots' idea of a good position, and one measure for `simulate`."""

    MEASURES = {"kites_won": "kite worth won at the auctions, all seats"}

    def evaluate(self, rules: KiteRules, s: KiteState, seat: int) -> float:
        return s.scores[seat] + 0.5 * s.kites[seat]

    def measures(self, rules: KiteRules, s: KiteState) -> dict[str, int]:
        return {"kites_won": sum(s.kites)}


# -- the observation (the adapters' numbering of actions comes from ACTIONS) ----------------------
def observation_shape(rules: KiteRules) -> tuple[int]:
    return (5 + 3 * rules.players,)


def observation(rules: KiteRules, view: dict[str, Any], seat: int) -> list[float]:
    n = rules.players
    return ([view["round"] / ROUNDS, view["card"] / 3, float(view["actor"] == seat),
             float(view["phase"] == "bid"), float(view["phase"] == "fly")]
            + [b / 3 for b in view["bids"]] + [k / (3 * ROUNDS) for k in view["kites"]]
            + [x / (4 * ROUNDS) for x in view["scores"]])[:5 + 3 * n]


def observation_string(rules: KiteRules, view: dict[str, Any], seat: int) -> str:
    return (f"round {view['round']}, {view['phase']}; card {view['card']}; bids {view['bids']}; "
            f"kites {view['kites']}; scores {view['scores']}; seat {seat}")
