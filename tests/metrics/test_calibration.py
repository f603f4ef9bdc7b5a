"""Expected calibration error against values worked out by hand."""

import math

import numpy as np
import pytest

from shortcutlab.metrics import expected_calibration_error

# Six rows with a confidence and one without. With 10 bins of width 0.1 (1.0 joins the top bin):
#   bin 9: 0.95 right, 1.00 right  -> accuracy 1.0, confidence 0.975, gap 0.025, 2 rows
#   bin 8: 0.85 right, 0.85 wrong  -> accuracy 0.5, confidence 0.85,  gap 0.35,  2 rows
#   bin 5: 0.55 right              -> gap 0.45, 1 row
#   bin 2: 0.25 wrong              -> gap 0.25, 1 row
# ECE = (2 * 0.025 + 2 * 0.35 + 0.45 + 0.25) / 6 = 1.45 / 6
CONFIDENCE = np.array([0.95, 0.85, 0.85, 0.55, 0.25, 1.0, np.nan])
CORRECT = np.array([1, 1, 0, 1, 0, 1, 1])


def test_ten_bins_by_hand():
    ece = expected_calibration_error(confidence=CONFIDENCE, correct=CORRECT)
    assert ece == pytest.approx(1.45 / 6, abs=1e-12)


def test_two_bins_by_hand():
    # bin 1 holds five rows: accuracy 4/5, confidence 4.2/5, gap 0.04; bin 0: 0.25 wrong.
    ece = expected_calibration_error(confidence=CONFIDENCE, correct=CORRECT, bins=2)
    assert ece == pytest.approx((5 * 0.04 + 0.25) / 6, abs=1e-12)


def test_calibrated_overconfident_and_unknown():
    four_of_five = np.array([1, 1, 1, 1, 0])
    assert expected_calibration_error(confidence=np.full(5, 0.8), correct=four_of_five) == 0.0
    assert expected_calibration_error(
        confidence=np.full(4, 0.9), correct=np.zeros(4)
    ) == pytest.approx(0.9)
    assert math.isnan(expected_calibration_error(confidence=np.full(3, np.nan), correct=np.ones(3)))
