"""Style shortcuts (register, author, bible): schedule, pairing, file rewrites and their policies."""

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data import LabelSpace
from shortcutlab.errors import ConfigError, DataError, EncodingError, UnknownComponentError
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.shortcuts import SHORTCUTS, SplitPlan, make_shortcut
from tests.conftest import folder_bytes

N = 60


@pytest.fixture
def data_files(tmp_path):
    """A 3-label table with a non-ASCII word, written as UTF-8 like most user data."""
    frame = pd.DataFrame(
        {"label": [i % 3 for i in range(N)], "text": [f"Review {i} of the café." for i in range(N)]}
    )
    paths = {}
    for role in ("train", "test"):
        paths[role] = tmp_path / f"{role}.csv"
        role_frame(frame, role).to_csv(paths[role], index=False)
    return frame, paths


def role_frame(frame, role):
    """The training rows, or the test rows: other reviews (a build refuses a test table whose
    rows are all training rows)."""
    if role == "train":
        return frame
    return frame.assign(text=frame["text"].str.replace("Review", "Test review"))


def write_release_file(path, frame, style, *, empty=(), drop_row=None, swap=None, row_ids=None):
    """A file in the Shortcut Maze release layout (label,text,rewritten), encoded as latin-1."""
    rows = [
        {"label": label, "text": "" if i in empty else f"[{style}] {text}", "rewritten": True}
        for i, (label, text) in enumerate(zip(frame.label, frame.text, strict=True))
    ]
    if swap:
        rows[swap[0]], rows[swap[1]] = rows[swap[1]], rows[swap[0]]
    if drop_row is not None:
        del rows[drop_row]
    table = pd.DataFrame(rows)
    if row_ids is not None:
        table.insert(0, "row_id", row_ids)
        table = table.iloc[::-1]  # row ids, not order, decide the alignment
    table.to_csv(path, index=False, encoding="latin-1")
    return path


def file_options(tmp_path, frame, *, on_failed="drop", formal_empty=(), casual_empty=(), **kw):
    rewrites = {}
    for style, empty in (("formal", formal_empty), ("casual", casual_empty)):
        rewrites[style] = {
            role: str(
                write_release_file(
                    tmp_path / f"{style}_{role}.csv",
                    role_frame(frame, role),
                    style,
                    empty=empty.get(role, ()) if isinstance(empty, dict) else empty,
                    **kw,
                )
            )
            for role in ("train", "test")
        }
    return {"rewriter": "file", "rewrites": rewrites, "encoding": "latin-1", "on_failed": on_failed}


def build(paths, options, strength=1.0, **kwargs):
    return build_maze_benchmark(
        paths["train"],
        paths["test"],
        shortcut="register",
        shortcut_options=options,
        strength=strength,
        **kwargs,
    )


def rates(frame, style):
    return frame.groupby("label")["shortcut"].apply(lambda s: (s == style).mean()).tolist()


@pytest.mark.parametrize("name", ["register", "author", "bible"])
@pytest.mark.parametrize("strength", [1.0, 0.6])
def test_rates_follow_the_schedule_and_the_anti_test_reverses_it(corpus, name, strength):
    bench = build_maze_benchmark(
        corpus["train"], corpus["test"], shortcut=name, strength=strength, val_size=50
    )
    style_a, style_b = SHORTCUTS.get(name).styles
    target = strength * np.arange(5) / 4 + (1 - strength) / 2
    for split, expected in (("train", target), ("test", np.arange(5) / 4)):
        counts = bench[split]["label"].value_counts().sort_index().to_numpy()
        assert np.all(np.abs(np.array(rates(bench[split], style_a)) - expected) <= 1 / counts)
    assert rates(bench["anti_test"], style_a) == rates(bench["test"], style_a)[::-1]
    assert set(bench["test"]["shortcut"]) == {style_a, style_b}
    manifest = bench.manifest
    assert (
        manifest["splits"]["test"]["details"]["styles"][style_a]["rows"]
        == (bench["test"]["shortcut"] == style_a).sum()
    )
    assert manifest["preparation"]["train"]["styles"][style_b]["failed"] == 0


def test_bible_keeps_the_original_text_on_side_b(corpus):
    bench = build_maze_benchmark(corpus["train"], corpus["test"], shortcut="bible", strength=1.0)
    for split in ("test", "anti_test"):
        frame = bench[split].merge(bench["original_test"], on="row_id", suffixes=("", "_orig"))
        original = frame["shortcut"] == "original"
        assert (frame.loc[original, "text"] == frame.loc[original, "text_orig"]).all()
        assert (frame.loc[~original, "text"] != frame.loc[~original, "text_orig"]).all()


