"""A word swapped for a masked language model's guess (TextAttack's ``WordSwapMaskedLM``, BAE-R):
an optional class, since it needs ``transformers`` and a fill-mask checkpoint on disk.

Per row, one word (letters only, at least ``min_length`` of them) is chosen with the row's seeded
draw; the text with that word masked goes through the model, and the word becomes the highest
scoring whole-word token among the ``top_k`` guesses that differs from it (in the word's case).
The guess is the argmax, so the seed picks the position only. Nothing is downloaded: ``model`` is
a local folder (``save_pretrained`` of e.g. ``bert-base-uncased``), read with
``local_files_only``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from shortcutlab.errors import ConfigError
from shortcutlab.params import check_positive_int, quoted
from shortcutlab.perturb.base import Perturbation, Perturbed, uniforms
from shortcutlab.perturb.words import in_case_of

_WORD = re.compile(r"[^\W\d_]+")


class MaskedWordSwap(Perturbation):
    """One word per row replaced by a masked language model's best other guess."""

    name = "word-swap-mlm"

    def __init__(
        self, model: str | None = None, top_k: int = 10, min_length: int = 3, batch_size: int = 32
    ) -> None:
        self.model = model
        self.top_k = top_k
        self.min_length = min_length
        self.batch_size = batch_size

    def check(self, label_values: Sequence[Any]) -> None:
        for name in ("top_k", "min_length", "batch_size"):
            check_positive_int(self.name, name, getattr(self, name))
        if not isinstance(self.model, str) or not Path(self.model).expanduser().is_dir():
            raise ConfigError(
                f"{self.name} needs model=FOLDER, a fill-mask checkpoint saved on disk (nothing "
                f"is downloaded); got {quoted(self.model)}. Save one with "
                "AutoModelForMaskedLM.from_pretrained(NAME).save_pretrained(FOLDER) and the tokenizer beside it."
            )
        try:
            import transformers  # noqa: F401
        except ImportError as exc:
            raise ConfigError(
                f"{self.name} needs transformers. Install it with: pip install 'shortcutlab[torch]'."
            ) from exc

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        chosen = self._chosen_words(texts, key)
        rows = [row for row, span in enumerate(chosen) if span is not None]
        guesses = self._guesses([texts[row] for row in rows], [chosen[row] for row in rows])
        after = list(texts)
        for row, guess in zip(rows, guesses, strict=True):
            start, end = chosen[row]  # type: ignore[misc]
            if guess is not None:
                after[row] = (
                    texts[row][:start] + in_case_of(texts[row][start:end], guess) + texts[row][end:]
                )
        return Perturbed.compared(texts, after)

    def _chosen_words(self, texts: list[str], key: np.uint64) -> list[tuple[int, int] | None]:
        """Each row's word to mask (start, end), drawn with the row's own uniform."""
        draws = uniforms(key, np.arange(len(texts)))
        chosen: list[tuple[int, int] | None] = []
        for text, draw in zip(texts, draws, strict=True):
            words = [m.span() for m in _WORD.finditer(text) if len(m[0]) >= self.min_length]
            chosen.append(words[int(draw * len(words))] if words else None)
        return chosen

    def _guesses(self, texts: list[str], spans: list[tuple[int, int]]) -> list[str | None]:
        """The best whole-word guess other than the masked word, per text (None: no such guess)."""
        import torch

        tokenizer, model = _load(str(Path(self.model or "").expanduser().resolve()))
        out: list[str | None] = []
        for begin in range(0, len(texts), self.batch_size):
            batch = list(zip(texts, spans, strict=True))[begin : begin + self.batch_size]
            masked = [t[:s] + tokenizer.mask_token + t[e:] for t, (s, e) in batch]
            encoded = tokenizer(masked, return_tensors="pt", padding=True, truncation=True)
            with torch.no_grad():
                logits = model(**encoded).logits
            rows, positions = (encoded["input_ids"] == tokenizer.mask_token_id).nonzero(
                as_tuple=True
            )
            best = logits[rows, positions].topk(self.top_k, dim=-1).indices.tolist()
            found: dict[int, str | None] = {}
            for row, ids in zip(rows.tolist(), best, strict=True):
                original = batch[row][0][slice(*batch[row][1])].lower()
                found[row] = next(
                    (
                        w
                        for w in map(tokenizer.convert_ids_to_tokens, ids)
                        if _whole_word(w, original)
                    ),
                    None,
                )
            out += [found.get(row) for row in range(len(batch))]  # truncated away: no guess
        return out

    def provenance(self) -> dict[str, str]:
        import transformers

        return {
            **super().provenance(),
            "model_library": "transformers",
            "model_library_version": transformers.__version__,
            "model": str(self.model),
        }


def _whole_word(token: str, original: str) -> bool:
    return bool(_WORD.fullmatch(token)) and token.lower() != original


@cache
def _load(folder: str) -> tuple[Any, Any]:
    """The tokenizer and fill-mask model of a local folder, once per process."""
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True)
    model = AutoModelForMaskedLM.from_pretrained(folder, local_files_only=True).eval()
    if tokenizer.mask_token is None:
        raise ConfigError(
            f"The tokenizer in {quoted(folder)} has no mask token: give a fill-mask model."
        )
    return tokenizer, model
