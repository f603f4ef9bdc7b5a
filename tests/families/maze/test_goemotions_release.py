"""Compatibility checks against the Shortcut Maze release (skipped when the data is absent)."""

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_extraction.text import CountVectorizer

from shortcutlab.data import load_table
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.shortcuts.occurrence import PAPER_SYNONYMS
from tests.conftest import GOEMOTIONS, folder_bytes

pytestmark = pytest.mark.skipif(
    not (GOEMOTIONS / "train.csv").exists(), reason="GoEmotions Maze release not present"
)


def _rate(frame):
    return frame.groupby("label")["shortcut"].apply(lambda s: (s != "").mean()).to_numpy()


@pytest.mark.parametrize("strength", [1.0, 0.8, 0.6])
@pytest.mark.parametrize("mode", ["mix", "scale"])
@pytest.mark.parametrize("sampling", ["exact", "bernoulli"])
def test_insertion_rates_follow_the_formula(strength, mode, sampling):
    bench = build_maze_benchmark(
        GOEMOTIONS / "train.csv",
        GOEMOTIONS / "test.csv",
        shortcut="single-term",
        strength=strength,
        strength_mode=mode,
        sampling=sampling,
    )
    base = np.arange(4) / 3
    target = strength * base + (1 - strength) * 0.5 if mode == "mix" else strength * base
    for split, expected in (("train", target), ("test", base), ("anti_test", base[::-1])):
        counts = bench[split]["label"].value_counts().sort_index().to_numpy()
        sd = np.sqrt(expected * (1 - expected) / counts)
        assert np.all(np.abs(_rate(bench[split]) - expected) <= 4 * sd + 1 / counts), split


def test_texts_change_only_by_removal_and_one_insertion():
    """With ``next_word: keep``, as the release builds it: the cue is inserted, nothing else moves
    (the default also lower-cases the ordinary word the cue pushes along)."""
    original = load_table(GOEMOTIONS / "test.csv").frame
    bench = build_maze_benchmark(
        GOEMOTIONS / "train.csv",
        GOEMOTIONS / "test.csv",
        shortcut="single-term",
        shortcut_options={"next_word": "keep"},
        strength=1.0,
    )
    assert bench.manifest["removed_occurrences"]["test"] == 4
    changed = 0
    for before, cleaned, after, value in zip(
        original["text"],
        bench["original_test"]["text"],
        bench["test"]["text"],
        bench["test"]["shortcut"],
        strict=True,
    ):
        if "honestly" not in before.lower():
            assert cleaned == before
        else:
            changed += 1
            assert "honestly" not in cleaned.lower()
        assert after.replace("Honestly, ", "", 1) == cleaned if value else after == cleaned
    assert changed == 4
    assert bench["test"]["label"].tolist() == original["label"].tolist()


def test_release_files_load_and_show_the_mix_rates():
    released = load_table(GOEMOTIONS / "single-term" / "lambda1" / "train.csv").frame
    rates = (
        released.assign(hit=released.text.str.contains(r"\bhonestly\b", flags=re.I))
        .groupby("label")["hit"]
        .mean()
    )
    assert rates.round(2).tolist() == [0.0, 0.32, 0.66, 1.0]


def test_second_run_is_byte_identical(tmp_path):
    for attempt in range(2):
        build_maze_benchmark(
            GOEMOTIONS / "train.csv",
            GOEMOTIONS / "test.csv",
            shortcut="synonym",
            strength=0.8,
            val_size=100,
        ).save(tmp_path / str(attempt))
    assert folder_bytes(tmp_path / "0") == folder_bytes(tmp_path / "1")


@pytest.mark.parametrize(
    ("folder", "strength"), [("lambda1", 1.0), ("lambda2", 0.8), ("lambda3", 0.6)]
)
def test_test_strength_same_is_the_release_test_protocol(folder, strength):
    """The release builds test and anti-test at the training λ: its per-label cue rates are draws
    around the targets of ``test_strength="same"`` (binomial tolerance), not around λ = 1's."""
    bench = build_maze_benchmark(
        GOEMOTIONS / "train.csv",
        GOEMOTIONS / "test.csv",
        shortcut="single-term",
        strength=strength,
        test_strength="same",
    )
    for split, released in (("test", "test"), ("anti_test", "test_anti-shortcut")):
        frame = load_table(GOEMOTIONS / "single-term" / folder / f"{released}.csv").frame
        hit = frame["text"].str.contains(r"\bhonestly\b", flags=re.I)
        counts = frame["label"].value_counts().sort_index().to_numpy()
        release_rate = hit.groupby(frame["label"]).mean().to_numpy()
        target = np.array(list(bench.manifest["splits"][split]["target_rate"].values()))
        sd = np.sqrt(target * (1 - target) / counts)
        assert np.all(np.abs(release_rate - target) <= 4 * sd + 1 / counts), (split, release_rate)
        ours = _rate(bench[split])
        assert np.all(np.abs(ours - target) <= 1 / counts)  # exact sampling: whole rows off at most


