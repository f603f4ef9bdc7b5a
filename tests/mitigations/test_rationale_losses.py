"""The rationale models' loss terms, against values worked out by hand or by scipy."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from scipy.spatial.distance import jensenshannon  # noqa: E402

from shortcutlab.mitigations.rationale_masks import (  # noqa: E402
    TokenBatch,
    TokenRow,
    continuity_penalty,
    js_divergence,
    kept_mask,
    rationale_spans,
    sample_mask,
    sparsity_penalty,
)
from shortcutlab.mitigations.rationale_objectives import (  # noqa: E402
    CRObjective,
    SelectorPenalties,
)


def test_js_divergence_matches_scipy():
    logits_p = torch.tensor([[2.0, 0.0, -1.0], [0.5, 0.5, 3.0]], dtype=torch.float64)
    logits_q = torch.tensor([[0.0, 1.0, 0.0], [-2.0, 1.0, 0.0]], dtype=torch.float64)
    p, q = torch.softmax(logits_p, -1).numpy(), torch.softmax(logits_q, -1).numpy()
    expected = np.mean([jensenshannon(a, b) ** 2 for a, b in zip(p, q, strict=True)])
    assert float(js_divergence(logits_p, logits_q)) == pytest.approx(expected, rel=1e-9)
    assert float(js_divergence(logits_p, logits_p)) == pytest.approx(0.0, abs=1e-12)


def test_sparsity_and_continuity_count_only_selectable_tokens():
    mask = torch.tensor([[1.0, 0.0, 1.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]])
    selectable = torch.tensor([[True, True, True, True, False], [True, True, False, False, False]])
    # Row 1 keeps 3 of 4 tokens (|0.75 - 0.25| = 0.5), row 2 none of 2 (0.25).
    assert float(sparsity_penalty(mask, selectable, 0.25)) == pytest.approx((0.5 + 0.25) / 2)
    # Row 1 switches twice between its 4 tokens (2/4), row 2 never.
    assert float(continuity_penalty(mask, selectable)) == pytest.approx((0.5 + 0.0) / 2)


def test_sampled_mask_is_hard_but_carries_the_relaxed_gradient():
    logits = torch.tensor([[3.0, -3.0, 0.2]], requires_grad=True)
    selectable = torch.tensor([[True, True, False]])
    mask = sample_mask(logits, selectable, 1.0, torch.full((1, 3), 0.5))
    assert mask.tolist() == [[1.0, 0.0, 0.0]]  # u = 0.5 is zero noise; the third is not selectable
    mask.sum().backward()
    assert logits.grad[0, 0] > 0 and logits.grad[0, 1] > 0 and logits.grad[0, 2] == 0
    assert kept_mask(logits.detach(), selectable).tolist() == [[1.0, 0.0, 0.0]]


class _TwoTokenPredictor:
    """P(label 0) = 0.9 when token 0 is kept, else 0.5; token 1 changes nothing."""

    def selector_logits(self, batch):
        return torch.tensor([[5.0, 5.0, -5.0]])

    def predict(self, batch, mask):
        p = 0.5 + 0.4 * mask[:, 0]
        return torch.log(torch.stack([p, 1 - p], dim=-1))


def test_cr_rewards_the_drop_in_the_label_probability_when_a_kept_token_is_removed():
    batch = TokenBatch(
        torch.tensor([[4, 5, 6]]),
        torch.ones(1, 3, dtype=torch.bool),
        torch.ones(1, 3, dtype=torch.bool),
        None,
    )
    targets = torch.tensor([0])
    penalties = SelectorPenalties(0.5, 0.0, 0.0, 1.0)

    def zero_noise(shape):
        return torch.full(shape, 0.5)

    def loss(weight: float, draws: int) -> float:
        objective = CRObjective(penalties, weight, draws)
        return float(objective(_TwoTokenPredictor(), batch, targets, zero_noise))

    cross_entropy = -np.log(0.9)
    assert loss(0.0, 2) == pytest.approx(cross_entropy)
    # Both kept tokens dropped in turn: effects 0.9 - 0.5 and 0.9 - 0.9, mean 0.2.
    assert loss(1.0, 2) == pytest.approx(cross_entropy - 0.2)
    # More draws than kept tokens: only the two real ones count.
    assert loss(2.0, 3) == pytest.approx(cross_entropy - 0.4)


def test_rationale_spans_merge_touching_word_pieces_only():
    row = TokenRow(
        np.array([1, 2, 3, 4, 5, 6]),
        [(0, 0), (0, 3), (3, 8), (9, 12), (13, 15), (0, 0)],  # [CLS] hon ##estly not so [SEP]
        np.array([False, True, True, True, True, False]),
    )
    assert rationale_spans(row, np.array([0, 1, 1, 0, 1, 0], dtype=bool)) == [(0, 8), (13, 15)]
    assert rationale_spans(row, np.array([0, 0, 1, 1, 0, 0], dtype=bool)) == [(3, 8), (9, 12)]
    assert rationale_spans(row, np.zeros(6, dtype=bool)) == []
