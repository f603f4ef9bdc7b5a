"""split_by_group: every group on one side, sides near their share, the same split for the same
groups and seed whatever the row order."""

from __future__ import annotations

import re

import numpy as np
import pytest

from shortcutlab.data.group_split import split_by_group
from shortcutlab.errors import ConfigError, DataError


def _groups(rows: int = 300, seed: int = 0) -> list[str]:
    """Premise-like groups of one to five rows."""
    rng = np.random.default_rng(seed)
    return [f"premise {g}" for g in range(rows) for _ in range(int(rng.integers(1, 6)))][:rows]


def test_no_group_is_on_two_sides_and_each_side_is_near_its_share():
    groups = np.asarray(_groups())
    split = split_by_group(groups, test_size=0.3, dev_size=0.1, seed=3)
    sides = {side: set(groups[rows]) for side, rows in split.rows.items()}
    assert list(sides) == ["train", "dev", "test"]
    assert not sides["train"] & sides["test"] and not sides["train"] & sides["dev"]
    assert not sides["dev"] & sides["test"]
    assert sorted(np.concatenate(list(split.rows.values())).tolist()) == list(range(300))
    assert 90 <= len(split.rows["test"]) < 95 and 30 <= len(split.rows["dev"]) < 35  # + < 1 group
    assert split.groups == {side: len(values) for side, values in sides.items()}


def test_the_split_depends_on_the_groups_and_the_seed_not_on_the_row_order():
    groups = np.asarray(_groups())
    order = np.random.default_rng(1).permutation(len(groups))
    first = split_by_group(groups, test_size=0.3, seed=0)
    shuffled = split_by_group(groups[order], test_size=0.3, seed=0)
    assert set(groups[first.rows["test"]]) == set(groups[order][shuffled.rows["test"]])
    other_seed = split_by_group(groups, test_size=0.3, seed=1)
    assert set(groups[other_seed.rows["test"]]) != set(groups[first.rows["test"]])


@pytest.mark.parametrize(
    "groups, options, error, message",
    [
        (["a", "a"], {}, DataError, "Every row has the same value of the group column ('a')"),
        (["a", "b"], {"test_size": 1.0}, ConfigError, "test_size must be a fraction of the rows"),
        (["a", "b"], {"test_size": 0.0}, ConfigError, "strictly between 0 and 1"),
        (["a", "b"], {"test_size": 0.6, "dev_size": 0.4}, ConfigError, "leaves no training rows"),
        (
            ["a", "b"],
            {"test_size": 0.3, "dev_size": 0.3},
            DataError,
            "the train side would be empty",
        ),
        ([], {}, DataError, "There are no rows to split"),
    ],
)
def test_splits_that_cannot_keep_groups_apart_are_refused(groups, options, error, message):
    with pytest.raises(error, match=re.escape(message)):
        split_by_group(groups, **options)
