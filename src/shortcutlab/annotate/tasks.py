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
from shortcutlab.errors import UnknownComponentError
from shortcutlab.registry import close_matches

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
    """The registered task kind called ``name``, or an error naming a close match and all kinds."""
    if name not in TASK_KINDS:
        close = close_matches(name, sorted(TASK_KINDS), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise UnknownComponentError(
            f"Unknown task kind {name!r}.{hint} Known task kinds: {', '.join(sorted(TASK_KINDS))}."
        )
    return TASK_KINDS[name]


__all__ = ["TASK_KINDS", "task_kind"]
