"""The task kind registry: every kind answers to its registered name, and an unknown name is
refused with the registry's message."""

from __future__ import annotations

import pytest

from shortcutlab.annotate.kinds import TaskKind
from shortcutlab.annotate.tasks import TASK_KINDS, task_kind
from shortcutlab.errors import UnknownComponentError


@pytest.mark.parametrize("name", TASK_KINDS.names())
def test_each_kind_is_a_task_kind_that_carries_its_registered_name(name: str) -> None:
    kind = task_kind(name)
    assert isinstance(kind, TaskKind)
    assert kind.name == name
    assert kind.description


def test_an_unknown_kind_names_the_close_match_and_every_kind() -> None:
    with pytest.raises(UnknownComponentError) as refused:
        task_kind("verify-atribute")
    assert refused.value.args[0] == (
        "Unknown task kind 'verify-atribute'. Did you mean 'verify-attribute' or "
        "'verify-counterfactual'? Known task kinds: label, rewrite-quality, shortcut-or-signal, "
        "verify-attribute, verify-counterfactual."
    )
