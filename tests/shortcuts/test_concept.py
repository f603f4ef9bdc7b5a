import re

import numpy as np
import pytest

from shortcutlab.data import LabelSpace
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.shortcuts import SplitPlan, make_shortcut
from shortcutlab.shortcuts.base import UNDECIDABLE, rates_by_label
from shortcutlab.shortcuts.concept import Distractor, DistractorPool

LABELS = LabelSpace((0.4, 0.6, 0.8, 1.0))


def _aspect(name, role_tag=""):
    texts = tuple(f"{name}{role_tag} rated {r}." for r in LABELS.values for _ in range(5))
    labels = tuple(r for r in LABELS.values for _ in range(5))
    return DistractorPool(texts, labels, source=f"{name}{role_tag}")


DISTRACTORS = {
    name: Distractor(name, _aspect(name), _aspect(name, " test"))
    for name in ("aroma", "appearance")
}
RANKS = np.repeat(np.arange(4), 50)
TEXTS = [f"Palate review {i}." for i in range(200)]


def test_concept_occurrence_prepends_aspect_reviews_by_schedule():
    shortcut = make_shortcut("concept-occurrence", {"distractors": DISTRACTORS})
    plan = SplitPlan(ranks=RANKS, labels=LABELS, strength=1.0, role="test")
    injection = shortcut.inject(TEXTS, plan, np.random.SeedSequence(0))
    for text, original, aspect in zip(injection.texts, TEXTS, injection.shortcut, strict=True):
        assert text.startswith(f"{aspect} test rated") and text.endswith(original)
    aroma = np.asarray([t.startswith("aroma test rated") for t in injection.texts])
    assert rates_by_label(aroma, RANKS, 4).tolist() == pytest.approx([0, 1 / 3, 2 / 3, 1], abs=0.02)
    assert shortcut.observe(injection.texts, plan).tolist() == aroma.astype(int).tolist()


def test_concept_correlation_pairs_ratings_and_anti_test_shifts_by_half():
    shortcut = make_shortcut("concept-correlation", {"distractors": DISTRACTORS, "aspect": "aroma"})
    normal = shortcut.inject(
        TEXTS, SplitPlan(ranks=RANKS, labels=LABELS, strength=1.0), np.random.SeedSequence(0)
    )
    anti = shortcut.inject(
        TEXTS,
        SplitPlan(ranks=RANKS, labels=LABELS, strength=1.0, anti=True),
        np.random.SeedSequence(0),
    )
    mapping = {}
    for rank, n_value, a_value, text in zip(
        RANKS, normal.shortcut, anti.shortcut, anti.texts, strict=True
    ):
        assert n_value == f"aroma:{LABELS.values[rank]}"
        mapping[LABELS.values[rank]] = float(a_value.split(":")[1])
        assert text.startswith(f"aroma rated {a_value.split(':')[1]}.")
    # The paper's anti-test pairs: 0.4->0.8, 0.6->1.0, 0.8->0.4, 1.0->0.6.
    assert mapping == {0.4: 0.8, 0.6: 1.0, 0.8: 0.4, 1.0: 0.6}
    ratings = [float(re.match(r"aroma rated ([\d.]+)\.", t).group(1)) for t in normal.texts]
    assert ratings == [LABELS.values[r] for r in RANKS]  # read from the texts: all follow the label
    for injection, anti_test in ((normal, False), (anti, True)):
        plan = SplitPlan(ranks=RANKS, labels=LABELS, strength=1.0, anti=anti_test)
        assert shortcut.observe(injection.texts, plan).tolist() == [1] * len(TEXTS)


def test_concept_correlation_target_rate_accounts_for_random_matches():
    shortcut = make_shortcut("concept-correlation", {"distractors": DISTRACTORS})
    injection = shortcut.inject(
        TEXTS * 20,
        SplitPlan(ranks=np.tile(RANKS, 20), labels=LABELS, strength=0.6),
        np.random.SeedSequence(1),
    )
    assert np.allclose(injection.target_rate, 0.6 + 0.4 / 4)
    ratings = np.asarray([float(t.split(" rated ")[1].split(". ")[0]) for t in injection.texts])
    follows = ratings == np.asarray(LABELS.values)[np.tile(RANKS, 20)]
    assert np.allclose(
        rates_by_label(follows, np.tile(RANKS, 20), 4), 0.7, atol=4 * np.sqrt(0.21 / 1000)
    )


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        ({"strength_mode": "scale"}, "strength_mode 'scale' cannot apply"),
        ({"schedule": (0, 0, 1, 1)}, "a custom schedule cannot apply"),
    ],
)
def test_concept_correlation_refuses_schedule_options_it_cannot_honour(options, refused):
    shortcut = make_shortcut("concept-correlation", {"distractors": DISTRACTORS})
    plan = SplitPlan(ranks=RANKS, labels=LABELS, strength=0.8, **options)
    with pytest.raises(ConfigError, match=f"no per-label schedule, so {refused}"):
        shortcut.inject(TEXTS, plan, np.random.SeedSequence(0))


def test_missing_or_bad_distractors():
    with pytest.raises(
        DataError,
        match=r"needs distractor reviews for two aspects.*Give them with distractors=\.\.\.,",
    ):
        make_shortcut("concept-occurrence").validate(LABELS)
    with pytest.raises(DataError, match="needs distractor reviews for one aspect"):
        make_shortcut("concept-correlation").validate(LABELS)
    with pytest.raises(ConfigError, match="names palate, which have no distractor reviews"):
        make_shortcut(
            "concept-occurrence", {"distractors": DISTRACTORS, "aspects": ["aroma", "palate"]}
        ).validate(LABELS)
    sparse = {
        "aroma": Distractor(
            "aroma",
            DistractorPool(("only good",), (1.0,), "f"),
            DistractorPool(("only good",), (1.0,), "f"),
        )
    }
    with pytest.raises(DataError, match="has no review rated 0.4, 0.6, 0.8"):
        make_shortcut("concept-correlation", {"distractors": sparse}).validate(LABELS)


def test_observe_cannot_tell_a_review_that_both_pools_or_both_ratings_hold():
    shared = Distractor("a", DistractorPool(("Same.",) * 4, LABELS.values, "a"), _aspect("a"))
    other = Distractor("b", DistractorPool(("Same.", "Other."), (0.4, 0.4), "b"), _aspect("b"))
    occurrence = make_shortcut("concept-occurrence", {"distractors": {"a": shared, "b": other}})
    plan = SplitPlan(ranks=np.array([0, 0]), labels=LABELS, strength=1.0)
    observed = occurrence.observe(["Same. Palate.", "Other. Palate."], plan)
    assert observed.tolist() == [UNDECIDABLE, 0]
    correlation = make_shortcut("concept-correlation", {"distractors": {"a": shared}})
    assert correlation.observe(["Same. Palate.", "Palate."], plan).tolist() == [UNDECIDABLE, 0]
