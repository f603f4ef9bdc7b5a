"""Every bootstrap interval, p-value and test statistic gives, to the last bit, what it gave before
the statistics moved into one home (``recorded_cases``: the inputs; ``recorded_statistics.json``:
the outputs recorded before the move). The cases scipy and scikit-learn took over from hand-written
code (``approx_``) agree to 1e-12."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.metrics.recorded_cases import cases, fingerprint

RECORDED = json.loads((Path(__file__).parent / "recorded_statistics.json").read_text("utf-8"))
CASES = cases()


def test_every_recorded_case_is_still_run():
    assert sorted(CASES) == sorted(RECORDED)


@pytest.mark.parametrize("name", sorted(n for n in RECORDED if not n.startswith("approx_")))
def test_output_is_bit_identical_to_the_recorded_one(name):
    assert fingerprint(CASES[name]()) == RECORDED[name]


@pytest.mark.parametrize("name", sorted(n for n in RECORDED if n.startswith("approx_")))
def test_library_statistic_agrees_with_the_hand_written_one(name):
    def floats(value):
        if isinstance(value, list):
            return [floats(v) for v in value]
        return float(value)

    found, recorded = floats(fingerprint(CASES[name]())), floats(RECORDED[name])
    assert len(found) == len(recorded)
    for mine, theirs in zip(found, recorded, strict=True):
        assert mine == pytest.approx(theirs, abs=1e-12, nan_ok=True)
