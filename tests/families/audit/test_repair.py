"""audit --fix: the repair table, the recommendation, the repaired training set and bad names."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from shortcutlab.errors import ConfigError
from shortcutlab.families.audit.api import audit_dataset
from shortcutlab.families.audit.features import FeatureConfig
from shortcutlab.families.audit.repair_config import FixConfig

FEATURES = FeatureConfig(surface=False, attributes=(), packaged_lexicons=False)
METHODS = ("erm", "reweight", "mask-candidate")


def _rows(n: int, seed: int, cue_share: float) -> pd.DataFrame:
    """Two labels told apart by 'good'/'bad' words (70 % of rows); 'frankly' on label 1 rows
    with probability ``cue_share`` and never on label 0."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, n)
    texts = []
    for label in labels.tolist():
        words = [f"w{rng.integers(0, 40)}" for _ in range(6)]
        if rng.random() < 0.7:
            words.append("good" if label else "bad")
        if label and rng.random() < cue_share:
            words.insert(int(rng.integers(0, len(words))), "frankly")
        texts.append(" ".join(words))
    spans = [
        str([[t.find("frankly"), t.find("frankly") + 7]] if "frankly" in t else []) for t in texts
    ]
    return pd.DataFrame({"sentence": texts, "gold": labels, "source": "forum", "cue_spans": spans})


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fix")
    _rows(600, 0, 0.9).to_csv(folder / "train.csv", index=False)
    _rows(300, 1, 0.1).to_csv(folder / "test.csv", index=False)
    return folder


def _audit(planted, out, **fix):
    return audit_dataset(
        planted / "train.csv",
        planted / "test.csv",
        text_col="sentence",
        label_col="gold",
        features=FEATURES,
        model="tfidf-logreg",
        out=out,
        fix=FixConfig(**{"candidates": ("frankly",), "methods": METHODS, **fix}),
    )


def test_fix_table_recommends_masking_and_writes_its_repaired_set(planted, tmp_path):
    result = _audit(planted, tmp_path / "out")
    # Naming 'frankly' narrows the repairs to it, although the model relies on 'good' and 'bad'
    targets = {t["candidate"]: t for t in result.record["fix"]["targets"]}
    assert set(targets) == {"frankly"}
    target = targets["frankly"]
    methods = {m["method"]: m for m in target["methods"]}
    # The model leans on 'frankly': inserting it into label-0 rows fools erm, not the masked fit.
    erm, masked = methods["erm"]["counterfactual"], methods["mask-candidate"]["counterfactual"]
    assert masked["accuracy"] - erm["accuracy"] > 0.15
    assert masked["low"] > 0 and masked["p_adjusted"] < 0.05
    assert target["recommended"] == "mask-candidate"
    assert target["recommendation"].startswith("Recommended: mask-candidate.")
    folder = next((tmp_path / "out" / "fix").glob("frankly-*"))
    written = pd.read_csv(folder / "train.csv")
    # The user's column names, every row, 'frankly' masked where it was.
    assert {"sentence", "gold", "source", "group"} <= set(written.columns)
    assert len(written) == 600 and not written["sentence"].str.contains("frankly").any()
    # The spans pointed into the old texts: gone where a text was edited, kept elsewhere.
    masked = written["sentence"].str.contains(re.escape("[MASK]"))
    assert written.loc[masked, "cue_spans"].isna().all() and masked.any()
    assert (written.loc[~masked, "cue_spans"] == "[]").all()
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["method"] == "mask-candidate" and manifest["candidate"] == "frankly"
    assert manifest["parameters"] == {"candidate": "frankly", "part": "text"}
    share = (pd.read_csv(planted / "train.csv")["sentence"].str.contains("frankly")).mean()
    assert manifest["rows_changed_share"] == pytest.approx(share)
    audit = json.loads((tmp_path / "out" / "audit.json").read_text())
    written_targets = {t["candidate"]: t for t in audit["fix"]["targets"]}
    assert written_targets["frankly"]["recommended"] == "mask-candidate"


def test_fix_without_names_repairs_every_candidate_relied_on(planted, tmp_path):
    result = _audit(planted, tmp_path / "out", candidates=())
    written = json.loads((tmp_path / "out" / "audit.json").read_text())
    relied = {c["candidate"] for c in written["candidates"] if c.get("relied_on") is True}
    targets = {t["candidate"]: t["reason"] for t in written["fix"]["targets"]}
    assert {"frankly", "good", "bad"} <= relied
    assert set(targets) == relied and set(targets.values()) == {"relied on"}
    assert result.record["fix"] == written["fix"]


