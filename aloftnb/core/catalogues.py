"""A game's `catalogue` option: the data a designer edits (map, cards, numbers), shipped as
`data/catalogue.json` in the game's package and given as None (that file), a dict or the path
of a JSON file.

A game declares one `GameCatalogue` (its package and the function that checks the data and
builds its catalogue), declares the option with it and mixes `CatalogueRules` into its rules,
which loads the option when the rules are configured and records the data in saves:

    CATALOGUE = GameCatalogue(__package__, read_catalogue)     # in the game's catalogue.py

    class MyRules(CatalogueRules[Catalogue], Rules[MyState, MyAction]):
        game_catalogue = CATALOGUE
        option_spec = {..., "catalogue": CATALOGUE.option("ship types, goals: a dict or a path")}
        def configure(self):
            cat = self.load_catalogue()   # self.catalogue, and its plain self.catalogue_data
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from .options import Option, json_data_option, packaged_json

CatalogueT = TypeVar("CatalogueT")

NAME = "catalogue"  # the option's name, and the first word of every refusal of its data
SHIPPED_FILE = "data/catalogue.json"  # in the game's package


@dataclass(frozen=True)
class GameCatalogue(Generic[CatalogueT]):
    """The catalogue option of the game in `package`: `read` checks plain data and builds the
    game's catalogue, raising InvalidOptions that names the entry and field of a problem."""

    package: str
    read: Callable[[Any], CatalogueT]

    def shipped_data(self) -> dict[str, Any]:
        """The catalogue shipped with the game, as plain data (a fresh copy every call)."""
        data: dict[str, Any] = packaged_json(self.package, SHIPPED_FILE)
        return data

    def load(self, source: Any = None) -> tuple[CatalogueT, dict[str, Any]]:
        """(the checked catalogue, its plain data) from None (the shipped one), a dict or a
        path."""
        data: dict[str, Any] = json_data_option(NAME, source, self.package, SHIPPED_FILE)
        return self.read(data), data

    def option(self, description: str) -> Option:
        """The option's declaration: None (the default) stands for the shipped file."""
        return Option(NAME, None, description,
                      default_note=f"{SHIPPED_FILE}, shipped with the game", from_file=True)

    def configure(self, options: dict[str, Any]) -> tuple[CatalogueT, dict[str, Any]]:
        """(the catalogue, its plain data) of the option in `options`, which then holds what
        the match records: None for the shipped catalogue, else the data (never a path)."""
        source = options[NAME]
        catalogue, data = self.load(source)
        if source is not None:
            # A match keeps a file's contents or a dict's JSON copy, so its saves load without
            # the file; the shipped data given as a dict (every save holds it) is the shipped
            # catalogue.
            options[NAME] = None if data == self.shipped_data() else data
        return catalogue, data

    def options_for_save(self, options: dict[str, Any], data: dict[str, Any]
                         ) -> dict[str, Any]:
        """`options` as a save records them: with the catalogue's data even when it is the
        shipped one, so that tuning the shipped numbers later changes no saved game."""
        return {**copy.deepcopy(options), NAME: copy.deepcopy(data)}


class CatalogueRules(Generic[CatalogueT]):
    """What the rules of a game with a catalogue option share; mixed in before `Rules`, with
    `game_catalogue` set to the game's GameCatalogue."""

    game_catalogue: ClassVar[GameCatalogue[Any]]
    options: dict[str, Any]
    catalogue: CatalogueT
    catalogue_data: dict[str, Any]  # the catalogue's plain data

    def load_catalogue(self) -> CatalogueT:
        """Read the catalogue option (in `configure`): sets `catalogue` and `catalogue_data`, and
        the option to what the match records (GameCatalogue.configure)."""
        self.catalogue, self.catalogue_data = self.game_catalogue.configure(self.options)
        return self.catalogue

    def options_for_save(self) -> dict[str, Any]:
        """Saves hold the catalogue's data even when it is the shipped one, so that tuning the
        shipped numbers later changes no saved game."""
        return self.game_catalogue.options_for_save(self.options, self.catalogue_data)
