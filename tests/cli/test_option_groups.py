"""Options declared once on a dataclass (cli/dataclass_options.py): the command gets the
dataclass, and a dataclass that refuses its values answers in one line like any input error."""

from __future__ import annotations

import dataclasses

from shortcutlab.serving.faults import FaultPlan
from tests.cli.refusals import assert_user_error, invoke


def test_a_group_that_refuses_its_values_answers_in_one_line():
    result = invoke("llm-server", "--rate-429", "0.7", "--rate-500", "0.6", "--port", "0")
    assert_user_error(
        result, "The fault rates of FaultPlan must add up to at most 1. Got 1.3 instead."
    )


def test_every_field_of_the_group_is_an_option_with_its_help():
    shown = invoke("llm-server", "--help").stdout
    words = " ".join(shown.split())
    for field in dataclasses.fields(FaultPlan):
        flag = "--" + field.name.replace("_", "-")
        assert flag in words, flag
        assert " ".join(field.metadata["help"].split()[:3]) in words, field.name
