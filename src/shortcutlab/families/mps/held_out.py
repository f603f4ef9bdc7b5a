"""The held-out sets of an MPS build: a label-balanced test set (A.5.1), from a test table or the
pool, and an optional validation set from the pool, one row per distinct text and no text shared
with each other or with the training sets."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shortcutlab.data.labels import LabelSpace
from shortcutlab.families.mps.plan import held_out_per_label
from shortcutlab.families.mps.rows import GroupedTable, draw_rows, label_balanced_plan, subset_rng


@dataclass
class HeldOut:
    """The label-balanced test and validation sets: per-cell counts, rows and their texts."""

    plans: dict[str, np.ndarray]
    rows: dict[str, np.ndarray]
    per_label: dict[str, int]
    keys: np.ndarray  # the normalised texts of every held-out row
    from_pool: int  # held-out rows drawn from the pool


def held_out_sets(
    pool: GroupedTable,
    test_file: GroupedTable | None,
    n_groups: int,
    labels: LabelSpace,
    test_size: float | None,
    validation_size: float,
    seed: int,
) -> HeldOut:
    """Draw the test set (from the test table, else the pool) and the optional validation set
    (from the pool): one row per distinct text, label-balanced (A.5.1), no text shared."""
    held = HeldOut({}, {}, {}, np.zeros(0, dtype=np.int64), 0)
    for name, parameter, size in (
        ("test", "test_size", test_size),
        ("validation", "validation_size", validation_size),
    ):
        source = test_file if name == "test" and test_file is not None else pool
        eligible = source.groups >= 0
        candidates = source.first_of_each_text(eligible & ~np.isin(source.keys, held.keys))
        cells = source.cell_counts(candidates, n_groups, len(labels))
        per_label = held_out_per_label(
            parameter,
            size,
            cells,
            int(eligible.sum()),
            labels,
            from_pool=source is pool,
            optional=name == "validation",
        )
        held.per_label[name] = per_label
        if not per_label:
            continue
        held.plans[name] = label_balanced_plan(per_label, cells)
        held.rows[name] = draw_rows(source, candidates, held.plans[name], subset_rng(seed, name))
        held.keys = np.concatenate([held.keys, source.keys[held.rows[name]]])
        held.from_pool += len(held.rows[name]) if source is pool else 0
    return held
