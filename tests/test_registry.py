import pytest

from shortcutlab.errors import UnknownComponentError
from shortcutlab.registry import Registry


def test_lazy_entries_resolve_on_first_use_and_duplicates_are_refused():
    registry = Registry("thing")
    registry.add("json-loads", "json:loads")
    import json

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
