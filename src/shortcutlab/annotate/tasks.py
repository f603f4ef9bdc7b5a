"""The annotation task kinds by name: what ``shortcutlab annotate serve SOURCE --task KIND`` takes.

``TASK_KINDS[name]`` is the kind itself (an instance: ``TASK_KINDS["label"].plan(source, ...)``,
``.check_answer(form, answer)``, ``.summarise(plan, answers)``).
"""

from __future__ import annotations

from shortcutlab.annotate.attribute_task import VerifyAttributeTask
from shortcutlab.annotate.counterfactual_task import VerifyCounterfactualTask
from shortcutlab.annotate.kinds import TaskKind
from shortcutlab.annotate.label_task import LabelTask
from shortcutlab.annotate.rewrite_task import RewriteQualityTask
from shortcutlab.registry import check_choice

TASK_KINDS: dict[str, TaskKind] = {
    kind.name: kind
    for kind in (
        LabelTask(),
        VerifyAttributeTask(),
        VerifyCounterfactualTask(),
        RewriteQualityTask(),
    )
}


def task_kind(name: str) -> TaskKind:
    """The kind called ``name``; a ConfigError listing the kinds (and a close match) otherwise."""
    check_choice("task", name, list(TASK_KINDS))
    return TASK_KINDS[name]


__all__ = ["TASK_KINDS", "task_kind"]
