"""Grids with jobs > 1 run in spawned worker processes: what the user's script registered reaches
them, and a script or notebook the workers cannot import is refused in one line, up front.

Each test runs a real Python process, as a user runs their script."""

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import shortcutlab

SOURCE = Path(shortcutlab.__file__).resolve().parents[1]
SPEC = (
    '{"name": "workers", "data": {"builtin": "reviews", "train_size": 200, "test_size": 100}, '
    '"shortcuts": ["single-term"], "strengths": [1.0, 0.5], "models": ["mine"], "seeds": [0], '
    '"bootstrap": 100}'
)
MY_MODELS = '''
from shortcutlab.models.majority import MajorityClass


class Mine(MajorityClass):
    """The majority baseline, under the user's own name."""
'''
PREAMBLE = f"""
import shortcutlab as sl
from shortcutlab.families import parse_spec
from my_models import Mine
SPEC = {SPEC}
"""
RUN = (
    'sl.MODELS.add("mine", Mine)\n'
    'report = sl.run_experiment(parse_spec(SPEC), "run", jobs=2)\n'
    "print(report.done, report.failed)\n"
)
GUARD_LINE = (
    "run_experiment(jobs=2) starts worker processes, which import your script again "
    '(multiprocessing\'s spawn): put the call under `if __name__ == "__main__":` in {file}, '
    "or pass jobs=1."
)


def _python(folder: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``python ARGUMENTS`` in ``folder``, importing this checkout's shortcutlab."""
    env = {**os.environ, "PYTHONPATH": str(SOURCE)}
    return subprocess.run(
        [sys.executable, *arguments], cwd=folder, env=env, capture_output=True, text=True
    )


def _script(folder: Path, body: str) -> Path:
    (folder / "my_models.py").write_text(MY_MODELS)
    script = folder / "experiment.py"
    script.write_text(PREAMBLE + body)
    return script


def _cell_statuses(run: Path) -> list[str]:
    with sqlite3.connect(run / "results.sqlite") as db:
        return [row[0] for row in db.execute("SELECT status FROM cells ORDER BY cell_id")]


def _error_line(stderr: str) -> str:
    """The line a Python process that died of an exception printed last."""
    return stderr.strip().splitlines()[-1]


@pytest.mark.slow
def test_a_model_the_script_registers_runs_in_the_workers(tmp_path):
    """Registered under the guard, the line does not run again in the workers: the pool brings
    it to them."""
    guarded = 'if __name__ == "__main__":\n' + textwrap.indent(RUN, "    ")
    finished = _python(tmp_path, str(_script(tmp_path, guarded)))
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.split() == ["2", "0"]
    assert _cell_statuses(tmp_path / "run") == ["done", "done"]


def test_a_script_without_the_main_guard_is_refused_before_any_worker_starts(tmp_path):
    script = _script(tmp_path, RUN)
    finished = _python(tmp_path, str(script))
    assert finished.returncode == 1
    assert _error_line(finished.stderr) == "shortcutlab.errors.ConfigError: " + GUARD_LINE.format(
        file=script
    )
    assert "FolderInUseError" not in finished.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["experiment.py", "my_models.py"]


@pytest.mark.slow
def test_a_worker_that_runs_the_call_again_stops_before_the_run_folder(tmp_path):
    """The guard is there, but the call is outside it: the workers refuse as they import the
    script, the pool breaks, and the parent names the guard."""
    script = _script(tmp_path, RUN.replace("print(", 'if __name__ == "__main__":\n    print('))
    finished = _python(tmp_path, str(script))
    assert finished.returncode == 1
    assert _error_line(finished.stderr) == (
        "shortcutlab.errors.ConfigError: A worker process of run_experiment(jobs=2) died while "
        "starting, before it ran any task; the likely cause is a script that calls "
        'run_experiment outside `if __name__ == "__main__":` (every worker imports the script '
        f"again): put the call under it in {script}, or pass jobs=1."
    )
    assert "FolderInUseError" not in finished.stderr
    assert GUARD_LINE.format(file=script) in finished.stderr  # what the worker said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["experiment.py", "my_models.py"]


def test_a_class_defined_in_python_c_is_refused_for_workers(tmp_path):
    program = (PREAMBLE + RUN).replace(
        "from my_models import Mine",
        "from shortcutlab.models.majority import MajorityClass\n"
        "class Mine(MajorityClass):\n    pass",
    )
    finished = _python(tmp_path, "-c", program)
    assert finished.returncode == 1
    assert _error_line(finished.stderr) == (
        "shortcutlab.errors.ConfigError: The model 'mine' is the class Mine defined in this "
        "notebook, which worker processes cannot import; move it into a .py module next to the "
        "notebook, or run with jobs=1."
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_the_command_line_runs_workers(tmp_path):
    """``python -m shortcutlab`` is shortcutlab's own main module: no guard to ask for."""
    (tmp_path / "spec.yaml").write_text(SPEC.replace('"mine"', '"majority"'))
    finished = _python(
        tmp_path, "-m", "shortcutlab", "run", "spec.yaml", "--out", "run", "--jobs", "2"
    )
    assert finished.returncode == 0, finished.stderr
    assert _cell_statuses(tmp_path / "run") == ["done", "done"]


@pytest.mark.slow
def test_a_class_the_workers_cannot_find_stops_the_run_in_one_line(tmp_path):
    """A class defined under the guard is not there when a worker imports the script."""
    under_guard = (
        "class Theirs(Mine):\n"
        '    """Defined where only the parent runs."""\n'
        + RUN.replace('add("mine", Mine)', 'add("mine", Theirs)')
    )
    script = _script(
        tmp_path, 'if __name__ == "__main__":\n' + textwrap.indent(under_guard, "    ")
    )
    finished = _python(tmp_path, str(script))
    assert finished.returncode == 1
    assert _error_line(finished.stderr) == (
        "shortcutlab.errors.ConfigError: Worker processes cannot import the model 'mine' "
        "(AttributeError: Can't get attribute 'Theirs' on <module '__mp_main__' from "
        f"'{script}'>); define it at the top level of a .py module, or run with jobs=1."
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["experiment.py", "my_models.py"]
