"""The metric registry: each entry's kernel agrees with the plain metric, and a metric added with one
registry line appears in every column family of ``shortcutlab results`` (then is removed again)."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from shortcutlab.engine.summary import apply_holm
from shortcutlab.metrics import (
    METRICS,
    Metric,
    accuracy,
    confusion,
    fit_metric_names,
    macro_f1,
    split_metric_names,
)
from shortcutlab.metrics.catalog import BOOTSTRAP, MCNEMAR
from shortcutlab.metrics.classification import accuracy_from_confusion
from tests.cli.refusals import invoke


def _labels(seed: int, rows: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(k, size=rows)
    return truth, np.where(rng.random(rows) < 0.7, truth, rng.integers(-1, k, size=rows))


def test_the_papers_metrics_are_registered_with_their_tests_and_titles():
    assert split_metric_names() == ["accuracy", "macro_f1"]
    assert fit_metric_names() == ["accuracy", "w_acc", "wga"]
    assert [METRICS.get(n).paired_test for n in split_metric_names()] == [MCNEMAR, BOOTSTRAP]
    assert {n: METRICS.get(n).short_title for n in fit_metric_names()} == {
        "accuracy": "ACC",
        "w_acc": "W-ACC",
        "wga": "WGA",
    }


@pytest.mark.parametrize("seed", range(5))
def test_a_kernel_on_one_confusion_matrix_is_the_metric_to_the_last_bit(seed):
    truth, predicted = _labels(seed, 300 + 97 * seed, 2 + seed)
    k = 2 + seed
    assert METRICS.get("accuracy").score(y_true=truth, y_pred=predicted, n_classes=k) == accuracy(
        y_true=truth, y_pred=predicted
    )
    assert METRICS.get("macro_f1").score(y_true=truth, y_pred=predicted, n_classes=k) == macro_f1(
        y_true=truth, y_pred=predicted, n_classes=k
    )
    matrix = confusion(y_true=truth, y_pred=predicted, n_classes=k)
    recalls = [
        np.mean(predicted[truth == label] == label) for label in range(k) if (truth == label).any()
    ]
    assert float(METRICS.get("w_acc").of_confusion(matrix)) == pytest.approx(min(recalls))


def test_a_metric_without_a_kernel_cannot_be_scored_from_labels():
    with pytest.raises(ValueError, match="not a function of the labels alone"):
        METRICS.get("wga").score(y_true=np.array([0]), y_pred=np.array([0]), n_classes=1)


@contextlib.contextmanager
def registered_error_rate() -> Iterator[str]:
    """A toy metric, lower is better, registered for the length of a ``with`` block."""
    METRICS.add(
        "error_rate",
        Metric("Error rate", lambda m: 1 - accuracy_from_confusion(m), higher_is_better=False),
    )
    try:
        yield "error_rate"
    finally:
        METRICS.remove("error_rate")


@pytest.fixture
def error_rate():
    with registered_error_rate() as name:
        yield name


def _grid(tmp_path: Path, name: str) -> Path:
    (tmp_path / f"{name}.yaml").write_text(
        f"name: {name}\ndata: {{train: corpus/train.csv, test: corpus/test.csv}}\n"
        "shortcuts: [single-term]\nstrengths: [0.9, 0.0]\nmodels: [{name: tfidf-logreg}]\n"
        "seeds: [0, 1]\nvary: data\nbootstrap: 200\n",
        encoding="utf-8",
    )
    ran = invoke("run", tmp_path / f"{name}.yaml", "--out", tmp_path / name)
    assert ran.exit_code == 0, ran.output
    return tmp_path / name


def _tidy(run: Path) -> pd.DataFrame:
    shown = invoke("results", run, "--format", "csv")
    assert shown.exit_code == 0, shown.output
    return pd.read_csv(io.StringIO(shown.stdout))


@pytest.mark.slow
def test_a_registered_toy_metric_appears_in_results(tmp_path):
    invoke("generate", "--out", tmp_path / "corpus", "--train-size", 400, "--test-size", 300)
    before = _grid(tmp_path, "before")  # run before the metric existed
    with registered_error_rate() as error_rate:
        groups = _tidy(_grid(tmp_path, "after"))
        for column in (
            "test_error_rate_mean",
            "anti_test_error_rate_std",
            "delta_error_rate_var",
            "delta_error_rate_ci_low",
            "p_error_rate_holm",
            "significant_error_rate",
        ):
            assert column in groups, column
        # Error = 1 − accuracy: its drop, interval and spread mirror accuracy's.
        assert groups["test_error_rate_mean"].tolist() == pytest.approx(
            (1 - groups["test_accuracy_mean"]).tolist()
        )
        assert groups["delta_error_rate_mean"].tolist() == pytest.approx(
            (-groups["delta_accuracy_mean"]).tolist()
        )
        assert groups["delta_error_rate_ci_low"].tolist() == pytest.approx(
            (-groups["delta_accuracy_ci_high"]).tolist(), abs=1e-9
        )
        # A drop of a lower-is-better metric is a rise: significant where Holm rejects and Δ < 0.
        assert (
            groups["significant_error_rate"].tolist()
            == (
                (groups["p_error_rate_holm"] < 0.05) & (groups["delta_error_rate_mean"] < 0)
            ).tolist()
        )
        # No exact paired test: its p comes from the bootstrap, not from McNemar as accuracy's.
        assert (groups["p_error_rate"] != groups["p_accuracy"]).all()
        # A run made before the metric was registered is scored from its stored predictions.
        rescored = _tidy(before)
        assert rescored.filter(like="error_rate").equals(groups.filter(like="error_rate"))
        table9 = invoke("results", tmp_path / "after", "--metric", error_rate, "--details")
        assert table9.exit_code == 0, table9.output
        assert "Table 9 style, error-rate" in table9.stdout
        assert "error rate p: a normal approximation on the bootstrap" in table9.stdout
    assert "error_rate" not in _tidy(before).columns.str.cat()


def test_a_drop_of_a_lower_is_better_metric_is_significant_when_it_rises(error_rate):
    groups = pd.DataFrame(
        {
            "strength": [1.0, 0.5],
            **{f"p_{m}": [0.001, 0.001] for m in split_metric_names()},
            **{f"delta_{m}_mean": [0.2, 0.2] for m in ("accuracy", "macro_f1")},
            "delta_error_rate_mean": [-0.2, 0.2],
        }
    )
    marked = apply_holm(groups)
    assert marked["significant_accuracy"].tolist() == [True, True]
    assert marked["significant_error_rate"].tolist() == [True, False]


def test_only_accuracy_may_take_the_exact_mcnemar_test():
    """McNemar compares per-row correctness: another metric with it would silently report
    accuracy's p-values."""
    from shortcutlab.metrics.catalog import MCNEMAR, Metric

    with pytest.raises(ValueError, match="paired test of accuracy only"):
        Metric("Error rate", lambda matrix: matrix, paired_test=MCNEMAR)
