"""Fitting each repair of one candidate: the registered mitigations, given the candidate as the
group ((label, candidate present) on the training rows) or as the words to edit, and how each
changed the training rows.

What a method needs is read from its registry line (groups, held-out rows, pairs, torch, the
backends it trains) and its constructor (a ``candidate`` parameter: it edits the candidate's
words); what it does to the training rows, from the same line (``training_rows``: it edits,
weights or keeps some of them, or leaves them as they are). A method whose needs the data or the
model cannot meet is skipped with one line saying why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shortcutlab.errors import ShortcutlabError
from shortcutlab.families.audit.repair.targets import FixTarget
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.seeds import derived_seed
from shortcutlab.mitigations import (
    MITIGATIONS,
    Mitigation,
    MitigationContext,
    TrainingRows,
    make_mitigation,
)
from shortcutlab.mitigations.balancing import stratified_split
from shortcutlab.mitigations.registry import (
    GROUPS_HELD_OUT,
    GROUPS_NONE,
    GROUPS_TRAIN,
    ROWS_EDITS,
    ROWS_KEEPS,
    ROWS_WEIGHTS,
)
from shortcutlab.params import quoted

#: The group column's values: a row has the candidate or not.
WITH, WITHOUT = "with", "without"


@dataclass
class TrainingChange:
    """What a repair did to the training rows: the rows it trains on, and which of the original
    rows it edited, dropped or weighted, and how many it added."""

    rows: TrainingRows
    edited: np.ndarray | None = None  # bool per original row: its text changed
    added: int = 0
    kept: np.ndarray | None = None  # positions of the original rows kept (a subsample)
    weights: np.ndarray | None = None  # loss weight per original row

    def changed_share(self, n_rows: int) -> float:
        """Share of the original rows edited, dropped or reweighted, plus the rows added."""
        changed = 0
        if self.edited is not None:
            changed += int(self.edited.sum())
        if self.kept is not None:
            changed += n_rows - len(self.kept)
        if self.weights is not None:
            changed += int((~np.isclose(self.weights, 1.0)).sum())
        return (changed + self.added) / n_rows if n_rows else 0.0

    def summary(self, n_rows: int) -> str:
        parts = []
        if self.edited is not None:
            parts.append(f"{int(self.edited.sum())} of {n_rows} rows edited")
        if self.added:
            parts.append(f"{self.added} rows added")
        if self.kept is not None:
            parts.append(f"{n_rows - len(self.kept)} of {n_rows} rows dropped")
        if self.weights is not None:
            parts.append(
                f"loss weights {self.weights.min():.3g} to {self.weights.max():.3g} (mean 1)"
            )
        return "; ".join(parts) or "the rows unchanged"


@dataclass
class RepairFit:
    """One method's fit for one candidate: the predictor, or why it was skipped."""

    method: str
    params: dict[str, Any] = field(default_factory=dict)
    predictor: Any = None
    skipped: str | None = None
    change: TrainingChange | None = None
    trains_on: str = "the training rows"


def group_names(target: FixTarget, train: AuditInputs) -> np.ndarray:
    """``label|with`` or ``label|without`` per training row: the candidate as the group."""
    values = train.labels.values
    return np.array(
        [
            f"{values[rank]}|{WITH if fired else WITHOUT}"
            for rank, fired in zip(train.ranks.tolist(), target.train_fires.tolist(), strict=True)
        ]
    )


