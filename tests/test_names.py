"""Every name that becomes a path is a safe name or refused in one line, nothing written: each
hostile name through the command that reads it (a spec through ``run``, a Suite manifest through
``suite evaluate``, a set through ``build suite``) and annotators through the app."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from starlette.testclient import TestClient

from shortcutlab.annotate.app import make_app
from shortcutlab.annotate.store import AnnotationStore
from shortcutlab.annotate.task_folder import prepare_task
from shortcutlab.errors import ConfigError
from shortcutlab.names import MAX_NAME, check_name
from tests.annotate.toy_kind import ToyLabelKind, write_toy_source
from tests.cli.refusals import assert_refused, invoke

RULE = f"must be 1-{MAX_NAME} letters, digits"
# The hostile names of the issue; ESCAPE and ABSOLUTE are filled in per test (inside tmp_path).
HOSTILE = {
    "dot-dot": "..",
    "dot": ".",
    "empty": "",
    "escape": "ESCAPE",
    "absolute": "ABSOLUTE",
    "slash": "a/b",
    "backslash": "a\\b",
    "nul": "a\0b",
    "hidden": ".hidden",
    "long": "x" * (MAX_NAME + 1),
    "very-long": "x" * 100_000,
}

MAZE = """name: {spec}
data: {{name: {dataset}, builtin: reviews, train_size: 300, test_size: 200}}
shortcuts: [single-term]
strengths: [1.0]
models: [{{name: majority, id: {model}}}]
mitigations: [{{name: erm, id: {mitigation}}}]
seeds: [0]
"""
MAZE_FILES = """data: {{name: {dataset}, train: train.csv, test: test.csv}}
shortcuts: [single-term]
strengths: [1.0]
models: [majority]
seeds: [0]
"""
MPS = """family: mps
name: {spec}
data: {{name: {dataset}, train: train.csv}}
attributes: [{{name: negation, id: {attribute}}}]
models: [tfidf-svm]
seeds: [0]
"""
CAT = """family: cat
name: {spec}
data: {{name: {dataset}, train: train.csv, test: test.csv, text_pair: text_pair}}
models: [{{name: tfidf-logreg, id: {model}}}]
seeds: [0]
cat: {{k: 3}}
"""
# (template, the name it puts the hostile value in): every spec name that becomes a path.
SPEC_KINDS = {
    "maze spec name": (MAZE, "spec"),
    "maze dataset name": (MAZE, "dataset"),
    "maze model id": (MAZE, "model"),
    "maze mitigation id": (MAZE, "mitigation"),
    "file dataset name": (MAZE_FILES, "dataset"),
    "mps spec name": (MPS, "spec"),
    "mps dataset name": (MPS, "dataset"),
    "mps attribute id": (MPS, "attribute"),
    "cat spec name": (CAT, "spec"),
    "cat dataset name": (CAT, "dataset"),
    "cat model id": (CAT, "model"),
}
SAFE = {"spec": "grid", "dataset": "toy", "model": "m1", "mitigation": "plain", "attribute": "neg"}


def _hostile(key: str, root: Path) -> str:
    return {"ESCAPE": "../../../escaped", "ABSOLUTE": str(root / "ABS")}.get(
        HOSTILE[key], HOSTILE[key]
    )


def _spec_folder(root: Path, template: str, **names: str) -> Path:
    """``root/a/b/spec.yaml`` (with small data files), so a name that climbs out of the run
    folder ``root/a/b/run`` still lands inside ``root``, where the test looks."""
    folder = root / "a" / "b"
    folder.mkdir(parents=True, exist_ok=True)
    rows = pd.DataFrame(
        {"text": [f"row {i}" for i in range(20)], "text_pair": ["h"] * 20, "label": [0, 1] * 10}
    )
    for name in ("train.csv", "test.csv"):
        rows.to_csv(folder / name, index=False)
    # JSON strings are YAML double-quoted strings: NUL and backslashes arrive as written.
    given = {key: json.dumps(value) for key, value in (SAFE | names).items()}
    (folder / "spec.yaml").write_text(template.format(**given), encoding="utf-8")
    return folder


@pytest.mark.parametrize("kind", SPEC_KINDS)
def test_the_safe_spec_parses(tmp_path, kind):
    """The control: with safe names each spec plans its cells, so a refusal below is the name's."""
    template, _ = SPEC_KINDS[kind]
    folder = _spec_folder(tmp_path, template)
    result = invoke("run", folder / "spec.yaml", "--out", folder / "run", "--dry-run")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("hostile", HOSTILE)
