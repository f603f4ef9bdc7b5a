"""a2r and cr on the transformer backend, with a tiny random BERT trained here (no download)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from shortcutlab.errors import ConfigError  # noqa: E402
from shortcutlab.mitigations import make_mitigation  # noqa: E402
from shortcutlab.mitigations.rationale_bow import BowBackend  # noqa: E402
from shortcutlab.mitigations.rationale_masks import collate  # noqa: E402
from shortcutlab.mitigations.rationale_transformer import EncoderBackend  # noqa: E402
from shortcutlab.models import make_model  # noqa: E402
from shortcutlab.models.tiny import build_tiny_bert  # noqa: E402

from .test_rationale import context, cue_accuracy, cue_coverage, cue_rows, one_torch_thread  # noqa: E402, F401


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    return str(
        build_tiny_bert(
            tmp_path_factory.mktemp("rationale") / "bert", cue_rows(300, 9)[0], vocab_size=300
        )
    )


def settings(path: str, **overrides) -> dict:
    return {"path": path, "epochs": 5, "lr": 3e-3, "batch_size": 16, **overrides}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["a2r", "cr"])
def test_the_rationale_covers_the_cue_with_a_tiny_bert(tiny_bert, name):
    """Seed 0 (the context's). With a random tiny BERT, cr at some seeds locks into encoding one
    label in the mask itself (keep nothing, or keep the first word, for that label's rows) and
    covers the cue on only about 60% of the rows: the interlocking A2R was designed against;
    a2r covered it on every row at each seed tried (0-2), as both did on bow-mlp (0-4)."""
    predictor = make_mitigation(name).fit(context("transformer", settings(tiny_bert)))
    texts, labels, cues = cue_rows(120, 2)
    assert cue_coverage(predictor.rationales(texts), cues) >= 0.8
    probabilities = predictor.predict_proba(texts)
    assert probabilities.shape == (120, 3)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    assert cue_accuracy(probabilities, labels, cues) >= 0.8
    for text, spans in zip(texts, predictor.rationales(texts), strict=True):
        assert all(0 <= start < end <= len(text) for start, end in spans)
    predictor.close()


def test_same_seed_gives_identical_output_with_a_tiny_bert(tiny_bert):
    texts = cue_rows(40, 6)[0]

    def run() -> tuple[bytes, list]:
        predictor = make_mitigation("cr").fit(context("transformer", settings(tiny_bert, epochs=1)))
        return predictor.predict_proba(texts).tobytes(), predictor.rationales(texts)

    assert run() == run()


def _networks(tiny_bert: str):
    texts = cue_rows(16, 7)[0]
    bow_model = make_model("bow-mlp", {"min_count": 1})
    bow = BowBackend(bow_model, texts)
    encoder = EncoderBackend(make_model("transformer", {"path": tiny_bert}), texts)
    return texts, [bow, encoder]


def test_the_predictor_reads_only_the_kept_tokens(tiny_bert):
    """Changing every dropped token leaves the rationale predictor's logits unchanged."""
    texts, backends = _networks(tiny_bert)
    generator = torch.Generator().manual_seed(0)
    for backend in backends:
        network = backend.network(3, True).eval()
        batch = collate(backend.encode(texts), backend.pad_id, "cpu")
        mask = (torch.rand(batch.ids.shape, generator=generator) < 0.3) & batch.selectable
        dropped = batch.selectable & ~mask
        replaced = torch.randint(2, 50, batch.ids.shape, generator=generator)
        other = collate(backend.encode(texts), backend.pad_id, "cpu")
        other.ids = torch.where(dropped, replaced, batch.ids)
        if other.bigrams is not None:  # the bigrams of replaced words change too
            other.bigrams = torch.where(dropped[:, :-1] | dropped[:, 1:], 5, batch.bigrams)
        assert (other.ids != batch.ids).any()
        with torch.no_grad():
            before = network.predict(batch, mask.float())
            after = network.predict(other, mask.float())
            # ...while the full-input predictor does read them.
            weights = torch.softmax(torch.zeros(batch.ids.shape), -1) * batch.selectable
            assert not torch.allclose(
                network.attend(batch, weights), network.attend(other, weights)
            )
        torch.testing.assert_close(before, after, rtol=0, atol=1e-5)


def test_transformer_parameters_the_rationale_models_cannot_honour_are_refused(tiny_bert):
    with pytest.raises(
        ConfigError, match="^The a2r mitigation does not support the transformer 'lora'"
    ):
        make_mitigation("a2r").fit(context("transformer", settings(tiny_bert, lora={"r": 4})))
    with pytest.raises(
        ConfigError, match="^The cr mitigation does not support the transformer 'grad_accum'"
    ):
        make_mitigation("cr").fit(context("transformer", settings(tiny_bert, grad_accum=2)))
    with pytest.raises(ConfigError, match="transformer model needs a 'path' parameter"):
        make_mitigation("cr").fit(context("transformer", {}))
