"""A family is named, never guessed: an object or stored spec naming no registered family is
refused in one line; only a spec without the ``family`` key is Maze's, as grid-spec.md says."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import yaml

from shortcutlab.errors import ConfigError, DataError, UnknownComponentError
from shortcutlab.families import DEFAULT_FAMILY, family_of, parse_spec, stored_family
from tests.cli.refusals import TINY_GRID

KNOWN = "audit, cat, maze, mps, robustness and 1 more"


def test_the_documented_default_is_maze_for_a_spec_without_the_key():
    assert DEFAULT_FAMILY == "maze"
    assert stored_family({"name": "old run"}) == "maze"
    raw = yaml.safe_load(TINY_GRID)
    assert "family" not in raw and family_of(parse_spec(raw)).name == "maze"


@pytest.mark.parametrize("value", [None, "", "mazz", 3])
def test_a_stored_spec_naming_no_registered_family_is_refused(value):
    with pytest.raises(DataError) as refused:
        stored_family({"family": value})
    assert str(refused.value) == (
        f"The run's stored spec names the family {value!r}, which is not one of {KNOWN} (a spec "
        "without the key is Maze's). Restore the spec.json the run wrote."
    )


def test_an_object_without_a_family_is_refused_not_taken_for_maze():
    with pytest.raises(ConfigError) as refused:
        family_of(SimpleNamespace(name="grid"))
    assert str(refused.value) == (
        f"SimpleNamespace objects name no family: they have no 'family' attribute naming one of "
        f"{KNOWN}. Pass a spec or results object that shortcutlab made."
    )
    with pytest.raises(UnknownComponentError, match="Unknown family 'mazz'. Did you mean 'maze'?"):
        family_of(SimpleNamespace(family="mazz"))
    assert family_of(SimpleNamespace(family="mps")).name == "mps"
