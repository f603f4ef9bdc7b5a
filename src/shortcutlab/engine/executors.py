"""Executors: where a run's tasks execute. Both hand every outcome back to the coordinator.

- ``local``: a process pool of ``jobs`` workers (in-process when ``jobs`` is 1).
- ``ray``: one Ray task per task, with the model's CPU/GPU request, on a local Ray instance or an
  existing cluster (``address``); benchmarks travel through Ray's object store, so workers need no
  shared file system.
"""

from __future__ import annotations

import socket
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, wait
from typing import Any
from urllib.parse import urlparse

from shortcutlab.engine.pool import worker_pool
from shortcutlab.engine.worker import GridTask, TaskOutcome, run_task
from shortcutlab.errors import ConfigError
from shortcutlab.params import quoted
from shortcutlab.registry import Registry

OnOutcome = Callable[[TaskOutcome], None]


class Executor(ABC):
    """Runs tasks and calls ``on_outcome`` in the coordinating process as each one finishes."""

    name: str

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
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
            raise ConfigError(
                f"The 'jobs' parameter must be a positive integer. Got {quoted(jobs)} instead."
            )
        if address:
            raise ConfigError(
                "--address is for the ray executor; the local executor runs on this machine."
            )
        self.jobs = jobs

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
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
            raise ConfigError(
                f"The 'jobs' parameter must be a positive integer. Got {quoted(jobs)} instead."
            )
        self.jobs = jobs
        self.address = address
        self._started_ray = False

    def start(self) -> None:
        try:
            import ray
        except ImportError as exc:
            raise ConfigError(
                "The ray executor needs Ray. Install it with: pip install 'shortcutlab[ray]'."
            ) from exc
        if self.address and self.address != "auto":
            check_reachable(self.address)
        try:
            if self.address:
                ray.init(address=self.address, log_to_driver=False, ignore_reinit_error=True)
            else:
                ray.init(
                    num_cpus=self.jobs,
                    include_dashboard=False,
                    log_to_driver=False,
                    ignore_reinit_error=True,
                )
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ConfigError(
                f"Cannot connect to a Ray cluster at {self.address or 'a new local instance'}: {exc}"
            ) from exc
        self._started_ray = True

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

        remote = ray.remote(max_retries=0)(run_task)
        references: dict[str, Any] = {}
        pending: dict[Any, GridTask] = {}
        for task in tasks:
            dirs = task.benchmark_dirs()
            for key, folder in dirs.items():  # each benchmark goes to the object store once
                if key not in references:
                    references[key] = ray.put(Benchmark.load(folder))
            ref = remote.options(num_cpus=task.cpus, num_gpus=task.gpus).remote(
                task, *(references[key] for key in dirs)
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


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast, before any work, when a cluster address does not answer."""
    parsed = urlparse(address if "://" in address else f"ray://{address}")
    host, port = parsed.hostname, parsed.port
    if not host or not port:
        raise ConfigError(
            f"The Ray address {quoted(address)} must look like HOST:PORT or ray://HOST:PORT (or 'auto')."
        )
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return
    except OSError as exc:
        raise ConfigError(
            f"Cannot reach the Ray cluster at {address} ({exc.strerror or exc}). Check --address, or start a "
            f"cluster with 'ray start --head', or drop --address to use a local Ray instance."
        ) from exc


EXECUTORS: Registry[type[Executor]] = Registry("executor")
EXECUTORS.add("local", LocalExecutor)
EXECUTORS.add("ray", RayExecutor)


def make_executor(name: str, *, jobs: int | None = None, address: str | None = None) -> Executor:
    cls = EXECUTORS.get(name)
    if cls is LocalExecutor:
        return LocalExecutor(jobs=jobs or 1, address=address)
    return cls(jobs=jobs, address=address)
