"""The parameter checks take every spelling of a number Python's ``float()`` reads, from a
``-p KEY=VALUE`` option and from a grid spec alike (issue 34, class L): ``lr=5e-5`` is the
float 5e-05, not the text '5e-5' refused as "not a positive float"."""

from __future__ import annotations

import math

import pytest
from hypothesis import given

from shortcutlab.cli.options import parse_key_values
from shortcutlab.errors import ConfigError
from shortcutlab.params import check_positive_float, check_spec_numbers
from shortcutlab.yaml_reading import read_yaml
from tests.number_spellings import FLOAT_SPELLINGS


@given(spelled=FLOAT_SPELLINGS)
def test_a_p_option_reads_every_float_spelling_as_its_number(spelled):
    number = float(spelled)
    value = parse_key_values([f"lr={spelled}"], flag="-p")["lr"]
    assert type(value) is float and value == number
    if 0 < number < math.inf:
        check_positive_float("transformer", "lr", value)
    else:
        with pytest.raises(ConfigError, match="The 'lr' parameter of transformer must be a "):
            check_positive_float("transformer", "lr", value)


@given(spelled=FLOAT_SPELLINGS)
def test_a_spec_value_reads_every_float_spelling_as_its_number(spelled):
    spec = read_yaml(f"models: [{{name: transformer, lr: {spelled}}}]", "'spec.yaml'")
    value = spec["models"][0]["lr"]
    assert type(value) is float and value == float(spelled)
    if math.isfinite(value):
        check_spec_numbers(spec, "spec.yaml")
    else:  # 1e999 is infinite: refused as such, not as text
        with pytest.raises(ConfigError, match="must be a finite number. Got -?inf instead."):
            check_spec_numbers(spec, "spec.yaml")


@pytest.mark.parametrize("spelled", ["5e-5", "5E-05", "0.5e-4", ".00005", "5_0e-6", "+5e-5"])
def test_the_issue_s_learning_rate_passes_the_check(spelled):
    value = parse_key_values([f"lr={spelled}"], flag="-p")["lr"]
    assert value == pytest.approx(5e-5)
    check_positive_float("transformer", "lr", value)
