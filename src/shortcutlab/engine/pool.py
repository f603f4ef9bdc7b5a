"""Worker processes for the local executor and the demo.

Workers are spawned (they start clean, never inheriting the coordinator's threads, locks or open
store) and leave when their coordinator is gone: a ``kill -9`` of ``shortcutlab run`` must not
leave pool workers behind, each holding a model and a benchmark in memory.

A spawned worker starts with shortcutlab's own registry lines only. The entries the user's code
added (``sl.MODELS.add("mine", MyClass)``) travel to it, pickled by reference, and its initializer
adds them again. Where they cannot travel (a class a notebook defines), or where every worker
would run the user's script again (no ``__main__`` guard), the pool is refused before any work.
"""

from __future__ import annotations

import inspect
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from shortcutlab.engine.main_module import (
    GUARD,
    check_main_guard,
    main_is_importable,
    reimported_main_file,
)
from shortcutlab.errors import ConfigError, knob
from shortcutlab.registry import UserEntry, add_user_entries, user_entries

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


#: A user entry on its way to a worker: its kind, its name and the pickled :class:`UserEntry`
#: (unpickled by the worker's initializer, which can then say which entry failed).
PackedEntry = tuple[str, str, bytes]


def check_workers_can_start(jobs: int, call: str = "run_experiment") -> list[PackedEntry]:
    """The user's registry entries, packed for ``jobs`` workers of ``call``; a one-line
    ConfigError where workers cannot start: the script has no ``__main__`` guard, or an entry
    is something the workers cannot import."""
    check_main_guard(call, jobs)
    return [(found.kind, found.name, _pickled(found)) for found in user_entries()]


def _pickled(found: UserEntry) -> bytes:
    """``found`` pickled (its component by reference), or why a worker cannot import it."""
    what = _described(found.entry)
    if getattr(found.entry, "__module__", None) == "__main__" and not main_is_importable():
        raise ConfigError(
            f"The {found.kind} {found.name!r} is {what} defined in this notebook, which worker "
            f"processes cannot import; move it into a .py module next to the notebook, or run "
            f"with jobs=1."
        )
    try:
        return pickle.dumps(found)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise ConfigError(
            f"The {found.kind} {found.name!r} is {what}, which worker processes cannot import "
            f"({exc}); define it at the top level of a .py module, or run with jobs=1."
        ) from exc


def _described(component: Any) -> str:
    if inspect.isclass(component):
        return f"the class {component.__qualname__}"
    if inspect.isfunction(component):
        return f"the function {component.__qualname__}"
    return f"an object of class {type(component).__qualname__}"


@contextmanager
def worker_pool(jobs: int, call: str = "run_experiment") -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` spawned workers for ``call`` (the function the user called), each
    holding the user's registry entries; refused in one line where workers cannot start."""
    entries = check_workers_can_start(jobs, call)
    context = multiprocessing.get_context("spawn")
    started = context.Value("i", 0)  # workers that got as far as their initializer
    with _WorkerPool(
        max_workers=jobs,
        mp_context=context,
        initializer=_start_worker,
        initargs=(os.getpid(), started, entries),
    ) as pool:
        try:
            yield pool
        except BrokenProcessPool as exc:
            if started.value:
                raise  # one died while working (killed, out of memory): not the guard
            script = reimported_main_file()
            raise ConfigError(
                f"A worker process of {call}(jobs={jobs}) died while starting, before it ran any "
                f"task; the likely cause is a script that calls {call} outside `{GUARD}` (every "
                f"worker imports the script again): put the call under it"
                f"{f' in {script}' if script else ''}, or pass jobs=1."
            ) from exc


class _WorkerPool(ProcessPoolExecutor):
    """Runs each task only in a worker that added the user's entries (else raises why not)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return super().submit(_after_start, fn, *args, **kwargs)


# In a worker: why it could not add a user entry (raised by each task it is given, so the
# coordinator reports it in one line instead of a cell failing as "Unknown model").
_start_error: ConfigError | None = None


def _start_worker(parent: int, started: Any, entries: list[PackedEntry]) -> None:
    global _start_error
    _leave_with_parent(parent)
    for kind, name, packed in entries:
        try:
            add_user_entries([pickle.loads(packed)])
        except Exception as exc:  # noqa: BLE001 - any failure to import the user's component
            _start_error = ConfigError(
                f"Worker processes cannot import the {kind} {name!r} ({type(exc).__name__}: "
                f"{exc}); define it at the top level of a .py module, or run with jobs=1."
            )
            break
    with started.get_lock():
        started.value += 1


def _after_start(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    if _start_error is not None:
        raise _start_error
    return fn(*args, **kwargs)


def _leave_with_parent(parent: int) -> None:
    """In each worker: a daemon thread that ends the process once the coordinator has died."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)  # the coordinator is gone: nothing will read this worker's results

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()
