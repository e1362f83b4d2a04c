"""The generic board widget. Python is the single source of truth.

The front end (board.js) sends intents such as {"intent": "play", "action": {...}}; this class
validates them against the match, applies them, and publishes the new snapshot through synced
traits. Several boards (and several views of one board) on the same match stay in step because
every change goes through the match, which notifies every board.

What the viewer may see and read (its view, step texts, the log, news) is in viewer.py; who plays
each seat (SeatControl) and the threads bots think on are in seats.py.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import weakref
from importlib import resources
from typing import Any, ClassVar

import anywidget
import traitlets as t

from ..core.bots import BOTS, Bot
from ..core.chance import CHANCE, chance_rng, weighted_choice
from ..core.match import Match
from ..core.options import number_problem
from ..core.registry import board_class
from ..errors import AloftnbError
from . import svgpatch
from .seats import seat_control
from .viewer import ECHO_LIMIT, ViewerTexts, check_viewer, clip

_ASSETS = resources.files(__package__)
BASE_ESM = _ASSETS.joinpath("board.js").read_text("utf-8")
BASE_CSS = _ASSETS.joinpath("board.css").read_text("utf-8")


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


def shared_words(labels: list[str], count: int) -> str:
    """Several choices said in one phrase: the words their labels start with, then what
    differs ("explore 2,0, paying 1 canvas or wood"), or the count where that is long."""
    distinct = list(dict.fromkeys(labels))
    if len(distinct) == 1:
        return distinct[0]
    words = [label.split(" ") for label in distinct]
    shared = 0
    while all(len(w) > shared + 1 and w[shared] == words[0][shared] for w in words):
        shared += 1
    start = " ".join(words[0][:shared])
    tails = [" ".join(w[shared:]) for w in words]
    if shared and len(tails) <= 6 and sum(map(len, tails)) <= 80:
        return f"{start} {', '.join(tails[:-1])} or {tails[-1]}"
    if shared:
        return f"{start} … ({count} choices)"
    verbs = list(dict.fromkeys(w[0] for w in words))
    said = f"{', '.join(verbs[:-1])} or {verbs[-1]}" if len(verbs) > 1 else verbs[0]
    return f"{said} … ({count} choices)"


class Board(ViewerTexts, anywidget.AnyWidget):
    """An interactive board for a match: `aloftnb.Board(match)` or `match.board()`.

    viewer: "turn" (hot-seat: the player to move, secrets shown only on request), "designer"
    (everything), or "seat:N". bots: {seat: "random", ...}.
    """

    _esm = BASE_ESM
    _css = BASE_CSS
    game_css: ClassVar[str] = ""
    # Above this many legal actions, only the first steps are sent, and the full choices under
    # the first step a person selects (a "select" intent): redraws stay small as boards grow.
    choices_limit: ClassVar[int] = 150

    title = t.Unicode("").tag(sync=True)
    # The drawing. `svg` is always the whole current drawing in Python, but it travels only when
    # a view needs all of it (a new view, a big change); otherwise `svg_patch` carries the edits
    # from the previous revision (svgpatch.py). `svg_revision` numbers the drawing in `svg`.
    svg = t.Unicode("").tag(sync=True)
    svg_revision = t.Int(0).tag(sync=True)
    svg_patch = t.Dict().tag(sync=True)  # {"base": revision, "revision": base + 1, "ops": "[...]"}
    choices: t.List[Any] = t.List().tag(sync=True)
    selection_hint = t.Dict().tag(sync=True)
    # How the menu names a step that is not one whole choice ({key: words}), where the key's
    # own text is not what a person should read (ids of the game's catalogue).
    step_labels = t.Dict().tag(sync=True)
    # What activating a drawn element plays now, said first in its accessible name:
    # [[path, phrase], ...], the path being the selection before the element and its key.
    key_actions: t.List[Any] = t.List().tag(sync=True)
    # A map explored with the arrow keys (the hex boards): its playable elements say first what
    # they play (key_actions), and the rest are named pictures, not dozens of disabled buttons.
    explorable_map = t.Bool(False).tag(sync=True)
    status = t.Unicode("").tag(sync=True)
    # The whole log is synced when a view says hello; after that only log_delta (the entries
    # from the first one that changed) travels, so a long game does not resend its history.
    log: t.List[Any] = t.List().tag(sync=True)
    log_delta = t.Dict().tag(sync=True)
    position = t.Int(0).tag(sync=True)
    timeline_length = t.Int(0).tag(sync=True)
    recent = t.Dict().tag(sync=True)  # {"keys": data-keys, "from": step, "to": step} to highlight
    # What bots, chance and the people at other boards just did, and a new round, worded
    # for this viewer, for a polite live region: {"text", "n"} (n counts the news told).
    news = t.Dict().tag(sync=True)
    message = t.Dict().tag(sync=True)
    viewer = t.Unicode("turn").tag(sync=True)
    viewers: t.List[Any] = t.List().tag(sync=True)
    # Display settings the game board offers: [{name, label, options: [[value, label]], value}]
    view_controls: t.List[Any] = t.List().tag(sync=True)
    revealed = t.Bool(False).tag(sync=True)
    reveal_label = t.Unicode("").tag(sync=True)
    seats: t.List[Any] = t.List().tag(sync=True)
    bot_names: t.List[Any] = t.List().tag(sync=True)
    autoplay = t.Bool(True).tag(sync=True)
    bots_note = t.Unicode("").tag(sync=True)  # why the bots wait, shown until they play again
    auto_chance = t.Bool(True).tag(sync=True)  # the match draws chance steps by itself
    chance_switch = t.Bool(False).tag(sync=True)  # this view offers the auto_chance switch
    thinking = t.Bool(False).tag(sync=True)
    bot_to_move = t.Bool(False).tag(sync=True)
    can_undo = t.Bool(False).tag(sync=True)
    can_redo = t.Bool(False).tag(sync=True)
    over = t.Bool(False).tag(sync=True)
    revision = t.Int(0).tag(sync=True)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "game_css" in cls.__dict__:
            cls._css = BASE_CSS + "\n" + cls.game_css
        super().__init_subclass__(**kwargs)

    def __new__(cls, match: Any = None, **kwargs: Any) -> Board:
        # Board(match) gives the game's own board class, as match.board() does.
        if cls is Board and isinstance(match, Match):
            cls = game_board_class(match.game)
        return super().__new__(cls)

    def __init__(self, match: Match, *, viewer: str = "turn", bots: dict | None = None,
                 autoplay: bool | None = None, bot_delay: float | None = None) -> None:
        if not isinstance(match, Match):
            raise AloftnbError(f"a board shows a Match, not {type(match).__name__}")
        # Everything is checked before the board attaches to the match: a refused board must
        # leave no subscription, no seat and no widget behind.
        check_viewer(match, viewer)
        if bots is not None and not isinstance(bots, dict):
            raise AloftnbError(f"bots must be a dict like {{1: 'random'}}, not {bots!r:.60}")
        control = seat_control(match)
        chosen = {seat: control.check_controller(seat, controller)
                  for seat, controller in (bots or {}).items()}
        if bot_delay is not None:
            problem = number_problem(bot_delay, 0, 10)
            if problem:
                raise AloftnbError(f"bot_delay (seconds) {problem}")
        if autoplay is not None and not isinstance(autoplay, bool):
            raise AloftnbError(f"autoplay must be True or False, not {autoplay!r:.60}")
        super().__init__()
        self.match = match
        self.control = control
        self._messages = 0
        self._message_context: tuple | None = None
        self._played_by: dict[int, str] = dict(getattr(match, "played_by", None) or {})
        self._revealed_for: int | None = None
        self._drawing: svgpatch.Drawing | None = None  # `svg` parsed, to diff the next one with
        self._svg_sent = -1  # the revision of the whole drawing last sent to the front end
        # The step news was last told up to, the round and phase it told, and the latest change.
        self._news_told = match.position
        self._news_where = (match.round, match.phase)
        self._news_count = 0
        self._set_viewer(viewer)
        if bot_delay is not None:
            control.delay = float(bot_delay)
        if autoplay is not None:
            control.autoplay = autoplay
        control.boards.add(self)
        self._unsubscribe = match.subscribe(self._on_match_change)
        self.on_msg(self._on_front_end_message)
        for seat, bot in chosen.items():
            if bot is None:
                control.bots.pop(seat, None)
            else:
                control.bots[seat] = bot
        control._refresh()
        self.control.schedule()

    # -- what the front end may ask --------------------------------------------------------------
    def _on_front_end_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        intent_id = content.get("id") if isinstance(content, dict) else None
        if not ((type(intent_id) is int and abs(intent_id) < 2**53)
                or (type(intent_id) is str and len(intent_id) <= 40)):
            intent_id = None  # echoed in the ack: only a small id is
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
        handler(content)

    def _intent_hello(self, content: dict) -> None:
        self._publish()
        # A new view (or one that missed a step) gets the whole log and the whole drawing.
        self.send_state("log")
        self._send_whole_drawing()

    def _intent_drawing(self, content: dict) -> None:
        """A view could not apply a patch (it missed one, or its drawing differs): send it all."""
        self._send_whole_drawing()

    def _send_whole_drawing(self) -> None:
        self.send_state(["svg", "svg_revision"])
        self._svg_sent = self.svg_revision

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # A board shown again (a second cell) starts from the whole current drawing, not from
        # the last one that travelled whole.
        if self._svg_sent != self.svg_revision:
            self._send_whole_drawing()
        return super()._repr_mimebundle_(**kwargs)

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

    def _chance_choices(self) -> list[dict[str, Any]]:
        """At a chance step, the designer is offered a random draw and every listed outcome,
        worded as what will happen. Outcomes worded the same (five leviathans set aside face
        down) are one choice with their summed probability: nobody can tell them apart, so
        choosing it draws one of them as "Draw at random" would (the match's chance stream for
        this step, their probabilities), rather than always the first."""
        match = self.match
        choices: list[dict[str, Any]] = [
            {"path": ["chance:draw"], "label": "Draw at random", "intent": "draw", "action": {}}]
        if match.rules.traits.chance == "explicit":
            rules, state = match.rules, match.state
            alike: dict[str, list[tuple[Any, float]]] = {}
            for outcome, probability in match.chance_outcomes():
                alike.setdefault(rules.chance_choice_label(state, outcome), []).append(
                    (outcome, probability))
            for number, (text, outcomes) in enumerate(alike.items()):
                chosen = outcomes[0][0] if len(outcomes) == 1 else weighted_choice(
                    outcomes, chance_rng(match.seed, match.position))
                probability = sum(p for _, p in outcomes)
                choices.append({"path": [f"chance:{number}"], "intent": "force",
                                "label": f"{text} ({100 * probability:.3g}%)",
                                "action": chosen.to_dict()})
        return choices

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

    def _choices_to_send(self) -> list[dict[str, Any]]:
        rules, state = self.match.rules, self.match.state
        legal = rules.legal_actions(state)
        paths = [rules.action_path(state, a) for a in legal]
        if len(legal) <= self.choices_limit:
            return [{"path": path, "label": self.choice_label(a), "action": a.to_dict()}
                    for a, path in zip(legal, paths)]
        selected = getattr(self, "_selected_first", None)
        choices: list[dict[str, Any]] = []
        stubs: dict[str, dict[str, Any]] = {}
        for action, path in zip(legal, paths):
            if path[0] == selected or len(path) == 1:
                choices.append({"path": path, "label": self.choice_label(action),
                                "action": action.to_dict()})
            elif path[0] in stubs:
                stubs[path[0]]["count"] += 1
            else:  # a first step standing for the choices after it, sent when it is selected
                stubs[path[0]] = {"path": path[:1], "label": self.step_label(path[0]),
                                  "partial": True, "count": 1}
        return choices + list(stubs.values())

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

    @t.validate("viewer")
    def _checked_viewer(self, proposal: Any) -> Any:
        if hasattr(self, "match"):  # a cell may set it: `board.viewer = "seat:1"`
            check_viewer(self.match, proposal["value"])
        return proposal["value"]

    @t.observe("viewer")
    def _viewer_changed(self, _change: Any) -> None:
        # Set from a cell, the board shows that view at once (never the old one under a new
        # label, which could show a seat another's secrets).
        if hasattr(self, "_unsubscribe"):
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

    # -- the same things from Python -----------------------------------------------------------
    def set_seat(self, seat: int, controller: str | Bot) -> None:
        """Give a seat to a bot ("random", a Bot instance) or back to a person ("human")."""
        self.control.set_controller(seat, controller)

    def step(self) -> bool:
        """Play one bot move now (outside a kernel, boards do not play bots by themselves)."""
        self.control.cancel()
        return self.control.step()

    def run_round(self) -> int:
        """Let the bots play to the end of the round: the "Bots: round" button."""
        return self.control.run_round()

    def explain(self, path: list[str]) -> str:
        """Why clicking `path` plays nothing. Game boards refine it."""
        return "nothing can be played there now"

    # -- publishing ----------------------------------------------------------------------------
    def _on_match_change(self, match: Match, change: str) -> None:
        self._publish()

    def _set_viewer(self, viewer: Any) -> None:
        check_viewer(self.match, viewer)
        self.viewer = viewer

    def _undo_target(self) -> int:
        """Step back past bot moves (and chance draws) to the last position where a person was
        to play."""
        if not self.match.can_undo:
            raise AloftnbError("nothing to undo")
        rules, bots = self.match.rules, self.control.bots
        return self.match.undo_target(1, skip=lambda state: rules.current_player(state) in bots)

    def _say(self, kind: str, text: str) -> None:
        self._messages += 1
        self._message_context = self._context()
        self.message = {"kind": kind, "text": clip(text), "n": self._messages}

    def _context(self) -> tuple:
        """What a message is about: once the position or the view changes, it is stale."""
        return (self.match.position, len(self.match.timeline), self.viewer, self.revealed)

    def _publish_drawing(self, svg: str) -> None:
        """Publish a new drawing as the edits from the previous one, or whole if need be."""
        if svg == self.svg:
            return
        drawing = svgpatch.parse(svg)
        ops = svgpatch.diff(self._drawing, drawing)
        self._drawing = drawing
        revision = self.svg_revision + 1
        if ops is None:
            with self.hold_sync():  # one message: a view never sees one without the other
                self.svg, self.svg_revision = svg, revision
            self._svg_sent = revision
            return
        # Keep `svg` current for Python and for views that ask for it (traitlets' own store: no
        # change event, so nothing is sent), and send the edits.
        self._trait_values["svg"] = svg
        self._trait_values["svg_revision"] = revision
        # The ops as JSON text: ipywidgets walks every list and dict it sends (for binary
        # buffers), which costs more than encoding them.
        self.svg_patch = {"base": revision - 1, "revision": revision,
                          "ops": json.dumps(ops, separators=(",", ":"))}
        _boards_with_patches.add(self)
        _register_cell_hook()

    def _publish(self) -> None:
        match, rules = self.match, self.match.rules
        if self.message.get("text") and self._message_context != self._context():
            self._say("", "")  # the position or the view changed: the old message is stale
        seat = match.current_player
        if self.revealed and (seat is None or seat != self._revealed_for):
            self.revealed, self._revealed_for = False, None  # a new player sits down: hide again
        bot = self.control.bots.get(seat) if seat is not None else None
        choices = []
        if seat == CHANCE:
            choices = self._chance_choices() if self.viewer == "designer" else []
        elif seat is not None and bot is None and self._can_act(seat):
            choices = self._choices_to_send()
        view = self.view_dict()  # once per redraw: the drawing and the seat labels share it
        with self.hold_sync():
            self.title = rules.title
            svg = rules.render_svg(view, **self.drawing_options())
            self._publish_drawing(svg)
            self.choices = choices
            self.key_actions = self._key_actions(choices, svg) if self.explorable_map else []
            # Hints come from the legal actions: only a view that may choose gets them.
            self.selection_hint = self.hints() if choices and seat != CHANCE else {}
            self.step_labels = self._step_labels(choices)
            self.status = self.status_text()
            self._publish_log()
            self.position = match.position
            self.timeline_length = len(match.timeline)
            start, end = self.recent_steps()
            self.recent = {"keys": self.recent_keys(range(start, end)), "from": start, "to": end}
            self._tell_news()
            self.view_controls = self.view_control_specs()
            self.viewers = [["turn", "Hot seat (player to move)"],
                            ["designer", "Designer (everything)"]] + [
                [f"seat:{p}", f"Seat {p} only"] for p in range(match.players)]
            self.reveal_label = self.reveal_text()
            self.seats = [{"seat": p, "label": self.seat_label(p, view),
                           "controller": self.control.bots[p].name if p in self.control.bots
                           else "human", "to_move": p == seat,
                           "played_by": self._played_by.get(p) if p not in self.control.bots
                           else None} for p in range(match.players)]
            self.bot_names = sorted(BOTS)
            self.autoplay = self.control.autoplay
            self.bots_note = self.control.timeline_note()
            self.auto_chance = match.auto_chance
            self.chance_switch = self.viewer == "designer" and rules.traits.chance != "none"
            self.thinking = self.control.thinking
            self.bot_to_move = bot is not None
            self.can_undo = match.can_undo
            self.can_redo = match.can_redo
            self.over = match.is_over
            self.revision += 1

    # -- game boards refine these --------------------------------------------------------------
    def drawing_options(self) -> dict[str, Any]:
        return {}

    def view_control_specs(self) -> list[dict[str, Any]]:
        """Display settings shown beside the view menu, e.g. a map's zoom: a list of
        {"name", "label", "options": [[value, label], ...], "value"}."""
        return []

    def set_view_option(self, name: str, value: Any) -> None:
        """Apply a display setting the front end chose (already checked against its options)."""

    def hints(self) -> dict[str, str]:
        """Text shown when a first key is selected, e.g. {"balloon:RW": "now pick a truck"}."""
        return {}

    def choice_label(self, action: Any) -> str:
        """The text of a legal action in menus (games may add costs and such)."""
        return str(action)

    def step_label(self, key: str) -> str:
        """The words for a step of a choice's path (a button leading to several choices, or a
        step a screen reader announces as selected); games name their catalogue's ids."""
        return key

    def key_action(self, path: list[str], choices: list[dict[str, Any]]) -> str:
        """What activating the last key of `path` (a drawn element) does, given the sent
        `choices` it plays or leads to: the choice's label, else what their labels share
        ("explore 2,0, paying 1 canvas or wood"). Games may word it better."""
        if len(choices) == 1 and choices[0]["path"] == path and not choices[0].get("partial"):
            return str(choices[0]["label"])
        count = sum(c.get("count", 1) for c in choices)
        return shared_words([str(c["label"]) for c in choices], count)

    def _key_actions(self, choices: list[dict[str, Any]], svg: str) -> list[list[Any]]:
        drawn = {html.unescape(key) for key in re.findall(r'data-key="([^"]*)"', svg)}
        leads_to: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for choice in choices:
            path = choice["path"]
            for i, key in enumerate(path):
                if key in drawn:
                    leads_to.setdefault(tuple(path[: i + 1]), []).append(choice)
        return [[list(path), self.key_action(list(path), found)]
                for path, found in leads_to.items()]

    def _step_labels(self, choices: list[dict[str, Any]]) -> dict[str, str]:
        keys = {key for choice in choices for key in choice["path"]}
        labels = {key: self.step_label(key) for key in keys}
        return {key: label for key, label in labels.items() if label != key}

    def seat_label(self, seat: int, view: dict[str, Any]) -> str:
        """How the seats list names `seat`; `view` is the state dict this board shows."""
        return f"Seat {seat}"

    def reveal_text(self) -> str:
        return ""

    def status_text(self) -> str:
        match = self.match
        if match.is_over:
            scores = ", ".join(f"seat {p}: {s}" for p, s in match.scores().items())
            won = ", ".join(f"seat {p}" for p in match.winners())
            return f"Game over. Scores {scores}. Winner: {won}."
        seat = match.current_player
        rules = match.rules
        where = f"Round {match.round}" + (f", {match.phase} phase" if len(rules.phases) > 1
                                          else "")
        if seat == CHANCE:
            chooser = ("choose the outcome below, or draw one" if self.viewer == "designer"
                       else "the designer view chooses it")
            return f"{where}. A chance step: {chooser}."
        bot = self.control.bots.get(seat) if seat is not None else None
        who = f"seat {seat} ({bot.name} bot)" if bot else f"seat {seat}"
        return f"{where}. {who[0].upper()}{who[1:]} to play."

    def __repr__(self) -> str:  # stable, so notebook outputs compare
        players = self.match.players
        return f"{type(self).__name__}({self.match.game}, {players} player{'s' * (players != 1)})"

    def close(self) -> None:
        if hasattr(self, "_unsubscribe"):  # a board whose construction was refused has no match
            self._unsubscribe()
            self.control.boards.discard(self)
            if not self.control.boards:
                self.control.cancel()  # the last board of the match went: so does its search
        super().close()