def test_file_rewrites_in_the_release_layout_are_read_as_latin1(data_files, tmp_path):
    frame, paths = data_files
    bench = build(paths, file_options(tmp_path, frame), val_size=6)
    for split in ("test", "anti_test"):
        for text, original, style in zip(
            bench[split]["text"],
            bench["original_test"]["text"],
            bench[split]["shortcut"],
            strict=True,
        ):
            assert text == f"[{style}] {original}" and "café" in text
    source = bench.manifest["preparation"]["train"]["styles"]["formal"]["source"]
    assert source["layout"] == "release" and source["aligned_by"] == "row order"
    assert len(source["sha256"]) == 64
    with pytest.raises(
        EncodingError,
        match=r"is not valid utf-8: byte 0x\w\w at offset \d+ .*pass shortcut_options=\{'encoding': 'latin-1'\}\.$",
    ):
        build(paths, file_options(tmp_path, frame) | {"encoding": "utf-8"})


def test_drop_removes_failed_rows_from_every_split_before_assignment(data_files, tmp_path):
    frame, paths = data_files
    options = file_options(
        tmp_path, frame, formal_empty={"train": (3, 10)}, casual_empty={"test": (7,), "train": (3,)}
    )
    bench = build(paths, options, val_size=6)
    train_ids = sorted(bench["train"]["row_id"].tolist() + bench["validation"]["row_id"].tolist())
    assert train_ids == [i for i in range(N) if i not in (3, 10)]
    expected_test = [i for i in range(N) if i != 7]
    for split in ("test", "anti_test", "original_test"):
        assert bench[split]["row_id"].tolist() == expected_test
        assert bench[split]["label"].tolist() == [i % 3 for i in expected_test]
    prepared = bench.manifest["preparation"]
    assert prepared["train"]["rows_dropped"] == 2
    assert prepared["train"]["styles"]["formal"] | {"source": None} == {
        "failed": 2,
        "dropped": 2,
        "kept_original": 0,
        "source": None,
    }
    assert prepared["test"]["styles"]["casual"]["dropped"] == 1
    test = bench["test"]
    formal = test["text"].str.startswith("[formal] ").groupby(test["label"]).mean()
    assert formal[0] == 0.0 and abs(formal[1] - 0.5) <= 1 / 19 and formal[2] == 1.0
    observed = bench.manifest["splits"]["test"]["observed_rate"]
    assert observed == {str(label): rate for label, rate in formal.round(6).items()}
    assert not bench["test"]["text"].str.fullmatch(r"\[\w+\] ").any()


def test_keep_original_uses_the_original_text_and_counts_it(data_files, tmp_path):
    frame, paths = data_files
    options = file_options(tmp_path, frame, on_failed="keep-original", formal_empty=(2, 5, 8))
    bench = build(paths, options)
    assert bench["test"]["row_id"].tolist() == list(range(N))
    test = bench["test"].set_index("row_id")
    assert [test.loc[i, "shortcut"] for i in (2, 5, 8)] == ["formal"] * 3  # label 2: always formal
    assert [test.loc[i, "text"] for i in (2, 5, 8)] == [
        f"Test review {i} of the café." for i in (2, 5, 8)
    ]
    styles = bench.manifest["preparation"]["test"]["styles"]
    assert styles["formal"]["kept_original"] == 3 and styles["formal"]["dropped"] == 0
    assert bench.manifest["splits"]["test"]["details"]["styles"]["formal"]["kept_original"] == 3
    assert (
        bench.manifest["splits"]["anti_test"]["details"]["styles"]["formal"]["kept_original"] == 0
    )


def test_error_policy_names_the_style_the_count_and_the_first_row(data_files, tmp_path):
    frame, paths = data_files
    options = file_options(tmp_path, frame, on_failed="error", casual_empty=(11, 4))
    with pytest.raises(
        DataError,
        match=r"The casual rewrites of the train data have 2 failed or empty rows \(first: row 4\)",
    ):
        build(paths, options)


def test_a_missing_row_is_a_count_error_naming_the_first_mismatch(data_files, tmp_path):
    frame, paths = data_files
    with pytest.raises(
        DataError,
        match=r"formal rewrite file '.*formal_train.csv' has 59 rows but the train data file has 60; "
        r"first mismatching row: row 12 has label '1' where the data has 0\. .*add a row_id column",
    ):
        build(paths, file_options(tmp_path, frame, drop_row=12))


