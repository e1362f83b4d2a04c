"""The generic board widget. Python is the single source of truth.

The front end (board.js) sends intents such as {"intent": "play", "action": {...}}; this class
validates them against the match, applies them, and publishes the new snapshot through synced
traits. Several boards (and several views of one board) on the same match stay in step because
every change goes through the match, which notifies every board.
"""

from __future__ import annotations

import asyncio
import random
import weakref
from importlib import import_module, resources
from typing import Any, ClassVar

import anywidget
import traitlets as t

from ..core.bots import BOTS, Bot, make_bot
from ..core.match import Match
from ..errors import AloftnbError

_ASSETS = resources.files(__package__)
BASE_ESM = _ASSETS.joinpath("board.js").read_text("utf-8")
BASE_CSS = _ASSETS.joinpath("board.css").read_text("utf-8")


class SeatControl:
    """Who plays each seat of one match (a person or a bot), shared by every board of that match.

    Keeping this per match, not per board, means two boards never both play a bot's turn.
    """

    def __init__(self, match: Match) -> None:
        self._match_ref = weakref.ref(match)
        self.bots: dict[int, Bot] = {}
        self.autoplay = True
        self.delay = 0.4  # seconds a bot "thinks" on the board, so people can follow
        self.thinking = False
        self.boards: weakref.WeakSet[Board] = weakref.WeakSet()
        self._handle: asyncio.TimerHandle | None = None
        match.subscribe(self._on_change)

    @property
    def match(self) -> Match:
        return self._match_ref()

    def set_controller(self, seat: int, controller: str | Bot) -> None:
        match = self.match
        if isinstance(seat, bool) or seat not in range(match.players):
            raise AloftnbError(f"seat must be 0..{match.players - 1}, not {seat!r}")
        if controller == "human":
            self.bots.pop(seat, None)
        else:
            self.bots[seat] = make_bot(controller)
        self._refresh()
        self.schedule()

    def bot_to_move(self) -> Bot | None:
        seat = self.match.current_player
        return None if seat is None else self.bots.get(seat)

    def schedule(self) -> None:
        """Let the bot to move play after a short delay, if bots play by themselves."""
        if self._handle is not None or not self.autoplay or self.bot_to_move() is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop (plain Python, tests): call step() to play bot moves
        self.thinking = True
        self._refresh()
        self._handle = loop.call_later(self.delay, self._timer_fired)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self.thinking:
            self.thinking = False
            self._refresh()

    def _timer_fired(self) -> None:
        self._handle = None
        self.step()

    def step(self) -> bool:
        """Play one move for the bot whose turn it is. Returns whether a bot moved."""
        match, bot = self.match, self.bot_to_move()
        self.thinking = False
        if bot is None or match.is_over:
            self._refresh()
            return False
        seat = match.current_player
        rng = random.Random(match.seed * 1_000_003 + match.position)  # reproducible bot play
        try:
            action = bot.choose(match.rules, match.state, seat, rng)
            match.play(action)
        except Exception as exc:  # a broken bot must not break the board
            self.autoplay = False
            self._tell(f"the {bot.name} bot at seat {seat} failed and bots were paused: {exc}")
            self._refresh()
            return False
        return True

    def _on_change(self, match: Match, change: str) -> None:
        if self._handle is not None and self.bot_to_move() is None:
            self.cancel()
        self.schedule()

    def _refresh(self) -> None:
        for board in list(self.boards):
            board._publish()

    def _tell(self, text: str) -> None:
        for board in list(self.boards):
            board._say("error", text)


_controls: "weakref.WeakKeyDictionary[Match, SeatControl]" = weakref.WeakKeyDictionary()


def seat_control(match: Match) -> SeatControl:
    control = _controls.get(match)
    if control is None:
        control = _controls[match] = SeatControl(match)
    return control


