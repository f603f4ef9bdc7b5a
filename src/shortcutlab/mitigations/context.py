"""Build a :class:`MitigationContext` from a benchmark: the training split, the held-out rows, and
the groups the method is allowed to read.

A method that reads no groups never gets them; one that reads held-out groups gets them on the
validation rows only; ``group_labels="validation"`` (labels only where a person annotated the
held-out rows) refuses methods that need them on training rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.loading import LABEL
from shortcutlab.data.pairs import model_inputs
from shortcutlab.errors import LISTED_NAMES, ConfigError, listed
from shortcutlab.mitigations.base import Mitigation, MitigationContext, TrainingRows
from shortcutlab.mitigations.fitting import missing_held_out
from shortcutlab.mitigations.groups import (
    AUTO,
    GROUP_LABELS,
    group_candidates,
    group_codes,
    resolve_group_column,
)
from shortcutlab.mitigations.registry import GROUPS_HELD_OUT, GROUPS_NONE, GROUPS_TRAIN
from shortcutlab.params import quoted
from shortcutlab.shortcuts import SHORTCUTS, make_shortcut

VALIDATION = "validation"


def check_group_settings(mitigation: Mitigation, group_labels: str) -> None:
    """Refuse a method needing training-row groups when groups exist on validation rows only."""
    if group_labels not in GROUP_LABELS:
        raise ConfigError(
            f"group_labels must be one of {', '.join(GROUP_LABELS)}. Got {quoted(group_labels)}."
        )
    if group_labels == VALIDATION and mitigation.capabilities()["groups"] == GROUPS_TRAIN:
        raise ConfigError(
            f"The {mitigation.name} mitigation needs group labels on the training rows, but "
            "group_labels is 'validation'. Use group_labels: train, or a method that needs "
            "held-out groups only (dfr) or none (jtt, afr, llr)."
        )


def mitigation_context(
    benchmark: Benchmark,
    mitigation: Mitigation,
    *,
    model: str,
    params: Mapping[str, Any],
    seed: int,
    train_split: str = "train",
    group_source: str = AUTO,
    group_labels: str = "train",
) -> MitigationContext:
    """The context of one fit of ``model`` under ``mitigation`` on ``benchmark[train_split]``."""
    check_group_settings(mitigation, group_labels)
    labels = benchmark.labels
    frames = {"train": benchmark[train_split]}
    if VALIDATION in benchmark.splits and len(benchmark[VALIDATION]):
        frames[VALIDATION] = benchmark[VALIDATION]
    rows = {
        name: TrainingRows(
            model_inputs(frame), labels.ranks(frame[LABEL], where=f"The {name} split")
        )
        for name, frame in frames.items()
    }
    names: tuple[str, ...] = ()
    column = ""
    needed = mitigation.capabilities()["groups"]
    if (
        needed == GROUPS_HELD_OUT or mitigation.capabilities()["held_out"]
    ) and VALIDATION not in frames:
        raise missing_held_out(mitigation.name)
    if needed != GROUPS_NONE:
        found = resolve_group_column(frames["train"], group_source)
        if found is None:
            raise ConfigError(
                f"The {mitigation.name} mitigation needs groups, but the data has no group column "
                "(a Maze build's 'shortcut' or an MPS build's 'group'). Name one with groups: COLUMN; "
                f"columns that would do: {listed(group_candidates(frames['train']), limit=LISTED_NAMES) or 'none'}."
            )
        column = found
        codes, names = group_codes(frames, column)
        for name, codes_of in codes.items():
            if name == "train" and needed == GROUPS_HELD_OUT:
                continue  # held-out methods never see the training rows' groups
            rows[name].groups = codes_of
    return MitigationContext(
        model=model,
        params=dict(params),
        seed=seed,
        n_classes=len(labels),
        label_values=tuple(labels.values),
        train=rows["train"],
        validation=rows.get(VALIDATION),
        group_names=names,
        group_source=column,
        cue_phrases=recorded_cue_phrases(benchmark),
    )


def recorded_cue_phrases(benchmark: Benchmark) -> tuple[str, ...]:
    """The phrases the benchmark's build inserted as its cue, from its manifest: a Maze build of
    a phrase shortcut (single-term, synonym) records them; () for any other benchmark.

    Examples:
        >>> from shortcutlab.data.labels import LabelSpace
        >>> arguments = {"shortcut": "single-term", "shortcut_options": {"term": "Frankly"}}
        >>> recorded_cue_phrases(Benchmark({}, LabelSpace((0, 1)), {"arguments": arguments}))
        ('frankly',)
    """
    arguments = benchmark.manifest.get("arguments", {})
    name = arguments.get("shortcut")
    options = arguments.get("shortcut_options") or {}
    if not isinstance(name, str) or name not in SHORTCUTS.names() or not isinstance(options, dict):
        return ()
    try:
        return make_shortcut(name, options).cue_phrases()
    except ConfigError:  # options this version no longer takes: the build records no usable cue
        return ()
