"""SIGTERM ends a command as Ctrl-C does: a fresh run stopped before any cell finished leaves no
folder behind (SIGTERM killed the process mid-run and left the new folder, which then blocked
the corrected spec as "another spec's results")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SPEC = """
name: stopped
data: {builtin: reviews, train_size: 3000, test_size: 1000}
shortcuts: [single-term, synonym]
strengths: [1.0, 0.8, 0.6]
models: [{name: tfidf-logreg}]
seeds: [0, 1, 2, 3]
vary: data
"""


def _as_from_a_terminal() -> None:
    """The child starts as a command typed at a terminal does: SIGINT neither ignored nor blocked.
    pytest started in the background by a script (``pytest &``) ignores SIGINT, and so would the
    child: the run then finished its cells with exit code 0 instead of stopping."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stopped_fresh_run_leaves_no_folder(tmp_path: Path, stop: signal.Signals) -> None:
    (tmp_path / "spec.yaml").write_text(SPEC)
    run = subprocess.Popen(
        [sys.executable, "-m", "shortcutlab", "run", "spec.yaml", "--out", "run"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        preexec_fn=_as_from_a_terminal,
    )
    deadline = time.monotonic() + 60
    while not (tmp_path / "run" / "results.sqlite").exists() and time.monotonic() < deadline:
        assert run.poll() is None, run.communicate()
        time.sleep(0.05)
    run.send_signal(stop)
    _, stderr = run.communicate(timeout=60)
    assert "Traceback" not in stderr, stderr
    assert run.returncode == 128 + stop, stderr  # what a shell reports for the signal
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.yaml"]
