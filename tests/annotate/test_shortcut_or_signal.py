"""shortcut-or-signal: an audit folder's candidates as items, answers posted to a real server,
and the judgements file the export writes (the format ``shortcutlab audit --judgements`` reads)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pandas as pd
import pytest
import yaml

from shortcutlab.annotate.kinds import Item, TaskPlan
from shortcutlab.annotate.tasks import task_kind
from shortcutlab.annotate.triage_task import judgement_form, judgements_yaml
from shortcutlab.families.audit.api import audit_dataset
from shortcutlab.families.audit.scan.features import FeatureConfig
from tests.annotate.served import run_cli, serve_task
from tests.annotate.task_sources import audit_with_judgements, copied, cue_rows
from tests.cli.refusals import assert_refused

KIND = task_kind("shortcut-or-signal")
#: What an item shows, in the kind's order (what the candidate is, its rows, then the figures),
#: and the planted word's association in the fixture's audit: the API and the page show these.
FIELDS = [
    "candidate",
    "kind",
    "label",
    "examples",
    "association",
    "reliance",
    "audit group",
    "audit evidence",
]
HONESTLY_ASSOCIATION = {
    "support": "64 training rows",
    "p(label | candidate)": "1.00",
    "lift": "2.00",
}
NEEDS = (
    "shortcut-or-signal needs the folder of an audit ('shortcutlab audit DATA --out DIR' writes "
    "DIR/audit.json)."
)


def _audit(folder: Path) -> dict:
    return json.loads((folder / "audit.json").read_text(encoding="utf-8"))


def test_items_are_the_audits_candidates_in_its_order_with_their_figures(audit_folder):
    names = [c["candidate"] for c in _audit(audit_folder)["candidates"]]
    assert names[:2] == ["honestly", "frankly"]
    plan = KIND.plan(audit_folder, sample=50, seed=0)
    assert [item.item_id for item in plan.items] == names
    # --sample takes the first ones, whatever the seed: no draw.
    assert [i.item_id for i in KIND.plan(audit_folder, sample=3, seed=7).items] == names[:3]
    honestly = plan.items[0].payload
    measured = _audit(audit_folder)["candidates"][0]
    assert list(honestly) == FIELDS
    assert honestly["candidate"] == "honestly" and honestly["label"] == "1"
    assert honestly["association"] == HONESTLY_ASSOCIATION
    assert honestly["reliance"] == {
        "relied on": "yes",
        "removal changed": f"{100 * measured['removal_changed']:.1f} % of "
        f"{measured['removal_rows']} rows",
        "insertion changed": f"{100 * measured['insertion_changed']:.1f} % of "
        f"{measured['insertion_rows']} rows",
    }
    assert honestly["examples"] == [
        {"text": e["text"], "spans": [[0, 8]]} for e in measured["examples"]
    ]
    assert all(e["text"].startswith("honestly ") for e in honestly["examples"])
    # A candidate the model was not measured on shows no reliance: nothing is made up.
    film = next(item.payload for item in plan.items if item.item_id == "film")
    assert "reliance" not in film and "audit group" not in film
    assert [c.key for c in plan.form.fields[0].choices] == ["s", "l", "u"]
    assert plan.form.fields[0].prompt == "Is this a shortcut or label signal?"


def test_the_audits_triage_and_label_names_are_shown_as_audit_json_has_them(tmp_path):
    out = tmp_path / "audit"
    audit_dataset(
        cue_rows(),
        model="tfidf-logreg",
        top=10,
        features=FeatureConfig(surface=False, attributes=(), packaged_lexicons=False),
        out=out,
        label_names={"0": "calm", "1": "angry"},
        judgements={"signal": ["frankly"]},
    )
    items = {item.item_id: item.payload for item in KIND.plan(out, sample=10, seed=0).items}
    honestly = items["honestly"]
    assert honestly["label"] == "1 (angry)"
    assert honestly["audit group"] == "Likely shortcut"
    assert honestly["audit evidence"] == [
        "'honestly' is a discourse marker; such words rarely make a label what it is. "
        "(points to shortcut)",
        "'honestly' carries the opposite feeling to its label 'angry' (VADER +2.0 against -2.3).",
    ]
    assert items["frankly"]["audit group"] == "Label signal (from your judgements file)"
    renamed = KIND.plan(out, sample=1, seed=0, label_names="quiet,loud")
    assert renamed.items[0].payload["label"] == "1 (loud)"  # --label-names wins


def _post_answers(task, said: dict[str, dict[str, str]]) -> None:
    with httpx.Client(base_url=task.base, headers={"X-Token": task.token}, timeout=10) as client:
        for annotator, answers in said.items():
            for candidate, value in answers.items():
                body = {
                    "annotator": annotator,
                    "item_id": candidate,
                    "answer": {"judgement": value},
                }
                reply = client.post("/api/answer", json=body)
                assert reply.status_code == 200, reply.text


def test_posted_answers_export_as_the_majoritys_judgements_file(audit_folder, tmp_path):
    source = copied(audit_folder, tmp_path)
    task = serve_task(source, "shortcut-or-signal", "--sample", "4")
    folder = source / "annotations" / "shortcut-or-signal"
    try:
        _post_answers(
            task,
            {
                "ann": {"honestly": "shortcut", "frankly": "shortcut", "cast": "signal"},
                "bob": {"honestly": "shortcut", "frankly": "signal", "cast": "unsure"},
                "cy": {"honestly": "unsure", "scene": "unsure"},
            },
        )
    finally:
        assert task.stop() == 0
    said = "4 items: the first 4 of the audit's 7 candidates"
    assert f"Created the shortcut-or-signal task in {folder}: {said}." in "".join(task.stdout)
    exported = run_cli("annotate", "export", str(folder))
    assert exported.returncode == 0, exported.stderr
    assert f"Wrote {folder / 'judgements.yaml'}" in exported.stdout
    # honestly: 2 shortcut (unsure left out); frankly: a tie; cast: signal (unsure left out);
    # scene: only unsure.
    assert (folder / "judgements.yaml").read_text(encoding="utf-8") == (
        f"# The majority judgement of 3 annotators on 4 of the 4 candidates of {source}\n"
        "# (1 shortcut, 1 signal, 2 left out: a tie or only unsure answers).\n"
        "# Read by: shortcutlab audit DATA --judgements judgements.yaml\n"
        "shortcut:\n"
        "- honestly\n"
        "signal:\n"
        "- cast\n"
    )
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    each_way = summary["tables"]["each_way"]
    assert dict(zip(each_way["index"], each_way["data"], strict=True)) == {
        "shortcut": [1],
        "signal": [1],
        "no majority": [2],
    }
    per_candidate = summary["tables"]["judgements"]
    assert per_candidate["index"] == ["honestly", "frankly", "cast", "scene"]
    assert per_candidate["columns"] == [
        "label",
        "audit_group",
        "shortcut",
        "signal",
        "unsure",
        "judgement",
    ]
    assert [row[-1] for row in per_candidate["data"]] == ["shortcut", None, "signal", None]
    agreement = summary["tables"]["agreement"]
    assert agreement["index"] == ["judgement"] and agreement["data"][0][0] == "Fleiss' κ"
    assert "Candidates each way" in exported.stdout
    # The audit reads the file: 'honestly' is the annotators' shortcut; 'frankly' (a tie) keeps
    # the triage's own group; 'cast' has no association here, so no group to change.
    record, stdout = audit_with_judgements(folder / "judgements.yaml", tmp_path)
    groups = {c["candidate"]: (c["group"], c["group_source"]) for c in record["candidates"]}
    assert groups["honestly"] == ("shortcut", "judged")
    assert groups["frankly"] == ("shortcut", "evidence")
    assert groups["cast"] == (None, None)
    targets = {t["candidate"]: t["reason"] for t in record["fix"]["targets"]}
    assert targets["honestly"] == "relied on; judged a shortcut"
    assert "cast" not in targets
    assert f"Judgements from {folder / 'judgements.yaml'}: 1 applied." in stdout


def test_names_yaml_would_misread_are_quoted_and_read_back_as_written() -> None:
    names = ["yes", "null", "1", "lexicon = discourse-markers", "text_pair: no", "#tag"]
    plan = TaskPlan(
        kind="shortcut-or-signal",
        source="audit",
        form=judgement_form(),
        items=[Item(item_id=n, payload={"label": "0"}, reference={"candidate": n}) for n in names],
    )
    answers = pd.DataFrame(
        {
            "item_id": names,
            "annotator": "ann",
            "field": "judgement",
            "value": ["shortcut", "signal", "shortcut", "shortcut", "signal", "signal"],
        }
    )
    assert yaml.safe_load(judgements_yaml(plan, answers)) == {
        "shortcut": ["yes", "1", "lexicon = discourse-markers"],
        "signal": ["null", "text_pair: no", "#tag"],
    }


def _refusal(watched: Path, source: Path, message: str) -> str:
    """What ``annotate serve SOURCE --task shortcut-or-signal`` prints on stderr, after checking
    it exits 2 with an error holding ``message`` and writes nothing under ``watched``."""
    refused = assert_refused(
        watched, message, "annotate", "serve", source, "--task", "shortcut-or-signal", "--port", 0
    )
    return refused.stderr


def test_a_folder_without_audit_json_is_refused(tmp_path):
    (tmp_path / "data").mkdir()
    message = f"'{tmp_path / 'data'}' holds no audit.json. {NEEDS}"
    assert _refusal(tmp_path, tmp_path / "data", message) == f"Error: {message}\n"


def test_an_audit_json_of_another_kind_is_refused(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "audit.json").write_text('{"kind": "something-else"}', encoding="utf-8")
    message = f"'{tmp_path / 'data' / 'audit.json'}' is not an audit's record. {NEEDS}"
    assert _refusal(tmp_path, tmp_path / "data", message) == f"Error: {message}\n"


def test_an_audit_json_of_another_version_is_refused_as_the_report_refuses_it(tmp_path):
    (tmp_path / "data").mkdir()
    record = {"kind": "shortcutlab-audit", "version": 2}
    (tmp_path / "data" / "audit.json").write_text(json.dumps(record), encoding="utf-8")
    message = (
        f"'{tmp_path / 'data' / 'audit.json'}' has version 2; this shortcutlab reads version 1. "
        f"Run 'shortcutlab audit' again with this version. {NEEDS}"
    )
    assert _refusal(tmp_path, tmp_path / "data", message) == f"Error: {message}\n"


@pytest.fixture(scope="module")
def partial_input_audit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pair audit that builds no indicator: its candidates are the partial-input rows alone."""
    rows = pd.DataFrame(
        {
            "premise": [f"the man number {i} walks" for i in range(200)],
            "hypothesis": [f"{['a man', 'nobody'][i % 2]} walks {i % 5}" for i in range(200)],
            "label": [i % 2 for i in range(200)],
        }
    )
    out = tmp_path_factory.mktemp("pairs") / "audit"
    features = FeatureConfig(
        surface=False, attributes=(), packaged_lexicons=False, min_support=10_000
    )
    audit_dataset(rows, text_col="premise", text_pair_col="hypothesis", features=features, out=out)
    return out


def test_an_audit_without_indicator_candidates_is_refused(partial_input_audit, tmp_path):
    source = copied(partial_input_audit, tmp_path)
    kinds = {c["kind"] for c in _audit(source)["candidates"]}
    assert kinds == {"partial-input"}
    message = (
        f"'{source / 'audit.json'}' lists no candidate of the kinds token, ngram, attribute, "
        "surface, lexicon, metadata to judge; pass the folder of an audit that found some."
    )
    assert _refusal(tmp_path, source, message) == f"Error: {message}\n"
