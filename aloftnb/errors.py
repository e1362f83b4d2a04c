"""Errors raised by aloftnb. Each subclasses ValueError: `except ValueError` catches bad input."""


class AloftnbError(ValueError):
    """Base class of every error aloftnb raises on bad input."""


class UnknownGame(AloftnbError):
    """No game is registered under that name."""


class InvalidGame(AloftnbError):
    """A game given to `register` whose parts cannot be loaded or do not declare what every game
    declares (a Rules subclass with traits, phases and options). Nothing was registered."""


class InvalidOptions(AloftnbError):
    """An unknown option, a bad option value, or an unsupported number of players."""


class IllegalAction(AloftnbError):
    """An action that is malformed or not legal in the current position. Nothing was changed."""


class InvalidState(AloftnbError):
    """A state (or state dict) that is malformed or breaks a rule invariant; the old state is kept.
    """


class InvalidSave(AloftnbError):
    """A save file that is malformed, from an unknown version, or tampered with."""


class InvalidRestriction(AloftnbError):
    """A restriction for restricted play that is malformed (a name that is not a text, a
    predicate that is not a function of the action or of the state and action) or that raised
    when asked about an action. The message names the restriction."""