def fit_repair(
    method: str,
    target: FixTarget,
    train: AuditInputs,
    *,
    model: str,
    model_params: dict[str, Any],
    held_out: float,
    seed: int,
) -> RepairFit:
    """Fit ``method`` for ``target`` on ``train``, or say why it does not apply."""
    capabilities = MITIGATIONS.capabilities(method)
    params: dict[str, Any] = {}
    if "candidate" in MITIGATIONS.parameters(method):
        candidate = target.candidate
        if not candidate.editable:
            return RepairFit(
                method, skipped=f"edits words, and {candidate.name!r} ({candidate.kind}) has none"
            )
        params = {"candidate": candidate.phrase, "part": candidate.part}
    if capabilities["pairs"] and not train.paired:
        return RepairFit(method, params, skipped="needs paired data (text and text_pair)")
    try:
        mitigation = make_mitigation(method, params)
        mitigation.check_backend(model, model_params)
    except ShortcutlabError as exc:
        return RepairFit(method, params, skipped=str(exc))
    context, trains_on = repair_context(
        capabilities, target, train, model, model_params, held_out, seed
    )
    try:
        change = training_change(mitigation, context)
        predictor = mitigation.fit(context)
    except ShortcutlabError as exc:
        return RepairFit(method, params, skipped=str(exc), trains_on=trains_on)
    return RepairFit(method, params, predictor, None, change, trains_on)


def repair_context(
    capabilities: dict[str, Any],
    target: FixTarget,
    train: AuditInputs,
    model: str,
    model_params: dict[str, Any],
    held_out: float,
    seed: int,
) -> tuple[MitigationContext, str]:
    """The method's context: the training rows (less a seeded held-out share, stratified by
    group, for a method that refits on held-out rows) with the groups it may read."""
    names = group_names(target, train)
    ordered = tuple(sorted(set(names.tolist())))
    codes = np.searchsorted(np.array(ordered), names)
    rows = TrainingRows(train.model_inputs(), train.ranks)
    validation = None
    trains_on = "the training rows"
    needs = capabilities["groups"]
    if capabilities["held_out"] or needs == GROUPS_HELD_OUT:
        rng = np.random.default_rng(derived_seed(seed, "held-out rows"))
        held, kept = stratified_split(codes, held_out, rng)
        validation, rows = rows.take(held), rows.take(kept)
        if needs != GROUPS_NONE:
            validation.groups = codes[held]
        codes = codes[kept]
        trains_on = (
            f"{1 - held_out:.0%} of the training rows; the last layer refit on the other "
            f"{held_out:.0%} (seeded, stratified by group)"
        )
    if needs == GROUPS_TRAIN:
        rows.groups = codes
    context = MitigationContext(
        model=model,
        params=dict(model_params),
        seed=seed,
        n_classes=len(train.labels),
        label_values=tuple(train.labels.values),
        train=rows,
        validation=validation,
        group_names=ordered if needs != GROUPS_NONE else (),
        group_source="candidate" if needs != GROUPS_NONE else "",
    )
    return context, trains_on


def training_change(mitigation: Mitigation, context: MitigationContext) -> TrainingChange | None:
    """What ``mitigation`` does to ``context.train``, as its registry line declares it
    (``training_rows``); None for a method that changes how the model is trained (its loss, its
    last layer), not the rows."""
    train = context.train
    effect = mitigation.capabilities()["training_rows"]
    if effect == ROWS_EDITS:
        rows = mitigation.repaired(context)
        n = len(train)
        edited = np.array(
            [a != b for a, b in zip(rows.inputs[:n], train.inputs, strict=False)], dtype=bool
        )
        return TrainingChange(rows=rows, edited=edited, added=max(len(rows) - n, 0))
    if effect == ROWS_WEIGHTS:
        weights = np.asarray(mitigation.training_weights(context), dtype=np.float64)
        return TrainingChange(rows=train, weights=weights)
    if effect == ROWS_KEEPS:
        kept = np.asarray(mitigation.kept_rows(context), dtype=np.int64)
        return TrainingChange(rows=train.take(kept), kept=kept)
    return None


def describe_skip(method: str, reason: str) -> str:
    """One line: the method and why it was not run."""
    return f"{quoted(method)} skipped: {reason.splitlines()[0] if reason else 'no reason given'}"


__all__ = [
    "RepairFit",
    "TrainingChange",
    "describe_skip",
    "fit_repair",
    "group_names",
    "repair_context",
    "training_change",
]