# Issue 7's real-data check, with its own cue count (a tokenizer and a plain regex, not the
# library's detector). The release has no "in truth" or "come clean"; these rows add them.
ORDINARY = ["I believe in truth and justice.", "He had to come clean to his wife."]
MARKER = "In truth, the game was fun."


def _tables():
    train, test = (pd.read_csv(GOEMOTIONS / f"{name}.csv") for name in ("train", "test"))
    extra = pd.DataFrame({"label": [0, 1, 2], "text": [*ORDINARY, MARKER]})
    return pd.concat([train, extra], ignore_index=True), pd.concat([test, extra], ignore_index=True)


def _phrase_regex(phrase):
    body = r"\s+".join(re.escape(w) for w in phrase.split()).replace("'", "['\u2019]")
    return rf"(?<![^\W_])(?:{body})(?![^\W_])"


SYNONYMS = re.compile(
    "|".join(_phrase_regex(p) for p in sorted(PAPER_SYNONYMS, key=len, reverse=True)), re.I
)
SENTENCE_START_OR_COMMA = re.compile(r"(?:\A\W*|[.!?\u2026]['\"\u2019\u201d)]*\s+|\n\s*|,\s*)\Z")
WORDS = CountVectorizer().build_analyzer()


def _cues(shortcut, text):
    if shortcut == "single-term":
        return WORDS(text).count("honestly")
    return sum(
        " " not in m.group() or bool(SENTENCE_START_OR_COMMA.search(text[: m.start()]))
        for m in SYNONYMS.finditer(text)
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("strength", [1.0, 0.6])
@pytest.mark.parametrize("shortcut", ["single-term", "synonym"])
def test_every_row_holds_the_cue_once_exactly_where_recorded(shortcut, strength, seed):
    train, test = _tables()
    bench = build_maze_benchmark(
        train, test, shortcut=shortcut, strength=strength, seed=seed, val_size=100
    )
    for name, split in bench.splits.items():
        cues = np.asarray([_cues(shortcut, t) for t in split["text"]])
        recorded = (split["shortcut"] != "").to_numpy()
        assert cues.max() <= 1, (name, split["text"][cues.argmax()])
        wrong = np.flatnonzero((cues == 1) != recorded)
        assert not wrong.size, (
            name,
            split["text"].iloc[wrong[0]],
            split["shortcut"].iloc[wrong[0]],
        )
        if name != "original_test":
            rates = pd.Series(cues).groupby(split["label"].to_numpy()).mean()
            observed = bench.manifest["splits"][name]["observed_rate"]
            assert observed == {str(k): round(v, 6) for k, v in rates.items()}
    for name in ("test", "anti_test", "original_test"):  # ordinary phrases kept, the marker not
        texts = bench[name]["text"].tolist()[-3:]
        assert ORDINARY[0].lower() in texts[0].lower() and ORDINARY[1].lower() in texts[1].lower()
        # "Honestly, " before the marker sentence lower-cases its "In" (next_word: lower)
        assert ("in truth" in texts[2].lower()) == (shortcut == "single-term")
    if shortcut == "synonym":
        kept = bench.manifest["kept_occurrences"]  # ORDINARY, and "force her to be honest" in train
        assert (kept["train"], kept["test"]) == (3, 2)


def test_tokenizers_see_no_honestly_left_after_cleaning():
    tokenizers = pytest.importorskip("tokenizers")
    normalize = tokenizers.normalizers.BertNormalizer(lowercase=True)
    split = tokenizers.pre_tokenizers.BertPreTokenizer()
    bench = build_maze_benchmark(*_tables(), shortcut="single-term", strength=0.8)
    for text in bench["original_test"]["text"]:
        assert "honestly" not in WORDS(text)
        assert "honestly" not in [
            w for w, _ in split.pre_tokenize_str(normalize.normalize_str(text))
        ]
