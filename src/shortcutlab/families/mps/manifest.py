"""The manifest of an MPS build: what was kept, excluded, tied and drawn, and the label entropy
per attribute value of every split (paper 002, Table 11)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from shortcutlab.attributes import Annotation, Attribute
from shortcutlab.data.labels import LabelSpace
from shortcutlab.families.mps import FAMILY
from shortcutlab.families.mps.measurable import measurability
from shortcutlab.families.mps.plan import Redistribution
from shortcutlab.families.mps.redistribute import normalised_entropy
from shortcutlab.families.mps.rows import GroupedTable
from shortcutlab.provenance import environment, tool_record


def mps_manifest(
    *,
    arguments: dict[str, Any],
    labels: LabelSpace,
    attribute: Attribute,
    column: str,
    kept: Sequence[str],
    share: Fraction,
    plan: Redistribution,
    plans: Mapping[str, np.ndarray],
    held_per_label: Mapping[str, int],
    annotations: Mapping[str, Annotation],
    annotation_counts: Mapping[str, dict[str, int]],
    excluded: dict[str, Any],
    inputs: dict[str, Any],
) -> dict[str, Any]:
    label_names = labels.to_json()
    split_counts = {name: label_counts(counts, kept, labels) for name, counts in plans.items()}
    record = measurability(split_counts)
    return {
        "tool": tool_record(),
        "kind": FAMILY.manifest_kind,
        "family": "mps",
        "arguments": arguments,
        "seed": arguments["seed"],
        "labels": label_names,
        "attribute": attribute.config(),
        "column": column,
        "values": list(kept),
        "dominance": float(share),
        "dominant": {
            value: [label_names[r] for r in plan.sets[s]]
            for value, s in zip(kept, plan.assigned, strict=True)
        },
        "sizes": {
            **{name: int(counts.sum()) for name, counts in plans.items()},
            **{f"{name}_per_label": n for name, n in held_per_label.items()},
            "per_value": dict(zip(kept, plan.sizes.tolist(), strict=True)),
            "largest_per_value": dict(zip(kept, plan.maxima.tolist(), strict=True)),
        },
        "annotation_counts": dict(annotation_counts),
        "annotation_details": {role: a.details for role, a in annotations.items()},
        "excluded": excluded,
        "label_entropy": {
            name: label_entropy(counts, kept, len(labels)) for name, counts in plans.items()
        },
        "environment": environment(),
        "inputs": {"train": inputs["train"], "test": inputs.get("test")},
        "splits": {
            name: {"rows": int(counts.sum()), "label_counts": split_counts[name]}
            for name, counts in plans.items()
        },
        # The figures this build cannot measure, and why (families/mps/measurable.py).
        "measurability": {key: value for key, value in record.items() if key != "not_measurable"},
        "not_measurable": record["not_measurable"],
        # Overall label shares per split: δ compares fits whose training label priors differ by
        # this much as well (label_mix="matched" makes Imbalanced's equal to uniform).
        "label_mix": {
            name: dict(
                zip(
                    label_names,
                    (counts.sum(axis=0) / max(counts.sum(), 1)).round(4).tolist(),
                    strict=True,
                )
            )
            for name, counts in plans.items()
        },
    }


def excluded_rows(
    grouped: Mapping[str, GroupedTable], held_keys: np.ndarray, held_from_pool: int
) -> dict[str, dict[str, int]]:
    """Rows kept out of the training pool (and, for a test table, out of its candidates), by
    reason: no attribute value, a value not kept, held out, or sharing a held-out text."""

    def reasons(source: GroupedTable) -> dict[str, int]:
        no_value = np.array([v is None for v in source.values.tolist()], dtype=bool)
        return {
            "no_value": int(no_value.sum()),
            "value_not_kept": int((~no_value & (source.groups < 0)).sum()),
        }

    pool = grouped["train"]
    shares_text = int(((pool.groups >= 0) & np.isin(pool.keys, held_keys)).sum())
    record = {
        "train": reasons(pool)
        | {"held_out": held_from_pool, "shares_text_with_held_out": shares_text - held_from_pool}
    }
    if "test" in grouped:
        test = grouped["test"]
        eligible = test.groups >= 0
        duplicates = eligible & ~test.first_of_each_text(eligible)
        record["test"] = reasons(test) | {"duplicate_text": int(duplicates.sum())}
    return record


def label_counts(
    counts: np.ndarray, kept: Sequence[str], labels: LabelSpace
) -> dict[str, dict[str, int]]:
    """``{value: {label: rows}}`` of one split."""
    names = [str(v) for v in labels.values]
    return {
        value: dict(zip(names, row, strict=True))
        for value, row in zip(kept, counts.tolist(), strict=True)
    }


def label_entropy(counts: np.ndarray, kept: Sequence[str], n_labels: int) -> dict[str, Any]:
    """Normalised label entropy per value and its unweighted mean over values (Table 11); a
    value with no rows in the split has none (null), and the mean leaves it out."""
    per_value = normalised_entropy(counts, n_labels)
    present = per_value[~np.isnan(per_value)]
    return {
        "per_value": {
            value: None if math.isnan(h) else round(float(h), 6)
            for value, h in zip(kept, per_value.tolist(), strict=True)
        },
        "mean": round(float(present.mean()), 6) if len(present) else None,
    }


def given_mapping(dominant: Mapping[str, Any] | None) -> dict[str, list[Any]] | None:
    """The user's ``dominant`` argument as JSON: every value with a list of labels."""
    if dominant is None:
        return None
    return {
        str(value): [
            x.item() if hasattr(x, "item") else x
            for x in (given if isinstance(given, list | tuple) else [given])
        ]
        for value, given in dominant.items()
    }
