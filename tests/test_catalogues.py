"""The shared catalogue option (aloftnb/core/catalogues.py), apart from any game's reader."""

from __future__ import annotations

import json

import pytest

from aloftnb.core.catalogues import GameCatalogue
from aloftnb.errors import InvalidOptions

# Any package that ships data/catalogue.json will do; the reader just counts the top entries.
CATALOGUE = GameCatalogue("aloftnb.games.commodores", len)


def test_the_shipped_data_is_a_fresh_copy_every_call():
    first = CATALOGUE.shipped_data()
    first["goals"] = {}
    assert CATALOGUE.shipped_data()["goals"]


def test_configure_records_none_for_the_shipped_data_and_the_data_for_other_data(tmp_path):
    shipped = CATALOGUE.shipped_data()
    options = {"catalogue": shipped}
    count, data = CATALOGUE.configure(options)
    assert count == len(shipped) and data == shipped and options["catalogue"] is None
    edited = {**shipped, "version": 7}
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(edited), "utf-8")
    options = {"catalogue": str(path)}
    _, data = CATALOGUE.configure(options)
    assert options["catalogue"] == edited == data  # the file's contents, never its path
    options = {"catalogue": None}
    CATALOGUE.configure(options)
    assert options["catalogue"] is None


def test_saves_hold_a_copy_of_the_data():
    data = CATALOGUE.shipped_data()
    saved = CATALOGUE.options_for_save({"catalogue": None, "rounds": 3}, data)
    assert saved == {"catalogue": data, "rounds": 3} and saved["catalogue"] is not data


def test_the_option_is_declared_with_the_shipped_file_as_its_default():
    option = CATALOGUE.option("cards: a dict or a JSON file path")
    assert option.name == "catalogue" and option.default is None and option.from_file
    assert option.describe()["default_note"] == "data/catalogue.json, shipped with the game"


def test_anything_but_none_a_dict_or_a_path_is_refused_naming_the_option():
    with pytest.raises(InvalidOptions, match="^catalogue must be a dict or a file path"):
        CATALOGUE.load(3)
