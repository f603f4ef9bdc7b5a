"""Common tests run over every registered shortcut (scikit-learn test_common style)."""

import numpy as np
import pytest

from shortcutlab.data import LabelSpace, load_table
from shortcutlab.shortcuts import SHORTCUTS, SplitPlan, make_shortcut
from shortcutlab.splits import build_maze_benchmark, distractors_from_columns


@pytest.fixture(scope="module")
def setting(corpus):
    train, test = load_table(corpus["train"], role="train"), load_table(corpus["test"], role="test")
    return train, test, distractors_from_columns(train, test)


FACTORIES = {
    "single-term": lambda d: make_shortcut("single-term"),
    "synonym": lambda d: make_shortcut("synonym"),
    "category": lambda d: make_shortcut("category"),
    "register": lambda d: make_shortcut("register"),
    "author": lambda d: make_shortcut("author"),
    "bible": lambda d: make_shortcut("bible"),
    "concept-occurrence": lambda d: make_shortcut("concept-occurrence", {"distractors": d}),
    "concept-correlation": lambda d: make_shortcut("concept-correlation", {"distractors": d}),
}


def test_every_registered_shortcut_has_a_factory():
    assert set(FACTORIES) == set(SHORTCUTS)


def _inject(shortcut, frame, strength, seed=0, anti=False):
    labels = LabelSpace((1, 2, 3, 4, 5))
    plan = SplitPlan(
        ranks=labels.ranks(frame["label"]), labels=labels, strength=strength, anti=anti
    )
    return plan, shortcut.inject(frame["text"].tolist(), plan, np.random.SeedSequence(seed))


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_same_seed_same_output_and_another_seed_differs(setting, name):
    train, _, distractors = setting
    shortcut = FACTORIES[name](distractors)
    _, first = _inject(shortcut, train.frame, 0.8, seed=1)
    _, again = _inject(shortcut, train.frame, 0.8, seed=1)
    _, other = _inject(shortcut, train.frame, 0.8, seed=2)
    assert first.texts == again.texts and first.shortcut == again.shortcut
    assert first.texts != other.texts
    assert len(first.texts) == len(first.shortcut) == len(train.frame)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_strength_one_makes_the_cue_perfectly_predictive(setting, name):
    train, _, distractors = setting
    plan, injection = _inject(FACTORIES[name](distractors), train.frame, 1.0)
    counts = np.bincount(plan.ranks)
    assert np.all(np.abs(injection.observed_rate - injection.target_rate) <= 1 / counts + 1e-12)
    if name == "concept-correlation":
        assert np.allclose(injection.observed_rate, 1.0)
    else:
        assert injection.observed_rate[0] == 0.0 and injection.observed_rate[-1] == 1.0
        _, anti = _inject(FACTORIES[name](distractors), train.frame, 1.0, anti=True)
        assert anti.observed_rate[0] == 1.0 and anti.observed_rate[-1] == 0.0


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_strength_zero_makes_the_cue_not_predictive(setting, name):
    train, _, distractors = setting
    _, injection = _inject(FACTORIES[name](distractors), train.frame, 0.0)
    assert np.ptp(injection.target_rate) == 0
    n = len(train.frame) / 5
    tolerance = 4 * np.sqrt(0.25 / n)  # correlation draws random ratings: binomial noise remains
    assert np.ptp(injection.observed_rate) <= 2 * tolerance


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_builder_keeps_labels_and_row_ids(setting, name):
    train, test, distractors = setting
    options = {"distractors": distractors} if name.startswith("concept") else {}
    bench = build_maze_benchmark(
        train, test, shortcut=name, shortcut_options=options, strength=0.8, val_size=50
    )
    for split in ("test", "anti_test", "original_test"):
        assert bench[split]["row_id"].tolist() == test.frame["row_id"].tolist()
        assert bench[split]["label"].tolist() == test.frame["label"].tolist()
    joined = sorted(bench["train"]["row_id"].tolist() + bench["validation"]["row_id"].tolist())
    assert joined == train.frame["row_id"].tolist()
    assert list(bench["train"].columns) == ["row_id", "text", "label", "shortcut"]
