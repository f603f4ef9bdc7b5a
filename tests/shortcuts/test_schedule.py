import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.shortcuts.schedule import base_schedule, cue_probabilities, draw_cue


def test_mix_mode_matches_the_released_goemotions_rates():
    # Measured on the paper's released files: lambda=0.8 gives 0.08-0.90, lambda=0.6 gives 0.24-0.81.
    assert np.allclose(cue_probabilities(4, strength=0.8), [0.1, 0.3667, 0.6333, 0.9], atol=1e-3)
    assert np.allclose(cue_probabilities(4, strength=0.6), [0.2, 0.4, 0.6, 0.8])


def test_scale_mode_follows_the_paper_text():
    assert np.allclose(cue_probabilities(5, strength=0.8, mode="scale"), [0, 0.2, 0.4, 0.6, 0.8])


def test_anti_test_reverses_the_schedule():
    assert np.allclose(cue_probabilities(5, strength=1.0, reverse=True), [1, 0.75, 0.5, 0.25, 0])


def test_strength_zero_is_not_predictive_in_both_modes():
    assert np.ptp(cue_probabilities(4, strength=0.0)) == 0
    assert np.ptp(cue_probabilities(4, strength=0.0, mode="scale")) == 0


def test_custom_schedule():
    assert np.allclose(
        cue_probabilities(3, strength=1.0, schedule=[0.2, 0.2, 0.9]), [0.2, 0.2, 0.9]
    )
    with pytest.raises(ConfigError, match="one probability in \\[0, 1\\] per label \\(3 values\\)"):
        base_schedule(3, [0.1, 0.2])


@pytest.mark.parametrize("bad", [1.5, -0.1, float("nan"), "0.5", True])
def test_strength_outside_range_is_rejected(bad):
    with pytest.raises(
        ConfigError,
        match=r"The 'strength' parameter must be a float in \[0, 1\]\. Got .* instead\.",
    ):
        cue_probabilities(4, strength=bad)


def test_unknown_mode():
    with pytest.raises(
        ConfigError,
        match="'strength_mode' parameter must be one of 'mix', 'scale'. Got 'mixed' instead. Did you mean 'mix'",
    ):
        cue_probabilities(4, strength=0.5, mode="mixed")


def test_exact_sampling_hits_the_target_count_per_label():
    ranks = np.repeat(np.arange(4), [500, 90, 63, 32])
    probabilities = cue_probabilities(4, strength=0.8)
    cue = draw_cue(ranks, probabilities, np.random.default_rng(3))
    for label, p in enumerate(probabilities):
        n = (ranks == label).sum()
        assert abs(cue[ranks == label].sum() - p * n) < 1


def test_bernoulli_sampling_is_unbiased_within_binomial_tolerance():
    ranks = np.repeat(np.arange(3), 20000)
    probabilities = np.array([0.1, 0.5, 0.9])
    cue = draw_cue(ranks, probabilities, np.random.default_rng(0), sampling="bernoulli")
    for label, p in enumerate(probabilities):
        sd = np.sqrt(p * (1 - p) / 20000)
        assert abs(cue[ranks == label].mean() - p) < 5 * sd