class Board(anywidget.AnyWidget):
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
    svg = t.Unicode("").tag(sync=True)
    choices = t.List().tag(sync=True)
    selection_hint = t.Dict().tag(sync=True)
    status = t.Unicode("").tag(sync=True)
    # The whole log is synced when a view says hello; after that only log_delta (the entries
    # from the first one that changed) travels, so a long game does not resend its history.
    log = t.List().tag(sync=True)
    log_delta = t.Dict().tag(sync=True)
    position = t.Int(0).tag(sync=True)
    timeline_length = t.Int(0).tag(sync=True)
    recent = t.Dict().tag(sync=True)  # {"keys": data-keys, "from": step, "to": step} to highlight
    message = t.Dict().tag(sync=True)
    viewer = t.Unicode("turn").tag(sync=True)
    viewers = t.List().tag(sync=True)
    revealed = t.Bool(False).tag(sync=True)
    reveal_label = t.Unicode("").tag(sync=True)
    seats = t.List().tag(sync=True)
    bot_names = t.List().tag(sync=True)
    autoplay = t.Bool(True).tag(sync=True)
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

    def __new__(cls, match: Any = None, **kwargs: Any) -> "Board":
        # Board(match) gives the game's own board class, as match.board() does.
        if cls is Board and isinstance(match, Match):
            cls = game_board_class(match.game)
        return super().__new__(cls)

    def __init__(self, match: Match, *, viewer: str = "turn", bots: dict | None = None,
                 autoplay: bool | None = None, bot_delay: float | None = None) -> None:
        if not isinstance(match, Match):
            raise AloftnbError(f"a board shows a Match, not {type(match).__name__}")
        super().__init__()
        self.match = match
        self.control = seat_control(match)
        self.control.boards.add(self)
        self._messages = 0
        self._message_context: tuple | None = None
        self._played_by: dict[int, str] = dict(getattr(match, "played_by", None) or {})
        self._revealed_for: int | None = None
        self._set_viewer(viewer)
        if bot_delay is not None:
            self.control.delay = float(bot_delay)
        if autoplay is not None:
            self.control.autoplay = bool(autoplay)
        self._unsubscribe = match.subscribe(self._on_match_change)
        self.on_msg(self._on_front_end_message)
        for seat, controller in (bots or {}).items():
            self.control.set_controller(seat, controller)
        self._publish()
        self.control.schedule()

    # -- what the front end may ask --------------------------------------------------------------
    def _on_front_end_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        intent_id = content.get("id") if isinstance(content, dict) else None
        try:
            self.handle_intent(content)
        except AloftnbError as exc:
            self._say("error", f"refused: {exc}")
        except Exception as exc:  # junk from the front end must never break the board
            self._say("error", f"refused a malformed request ({type(exc).__name__}: {exc})")
        finally:
            self.send({"ack": intent_id})

    def handle_intent(self, content: Any) -> None:
        """Apply one intent from the front end. Raises an AloftnbError saying why it was refused."""
        if not isinstance(content, dict) or not isinstance(content.get("intent"), str):
            raise AloftnbError(f"not an intent: {content!r:.80}")
        intent = content["intent"]
        handler = getattr(self, f"_intent_{intent}", None)
        if handler is None:
            raise AloftnbError(f"unknown intent {intent!r}")
        handler(content)

    def _intent_hello(self, content: dict) -> None:
        self._publish()
        self.send_state("log")  # a new view (or one that missed a step) gets the whole log

    def _intent_goto(self, content: dict) -> None:
        """The timeline: jump to any step, as `match.goto` does from a cell."""
        position = content.get("position")
        if isinstance(position, bool) or not isinstance(position, int):
            raise AloftnbError(f"a goto intent needs a whole-number position, not {position!r}")
        self.control.cancel()
        if position < len(self.match.timeline) and self.control.bots and self.control.autoplay:
            # Bots would play from the replayed position and cut off the rest of the timeline.
            self.control.autoplay = False
            self._say("info", "bots paused while you replay; tick 'bots play by themselves' to "
                              "let them play on from here")
        self.match.goto(position)

    def _intent_play(self, content: dict) -> None:
        seat = self.match.current_player
        if seat is not None and seat in self.control.bots:
            raise AloftnbError(f"seat {seat} is played by the {self.control.bots[seat].name} bot")
        if not self._can_act(seat):
            raise AloftnbError(f"this view is seat {self.viewer[5:]}'s; it is seat {seat}'s turn")
        self.match.play(content.get("action"))

    def _intent_explain(self, content: dict) -> None:
        path = content.get("path")
        if not isinstance(path, list) or not all(isinstance(k, str) for k in path):
            raise AloftnbError("an explain intent needs a path of keys")
        seat = self.match.current_player
        if seat is not None and not self.match.is_over and not self._can_act(seat):
            # RULING-free board text: a one-seat view never plays another seat's turn.
            self._say("error", f"it is seat {seat}'s turn; this view shows seat "
                               f"{self.viewer[5:]} only (choose 'Hot seat' or 'Seat {seat} only' "
                               "in View to play it)")
            return
        if seat is not None and seat in self.control.bots and not self.match.is_over:
            self._say("error", f"it is seat {seat}'s turn, played by the "
                               f"{self.control.bots[seat].name} bot")
            return
        self._say("error", self.explain(path))

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
                stubs[path[0]] = {"path": path[:1], "label": path[0], "partial": True, "count": 1}
        return choices + list(stubs.values())

    def _intent_undo(self, content: dict) -> None:
        self.control.cancel()
        self.match.goto(self._undo_target())

    def _intent_redo(self, content: dict) -> None:
        if not self.match.can_redo:
            raise AloftnbError("nothing to redo")
        self.match.redo()

    def _intent_view(self, content: dict) -> None:
        self._set_viewer(content.get("viewer"))
        self._publish()

    def _intent_reveal(self, content: dict) -> None:
        self.revealed = bool(content.get("on"))
        self._revealed_for = self.match.current_player if self.revealed else None
        self._publish()

    def _intent_seat(self, content: dict) -> None:
        self.control.set_controller(content.get("seat"), content.get("controller"))

    def _intent_autoplay(self, content: dict) -> None:
        self.control.autoplay = bool(content.get("on"))
        if self.control.autoplay:
            self.control.schedule()
        else:
            self.control.cancel()
        self.control._refresh()

    def _intent_step(self, content: dict) -> None:
        self.control.cancel()
        if not self.control.step():
            raise AloftnbError("no bot is to move")

    # -- the same things from Python -----------------------------------------------------------
    def set_seat(self, seat: int, controller: str | Bot) -> None:
        """Give a seat to a bot ("random", a Bot instance) or back to a person ("human")."""
        self.control.set_controller(seat, controller)

    def step(self) -> bool:
        """Play one bot move now (boards outside a running kernel do not play bots by themselves)."""
        self.control.cancel()
        return self.control.step()

    def explain(self, path: list[str]) -> str:
        """Why clicking `path` plays nothing. Game boards refine it."""
        return "nothing can be played there now"

    # -- publishing ----------------------------------------------------------------------------
    def _on_match_change(self, match: Match, change: str) -> None:
        self._publish()

    def _set_viewer(self, viewer: Any) -> None:
        allowed = ["turn", "designer"] + [f"seat:{p}" for p in range(self.match.players)]
        if viewer not in allowed:
            raise AloftnbError(f"viewer must be one of {', '.join(allowed)}, not {viewer!r}")
        self.viewer = viewer

    def _viewing_seat(self) -> int | None | str:
        """The seat whose view is shown; "all" for the designer."""
        if self.viewer == "designer":
            return "all"
        if self.viewer.startswith("seat:"):
            return int(self.viewer[5:])
        seat = self.match.current_player
        return seat if (self.revealed and seat == self._revealed_for) else None

    def _can_act(self, seat: int | None) -> bool:
        return not self.viewer.startswith("seat:") or self.viewer == f"seat:{seat}"

    def _undo_target(self) -> int:
        """Step back past bot moves to the last position where a person was to play."""
        match = self.match
        if not match.can_undo:
            raise AloftnbError("nothing to undo")
        position = match.position - 1
        while position > 0:
            seat = match.rules.current_player(match.state_at(position))
            if seat is None or seat not in self.control.bots:
                break
            position -= 1
        return position

    def _say(self, kind: str, text: str) -> None:
        self._messages += 1
        self._message_context = self._context()
        self.message = {"kind": kind, "text": text, "n": self._messages}

    def _context(self) -> tuple:
        """What a message is about: once the position or the view changes, it is stale."""
        return (self.match.position, len(self.match.timeline), self.viewer, self.revealed)

    def recent_steps(self) -> tuple[int, int]:
        """The steps (from, to] since the seat this board shows last acted: what others did.

        The seat is the viewed one, or the one to move (hot seat and designer views). Its own
        latest moves are skipped, so during a turn of several actions the others' moves stay
        marked. After the game (or with no seat to move) the last step is marked.
        """
        match = self.match
        history = match.history
        end = len(history)
        seat = int(self.viewer[5:]) if self.viewer.startswith("seat:") else match.current_player
        if seat is None:
            return (max(0, end - 1), end)
        i = end
        while i > 0 and history[i - 1].kind == "action" and history[i - 1].seat == seat:
            i -= 1
        top = i
        while i > 0 and history[i - 1].kind == "action" and history[i - 1].seat != seat:
            i -= 1
        return (i, top)

    def view_dict(self) -> dict[str, Any]:
        rules, state = self.match.rules, self.match.state
        seat = self._viewing_seat()
        return rules.state_to_dict(state) if seat == "all" else rules.view(state, seat)

    def recent_keys(self, steps: range) -> list[str]:
        """The drawing's keys to mark for history steps `steps` (0-based). Games may refine it."""
        match, keys = self.match, []
        for i in steps:
            entry = match.history[i]
            if entry.kind == "action":
                before = match.state_at(i)
                keys.extend(k for k in match.rules.action_path(before, entry.action) if k not in keys)
        return keys

    def _publish_log(self) -> None:
        match = self.match
        entries = [{"text": str(entry), "seat": entry.seat} for entry in match.timeline]
        sent = self.log
        start = 0
        while start < min(len(sent), len(entries)) and sent[start] == entries[start]:
            start += 1
        if start == len(sent) == len(entries):
            return
        # Keep the whole log current for views that say hello, without syncing it each time
        # (traitlets' own store: no change event, so nothing is sent).
        self._trait_values["log"] = entries
        self.log_delta = {"start": start, "entries": entries[start:], "length": len(entries)}

    def _publish(self) -> None:
        match, rules = self.match, self.match.rules
        if self.message.get("text") and self._message_context != self._context():
            self._say("", "")  # the position or the view changed: the old message is stale
        seat = match.current_player
        if self._revealed_for is not None and seat != self._revealed_for:
            self.revealed, self._revealed_for = False, None  # a new player sits down: hide again
        bot = self.control.bots.get(seat) if seat is not None else None
        choices = []
        if seat is not None and bot is None and self._can_act(seat):
            choices = self._choices_to_send()
        view = self.view_dict()  # once per redraw: the drawing and the seat labels share it
        with self.hold_sync():
            self.title = rules.title
            self.svg = rules.render_svg(view, **self.drawing_options())
            self.choices = choices
            self.selection_hint = self.hints()
            self.status = self.status_text()
            self._publish_log()
            self.position = match.position
            self.timeline_length = len(match.timeline)
            start, end = self.recent_steps()
            self.recent = {"keys": self.recent_keys(range(start, end)), "from": start, "to": end}
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
            self.thinking = self.control.thinking
            self.bot_to_move = bot is not None
            self.can_undo = match.can_undo
            self.can_redo = match.can_redo
            self.over = match.is_over
            self.revision += 1

    # -- game boards refine these --------------------------------------------------------------
    def drawing_options(self) -> dict[str, Any]:
        return {}

    def hints(self) -> dict[str, str]:
        """Text shown when a first key is selected, e.g. {"balloon:RW": "now pick a truck"}."""
        return {}

    def choice_label(self, action: Any) -> str:
        """The text of a legal action in menus (games may add costs and such)."""
        return str(action)

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
        bot = self.control.bots.get(seat)
        who = f"seat {seat} ({bot.name} bot)" if bot else f"seat {seat}"
        return f"{who[0].upper()}{who[1:]} to play."

    def __repr__(self) -> str:  # stable, so notebook outputs compare
        players = self.match.players
        return f"{type(self).__name__}({self.match.game}, {players} player{'s' * (players != 1)})"

    def close(self) -> None:
        if hasattr(self, "control"):  # a board whose construction was refused has no match
            self._unsubscribe()
            self.control.boards.discard(self)
        super().close()


def game_board_class(game: str) -> type[Board]:
    """aloftnb.games.<game>.board:GameBoard when the game has one, else the generic Board."""
    module_name = f"aloftnb.games.{game}.board"
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return Board
    return getattr(module, "GameBoard", Board)