@pytest.mark.parametrize("kind", SPEC_KINDS)
def test_a_hostile_name_in_a_spec_is_refused_and_nothing_is_written(tmp_path, kind, hostile):
    template, key = SPEC_KINDS[kind]
    folder = _spec_folder(tmp_path, template, **{key: _hostile(hostile, tmp_path)})
    result = assert_refused(tmp_path, RULE, "run", folder / "spec.yaml", "--out", folder / "run")
    assert "\0" not in result.stderr and len(result.stderr) < 600  # a long name is not quoted whole
    assert not (folder / "run").exists()


def test_a_name_taken_from_the_train_folder_is_made_safe(tmp_path):
    folder = _spec_folder(tmp_path, MAZE_FILES)
    (folder / "data set").mkdir()
    (folder / "train.csv").rename(folder / "data set" / "train.csv")
    text = (
        (folder / "spec.yaml")
        .read_text()
        .replace('name: "toy", train: train.csv', "train: 'data set/train.csv'")
    )
    (folder / "spec.yaml").write_text(text)
    result = invoke("run", folder / "spec.yaml", "--out", folder / "run", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "data-set" in result.output and "data set" not in result.output


@pytest.mark.parametrize("listing", ["splits", "sets", "file"])
@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_hostile_set_name_in_a_suite_manifest_is_refused(tmp_path, hostile, listing):
    if (listing, hostile) == ("file", "empty"):
        pytest.skip("an empty file entry means none: the set's file is found by its name")
    suite = tmp_path / "a" / "suite"
    suite.mkdir(parents=True)
    name = _hostile(hostile, tmp_path)
    pd.DataFrame({"text": ["p"], "text_pair": ["h"], "label": ["entailment"]}).to_csv(
        suite / "standard.csv", index=False
    )
    manifest = {
        "splits": {"splits": {name: {"file": "standard.csv"}}},
        "sets": {"sets": [name]},
        "file": {"splits": {"standard": {"file": name}}},
    }[listing]
    (suite / "manifest.json").write_text(json.dumps(manifest))
    assert_refused(
        tmp_path,
        RULE,
        "suite", "evaluate", suite, "--out", tmp_path / "out", "--model", "majority",
        "--train", suite / "standard.csv",
    )  # fmt: skip


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_hostile_set_name_of_build_suite_is_refused(tmp_path, hostile):
    pd.DataFrame({"text": ["p"], "text_pair": ["h"], "label": ["entailment"]}).to_csv(
        tmp_path / "nli.csv", index=False
    )
    assert_refused(
        tmp_path,
        "The 'sets' parameter",
        "build", "suite", "--train", tmp_path / "nli.csv", "--sets", _hostile(hostile, tmp_path),
        "--out", tmp_path / "out",
    )  # fmt: skip


@pytest.fixture
def annotation_app(tmp_path: Path) -> Any:
    folder = tmp_path / "task"
    prepare_task(
        write_toy_source(tmp_path / "source"), ToyLabelKind(), folder=folder, sample=2, seed=0
    )
    store = AnnotationStore.open(folder)
    with TestClient(make_app(store, ToyLabelKind(), "t"), raise_server_exceptions=False) as client:
        client.headers["X-Token"] = "t"
        yield client, store
    store.close()


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_hostile_annotator_is_refused_and_nothing_is_stored(annotation_app, tmp_path, hostile):
    client, store = annotation_app
    name = _hostile(hostile, tmp_path)
    item = client.get("/api/next", params={"annotator": "ann"}).json()["item_id"]
    # httpx refuses a 100 000-character query itself, so that name goes by POST only
    by_query = [client.get("/api/next", params={"annotator": name})] if len(name) < 8000 else []
    for response in (
        *by_query,
        client.post(
            "/api/answer",
            json={
                "annotator": name,
                "item_id": item,
                "answer": {"label": "positive", "sure": "yes"},
            },
        ),
    ):
        # a 100 000-character name makes a body over the app's limit: refused before reading
        expected = "at most" if response.status_code == 413 else "The annotator must be a name"
        assert response.status_code in (400, 413), response.text
        assert expected in response.json()["error"]
        assert len(response.text) < 600
    assert store.answers().empty


@pytest.mark.parametrize("name", ["Ada Lovelace", "ann@lab.org", "José", "a.b-c_1"])
def test_people_keep_their_names(name):
    assert check_name(name, "The annotator", person=True) == name


@pytest.mark.parametrize("name", ["ESC4", "goemotions-45", "tfidf_svm.v2", "_x", "2024", 2024])
def test_safe_names_pass(name):
    assert check_name(name, "The name") == str(name)


@pytest.mark.parametrize("value", [None, True, 1.5, ["a"], {"a": 1}, "-x", "a b", "é"])
def test_other_values_are_refused_without_printing_them_whole(value):
    with pytest.raises(ConfigError, match=RULE):
        check_name(value, "The name")
