"""What the front end may ask of a board. board.js sends intents such as
{"intent": "play", "action": {...}}; a board checks each one's shape, then runs its
`_intent_<name>` handler, which checks the request against the match and the viewer and applies
it. A refused intent is said on the board; every message is acknowledged (its `id` echoed).

An intent runs under its match's lock (`Match.lock`): JupyterLab delivers these messages on a
kernel subshell while a cell may be changing the same match, and a move is checked (whose turn,
which view) and played on one and the same position.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ..core.match import Match
from ..errors import AloftnbError
from .viewer import ECHO_LIMIT, clip

if TYPE_CHECKING:
    from .seats import SeatControl

# What one front-end message may hold: intents are small, so anything bigger is refused unread.
INTENT_MAX_DEPTH = 6
INTENT_MAX_ITEMS = 500
INTENT_MAX_TEXT = 1000


def intent_shape_problem(content: Any) -> str | None:
    """What makes a message too big or too deep to be an intent, or None. Never recurses."""
    if not isinstance(content, dict):
        return f"not an intent: a message is an object like {{'intent': ...}}, not " \
               f"{type(content).__name__}"
    items, pending = 0, [(content, 1)]
    while pending:
        value, depth = pending.pop()
        items += 1
        if items > INTENT_MAX_ITEMS:
            return f"a message holds at most {INTENT_MAX_ITEMS} values"
        if depth > INTENT_MAX_DEPTH:
            return f"a message nests at most {INTENT_MAX_DEPTH} levels deep"
        if isinstance(value, str):
            if len(value) > INTENT_MAX_TEXT:
                return f"a text in a message is at most {INTENT_MAX_TEXT} characters, not " \
                       f"{len(value)}"
        elif isinstance(value, (dict, list)) and items + len(value) > INTENT_MAX_ITEMS:
            return f"a message holds at most {INTENT_MAX_ITEMS} values"
        elif isinstance(value, dict):
            for key, inner in value.items():
                if not isinstance(key, str) or len(key) > INTENT_MAX_TEXT:
                    return "the keys of a message are short texts"
                pending.append((inner, depth + 1))
        elif isinstance(value, list):
            pending.extend((inner, depth + 1) for inner in value)
        elif value is not None and type(value) not in (bool, int, float):
            return f"a message holds only JSON values, not {type(value).__name__}"
    return None


class FrontEndIntents:
    """The Board's part that answers the front end (see the module's docstring)."""

    if TYPE_CHECKING:  # what this part uses of the board (board.py defines them)
        match: Match
        control: SeatControl
        viewer: str
        revealed: bool
        _revealed_for: int | None

        def send(self, content: Any, buffers: Any = None) -> None: ...
        def send_state(self, key: Any = None) -> None: ...
        def _publish(self) -> None: ...
        def _say(self, kind: str, text: str) -> None: ...
        def _send_whole_drawing(self) -> None: ...
        def _set_viewer(self, viewer: Any) -> None: ...
        def _can_act(self, seat: int | None) -> bool: ...
        def explain(self, path: list[str]) -> str: ...
        def view_control_specs(self) -> list[dict[str, Any]]: ...
        def set_view_option(self, name: str, value: Any) -> None: ...

    def _on_front_end_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        intent_id = content.get("id") if isinstance(content, dict) else None
        if not ((type(intent_id) is int and abs(intent_id) < 2**53)
                or (type(intent_id) is str and len(intent_id) <= 40)):
            intent_id = None  # echoed in the ack: only a small id is
        with self.match.lock:  # the refusal is said about the position the intent met
            try:
                self.handle_intent(content)
            except AloftnbError as exc:
                self._say("error", clip(f"refused: {exc}"))
            except Exception as exc:  # junk from the front end must never break the board
                self._say("error", clip(f"refused a malformed request ({type(exc).__name__}: "
                                         f"{str(exc)[:ECHO_LIMIT]})"))
            finally:
                self.send({"ack": intent_id})

    def handle_intent(self, content: Any) -> None:
        """Apply one intent from the front end. Raises an AloftnbError saying why it was refused."""
        problem = intent_shape_problem(content)
        if problem:
            raise AloftnbError(problem)
        if not isinstance(content.get("intent"), str):
            raise AloftnbError(f"not an intent: a message needs an 'intent' text, not "
                               f"{content.get('intent')!r:.60}")
        intent = content["intent"]
        handler = getattr(self, f"_intent_{intent}", None) if intent.isidentifier() else None
        if handler is None:
            raise AloftnbError(f"unknown intent {intent!r:.60}")
        with self.match.lock:  # whose turn, the view, then the move: one position throughout
            handler(content)

    def _intent_hello(self, content: dict) -> None:
        self._publish()
        # A new view (or one that missed a step) gets the whole log and the whole drawing.
        self.send_state("log")
        self._send_whole_drawing()

    def _intent_drawing(self, content: dict) -> None:
        """A view could not apply a patch (it missed one, or its drawing differs): send it all."""
        self._send_whole_drawing()

    def _intent_goto(self, content: dict) -> None:
        """The timeline: jump to any step, as `match.goto` does from a cell."""
        position = content.get("position")
        if isinstance(position, bool) or not isinstance(position, int):
            raise AloftnbError(f"a goto intent needs a whole-number position, not {position!r}")
        self.control.cancel()
        self.match.goto(position)  # back in the timeline, the bots pause (SeatControl)

    def _intent_play(self, content: dict) -> None:
        seat = self.match.current_player
        if seat is not None and seat in self.control.bots:
            raise AloftnbError(f"seat {seat} is played by the {self.control.bots[seat].name} bot")
        if not self._can_act(seat):
            raise AloftnbError(f"this view is seat {self.viewer[5:]}'s; it is seat {seat}'s turn")
        self.match.play(content.get("action"))

    def _intent_force(self, content: dict) -> None:
        """The designer view chooses the outcome of the chance step the game is at."""
        self._check_chance_choice()
        self.match.force(content.get("action"))

    def _intent_draw(self, content: dict) -> None:
        """The designer view draws the chance step's outcome from the match's seed."""
        self._check_chance_choice()
        self.match.resolve_chance()

    def _intent_auto_chance(self, content: dict) -> None:
        """The designer view's switch: draw chance steps by themselves, or stop at each one."""
        on = content.get("on")
        if not isinstance(on, bool):
            raise AloftnbError(f"an auto_chance intent says on: true or false, not {on!r:.60}")
        if self.viewer != "designer":
            raise AloftnbError("chance draws are switched on and off in the designer view")
        if self.match.rules.traits.chance == "none":
            raise AloftnbError(f"{self.match.game} has no chance steps to draw")
        self.match.auto_chance = on

    def _check_chance_choice(self) -> None:
        if not self.match.is_chance:
            raise AloftnbError("nothing is drawn or rolled now: this is not a chance step")
        if self.viewer != "designer":
            raise AloftnbError("chance outcomes are chosen in the designer view")

    def _intent_explain(self, content: dict) -> None:
        path = content.get("path")
        if (not isinstance(path, list) or not path or len(path) > 8
                or not all(isinstance(k, str) and 0 < len(k) <= 100 for k in path)):
            raise AloftnbError("an explain intent needs a path of 1 to 8 short keys")
        seat = self.match.current_player
        if seat is not None and not self.match.is_over and not self._can_act(seat):
            # A one-seat view never plays another seat's turn.
            self._say("error", f"it is seat {seat}'s turn; this view shows seat "
                               f"{self.viewer[5:]} only (choose 'Hot seat' or 'Seat {seat} only' "
                               "in View to play it)")
            return
        if seat is not None and seat in self.control.bots and not self.match.is_over:
            self._say("error", f"it is seat {seat}'s turn, played by the "
                               f"{self.control.bots[seat].name} bot")
            return
        self._say("error", clip(self.explain(path)))

    def _intent_select(self, content: dict) -> None:
        """The front end picked a first step of many: send the choices that follow it."""
        path = content.get("path")
        if not isinstance(path, list) or not path or not all(isinstance(k, str) for k in path):
            raise AloftnbError("a select intent needs a path of keys")
        self._selected_first = path[0]
        self._publish()

    def _intent_undo(self, content: dict) -> None:
        self.control.cancel()
        self.match.goto(self._undo_target())

    def _intent_redo(self, content: dict) -> None:
        if not self.match.can_redo:
            raise AloftnbError("nothing to redo")
        self.match.redo()

    def _intent_view_option(self, content: dict) -> None:
        """A display setting from the board's controls (never a rule): the game board checks it.
        """
        name, value = content.get("name"), content.get("value")
        spec = next((c for c in self.view_control_specs() if c["name"] == name), None)
        if spec is None:
            raise AloftnbError(f"this board has no display setting {name!r:.40}")
        allowed = [option for option, _ in spec["options"]]

        def same(a: Any, b: Any) -> bool:  # JSON turns 2.0 into 2: numbers compare by value
            numbers = all(type(x) in (int, float) for x in (a, b))
            return (numbers or type(a) is type(b)) and a == b

        match = next((v for v in allowed if same(value, v)), None)
        if match is None:
            raise AloftnbError(f"{spec['label']} must be one of "
                               f"{', '.join(label for _, label in spec['options'])}")
        self.set_view_option(spec["name"], match)

    def _intent_view(self, content: dict) -> None:
        before = self.viewer
        self._set_viewer(content.get("viewer"))
        if self.viewer == before:  # a change publishes by itself (below)
            self._publish()

    def _intent_reveal(self, content: dict) -> None:
        on = content.get("on")
        if not isinstance(on, bool):
            raise AloftnbError(f"a reveal intent says on: true or false, not {on!r:.60}")
        seat = self.match.current_player
        if on and seat is None:
            raise AloftnbError("the game is over: every secret is already shown")
        self.revealed = on
        self._revealed_for = seat if on else None
        self._publish()

    def _intent_seat(self, content: dict) -> None:
        # set_controller checks both values, as it does for calls from a cell.
        seat, controller = content.get("seat"), content.get("controller")
        self.control.set_controller(seat, controller)  # type: ignore[arg-type]

    def _intent_autoplay(self, content: dict) -> None:
        on = content.get("on")
        if not isinstance(on, bool):
            raise AloftnbError(f"an autoplay intent says on: true or false, not {on!r:.60}")
        self.control.autoplay = on
        self.control.paused_by_timeline = False  # the person chose: the timeline no longer does
        if self.control.autoplay:
            self.control.schedule()
        else:
            self.control.cancel()
        self.control._refresh()

    def _intent_run_round(self, content: dict) -> None:
        self.control.run_round()

    def _intent_step(self, content: dict) -> None:
        control = self.control
        control.cancel()
        if control.bot_to_move() is None or self.match.is_over:
            raise AloftnbError("no bot is to move")
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            control.step()  # no kernel loop: think here; a failure is reported by the control
            return
        control.think()  # in a kernel: think off the event loop

    def _undo_target(self) -> int:
        """Step back past bot moves (and chance draws) to the last position where a person was
        to play."""
        if not self.match.can_undo:
            raise AloftnbError("nothing to undo")
        rules, bots = self.match.rules, self.control.bots
        return self.match.undo_target(1, skip=lambda state: rules.current_player(state) in bots)
