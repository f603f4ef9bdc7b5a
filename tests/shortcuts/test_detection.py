"""The C-speed detector against the word-by-word reference, and cleaning against tokenizers."""

import random
import re

import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer

from shortcutlab.errors import DataError
from shortcutlab.shortcuts import make_shortcut
from shortcutlab.shortcuts.detection import CueDetector, clean_verified
from shortcutlab.shortcuts.occurrence import PAPER_SYNONYMS
from shortcutlab.shortcuts.phrases import WordCounter, parse_phrase
from shortcutlab.shortcuts.scan import LoweredBytes, find_bytes
from shortcutlab.shortcuts.text_ops import PatternRemover

PHRASES = [*PAPER_SYNONYMS, "honestly speaking"]  # one phrase starting with another's word
BEFORE = ["", " ", "\n", ". ", ", ", "(", '"', "'", "\u2018", "\u201c", "\u2014", " - ", "-", "_",
          "x", "dis", "...", "! ", ": ", "; ", "\u00ab", "[", "2", "\u00e9", "\U0001f602 ", "  ",
          '." ', ") ", "--", ",\n", "\x00", "\xa0", "I\u0307 ", "\u2013 ", "\u2026 ", "\u212a"]  # fmt: skip
AFTER = [", ", ".", "!", ")", '"', "'", "\u2019", "\u201d", "-", "- ", " \u2014", "_x", "s", "'s",
         "\u2019s", "ly", "2", " ", "\n", "", "...", "?", ";", " -- ", ",", "]", "\u00bb.",
         "\u00e9", " \U0001f602", "\u0301", "\xa0", "\u2026", "\u2014", "\x00"]  # fmt: skip
JOINTS = [" ", " ", " ", "  ", "\n", "\t", "-", "\xa0", "\u2009", " \n", "_", ", "]
FILLER = ["the", "food", "was", "I", "believe", "and", "Honest", "truth", "clean", "speaking",
          "frank", "dishonestly", "in", "to", "be", "it", "fine", "Speaking", "plain", "terms"]  # fmt: skip


def _spelling(phrase, rng):
    words = phrase.split(" ")
    text = words[0] + "".join(rng.choice(JOINTS) + w for w in words[1:])
    if "'" in text and rng.random() < 0.5:
        text = text.replace("'", rng.choice(["\u2019", "\u2018"]))
    case = rng.random()
    return text.upper() if case < 0.15 else text[:1].upper() + text[1:] if case < 0.5 else text


def random_texts(seed, n=3000):
    """Texts mixing the phrases, in any case and spelling, with every kind of neighbour."""
    rng = random.Random(seed)
    texts = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(1, 5)):
            if rng.random() < 0.6:
                phrase = _spelling(rng.choice(PHRASES), rng)
                parts.append(rng.choice(BEFORE) + phrase + rng.choice(AFTER))
            else:
                parts.append(rng.choice(FILLER) + rng.choice([" ", ", ", ". ", "\n", "-"]))
        texts.append("".join(parts))
    return texts


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_detector_counts_exactly_like_the_word_counter(seed):
    phrases = [parse_phrase(p) for p in PHRASES]
    texts = random_texts(seed)
    counts = CueDetector(phrases).count(texts)
    reference = WordCounter(phrases)
    assert [(int(c), int(o)) for c, o in zip(counts.cue, counts.other, strict=True)] == [
        reference(t) for t in texts
    ]
    assert counts.cue.sum() > len(texts) / 2 and counts.other.sum() > len(texts) / 10  # both occur


def _bert_words():
    tokenizers = pytest.importorskip("tokenizers")
    normalize = tokenizers.normalizers.BertNormalizer(lowercase=True)
    split = tokenizers.pre_tokenizers.BertPreTokenizer()
    return lambda text: [w for w, _ in split.pre_tokenize_str(normalize.normalize_str(text))]


@pytest.mark.parametrize("seed", [3, 4])
def test_single_term_cleaning_leaves_no_token_that_sklearn_or_bert_sees(seed):
    texts = random_texts(seed)
    cleaning = make_shortcut("single-term").clean(texts)
    sklearn_words = CountVectorizer().build_analyzer()
    bert_words = _bert_words()
    assert sum("honestly" in sklearn_words(t) for t in texts) > 300  # the input has them
    assert not [t for t in cleaning.texts if "honestly" in sklearn_words(t)]
    assert not [t for t in cleaning.texts if "honestly" in bert_words(t)]
    assert [re.search(r"(?i)dishonestly", t) is not None for t in cleaning.texts] == [
        re.search(r"(?i)dishonestly", t) is not None for t in texts
    ]


@pytest.mark.parametrize("seed", [5, 6])
def test_synonym_cleaning_leaves_no_marker_and_counts_what_it_keeps(seed):
    texts = random_texts(seed)
    shortcut = make_shortcut("synonym", {"terms": PHRASES})
    cleaning = shortcut.clean(texts)
    reference = WordCounter([parse_phrase(p) for p in PHRASES])
    after = [reference(t) for t in cleaning.texts]
    assert [cue for cue, _ in after] == [0] * len(texts)
    assert cleaning.kept.tolist() == [other for _, other in after]
    assert cleaning.removed.sum() > len(texts) / 2 and cleaning.kept.sum() > 0


def test_cleaning_fails_loudly_when_a_cue_is_left():
    phrases = [parse_phrase("honestly")]
    blind = PatternRemover(r"(?!)", ["honestly"])  # finds nothing: the check must catch it
    with pytest.raises(DataError, match=r"Row 1 of the input still holds the single-term cue"):
        clean_verified(
            ["fine", "I (honestly) agree"], blind, CueDetector(phrases), cue="single-term"
        )


def test_lowered_bytes_find_rows_in_any_case_and_encoding():
    lowered = LoweredBytes.of(["HONESTLY yes", "caf\u00e9 honestly", "hon", "estly honestly"])
    positions, rows = lowered.find("honestly")
    assert sorted(zip(rows.tolist(), positions.tolist(), strict=True)) == [(0, 0), (1, 18), (3, 35)]
    assert lowered.rows_containing(["caf\u00e9", "yes"]).tolist() == [0, 1]
    assert sorted(find_bytes(np.frombuffer(b"aaaa", np.uint8), b"aa").tolist()) == [0, 1, 2]
    assert sorted(find_bytes(np.frombuffer(b"xhonestlyhonestly", np.uint8), b"honestly")) == [1, 9]
