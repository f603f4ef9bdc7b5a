"""Worker processes for the local executor and the demo.

Workers are spawned (they start clean, never inheriting the coordinator's threads, locks or open
store) and leave when their coordinator is gone: a ``kill -9`` of ``shortcutlab run`` must not
leave pool workers behind, each holding a model and a benchmark in memory.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from shortcutlab.errors import ConfigError, knob

PARENT_CHECK_SECONDS = 1.0


#: The most workers one run starts: a process each, or a Ray task each (the operating system's
#: semaphores hold a C int, so 10**20 workers ended in an OverflowError traceback).
MAX_JOBS = 1024


def check_jobs(jobs: Any) -> int:
    """``jobs`` when it is a positive number of workers up to :data:`MAX_JOBS`; 0 is refused
    like -1, never run as 1.

    Examples:
        >>> check_jobs(2)
        2
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ConfigError(
            f"The number of workers must be a positive integer; {knob('jobs', jobs)} is not "
            f"one. Pass e.g. {knob('jobs', 2)}."
        )
    if jobs > MAX_JOBS:
        raise ConfigError(
            f"The number of workers must be at most {MAX_JOBS}; {knob('jobs', jobs)} is more. "
            f"Pass at most the cores the run may use, e.g. {knob('jobs', os.cpu_count() or 2)}."
        )
    return jobs


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_leave_with_parent,
        initargs=(os.getpid(),),
    )


def _leave_with_parent(parent: int) -> None:
    """In each worker: a daemon thread that ends the process once the coordinator has died."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)  # the coordinator is gone: nothing will read this worker's results

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()
