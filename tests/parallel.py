"""How pytest-xdist shares the tests out (pyproject's addopts run them on ``-n auto`` workers).

A test module goes whole to one worker, so its module fixtures are built once; the browser
modules (``*_browser.py``) all go to one worker, so one chromium serves them. (pytest-xdist's own
``xdist_group`` mark cannot do the latter under pytest 9: it renames tests through an attribute
pytest no longer reads.) The modules of :data:`ONE_BY_ONE` go out test by test.
"""

from __future__ import annotations

import os

from xdist.scheduler import LoadScopeScheduling

#: The group of every browser test module (they share one session-scoped chromium).
BROWSER = "browser"

#: Modules whose tests share no module fixture and together run for minutes: whole on one
#: worker, such a module alone would set the run's length on a machine with many cores. (The
#: documentation pages' commands: about five minutes on two loaded cores, a minute the longest page.)
ONE_BY_ONE = frozenset({"tests/docs/test_doc_commands.py"})


class ModuleScheduling(LoadScopeScheduling):
    """``--dist loadfile`` with every ``*_browser.py`` module in one group and the tests of
    :data:`ONE_BY_ONE` each on its own."""

    def _split_scope(self, nodeid: str) -> str:
        module = nodeid.split("::", 1)[0]
        if module.endswith("_browser.py"):
            return BROWSER
        return nodeid if module in ONE_BY_ONE else module


def share_threads() -> None:
    """Each worker's torch, BLAS and OpenMP threads get their share of the cores, so that the
    workers together, not each of them, fill the machine; a value the user set wins."""
    workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT")
    if not workers:
        return
    threads = str(max(1, (os.cpu_count() or 1) // int(workers)))
    for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(variable, threads)
