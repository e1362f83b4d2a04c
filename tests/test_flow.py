"""The declared turn structure (aloftnb/core/flow.py), on Kite fair (tests/flow_game.py)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import NamedTuple

import pytest
from flow_game import FLOW, KiteRules, on_bid, on_draw, on_trim

from aloftnb.core.action import Action
from aloftnb.core.chance import CHANCE
from aloftnb.core.flow import (
    AUTOMATIC,
    ONCE_EACH,
    UNTIL_ALL_PASS,
    Flow,
    Phase,
    Stage,
    custom,
)
from aloftnb.core.rules import Rules
from aloftnb.errors import InvalidGame


def play_to(rules, state, predicate, seed=0):
    rng = random.Random(seed)
    while not predicate(state):
        if rules.is_chance(state):
            state = rules.apply(state, rules.sample_chance(state, rng))
        else:
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    return state


def test_the_rules_derive_phases_and_their_actions_from_the_flow():
    assert KiteRules.phases == ("draw", "bid", "fly")
    assert KiteRules.phase_actions == {"draw": ("kite",), "bid": ("bid", "pass"),
                                       "fly": ("trim", "skip_trim", "launch", "rest")}
    # apply and legal_actions were not written by the game: the flow supplies them.
    assert KiteRules.apply is Rules._apply_by_flow
    assert KiteRules.legal_actions is Rules._legal_by_flow
    assert KiteRules.describe()["phases"] == ["draw", "bid", "fly"]


def test_a_game_on_a_flow_plays_through_its_phases_stages_and_rounds():
    rules = KiteRules(2)
    state = rules.initial_state(0)
    assert rules.phase(state) == "draw" and rules.current_player(state) == CHANCE
    assert rules.legal_actions(state) == [Action("kite", worth=w) for w in (1, 2, 3)]
    state = rules.apply(state, Action("kite", worth=3))
    assert rules.phase(state) == "bid" and rules.current_player(state) == 0
    state = rules.apply(state, Action("bid", amount=1))
    state = rules.apply(state, Action("bid", amount=2))  # seat 1 outbids
    state = rules.apply(state, Action("pass"))  # seat 0 passes: seat 1 has not passed yet
    assert rules.phase(state) == "bid" and rules.current_player(state) == 1
    state = rules.apply(state, Action("pass"))
    assert rules.phase(state) == "fly" and state.stage == "trim" and state.kites == (0, 3)
    assert FLOW.allowed(state) == ("trim", "skip_trim")
    state = rules.apply(state, Action("skip_trim"))
    assert state.stage == "launch" and rules.legal_actions(state) == [Action("rest")]
    state = rules.apply(state, Action("rest"))
    state = rules.apply(state, Action("trim"))
    assert rules.legal_actions(state) == [Action("launch"), Action("rest")]
    state = rules.apply(state, Action("launch"))
    assert state.scores == (0, 4)
    assert rules.phase(state) == "draw" and rules.round(state) == 2
    end = play_to(rules, state, rules.is_over)
    assert rules.round(end) == 3 and rules.outcome(end) is not None


def test_every_random_game_keeps_to_the_declared_actions():
    rules = KiteRules(3)
    for seed in range(20):
        rng = random.Random(seed)
        state = rules.initial_state(seed)
        while not rules.is_over(state):
            legal = rules.legal_actions(state)
            assert {a.type for a in legal} <= set(FLOW.allowed(state))
            state = rules.apply(state, rng.choice(legal))


def test_an_action_with_no_handler_in_its_phase_is_refused_by_the_dispatch():
    rules = KiteRules(2)
    state = rules.initial_state(0)  # the draw phase: no bids
    with pytest.raises(InvalidGame, match="no handler for 'bid' in the draw phase"):
        rules.apply(state, Action("bid", amount=1))


def test_turn_orders():
    order = (2, 0, 1)
    assert [ONCE_EACH.next_turn(order, t) for t in range(4)] == [0, 1, 2, None]
    done = {0}
    assert UNTIL_ALL_PASS.next_turn(order, 1, lambda seat: seat in done) == 2
    assert UNTIL_ALL_PASS.next_turn(order, 2, lambda seat: seat in {0, 1, 2}) is None
    with pytest.raises(InvalidGame, match="worked out by the game"):
        custom("rounds of turns").next_turn(order, 0)
    with pytest.raises(InvalidGame):
        AUTOMATIC.next_turn(order, 0)


def test_end_phase_goes_where_next_says_even_when_next_is_chosen():
    chosen = Flow(phases=(Phase("a", next=lambda rules, s: "c"), Phase("b"), Phase("c")),
                  stage_field="")
    assert chosen.next_phase(None, None, after="a") == "c"
    with pytest.raises(InvalidGame, match="declares no next phase"):
        chosen.next_phase(None, None, after="c")
    assert chosen.describe()[0]["next"] == "(chosen)"


@pytest.mark.parametrize("phases, others, problem", [
    ((), {}, "declares no phase"),
    ((Phase("a"), Phase("a")), {}, "phase names repeat"),
    ((Phase("a", next="z"),), {}, "goes on to 'z'"),
    ((Phase("a", stages=(Stage("x"),)), Phase("b", stages=(Stage("x"),))),
     {"phase_field": "", "stage_field": "step"}, "stage 'x' is declared in two phases"),
    ((Phase("a"),), {"phase_field": ""}, "must record its phase or its stage, or phase_from"),
    ((Phase("a"),), {"draft": dict}, "draft and settle go together"),
    ((Phase("a"),), {"ended_phase": "b"}, "ended_phase 'b'"),
    ((Phase("a"), Phase("b")), {"ended": "b"}, "ended 'b' is also the name of a phase"),
    ((Phase("a", stages=(Stage("x"),)),), {"stage_field": "step", "ended": "x"},
     "ended 'x' is also the name of a phase or stage"),
])
def test_malformed_flows_are_refused_when_declared(phases, others, problem):
    with pytest.raises(InvalidGame, match=problem):
        Flow(phases=phases, **others)


def test_a_game_that_records_only_its_stage_finds_its_phase_from_it():
    flow = Flow(phases=(Phase("setup", stages=(Stage("deal"), Stage("place"))),
                        Phase("play", stages=(Stage("move"),))),
                phase_field="", stage_field="step", ended="over", ended_phase="play")

    class At:
        def __init__(self, step):
            self.step = step

    assert [flow.phase_of(At(s)) for s in ("deal", "place", "move", "over")] == [
        "setup", "setup", "play", "play"]


def test_a_game_that_records_its_end_in_the_phase_field_is_then_in_its_ended_phase():
    """A finished game may mark its phase field with `ended` (balloons' step "over")."""
    class At:
        def __init__(self, step):
            self.step = step

    phases = (Phase("advance", actions=("ascend",)), Phase("wind", actions=("wind",)))
    flow = Flow(phases=phases, phase_field="step", ended="over", ended_phase="advance")
    assert [flow.phase_of(At(s)) for s in ("advance", "wind", "over")] == [
        "advance", "wind", "advance"]
    assert flow.allowed(At("over")) == ("ascend",)
    last = Flow(phases=phases, phase_field="step", ended="over")
    assert last.phase_of(At("over")) == "wind"
    unmarked = Flow(phases=phases, phase_field="step")
    with pytest.raises(InvalidGame, match="no phase 'over'"):
        unmarked.allowed(At("over"))


def test_a_flow_without_stages_finds_a_phase_at_once_and_falls_back_for_anything_else():
    """Phases recorded in a field and no stages (balloons' fast path): `legal` and `apply` look
    the phase's functions up by the field's value; an ended or unknown value takes the general
    path, with the same results and refusals."""
    class At(NamedTuple):
        step: str
        n: int

    def grow(rules, s, a):
        return At(s.step, s.n + a.by)

    def legal(rules, s, seat):
        return [Action("grow", by=1)]

    flow = Flow(phases=(Phase("play", actions=("grow",), legal=legal, on=grow),
                        Phase("rest", actions=("grow",), on={"grow": grow})),
                phase_field="step", ended="over", ended_phase="play")
    assert flow.apply(None, At("play", 1), Action("grow", by=2)) == At("play", 3)
    assert flow.legal(None, At("play", 0), 0) == [Action("grow", by=1)]
    assert flow.apply(None, At("over", 1), Action("grow", by=1)) == At("over", 2)
    assert flow.legal(None, At("over", 0), 0) == [Action("grow", by=1)]
    with pytest.raises(InvalidGame, match="declares no legal-actions function"):
        flow.legal(None, At("rest", 0), 0)
    with pytest.raises(InvalidGame, match="no handler for 'grow' in the nowhere phase"):
        flow.apply(None, At("nowhere", 0), Action("grow", by=1))
    with pytest.raises(InvalidGame, match="no phase 'nowhere'"):
        flow.legal(None, At("nowhere", 0), 0)
    with pytest.raises(InvalidGame, match="no handler for 'shrink' in the play phase"):
        flow.apply(None, At("play", 0), Action("shrink"))
    checked = Flow(phases=flow.phases, phase_field="step",
                   after=lambda rules, s: At(s.step, -s.n))  # every step still ends with after
    assert checked.apply(None, At("play", 1), Action("grow", by=2)) == At("play", -3)


def test_a_flat_flow_reads_the_phase_of_its_named_tuple_states_by_place_and_others_by_name():
    """The fast path reads a state's phase by its place in the named tuple whose class it meets
    first; a state of any other class, or of a class whose field is not its item, by name.
    Each reads the phase the field holds."""
    class At(NamedTuple):
        n: int
        step: str

    class Shadowed(At):  # a class whose `step` is not the item of that name
        @property
        def step(self) -> str:  # type: ignore[override]
            return "play" if self[1] == "other" else "rest"

    class Plain:
        def __init__(self, step: str, n: int) -> None:
            self.step, self.n = step, n

    def legal_of(name):
        return lambda rules, s, seat: [Action(name, n=s.n)]

    def make():
        return Flow(phases=(Phase("play", actions=("p",), legal=legal_of("p")),
                            Phase("rest", actions=("r",), legal=legal_of("r"))),
                    phase_field="step")

    flow = make()
    assert flow.legal(None, At(1, "rest"), 0) == [Action("r", n=1)]  # (learns At)
    assert flow._record_class is At and flow._phase_place == 1
    assert flow.legal(None, At(2, "play"), 0) == [Action("p", n=2)]
    assert flow.legal(None, Plain("rest", 3), 0) == [Action("r", n=3)]
    assert flow.legal(None, Shadowed(4, "other"), 0) == [Action("p", n=4)]
    flow = make()
    assert flow.legal(None, Shadowed(5, "other"), 0) == [Action("p", n=5)]
    assert flow._record_class is False  # its field is not its item: by name from then on
    assert flow.legal(None, Shadowed(9, "other"), 0) == [Action("p", n=9)]
    assert flow.legal(None, At(6, "rest"), 0) == [Action("r", n=6)]
    flow = make()
    assert flow.legal(None, Plain("play", 7), 0) == [Action("p", n=7)]
    assert flow._record_class is False
    assert flow.legal(None, At(8, "rest"), 0) == [Action("r", n=8)]


def test_legal_indices_come_from_the_phase_or_stage_that_declares_them_and_else_none():
    """A phase or stage may declare `legal_indices` beside `legal` (Rules.legal_indices, for
    the adapters): the flow finds it as it finds `legal`, and gives None where none is
    declared; the rules of a flow that declares some answer with it."""
    class At(NamedTuple):
        step: str

    def indices(rules, s, seat):
        return [seat, 7]

    flat = Flow(phases=(Phase("play", actions=("grow",), legal=lambda r, s, seat: [],
                              legal_indices=indices),
                        Phase("rest", actions=("grow",), legal=lambda r, s, seat: [])),
                phase_field="step", ended="over", ended_phase="play")
    assert flat.gives_indices()
    assert flat.legal_indices(None, At("play"), 2) == [2, 7]
    assert flat.legal_indices(None, At("over"), 1) == [1, 7]  # (the ended phase's)
    assert flat.legal_indices(None, At("rest"), 0) is None
    staged = Flow(phases=(Phase("setup", legal_indices=indices,
                                stages=(Stage("deal", legal=lambda r, s, seat: []),
                                        Stage("place", legal=lambda r, s, seat: [],
                                              legal_indices=lambda r, s, seat: [seat]))),),
                  phase_field="", stage_field="step")
    assert staged.legal_indices(None, At("place"), 3) == [3]
    assert staged.legal_indices(None, At("deal"), 3) is None  # its stage lists, not the phase
    assert not Flow(phases=(Phase("play"),), phase_field="step").gives_indices()

    from aloftnb.core.rules import gives_legal_indices

    assert not gives_legal_indices(KiteRules(2))

    class IndexedKites(KiteRules):
        flow = replace(FLOW, phases=tuple(replace(phase, legal_indices=indices)
                                          for phase in FLOW.phases))

    rules = IndexedKites(2)
    state = rules.initial_state(0)
    assert gives_legal_indices(rules) and rules.legal_indices(state, 1) == [1, 7]


def test_a_handler_of_a_draft_game_changes_the_draft_and_the_flow_settles_it():
    class Counter(NamedTuple):
        phase: str
        count: int

    class Draft:
        def __init__(self, state):
            self.phase, self.count = state

        def freeze(self):
            return Counter(self.phase, self.count)

    def count(rules, work, action):
        work.count += action.by  # returns None: the draft is the result

    flow = Flow(phases=(Phase("play", actions=("add",), on={"add": count}),),
                draft=Draft, settle=Draft.freeze)
    assert flow.apply(None, Counter("play", 1), Action("add", by=2)) == ("play", 3)


def test_the_kite_handlers_are_plain_functions_of_the_rules_and_state():
    rules = KiteRules(2)
    state = play_to(rules, rules.initial_state(1), lambda s: rules.phase(s) == "bid")
    after = on_bid(rules, state, Action("pass"))
    assert after.passed[state.actor]


def test_a_game_whose_phase_follows_from_its_fields_names_it_with_phase_from():
    flow = Flow(phases=(Phase("climb", actions=("roll",)), Phase("roll", actions=("die",))),
                phase_from=lambda s: "roll" if s["rolling"] else "climb")
    assert flow.phase_of({"rolling": True}) == "roll"
    assert flow.phase_of({"rolling": False}) == "climb"
    assert flow.allowed({"rolling": False}) == ("roll",)


def test_an_action_of_another_stage_is_refused_with_the_stage_it_belongs_to():
    rules = KiteRules(2)
    state = play_to(rules, rules.initial_state(3), lambda s: s.stage == "launch")
    assert rules.why_illegal(state, Action("trim")) == (
        "trim can only be played in the trim stage of the fly phase; this is its launch stage")
    state = play_to(rules, rules.initial_state(3), lambda s: rules.phase(s) == "bid")
    assert rules.why_illegal(state, Action("rest")) == (
        "rest can only be played in the fly phase; this is the bid phase")


def test_after_runs_on_the_new_state_after_every_handler():
    class Tally(NamedTuple):
        phase: str
        count: int
        checked: int

    def add(rules, s, action):
        return s._replace(count=s.count + action.by)

    def check(rules, s):  # e.g. a goal check after every step
        return s._replace(checked=s.checked + 1)

    flow = Flow(phases=(Phase("play", actions=("add",), on=add),), after=check)
    state = flow.apply(None, Tally("play", 0, 0), Action("add", by=2))
    assert flow.apply(None, state, Action("add", by=1)) == ("play", 3, 2)


def test_handlers_of_is_the_table_the_dispatch_looks_in():
    assert FLOW.handlers_of("draw") == {"kite": on_draw}
    assert FLOW.handlers_of("bid") == {"bid": on_bid, "pass": on_bid}
    assert FLOW.handlers_of("fly", "trim") == {"trim": on_trim, "skip_trim": on_trim}
    assert FLOW.handlers_of("fly") == {}  # the fly phase's actions all belong to its stages


def test_a_game_that_records_only_its_stage_enters_a_phase_at_its_first_stage():
    class At(NamedTuple):
        step: str
        dealt: bool

    def deal(rules, s):
        return s._replace(dealt=True)

    flow = Flow(phases=(Phase("setup", begin=deal, next="play",
                              stages=(Stage("deal"), Stage("place"))),
                        Phase("play", stages=(Stage("move"),))),
                phase_field="", stage_field="step")
    assert flow.enter(None, At("", False), "setup") == ("deal", True)
    assert flow.end_phase(None, At("place", True), after="setup") == ("move", True)


def test_stages_follow_in_the_order_declared_and_each_begins_on_entry():
    class Turn(NamedTuple):
        phase: str
        stage: str
        log: tuple[str, ...]

    def fire(rules, s):
        return s._replace(log=s.log + ("spires fire",))

    flow = Flow(phases=(Phase("fight", stages=(Stage("move"), Stage("fire", begin=fire),
                                               Stage("attack"))),),
                stage_field="stage")
    state = flow.next_stage(None, Turn("fight", "move", ()))
    assert state == ("fight", "fire", ("spires fire",))
    assert flow.next_stage(None, state) == ("fight", "attack", ("spires fire",))
    with pytest.raises(InvalidGame, match="no stage follows 'attack' in the fight phase"):
        flow.next_stage(None, Turn("fight", "attack", ()))
    with pytest.raises(InvalidGame, match="the fight phase has no stage 'rest'"):
        flow.enter_stage(None, state, "rest")
