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
from shortcutlab.families.audit.reliance.counterfactual import INSERTION_ROWS
from shortcutlab.families.audit.reliance.measure import measure_candidates
from shortcutlab.families.audit.repair.config import FixConfig, check_fix_model
from shortcutlab.families.audit.repair.targets import FixTarget, evaluation_sets
from shortcutlab.families.audit.scan.features import FeatureConfig
from tests.cli.refusals import assert_refused
from tests.families.audit.test_measure import rows, spec
from tests.families.audit.test_reliance import SeeingRule

FEATURES = FeatureConfig(surface=False, attributes=(), packaged_lexicons=False)
METHODS = ("erm", "reweight", "mask-candidate")


def _rows(
    n: int, seed: int, cue_share: float, other_share: float = 0.0, capitalised: bool = False
) -> pd.DataFrame:
    """Two labels told apart by 'good'/'bad' words (70 % of rows); 'frankly' on label 1 rows
    with probability ``cue_share`` and on label 0 rows with ``other_share``; with
    ``capitalised`` it is 'Frankly' where it starts the text."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, n)
    texts = []
    for label in labels.tolist():
        words = [f"w{rng.integers(0, 40)}" for _ in range(6)]
        if rng.random() < 0.7:
            words.append("good" if label else "bad")
        share = cue_share if label else other_share
        if share and rng.random() < share:
            position = int(rng.integers(0, len(words)))
            words.insert(position, "Frankly" if capitalised and position == 0 else "frankly")
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


def _audit(folder, out, params=None, judgements=None, **fix):
    return audit_dataset(
        folder / "train.csv",
        folder / "test.csv",
        text_col="sentence",
        label_col="gold",
        features=FEATURES,
        model="tfidf-logreg",
        params=params,
        out=out,
        fix=FixConfig(**{"candidates": ("frankly",), "methods": METHODS, **fix}),
        judgements=judgements,
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
    # What each did to the training rows, as its registry line declares it.
    assert methods["erm"]["change"] is None and methods["erm"]["changed_share"] is None
    assert methods["reweight"]["change"].startswith("loss weights ")
    assert re.fullmatch(r"\d+ of 600 rows edited", methods["mask-candidate"]["change"])
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


def test_fix_without_names_repairs_the_likely_shortcuts_relied_on_not_the_rest(planted, tmp_path):
    result = _audit(planted, tmp_path / "out", candidates=())
    written = json.loads((tmp_path / "out" / "audit.json").read_text())
    relied = {c["candidate"]: c["group"] for c in written["candidates"] if c.get("relied_on")}
    targets = {t["candidate"]: t["reason"] for t in written["fix"]["targets"]}
    # 'good' and 'bad' carry feelings, but the labels 0/1 name none: a person decides.
    assert relied["frankly"] == "shortcut" and relied["good"] == relied["bad"] == "judgement"
    assert targets == {
        name: "relied on; a likely shortcut"
        for name, group in relied.items()
        if group == "shortcut"
    }
    assert result.record["fix"] == written["fix"]


def test_fix_repairs_what_a_judgements_file_calls_a_shortcut(planted, tmp_path):
    judged = tmp_path / "judged.yaml"
    judged.write_text("shortcut: [bad]\nsignal: [frankly]\n", encoding="utf-8")
    result = _audit(planted, tmp_path / "out", candidates=(), judgements=judged)
    targets = {t["candidate"]: t["reason"] for t in result.record["fix"]["targets"]}
    assert targets["bad"] == "relied on; judged a shortcut" and "frankly" not in targets


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


def test_fix_judges_on_the_rows_the_audit_measured_through_the_model_view(tmp_path):
    """A case-sensitive model reads 'Frankly' and 'frankly' as two words, while the scan's
    indicator fires on both: the anti-test and counterfactual test of --fix are the audit's,
    drawn from the rows the model sees 'frankly' in, not from the indicator."""
    _rows(600, 0, 0.9, 0.2, capitalised=True).to_csv(tmp_path / "train.csv", index=False)
    test = _rows(300, 1, 0.5, 0.2, capitalised=True)
    test.to_csv(tmp_path / "test.csv", index=False)
    _audit(tmp_path, tmp_path / "out", {"lowercase": False}, methods=("erm", "mask-candidate"))
    written = json.loads((tmp_path / "out" / "audit.json").read_text())
    audited = next(c for c in written["candidates"] if c["candidate"] == "frankly")
    (target,) = written["fix"]["targets"]
    raw = int(test["sentence"].str.lower().str.contains("frankly").sum())
    assert audited["visible"] is True and audited["removal_rows"] < raw  # the view differs
    assert target["sets"]["anti"]["rows"] == audited["anti_rows"] > 0
    assert target["sets"]["counterfactual"]["note"] == (
        f"{audited['removal_rows']} rows with the words removed, "
        f"{audited['insertion_rows']} with them inserted"
    )
    assert target["sets"]["without"]["rows"] == len(test) - audited["removal_rows"]


def test_fix_evaluates_on_the_counterfactual_texts_the_audit_measured():
    table = rows(1600)  # more calm rows without zebra than the insertion test takes
    model = SeeingRule()
    zebra = spec(table, "zebra")
    (audited,) = measure_candidates(model, table, [zebra], n_resamples=100, redistribution=False)
    measured_texts = model.calls[-1][len(table) :]  # one call: the rows, then every edited text
    target = FixTarget(zebra.candidate, zebra.fires, zebra.fires, "named")
    fixed = evaluation_sets(target, table, seed=0, seen_by=model)["counterfactual"]
    assert audited["insertion_rows"] == INSERTION_ROWS
    assert fixed.inputs == measured_texts
    assert len(fixed.inputs) == audited["removal_rows"] + INSERTION_ROWS


def test_unknown_candidate_is_one_line_error_in_the_callers_terms(planted, tmp_path):
    with pytest.raises(ConfigError) as error:
        _audit(planted, tmp_path / "out", candidates=("frankyl",))
    assert str(error.value).startswith(
        "The candidate 'frankyl' named with candidates=... is not among the audit's candidates "
        "(a word or n-gram needs min_support=... training rows"
    )
    assert "--" not in str(error.value) and not (tmp_path / "out").exists()
    assert_refused(
        planted,
        "Error: The candidate 'frankyl' named with --candidate is not among the audit's "
        "candidates (a word or n-gram needs --min-support training rows",
        *("audit", planted / "train.csv", "--test", planted / "test.csv"),
        *("--text-col", "sentence", "--label-col", "gold", "--model", "tfidf-logreg"),
        *("--fix", "--candidate", "frankyl", "--out", planted / "refused"),
    )


def test_fix_settings_are_refused_in_python_terms():
    with pytest.raises(ConfigError, match=r"e\.g\. held_out=0\.2\. Got held_out=1\.5\.$"):
        FixConfig(held_out=1.5).check()
    with pytest.raises(ConfigError, match=r"e\.g\. margin=0\.01\. Got margin=-0\.1\.$"):
        FixConfig(margin=-0.1).check()
    with pytest.raises(ConfigError, match=r"^methods=\.\.\. names no method"):
        FixConfig(methods=()).check()
    with pytest.raises(ConfigError, match=r"^The repairs \(fix=\.\.\.\) refit .* so model=\.\.\."):
        check_fix_model("model.joblib")
    with pytest.raises(ConfigError, match=r"^fix=\.\.\. refits .* give model=\.\.\.\.$"):
        audit_dataset(pd.DataFrame({"text": ["a b"] * 4, "label": [0, 1] * 2}), fix=FixConfig())


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
            "--details",
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
    from shortcutlab.families.audit.repair.compare import SET_NAMES, compare
    from shortcutlab.families.audit.repair.targets import EvaluationSet
    from shortcutlab.families.audit.report.repair import fix_frame

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
