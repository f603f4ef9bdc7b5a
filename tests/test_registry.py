import json

import pytest

from shortcutlab.errors import ConfigError, UnknownComponentError
from shortcutlab.models import MODELS
from shortcutlab.models.majority import MajorityClass
from shortcutlab.registry import Registry, user_entries
from tests.registration import registered_for


def test_lazy_entries_resolve_on_first_use_and_duplicates_are_refused():
    registry = Registry("thing")
    registry.add("json-loads", "json:loads")

    assert registry.get("json-loads") is json.loads
    with pytest.raises(ValueError, match="registered twice"):
        registry.add("json-loads", "json:dumps")


def test_unknown_name_lists_close_matches_and_all_names():
    registry = Registry("thing")
    for name in ("alpha", "alpine", "beta"):
        registry.add(name, name)
    with pytest.raises(UnknownComponentError) as info:
        registry.get("alpah")
    assert (
        str(info.value)
        == "Unknown thing 'alpah'. Did you mean 'alpha' or 'alpine'? Known things: alpha, alpine, beta."
    )
    assert isinstance(info.value, KeyError)


def test_matching_selects_by_capability_values_and_refuses_an_unknown_capability():
    paints = Registry("paint", capabilities={"glossy": False, "base": "oil"})
    paints.add("enamel", "shortcutlab.errors:ConfigError", glossy=True)
    paints.add("gouache", "shortcutlab.errors:DataError", base="water")
    paints.add("tempera", "shortcutlab.errors:DataError", base="egg")
    assert paints.matching({"base": frozenset({"oil", "water"})}) == ["enamel", "gouache"]
    assert paints.matching({"glossy": False, "base": "egg"}) == ["tempera"]
    assert paints.matching({}) == ["enamel", "gouache", "tempera"]
    with pytest.raises(ValueError, match="^A paint has no capability 'shiny'.$"):
        paints.matching({"shiny": True})


class _Base:
    """A base.

    Args:
        rate: Share kept,
            in (0, 1).
        seed: The base's words.

    Examples:
        >>> 1
        1
    """

    def __init__(self, rate: float = 0.5, seed: int = 0, other: int = 1) -> None: ...


class _Child(_Base):
    """A child that says its own word on ``seed``.

    Args:
        seed (int): The child's words.
    """


def test_option_help_reads_args_sections_along_the_mro():
    things = Registry("thing")
    things.add("child", _Child)
    assert things.option_help("child") == {
        "rate": "Share kept, in (0, 1).",  # the base's entry, wrapped lines joined
        "seed": "The child's words.",  # the subclass's own entry wins
        "other": "",  # described nowhere
    }


def test_registering_the_same_target_again_is_a_no_op():
    registry = Registry("thing", capabilities={"fast": False})
    registry.add("loads", "json:loads", fast=True)
    registry.add("loads", "json:loads", fast=True)  # a notebook re-running its cell
    assert registry.get("loads") is json.loads
    registry.add("loads", "json:loads", fast=True)  # after the import, too
    registry.add("loads", json.loads, fast=True)  # the object the path names
    assert registry.get("loads") is json.loads
    assert registry.capabilities("loads") == {"fast": True}
    assert registry.names() == ["loads"]


def _defined_in_a_cell(namespace: dict) -> type:
    """What a notebook cell's ``class Mine: ...`` makes each time it runs: a new class object
    with the same module and qualified name."""
    exec("class Mine:\n    pass\n", namespace)
    return namespace["Mine"]


def test_a_class_redefined_by_a_rerun_cell_replaces_its_entry():
    registry = Registry("model")
    cell = {"__name__": "__main__"}
    first = _defined_in_a_cell(cell)
    registry.add("mine", first)
    second = _defined_in_a_cell(cell)
    assert second is not first
    registry.add("mine", second)
    assert registry.get("mine") is second


def test_another_target_under_a_taken_name_is_refused_in_one_line():
    registry = Registry("model")
    registry.add("mine", "json:loads")
    with pytest.raises(ConfigError) as info:
        registry.add("mine", _defined_in_a_cell({"__name__": "__main__"}))
    assert str(info.value) == (
        "The model 'mine' is registered twice: as json:loads, then as __main__:Mine. "
        "Register the second under another name."
    )
    assert registry.get("mine") is json.loads


class _UserModel(MajorityClass):
    """A model a user's module defines."""


def test_only_the_entries_a_user_added_are_listed_for_workers():
    before = {(e.registry, e.name) for e in user_entries()}
    with registered_for(MODELS, "test-user-model", _UserModel):
        added = [e for e in user_entries() if (e.registry, e.name) not in before]
    assert [(e.registry, e.kind, e.name, e.entry) for e in added] == [
        ("shortcutlab.models.registry:MODELS", "model", "test-user-model", _UserModel)
    ]
    assert not {"tfidf-logreg", "majority"} & {e.name for e in user_entries()}
    assert "test-user-model" not in {e.name for e in user_entries()}  # removed with its line
