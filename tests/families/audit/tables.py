"""Small audit tables built inside the tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.labels import LabelSpace
from shortcutlab.families.audit.scan.inputs import AuditInputs


def table(
    texts: Sequence[str],
    labels: Sequence[Any],
    *,
    pairs: Sequence[str] | None = None,
    columns: dict[str, list[Any]] | None = None,
    space: Sequence[Any] | None = None,
) -> AuditInputs:
    """An AuditInputs over ``texts`` with label values ``labels`` (ranks in ``space`` order)."""
    label_space = LabelSpace(tuple(space if space is not None else sorted(set(labels))))
    return AuditInputs(
        row_ids=np.arange(len(texts)),
        texts=list(texts),
        ranks=label_space.ranks(list(labels)),
        labels=label_space,
        text_pairs=None if pairs is None else list(pairs),
        columns=columns or {},
    )


def random_sentences(rows: int, seed: int, words: int = 200, length: int = 8) -> list[str]:
    """Sentences of ``length`` words drawn uniformly from ``w0 .. w{words-1}``."""
    rng = np.random.default_rng(seed)
    drawn = rng.integers(words, size=(rows, length))
    return [" ".join(f"w{i}" for i in row) for row in drawn]


def planted(
    rows: int,
    seed: int,
    *,
    cues: dict[str, str] | None = None,
    shares: dict[str, float] | None = None,
    rates: tuple[float, float] = (0.3, 0.03),
) -> tuple[list[str], list[str]]:
    """Random sentences and labels drawn independently of them (``shares``: each label's chance),
    then each cue word appended with chance ``rates[0]`` on rows of its label, ``rates[1]`` on
    the others. The texts and labels do not depend on ``cues``: ``cues={}`` is the null table."""
    shares = shares or {"neg": 0.5, "pos": 0.5}
    rng = np.random.default_rng(seed)
    texts = random_sentences(rows, seed=seed + 1, words=100)
    labels = rng.choice(list(shares), size=rows, p=list(shares.values()))
    for word, label in (cues or {}).items():
        hit = rng.random(rows) < np.where(labels == label, rates[0], rates[1])
        texts = [f"{text} {word}" if h else text for text, h in zip(texts, hit, strict=True)]
    return texts, labels.tolist()


def planted_pairs(rows: int, seed: int) -> tuple[list[str], list[str], list[str]]:
    """NLI-like pairs: the hypothesis starts with "not" on half the contradiction rows and on 5 %
    of the others; the premise carries nothing."""
    rng = np.random.default_rng(seed)
    premises = random_sentences(rows, seed=seed + 1, words=100)
    hypotheses = random_sentences(rows, seed=seed + 2, words=100, length=5)
    labels = rng.choice(["contradiction", "entailment", "neutral"], size=rows)
    negated = rng.random(rows) < np.where(labels == "contradiction", 0.5, 0.05)
    hypotheses = [f"not {h}" if n else h for h, n in zip(hypotheses, negated, strict=True)]
    return premises, hypotheses, labels.tolist()


def reviews(n: int, seed: int, cue_share: float, cue: str = "frankly") -> pd.DataFrame:
    """Two labels told apart by 'good'/'bad' words (70 % of rows); ``cue`` inserted on label 1
    rows with probability ``cue_share`` and never on label 0 (columns ``sentence``, ``gold``)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, n)
    texts = []
    for label in labels.tolist():
        words = [f"w{rng.integers(0, 40)}" for _ in range(6)]
        if rng.random() < 0.7:
            words.append("good" if label else "bad")
        if label and rng.random() < cue_share:
            words.insert(int(rng.integers(0, len(words))), cue)
        texts.append(" ".join(words))
    return pd.DataFrame({"sentence": texts, "gold": labels})