class ZoomableBoard(Board):
    """A board whose drawing is a map that fits its frame, with a zoom setting (a display
    option, never a history step): the board's Map zoom menu and the + and - keys set it, and a
    zoomed map keeps its enlarged size in a frame the board scrolls to pan (opening on the
    map's `data-focus` when it is drawn in parts, see board.js). The drawing gets `zoom` among
    its drawing options."""

    zooms: ClassVar[tuple[float, ...]] = (1.0, 1.5, 2.0, 3.0)
    explorable_map = t.Bool(True).tag(sync=True)
    zoom = t.Float(1.0).tag(sync=False)

    def drawing_options(self) -> dict[str, Any]:
        return {"zoom": self.zoom}

    def set_zoom(self, zoom: float) -> None:
        """Enlarge the map (1 fits every hex in its frame; up to the last zoom: the board then
        scrolls to pan). Python redraws it."""
        if type(zoom) not in (int, float) or zoom not in self.zooms:
            raise ValueError(f"zoom must be one of {', '.join(map(str, self.zooms))}, not "
                             f"{zoom!r:.40}")
        self.zoom = float(zoom)
        self._publish()

    def view_control_specs(self) -> list[dict[str, Any]]:
        return [{"name": "zoom", "label": "Map zoom", "value": self.zoom,
                 "options": [[z, "fit" if z == 1 else f"{z * 100:g}%"] for z in self.zooms]}]

    def set_view_option(self, name: str, value: Any) -> None:
        if name == "zoom":
            self.set_zoom(value)


# Boards whose front end holds an older whole drawing than board.svg (patches came since).
_boards_with_patches: weakref.WeakSet[Board] = weakref.WeakSet()
_cell_hook_registered = False


def _send_whole_drawings_after_a_cell(*_: Any) -> None:
    """After each cell, a board changed by patches sends its whole drawing once, so the widget
    state saved with a notebook (nbconvert, nbclient) holds the current drawing, not an old one
    that only patches the saver ignores could bring up to date."""
    for board in list(_boards_with_patches):
        if board._svg_sent != board.svg_revision:
            board._send_whole_drawing()
    _boards_with_patches.clear()


def _register_cell_hook() -> None:
    global _cell_hook_registered
    if _cell_hook_registered:
        return
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - ipywidgets needs IPython
        return
    shell = get_ipython()
    if shell is not None:
        shell.events.register("post_run_cell", _send_whole_drawings_after_a_cell)
        _cell_hook_registered = True


def game_board_class(game: str) -> type[Board]:
    """The board class registered for `game`, else the generic Board."""
    return board_class(game) or Board
