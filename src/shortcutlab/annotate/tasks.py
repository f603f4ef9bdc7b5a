"""The annotation task kinds by name: what ``shortcutlab annotate serve SOURCE --task KIND`` takes.

``TASK_KINDS`` registers each kind's class lazily; :func:`task_kind` gives an instance
(``task_kind("label").plan(source, ...)``, ``.check_answer(form, answer)``,
``.summarise(plan, answers)``). An unknown name answers with the close matches and every kind.

Examples:
    >>> TASK_KINDS.names()
    ['label', 'rewrite-quality', 'shortcut-or-signal', 'verify-attribute', 'verify-counterfactual']
    >>> task_kind("lable")
    Traceback (most recent call last):
    ...
    shortcutlab.errors.UnknownComponentError: Unknown task kind 'lable'. Did you mean 'label'? Known task kinds: label, rewrite-quality, shortcut-or-signal, verify-attribute, verify-counterfactual.
"""

from __future__ import annotations

from shortcutlab.annotate.kinds import TaskKind
from shortcutlab.registry import Registry

TASK_KINDS: Registry[type[TaskKind]] = Registry("task kind")
TASK_KINDS.add("label", "shortcutlab.annotate.label_task:LabelTask")
TASK_KINDS.add("verify-attribute", "shortcutlab.annotate.attribute_task:VerifyAttributeTask")
TASK_KINDS.add(
    "verify-counterfactual", "shortcutlab.annotate.counterfactual_task:VerifyCounterfactualTask"
)
TASK_KINDS.add("rewrite-quality", "shortcutlab.annotate.rewrite_task:RewriteQualityTask")
TASK_KINDS.add("shortcut-or-signal", "shortcutlab.annotate.triage_task:ShortcutOrSignalTask")


def task_kind(name: str) -> TaskKind:
    """The task kind called ``name``; an :class:`UnknownComponentError` names the close matches
    and every registered kind."""
    return TASK_KINDS.get(name)()


__all__ = ["TASK_KINDS", "task_kind"]