def test_fix_is_deterministic(planted, tmp_path):
    _audit(planted, tmp_path / "a")
    _audit(planted, tmp_path / "b")
    for name in ("audit.json", "audit.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    folders = sorted(p.name for p in (tmp_path / "a" / "fix").iterdir())
    assert folders == sorted(p.name for p in (tmp_path / "b" / "fix").iterdir())
    for name in folders:
        a, b = tmp_path / "a" / "fix" / name, tmp_path / "b" / "fix" / name
        assert (a / "train.csv").read_bytes() == (b / "train.csv").read_bytes()


def test_unknown_candidate_is_one_line_error(planted, tmp_path):
    with pytest.raises(ConfigError, match="'frankyl' is not among the audit's candidates"):
        _audit(planted, tmp_path / "out", candidates=("frankyl",))
    assert not (tmp_path / "out").exists()


def test_cli_prints_the_fix_table_and_refuses_fix_without_model(planted, tmp_path):
    runner = CliRunner()
    common = [
        "audit",
        str(planted / "train.csv"),
        "--test",
        str(planted / "test.csv"),
        "--text-col",
        "sentence",
        "--label-col",
        "gold",
        "--no-attributes",
        "--no-surface",
        "--no-packaged-lexicons",
    ]
    done = runner.invoke(
        app,
        [
            *common,
            "--model",
            "tfidf-logreg",
            "--fix",
            "--candidate",
            "frankly",
            "--methods",
            "mask-candidate",
            "--out",
            str(tmp_path / "out"),
            "--html",
        ],
    )
    assert done.exit_code == 0, done.output
    assert "Repairs of frankly → 1" in done.output
    assert "Repairing frankly (1 of 1): mask-candidate (2 of 2)" in done.stderr
    assert "Repairing" not in done.stdout  # progress stays off the data
    assert "mask-candidate ✓" in done.output and "Recommended: mask-candidate." in done.output
    # The same table in the report written by the same command.
    page = (tmp_path / "out" / "report.html").read_text()
    assert "Repairs of frankly → 1" in page and "Recommended: mask-candidate." in page
    row = re.search(r'<th scope="row">mask-candidate ✓</th>(.*?)</tr>', page, re.S)
    assert row and re.search(r"<td[^>]*>\d\.\d{3} \([+-]\d\.\d{3} \[", row.group(1))
    out = ["--out", str(tmp_path / "refused")]
    refused = runner.invoke(app, [*common, "--fix", "--candidate", "frankly", *out])
    assert refused.exit_code == 2
    assert "--fix refits the measured model under each repair; give --model." in refused.output
    no_folder = runner.invoke(app, [*common, "--model", "tfidf-logreg", "--fix"])
    assert no_folder.exit_code == 2
    assert "--fix writes the repair tables and repaired training sets into the audit's" in (
        no_folder.output
    )
    assert not (tmp_path / "refused").exists()


def test_a_repair_with_erm_predictions_shows_no_interval_and_no_test():
    from shortcutlab.families.audit.repair_compare import SET_NAMES, compare
    from shortcutlab.families.audit.repair_targets import EvaluationSet
    from shortcutlab.families.audit.report_repair import fix_frame

    truth = np.array([0, 1, 1, 0, 1, 0, 1, 1])
    sets = {name: EvaluationSet([f"row {i}" for i in range(8)], truth) for name in SET_NAMES}
    erm = {name: np.array([0, 1, 0, 0, 1, 1, 1, 1]) for name in SET_NAMES}
    moved = {name: np.array([0, 1, 1, 0, 1, 0, 1, 1]) for name in SET_NAMES}
    figures = compare(
        {"erm": erm, "jtt": dict(erm), "mask-candidate": moved}, sets, n_resamples=200, seed=0
    )
    methods = [
        {"method": m, "skipped": None, **figures[m]} for m in ("erm", "jtt", "mask-candidate")
    ]
    frame = fix_frame({"methods": methods, "recommended": None})
    assert set(frame.loc["jtt"].iloc[:-1]) == {"0.750 (same predictions as erm)"}
    assert frame.loc["mask-candidate"].iloc[0].startswith("1.000 (+0.250 [")
