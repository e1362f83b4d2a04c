"""The generic board widget. Python is the single source of truth.

The front end (board.js) sends intents such as {"intent": "play", "action": {...}}; the board
validates them against the match, applies them, and publishes the new snapshot through synced
traits. Several boards (and several views of one board) on the same match stay in step because
every change goes through the match, which notifies every board.

`Board` is written in parts, one concern a module, so a game board subclassing it still
overrides any of its methods:
- board.py (here): the synced traits, construction, publishing the snapshot and the drawing (as
  svgpatch edits), and the methods game boards refine (`status_text`, `explain`, `hints`...).
- intents.py: what the front end may ask (`handle_intent` and the `_intent_<name>` handlers).
- choices.py: the choices sent to a view that may play (legal actions, chance outcomes).
- viewer.py: what the viewer may see and read (its view, step texts, the log, news).
- seats.py: who plays each seat (`SeatControl`), and the threads bots think on.

JupyterLab delivers the front end's messages on a kernel subshell while a cell runs, so a board
may be asked something while a cell changes its match: a board reads and publishes its match
only under the match's lock (`Match.lock`), as every intent does, so it never shows half a change.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, ClassVar

import anywidget
import traitlets as t

from ..core.bots import BOTS, Bot
from ..core.chance import CHANCE
from ..core.match import Match
from ..core.options import number_problem
from ..core.registry import board_class
from ..errors import AloftnbError
from . import svgpatch
from .choices import Choices, shared_words
from .intents import FrontEndIntents
from .seats import WeakBoards, seat_control
from .viewer import ViewerTexts, check_viewer, clip

_ASSETS = resources.files(__package__)
BASE_ESM = _ASSETS.joinpath("board.js").read_text("utf-8")
BASE_CSS = _ASSETS.joinpath("board.css").read_text("utf-8")


class Board(FrontEndIntents, Choices, ViewerTexts, anywidget.AnyWidget):
    """An interactive board for a match: `aloftnb.Board(match)` or `match.board()`.

    viewer: "turn" (hot-seat: the player to move, secrets shown only on request), "designer"
    (everything), or "seat:N". bots: {seat: "random", ...}.
    """

    _esm = BASE_ESM
    _css = BASE_CSS
    game_css: ClassVar[str] = ""
    # What a chance step draws, in words (explain_generally): "a card or die".
    chance_draws: ClassVar[str] = "an outcome"

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
        with match.lock:  # no change comes between what the board reads and its subscription
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

    # -- the viewer (viewer.py words the game for it) ------------------------------------------
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

    def _set_viewer(self, viewer: Any) -> None:
        check_viewer(self.match, viewer)
        self.viewer = viewer

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

    def explain_generally(self, path: list[str]) -> str:
        """Why clicking `path` plays nothing whatever the game, or "" when only the game can
        say: the game is over, chance is drawing (`chance_draws`), or nothing was chosen. A game
        board's `explain` may start with it."""
        match = self.match
        if match.is_over:
            return "the game is over"
        if match.is_chance:
            return (f"{self.chance_draws} is being drawn: the designer view chooses it, or let "
                    "chance")
        if not path:
            return "nothing was chosen"
        return ""

    # -- publishing ----------------------------------------------------------------------------
    def notify_change(self, change: Any) -> None:
        # ipywidgets gathers the traits to send in one set per widget while it holds their sync:
        # a trait set on another thread meanwhile (a cell's `board.viewer = ...`) would change
        # that set as it is sent. Under the match's lock, changes to a board come one at a time.
        match = self.__dict__.get("match")
        if match is None:
            super().notify_change(change)
            return
        with match.lock:
            super().notify_change(change)

    def _on_match_change(self, match: Match, change: str) -> None:
        self._publish()

    def _say(self, kind: str, text: str) -> None:
        self._messages += 1
        self._message_context = self._context()
        self.message = {"kind": kind, "text": clip(text), "n": self._messages}

    def _context(self) -> tuple:
        """What a message is about: once the position or the view changes, it is stale."""
        return (self.match.position, len(self.match.timeline), self.viewer, self.revealed)

    def _publish(self) -> None:
        with self.match.lock:  # the snapshot of one moment, sent whole
            self._publish_now()

    def _publish_now(self) -> None:
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
            self.bot_names = ["bot", *sorted(BOTS)]  # "bot": the game's default bot
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

    # -- the drawing travels whole or as edits (svgpatch.py) -------------------------------------
    def _send_whole_drawing(self) -> None:
        with self.match.lock:
            self.send_state(["svg", "svg_revision"])
            self._svg_sent = self.svg_revision

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # A board shown again (a second cell) starts from the whole current drawing, not from
        # the last one that travelled whole.
        with self.match.lock:
            if self._svg_sent != self.svg_revision:
                self._send_whole_drawing()
            return super()._repr_mimebundle_(**kwargs)

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

    def seat_label(self, seat: int, view: dict[str, Any]) -> str:
        """How the seats list names `seat`; `view` is the state dict this board shows."""
        return f"Seat {seat}"

    def reveal_text(self) -> str:
        return ""

    def where_text(self) -> str:
        """The stage of the game the header and the news name ("Round 3, build phase"); a game
        whose board names its stages otherwise (Cloudspire's waves) overrides it."""
        match = self.match
        return f"Round {match.round}" + (f", {match.phase} phase" if len(match.rules.phases) > 1
                                         else "")

    def status_text(self) -> str:
        match = self.match
        if match.is_over:
            scores = ", ".join(f"seat {p}: {s}" for p, s in match.scores().items())
            won = ", ".join(f"seat {p}" for p in match.winners())
            return f"Game over. Scores {scores}. Winner: {won}."
        seat = match.current_player
        where = self.where_text()
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
            with self.match.lock:
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
_boards_with_patches = WeakBoards()
_cell_hook_registered = False


def _send_whole_drawings_after_a_cell(*_: Any) -> None:
    """After each cell, a board changed by patches sends its whole drawing once, so the widget
    state saved with a notebook (nbconvert, nbclient) holds the current drawing, not an old one
    that only patches the saver ignores could bring up to date."""
    for board in _boards_with_patches:
        with board.match.lock:  # a board's messages may be patching it on a subshell meanwhile
            _boards_with_patches.discard(board)
            if board._svg_sent != board.svg_revision:
                board._send_whole_drawing()


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
