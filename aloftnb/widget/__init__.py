"""The board widget: one generic anywidget front end; each game draws itself and may subclass."""

from ..core.match import Match
from .board import Board, ZoomableBoard, game_board_class
from .seats import SeatControl, seat_control

__all__ = ["Board", "SeatControl", "ZoomableBoard", "board_for", "game_board_class",
           "seat_control"]


def board_for(match: Match, **kwargs) -> Board:
    """The board of the match's game (its own subclass when it has one)."""
    return game_board_class(match.game)(match, **kwargs)
