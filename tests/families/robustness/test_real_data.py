"""The issue's done-when on the shared Rotten Tomatoes sentences (skipped where they are absent):
through the CLI, tfidf-logreg gets every class's drop with an interval, and an added negation
raises the expected label's probability more often than chance; every figure equals a plain
computation (scipy and numpy only) on the same perturbed rows the build wrote."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from shortcutlab.models import make_model
from shortcutlab.perturb import perturbation_names
from tests.conftest import ROTTEN_TOMATOES

runner = CliRunner()
LABELS = ("negative", "positive")
# Lower-cased data: case-lower changes nothing, and the swaps need any_case. Negation is declared
# as CheckList declares it: a negated positive sentence is negative, a negative one whose
# negation is removed is positive (negating a negative one, "not bad", is not reliably positive).
OPTIONS = {
    "negation-add.expect": "{positive: negative}",
    "negation-remove.expect": "{negative: positive}",
    "names-swap.any_case": "true",
    "locations-swap.any_case": "true",
}
# word-swap-mlm needs a checkpoint on disk (tests/perturb/test_masked_lm.py runs it).
CLASSES = [
    n
    for n in perturbation_names()
    if not n.startswith("shortcut") and n not in ("case-lower", "word-swap-mlm")
]


@pytest.fixture(scope="module")
def rotten_tomatoes_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sentences split 80/20 (seeded), built with every class that applies to them."""
    path = ROTTEN_TOMATOES / "sentences.csv"
    if not path.is_file():
        pytest.skip(f"Rotten Tomatoes is not at {path}")
    folder = tmp_path_factory.mktemp("rotten-tomatoes")
    sentences = pd.read_csv(path)
    order = np.random.default_rng(0).permutation(len(sentences))
    cut = int(0.8 * len(sentences))
    sentences.iloc[order[:cut]].to_csv(folder / "train.csv", index=False)
    sentences.iloc[order[cut:]].to_csv(folder / "test.csv", index=False)
    args = ["build", "robustness", "--test", folder / "test.csv", "--train", folder / "train.csv"]
    args += ["--labels", ",".join(LABELS), "--seed", "0", "--out", folder / "bench"]
    for name in CLASSES:
        args += ["--perturbation", name]
    for key, value in OPTIONS.items():
        args += ["--perturbation-option", f"{key}={value}"]
    done = runner.invoke(app, [str(a) for a in args])
    assert done.exit_code == 0, done.output
    return folder


def _holm(p_values: list[float]) -> list[float]:
    order = np.argsort(p_values)
    adjusted, running = np.empty(len(p_values)), 0.0
    for step, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - step) * p_values[index]))
        adjusted[index] = running
    return adjusted.tolist()


def _plain(folder: Path) -> pd.DataFrame:
    """Each class's figures from a model fitted here, on the rows the build wrote."""
    bench = folder / "bench"
    train, test = pd.read_csv(bench / "train.csv"), pd.read_csv(bench / "test.csv")
    model = make_model("tfidf-logreg", seed=0)
    model.fit(
        train["text"].tolist(), (train["label"] == LABELS[1]).astype(int).to_numpy(), n_classes=2
    )
    rows = []
    for name in CLASSES:
        perturbed = pd.read_csv(bench / f"{name}.csv")
        source = test.set_index("row_id").loc[perturbed["row_id"]]
        before = np.asarray(model.predict_proba(source["text"].tolist()), np.float32)
        after = np.asarray(model.predict_proba(perturbed["text"].tolist()), np.float32)
        gold = (source["label"] == LABELS[1]).astype(int).to_numpy()
        target = (perturbed["label"] == LABELS[1]).astype(int).to_numpy()
        right_before, right_after = before.argmax(1) == gold, after.argmax(1) == target
        only_before = int((right_before & ~right_after).sum())
        only_after = int((right_after & ~right_before).sum())
        discordant = only_before + only_after
        row = {
            "perturbation": name,
            "rows": len(perturbed),
            "drop": right_before.mean() - right_after.mean(),
            "flip_rate": (before.argmax(1) != after.argmax(1)).mean(),
            "p_mcnemar": binomtest(min(only_before, only_after), discordant).pvalue
            if discordant
            else 1.0,
        }
        if (perturbed["label"].to_numpy() != source["label"].to_numpy()).any():  # DIR
            at = np.arange(len(target))
            gain = after[at, target].astype(float) - before[at, target].astype(float)
            up, changed = int((gain > 0).sum()), int((gain != 0).sum())
            row |= {
                "toward_expected": up / changed,
                "p_toward_expected": binomtest(up, changed).pvalue,
            }
        rows.append(row)
    plain = pd.DataFrame(rows).set_index("perturbation")
    plain["p_mcnemar_holm"] = _holm(plain["p_mcnemar"].tolist())
    direction = plain["p_toward_expected"].notna()
    plain.loc[direction, "p_toward_expected_holm"] = _holm(
        plain.loc[direction, "p_toward_expected"].tolist()
    )
    return plain


def test_the_cli_figures_on_rotten_tomatoes_equal_a_plain_script(rotten_tomatoes_build):
    folder = rotten_tomatoes_build
    args = ["evaluate", folder / "bench", "--model", "tfidf-logreg", "--out", folder / "ev"]
    done = runner.invoke(app, [str(a) for a in args])
    assert done.exit_code == 0, done.output
    measured = pd.read_csv(folder / "ev" / "classes.csv").set_index("perturbation")
    plain = _plain(folder)
    assert measured.index.tolist() == CLASSES
    # every class gets its drop with an interval around it
    assert measured["drop_ci_low"].notna().all() and measured["drop_ci_high"].notna().all()
    assert (measured["drop_ci_low"] <= measured["drop"] + 1e-12).all()
    assert (measured["drop"] <= measured["drop_ci_high"] + 1e-12).all()
    columns = ["rows", "drop", "flip_rate", "p_mcnemar", "p_mcnemar_holm"]
    columns += ["toward_expected", "p_toward_expected", "p_toward_expected_holm"]
    for column in columns:
        assert measured[column].tolist() == pytest.approx(
            plain.loc[CLASSES, column].tolist(), rel=1e-9, nan_ok=True
        ), column
    # an added negation moves the model the expected way more often than chance
    negation = measured.loc["negation-add"]
    assert negation["toward_expected"] > 0.5 and negation["toward_expected_ci_low"] > 0.5
    assert negation["p_toward_expected_holm"] < 0.05
