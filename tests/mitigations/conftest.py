"""Fixtures of the mitigation tests: the planted-cue benchmark, a helper scoring a method, and the
toy mitigation registered."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.loading import LABEL
from shortcutlab.data.pairs import model_inputs
from shortcutlab.mitigations import make_mitigation
from shortcutlab.mitigations.context import mitigation_context
from tests.mitigations.synthetic import cue_benchmark
from tests.mitigations.toy_mitigation import registered

#: A unigram TF-IDF model: fast, and it leans on the planted cue.
TFIDF = {"ngram_range": (1, 1)}


@pytest.fixture(autouse=True)
def toy_mitigation() -> Iterator[str]:
    """The toy mitigation (tests/mitigations/toy_mitigation.py) registered while each mitigation
    test runs, so the tests parametrised over the registry run on it too; no other test sees it."""
    with registered() as name:
        yield name


@pytest.fixture(scope="session")
def cue_bench() -> Benchmark:
    return cue_benchmark()


def accuracies(
    benchmark: Benchmark,
    method: str,
    params: Mapping[str, Any] | None = None,
    *,
    model: str = "tfidf-logreg",
    model_params: Mapping[str, Any] = TFIDF,
    seed: int = 0,
) -> dict[str, float]:
    """Test and anti-test accuracy of ``method`` fitted on ``benchmark``."""
    mitigation = make_mitigation(method, params)
    context = mitigation_context(benchmark, mitigation, model=model, params=model_params, seed=seed)
    predictor = mitigation.fit(context)
    scores = {}
    for split in ("test", "anti_test"):
        frame = benchmark[split]
        predicted = predictor.predict_proba(model_inputs(frame)).argmax(axis=1)
        truth = benchmark.labels.ranks(frame[LABEL], where=split)
        scores[split] = float(np.mean(predicted == truth))
    predictor.close()
    return scores


@pytest.fixture(scope="session")
def erm_scores(cue_bench: Benchmark) -> dict[str, float]:
    return accuracies(cue_bench, "erm")
