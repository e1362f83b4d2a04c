"""kit.tuples: the small tuple operations compiled engines call at every step."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from aloftnb.kit.tuples import new_record, with_item


class Point(NamedTuple):
    x: int
    y: int
    label: str


def test_with_item_replaces_one_item_and_leaves_the_original():
    values = (1, 2, 3)
    assert with_item(values, 1, 9) == (1, 9, 3)
    assert values == (1, 2, 3)


def test_new_record_is_the_records_own_constructor():
    made = new_record(Point, 1, 2, "a")
    assert type(made) is Point
    assert made == Point(1, 2, "a") and made.label == "a"
    assert made._replace(x=5) == Point(5, 2, "a")


def test_new_record_refuses_a_wrong_number_of_fields():
    with pytest.raises(AssertionError, match="Point"):
        new_record(Point, 1, 2)
