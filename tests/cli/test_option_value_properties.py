"""Any value of a number option is run or refused in one line, never a traceback: --jobs 0 used
to run as one worker, and --jobs 10**20 ended in an OverflowError from the process pool."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shortcutlab.engine.pool import MAX_JOBS
from tests.cli.refusals import TINY_GRID, assert_user_error, invoke

JOBS = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, 1, 2, MAX_JOBS, MAX_JOBS + 1, 10**20]),
    st.text(alphabet="0123456789-+._e ", max_size=8),
)


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("jobs")
    (folder / "spec.yaml").write_text(TINY_GRID)
    return folder / "spec.yaml"


@settings(max_examples=60)
@given(jobs=JOBS)
def test_any_jobs_value_is_planned_or_refused_in_one_line(spec, jobs):
    result = invoke("run", spec, "--out", spec.parent / "never", "--dry-run", "--jobs", jobs)
    try:
        number = int(str(jobs))  # click reads an integer option as int() does (" 2", "+2", "2_0")
    except ValueError:
        number = None
    if number is not None and 1 <= number <= MAX_JOBS:
        assert result.exit_code == 0, result.output
    else:
        assert_user_error(result, "--jobs")
    assert not (spec.parent / "never").exists()


def test_more_workers_than_the_bound_are_refused_naming_it(tmp_path):
    (tmp_path / "spec.yaml").write_text(TINY_GRID)
    result = invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "r", "--jobs", 10**20)
    assert_user_error(result, f"The number of workers must be at most {MAX_JOBS}; --jobs ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.yaml"]
