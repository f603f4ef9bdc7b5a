"""Rewriters: the rules rewriter's styles are learnable and keep the opinion words; registry."""

import gzip
import re

import pytest
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from shortcutlab.corpus import generate_reviews
from shortcutlab.corpus import lexicon as lx
from shortcutlab.errors import ConfigError
from shortcutlab.shortcuts import SHORTCUTS
from shortcutlab.shortcuts.rewriters import REWRITERS, STYLES, make_rewriter
from shortcutlab.shortcuts.rewriters.files import read_rewrite_file

OPINION_WORDS = sorted(
    {w for words in (*lx.ADJECTIVES.values(), *lx.GENERIC_ADJECTIVES.values()) for w in words}
)
_OPINION = re.compile(
    r"(?<![\w-])(" + "|".join(map(re.escape, OPINION_WORDS)) + r")(?![\w-])", re.I
)


@pytest.fixture(scope="module")
def reviews():
    texts = generate_reviews(900, seed=11)["text"].tolist()
    return texts[:600], texts[600:]


def _rewrite(texts, style):
    return make_rewriter("rules").rewrite(texts, style, role="train", row_ids=range(len(texts)))


@pytest.mark.parametrize("name", ["register", "author", "bible"])
def test_a_classifier_tells_the_two_styles_apart_on_held_out_texts(reviews, name):
    fit, held_out = reviews
    style_a, style_b = SHORTCUTS.get(name).styles
    model = make_pipeline(
        TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True),
        LogisticRegression(C=10, max_iter=2000),
    )
    model.fit(_rewrite(fit, style_a) + _rewrite(fit, style_b), [1] * len(fit) + [0] * len(fit))
    accuracy = model.score(
        _rewrite(held_out, style_a) + _rewrite(held_out, style_b),
        [1] * len(held_out) + [0] * len(held_out),
    )
    assert accuracy >= 0.95


@pytest.mark.parametrize("style", [s for s in STYLES if s != "original"])
def test_rules_keep_every_opinion_word_and_change_the_text(reviews, style):
    texts = reviews[1]
    rewritten = _rewrite(texts, style)
    for before, after in zip(texts, rewritten, strict=True):
        kept = {w.lower() for w in _OPINION.findall(before)}
        assert kept <= {w.lower() for w in _OPINION.findall(after)}, (before, after)
    changed = sum(a != b for a, b in zip(texts, rewritten, strict=True)) / len(texts)
    assert changed >= (0.5 if style == "hemingway" else 0.99)
    assert _rewrite(texts, style) == rewritten  # deterministic


def test_rules_examples_read_like_their_style():
    text = (
        "You can't buy a better one. It works. I got it for my son, but it is really loud to him."
    )
    out = {style: _rewrite([text], style)[0] for style in STYLES}
    assert "cannot purchase" in out["formal"] and "obtained" in out["formal"]
    assert "can't buy" in out["casual"] and out["casual"] == out["casual"].lower().replace(
        " i ", " I "
    )
    assert "hou canst not buy" in out["shakespeare"] and "'tis" in out["shakespeare"]
    assert "worketh" in out["shakespeare"] and "really" not in out["hemingway"]
    assert out["bible"].count("And ") + out["bible"].count("For ") >= 1 and "unto" in out["bible"]
    assert out["original"] == text
    assert _rewrite(["  "], "formal") == [None]


def test_rewriter_registry_and_unsupported_styles():
    assert {"rules", "file"} <= set(REWRITERS)
    with pytest.raises(ConfigError, match="The rules rewriter does not support the style 'pirate'"):
        _rewrite(["Hi."], "pirate")
    with pytest.raises(ConfigError, match="has no option 'model'"):
        make_rewriter("rules", {"model": "x"})


def test_file_layouts(tmp_path):
    release = tmp_path / "release.csv.gz"
    release.write_bytes(
        gzip.compress(b'label,text,rewritten\n0,"\n""Quoted."" ",True\n1,,True\n2,x,False\n')
    )
    read = read_rewrite_file(release)
    assert read.layout == "release" and read.rewrites == ['"Quoted."', None, None]
    paired = tmp_path / "paired.tsv"
    paired.write_text("row_id\ttext\trewritten\n5\torig\tnew\n")
    read = read_rewrite_file(paired)
    assert (read.layout, read.originals, read.rewrites, read.row_ids) == (
        "paired",
        ["orig"],
        ["new"],
        [5],
    )
    bad = tmp_path / "bad.csv"
    bad.write_text("row_id,text\n1,a\n1,b\n")
    with pytest.raises(
        ValueError, match="must hold unique integer row ids of the data; row 1 has '1'"
    ):
        read_rewrite_file(bad)
    (tmp_path / "x.parquet").write_bytes(b"PAR1")
    with pytest.raises(ConfigError, match="must be CSV or TSV"):
        read_rewrite_file(tmp_path / "x.parquet")
