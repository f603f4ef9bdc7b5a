"""The call signature of each piece of a :class:`~shortcutlab.engine.family.Family`, as a Protocol.

A family names its pieces as ``"module:function"`` strings, imported on first use; the record's
fields are typed with these Protocols, and ``tests/engine/test_family_pieces.py`` resolves every
registered family's pieces and checks each function's parameters (names and kinds) against its
field's Protocol, so a piece that the engine would call wrongly fails a test, not a run.

Examples:
    >>> import inspect
    >>> list(inspect.signature(WriteResults.__call__).parameters)
    ['self', 'results', 'out', 'fmt']
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from shortcutlab.engine.run_folder import PlannedCell, RunReport
    from shortcutlab.engine.store import ResultStore


class ParseSpec(Protocol):
    """A raw spec mapping (as read from YAML) -> the family's spec, whose ``family`` is its name."""

    def __call__(self, raw: Mapping[str, Any], *, source: str, base_dir: str | Path) -> Any: ...


class PlanRun(Protocol):
    """The cells of a spec's grid and whether each is finished in the run folder ``out``."""

    def __call__(self, spec: Any, out: Path) -> list[PlannedCell]: ...


class RunGrid(Protocol):
    """Run (or resume) a spec's grid into ``out``; ``options`` are ``run_experiment``'s."""

    def __call__(self, spec: Any, out: Path, **options: Any) -> RunReport: ...


class LoadResults(Protocol):
    """A run folder's results object (``family`` attribute: the family's name)."""

    def __call__(
        self, run_dir: Path, store: ResultStore, spec: dict[str, Any], *, bootstrap: int | None
    ) -> Any: ...


class ResultsText(Protocol):
    """What ``shortcutlab results`` prints in ``fmt``; the footnotes only with ``details``."""

    def __call__(self, results: Any, fmt: str, metric: str, *, details: bool) -> str: ...


class ResultsTables(Protocol):
    """The terminal's tables of the results: ``(title, table, footnotes)`` each."""

    def __call__(self, results: Any, metric: str) -> list[tuple[str, pd.DataFrame, list[str]]]: ...


class ResultsFindings(Protocol):
    """The run's findings in plain words, which ``results`` ends with."""

    def __call__(self, results: Any, metric: str) -> list[str]: ...


class WriteResults(Protocol):
    """Write every table and figure of the results to ``out`` in ``fmt``; the paths written."""

    def __call__(self, results: Any, out: Path, fmt: str) -> list[Path]: ...


class WriteFigures(Protocol):
    """Write the figures ``results`` shows beside a run into ``out``; the paths written."""

    def __call__(self, results: Any, out: Path) -> list[Path]: ...


class ReportSections(Protocol):
    """A run folder's report sections, from the report's input with the results loaded."""

    def __call__(self, found: Any) -> list[Any]: ...


class PredictionSplits(Protocol):
    """A stored cell row's test predictions the annotation app shows: {fit: [split, ...]}."""

    def __call__(self, cell: Any) -> dict[str, list[str]]: ...


class EvaluateBuild(Protocol):
    """Evaluate ``model`` on one built benchmark (its folder or object first); the family's
    other options by keyword, each with a default."""

    def __call__(self, build: Any, /, *, model: Any) -> Any: ...


__all__ = [
    "EvaluateBuild",
    "LoadResults",
    "ParseSpec",
    "PlanRun",
    "PredictionSplits",
    "ReportSections",
    "ResultsFindings",
    "ResultsTables",
    "ResultsText",
    "RunGrid",
    "WriteFigures",
    "WriteResults",
]
