"""How near a candidate's words are to its label's name, by the bundled sentence encoder.

Word-level cosine alone is weak (all-MiniLM-L6-v2 puts "frankly" at 0.40 from "joy", "lol" at
0.21 from "amusement"), so the evidence is relative: the candidate is nearer its own label's
name than to every other label's by :data:`MIN_MARGIN`, and near it in absolute terms too. That
reads topical words ("election" → politics, "excited" → excitement) and leaves feelings to
:mod:`.affect`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

#: Cosine to the label's name at least this much above the nearest other label's name.
MIN_MARGIN = 0.08
#: And at least this near in absolute terms (unrelated words sit at 0.1–0.3).
MIN_COSINE = 0.30


@dataclass(frozen=True)
class Nearness:
    """A phrase's cosine to its label's name and the margin over the nearest other name."""

    cosine: float
    margin: float

    @property
    def related(self) -> bool:
        return self.margin >= MIN_MARGIN and self.cosine >= MIN_COSINE


def nearness(
    phrases: Sequence[tuple[str, int]], names: Mapping[int, str], *, encoder: object | None = None
) -> list[Nearness]:
    """For each (phrase, label rank), its :class:`Nearness` to ``names`` (label rank → name;
    needs at least two). ``encoder``: anything with ``embed(texts) -> array`` (default: the
    bundled all-MiniLM-L6-v2, run in NumPy: loading PyTorch for a few words cost 9 s of CPU)."""
    if not phrases or len(names) < 2:
        return []
    if encoder is None:
        from shortcutlab.models.numpy_encoder import bundled_encoder

        encoder = bundled_encoder()
    ranks = sorted(names)
    texts = [phrase for phrase, _ in phrases] + [names[rank] for rank in ranks]
    vectors = np.asarray(encoder.embed(texts), dtype=np.float64)  # type: ignore[attr-defined]
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    similarity = vectors[: len(phrases)] @ vectors[len(phrases) :].T
    found = []
    for row, (_, rank) in zip(similarity, phrases, strict=True):
        if rank not in names:
            found.append(Nearness(float("nan"), float("nan")))
            continue
        own = ranks.index(rank)
        others = np.delete(row, own)
        found.append(Nearness(float(row[own]), float(row[own] - others.max())))
    return found