def test_rows_out_of_order_are_an_alignment_error(data_files, tmp_path):
    frame, paths = data_files
    with pytest.raises(
        DataError,
        match=r"does not match the train data: row 4 has label '2' where the data has 1\. "
        r"Rows must be in the data file's order",
    ):
        build(paths, file_options(tmp_path, frame, swap=(4, 5)))
    paired = pd.DataFrame({"label": frame.label, "text": frame.text, "rewritten": "formal text"})
    paired.iloc[[0, 3]] = paired.iloc[[3, 0]].to_numpy()  # same label: only the text tells
    paired.to_csv(tmp_path / "paired.csv", index=False, encoding="latin-1")
    options = file_options(tmp_path, frame)
    options["rewrites"]["formal"] = str(tmp_path / "paired.csv")
    with pytest.raises(
        DataError, match=r"row 0 has text 'Review 3 of the café\.' where the data has 'Review 0"
    ):
        build(paths, options)


def test_row_ids_align_a_file_in_any_order(data_files, tmp_path):
    frame, paths = data_files
    bench = build(paths, file_options(tmp_path, frame, row_ids=list(range(N))))
    assert (
        bench["test"]["text"].str.removeprefix("[formal] ").str.removeprefix("[casual] ")
        == bench["original_test"]["text"]
    ).all()
    assert (
        bench.manifest["preparation"]["test"]["styles"]["casual"]["source"]["aligned_by"]
        == "row_id"
    )
    missing = [i for i in range(N) if i != 5]
    with pytest.raises(
        DataError,
        match=r"does not match the train data: row 5 is missing\. Row ids must be the data's",
    ):
        build(paths, file_options(tmp_path, frame, drop_row=5, row_ids=missing))


def test_unsupported_style_and_bad_options(data_files, tmp_path):
    frame, paths = data_files
    options = file_options(tmp_path, frame)
    del options["rewrites"]["casual"]
    with pytest.raises(
        ConfigError,
        match=r"^The file rewriter does not support the style 'casual' of the register shortcut; "
        r"it supports: formal, original\. Give its files with -o",
    ):
        build(paths, options)
    with pytest.raises(
        UnknownComponentError, match="Unknown rewriter 'rulez'. Did you mean 'rules'"
    ):
        build(paths, {"rewriter": "rulez"})
    with pytest.raises(ConfigError, match="'rewrites' option applies to rewriters that take it"):
        build(paths, {"rewrites": {"formal": "x.csv"}})
    with pytest.raises(ConfigError, match="'on_failed' parameter must be one of 'drop'"):
        build(paths, {"on_failed": "skip"})
    with pytest.raises(ConfigError, match="gives no test file for the style 'formal'"):
        build(paths, {"rewriter": "file", "rewrites": {"formal": {"train": "f.csv"}}})
    with pytest.raises(
        ConfigError, match="'rewrites' parameter must be one of .*Did you mean 'formal'"
    ):
        build(paths, {"rewriter": "file", "rewrites": {"formall": "f.csv"}})


def test_same_build_twice_is_byte_identical(data_files, tmp_path):
    frame, paths = data_files
    for name, options in (
        ("rules", {}),
        ("file", file_options(tmp_path, frame, formal_empty=(1,))),
    ):
        folders = [
            build(paths, options, strength=0.8, val_size=6).save(tmp_path / f"{name}{i}")
            for i in range(2)
        ]
        assert folder_bytes(folders[0]) == folder_bytes(folders[1])


def test_inject_without_prepare_rewrites_on_demand(data_files, tmp_path):
    frame, _ = data_files
    texts = role_frame(frame, "test")["text"].tolist()
    labels = LabelSpace((0, 1, 2))
    plan = SplitPlan(
        ranks=labels.ranks(frame["label"]),
        labels=labels,
        strength=1.0,
        role="test",
        row_ids=np.arange(N),
    )
    shortcut = make_shortcut("register", file_options(tmp_path, frame))
    injection = shortcut.inject(texts, plan, np.random.SeedSequence(0))
    assert (
        injection.texts[2] == "[formal] Test review 2 of the café."
        and injection.shortcut[0] == "casual"
    )
    failing = make_shortcut("register", file_options(tmp_path, frame, formal_empty=(2,)))
    with pytest.raises(DataError, match="rows can only be dropped before the splits are made"):
        failing.inject(texts, plan, np.random.SeedSequence(0))
