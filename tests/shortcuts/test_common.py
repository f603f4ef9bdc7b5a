"""Common tests run over every registered shortcut (scikit-learn test_common style)."""

import numpy as np
import pytest

from shortcutlab.data import LabelSpace, load_table
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.distractors import distractors_from_columns
from shortcutlab.shortcuts import SHORTCUT_FAMILIES, SHORTCUTS, SplitPlan, make_shortcut
from shortcutlab.shortcuts.base import UNDECIDABLE, check_observed, rates_by_label


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
    "tautology": lambda d: make_shortcut("tautology"),
}


def test_every_registered_shortcut_has_a_factory():
    assert set(FACTORIES) == set(SHORTCUTS)


def _inject(shortcut, table, strength, seed=0, anti=False):
    labels = LabelSpace((1, 2, 3, 4, 5))
    frame = table.frame
    plan = SplitPlan(
        ranks=labels.ranks(frame["label"]),
        labels=labels,
        strength=strength,
        anti=anti,
        row_ids=frame["row_id"].to_numpy(),
    )
    texts = shortcut.clean(frame["text"].tolist()).texts  # the builder cleans first, too
    shortcut.prepare(table.with_texts(texts), role="train")
    return plan, shortcut.inject(texts, plan, np.random.SeedSequence(seed))


def _observed(shortcut, plan, injection):
    """Per-label share of output texts that hold the side-A cue, read from the texts."""
    observed = shortcut.observe(injection.texts, plan)
    decided = observed != UNDECIDABLE
    assert decided.mean() > 0.3  # concept-correlation: a review text can carry several ratings
    check_observed(
        observed,
        shortcut.recorded_cue(injection.shortcut, plan),
        np.arange(len(observed)),
        shortcut=shortcut.name,
        split="train",
    )
    return rates_by_label(observed > 0, plan.ranks, len(plan.labels), decided)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_same_seed_same_output_and_another_seed_differs(setting, name):
    train, _, distractors = setting
    shortcut = FACTORIES[name](distractors)
    _, first = _inject(shortcut, train, 0.8, seed=1)
    _, again = _inject(shortcut, train, 0.8, seed=1)
    _, other = _inject(shortcut, train, 0.8, seed=2)
    assert first.texts == again.texts and first.shortcut == again.shortcut
    assert first.texts != other.texts
    assert len(first.texts) == len(first.shortcut) == len(train.frame)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_strength_one_makes_the_cue_perfectly_predictive(setting, name):
    train, _, distractors = setting
    shortcut = FACTORIES[name](distractors)
    plan, injection = _inject(shortcut, train, 1.0)
    observed = _observed(shortcut, plan, injection)
    counts = np.bincount(plan.ranks)
    assert np.all(np.abs(observed - injection.target_rate) <= 1 / counts + 1e-12)
    if name == "concept-correlation":
        assert np.allclose(observed, 1.0)
    else:
        assert observed[0] == 0.0 and observed[-1] == 1.0
        anti_plan, anti = _inject(shortcut, train, 1.0, anti=True)
        anti_observed = _observed(shortcut, anti_plan, anti)
        assert anti_observed[0] == 1.0 and anti_observed[-1] == 0.0


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_strength_zero_makes_the_cue_not_predictive(setting, name):
    train, _, distractors = setting
    shortcut = FACTORIES[name](distractors)
    plan, injection = _inject(shortcut, train, 0.0)
    assert np.ptp(injection.target_rate) == 0
    n = len(train.frame) / 5
    tolerance = 4 * np.sqrt(0.25 / n)  # correlation draws random ratings: binomial noise remains
    assert np.ptp(_observed(shortcut, plan, injection)) <= 2 * tolerance


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
    spans = ["cue_spans"] if bench["train"].shape[1] == 5 else []
    assert list(bench["train"].columns) == ["row_id", "text", "label", "shortcut", *spans]
    # Only whole-text rewrites record no span: every other cue is inserted text.
    assert bool(spans) == SHORTCUTS.capabilities(name)["inserts_cue"]


@pytest.mark.parametrize("name", SHORTCUTS.names())
def test_the_family_on_each_registry_line_is_true_of_the_shortcut(name):
    """Concept shortcuts add reviews drawn from distractors (and are the only ones taking them);
    style shortcuts rewrite whole texts, so no span holds their cue."""
    family = SHORTCUTS.capabilities(name)["family"]
    assert family in SHORTCUT_FAMILIES
    assert ("distractors" in SHORTCUTS.parameters(name)) == (family == "concept")
    if family == "style":
        assert not SHORTCUTS.capabilities(name)["inserts_cue"]


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_inserted_cues_say_where_they_are(setting, name):
    train, _, distractors = setting
    shortcut = FACTORIES[name](distractors)
    plan, injection = _inject(shortcut, train, strength=0.8)
    if not SHORTCUTS.capabilities(name)["inserts_cue"]:
        assert injection.cue_spans is None
        return
    assert len(injection.cue_spans) == len(injection.texts)
    for text, spans in zip(injection.texts, injection.cue_spans, strict=True):
        for start, end in spans:
            assert 0 <= start < end <= len(text) and text[start:end].strip()
