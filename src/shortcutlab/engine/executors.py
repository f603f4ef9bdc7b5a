"""Executors: where a run's tasks execute. Both hand every outcome back to the coordinator.

- ``local``: a process pool of ``jobs`` workers (in-process when ``jobs`` is 1).
- ``ray``: one Ray task per task, with the model's CPU/GPU request, on its own local Ray instance
  or an existing cluster (``address``, see :mod:`shortcutlab.engine.ray_connect`); benchmarks
  travel through Ray's object store, so workers need no shared file system.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, wait
from typing import Any

from shortcutlab.engine.pool import check_jobs, check_workers_can_start, worker_pool
from shortcutlab.engine.ray_connect import check_address, check_reachable, connect
from shortcutlab.engine.worker import GridTask, TaskOutcome, run_task, run_task_adding
from shortcutlab.errors import ConfigError, ended, knob
from shortcutlab.registry import Registry, user_entries

OnOutcome = Callable[[TaskOutcome], None]


class Executor(ABC):
    """Runs tasks and calls ``on_outcome`` in the coordinating process as each one finishes."""

    name: str

    def check(self) -> None:  # noqa: B027 - optional hook
        """Refuse, in bounded time and before the run folder is touched, where :meth:`start`
        would wait long and then fail (an address that does not answer)."""

    def start(self) -> None:  # noqa: B027 - optional hook
        """Acquire resources; raise a ConfigError before any work if that is impossible."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release what :meth:`start` acquired."""

    @abstractmethod
    def run(
        self, tasks: Sequence[GridTask], on_outcome: OnOutcome, *, fail_fast: bool = False
    ) -> None:
        """Execute ``tasks``; with ``fail_fast``, stop scheduling after the first failed task."""


class LocalExecutor(Executor):
    name = "local"

    def __init__(self, jobs: int = 1, address: str | None = None) -> None:
        check_jobs(jobs)
        if address:
            raise ConfigError(
                f"{knob('address', run=True)} is for the ray executor; the local executor runs on this machine."
            )
        self.jobs = jobs

    def check(self) -> None:
        if self.jobs > 1:  # no __main__ guard, or a registered class workers cannot import
            check_workers_can_start(self.jobs)

    def run(
        self, tasks: Sequence[GridTask], on_outcome: OnOutcome, *, fail_fast: bool = False
    ) -> None:
        if self.jobs == 1:
            for task in tasks:
                outcome = run_task(task)
                on_outcome(outcome)
                if fail_fast and outcome.failed:
                    return
            return
        with worker_pool(self.jobs) as pool:
            pending = {pool.submit(run_task, task) for task in tasks}
            try:
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        outcome = future.result()
                        on_outcome(outcome)
                        if fail_fast and outcome.failed:
                            raise _Stop
            except _Stop:
                for future in pending:
                    future.cancel()
            except BaseException:
                for future in pending:
                    future.cancel()
                raise


class RayExecutor(Executor):
    name = "ray"

    def __init__(self, jobs: int | None = None, address: str | None = None) -> None:
        if jobs is not None:
            check_jobs(jobs)
        if address is not None:
            check_address(address)
            if jobs is not None:
                raise ConfigError(
                    f"{knob('jobs', run=True)} sets the CPUs of a new local Ray instance; a cluster at "
                    f"{knob('address', run=True)} runs as many tasks as its CPUs allow. Drop "
                    + ended(f"{knob('jobs', run=True)} or {knob('address', run=True)}")
                )
        self.jobs = jobs
        self.address = address
        self._started_ray = False

    def check(self) -> None:
        if self.address is not None:
            check_reachable(self.address)

    def start(self) -> None:
        self._started_ray = connect(self.address, self.jobs)

    def close(self) -> None:
        if self._started_ray:
            import ray

            ray.shutdown()
            self._started_ray = False

    def run(
        self, tasks: Sequence[GridTask], on_outcome: OnOutcome, *, fail_fast: bool = False
    ) -> None:
        import ray

        from shortcutlab.data.benchmark import Benchmark

        remote = ray.remote(max_retries=0)(run_task_adding)
        added = ray.put(user_entries())  # Ray's pickling carries a class a notebook defines
        references: dict[str, Any] = {}
        pending: dict[Any, GridTask] = {}
        for task in tasks:
            dirs = task.benchmark_dirs()
            for key, folder in dirs.items():  # each benchmark goes to the object store once
                if key not in references:
                    references[key] = ray.put(Benchmark.load(folder))
            ref = remote.options(num_cpus=task.cpus, num_gpus=task.gpus).remote(
                added, task, *(references[key] for key in dirs)
            )
            pending[ref] = task
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    pending.pop(ref)
                    outcome = ray.get(ref)
                    on_outcome(outcome)
                    if fail_fast and outcome.failed:
                        raise _Stop
        except _Stop:
            pass
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)


class _Stop(Exception):
    """Internal: the first failure under --fail-fast."""


EXECUTORS: Registry[type[Executor]] = Registry("executor")
EXECUTORS.add("local", LocalExecutor)
EXECUTORS.add("ray", RayExecutor)


def make_executor(name: str, *, jobs: int | None = None, address: str | None = None) -> Executor:
    cls = EXECUTORS.get(name)
    if cls is LocalExecutor:
        return LocalExecutor(jobs=1 if jobs is None else jobs, address=address)
    return cls(jobs=jobs, address=address)
