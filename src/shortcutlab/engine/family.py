"""A protocol (benchmark family) as one record: the pieces the engine, ``results``, ``report``,
``annotate`` and the CLI ask of it.

Each family (Shortcut Maze, MPS, CAT, the Shortcut Suite, the audit) declares one
:class:`Family` in its package's ``__init__`` and registers it in
:data:`shortcutlab.families.FAMILIES`. Its pieces are ``"module:function"`` paths imported on
first use (or the functions themselves, for a family defined in a test), so reading the record
imports nothing of the family; each field is typed with the Protocol of its call
(:mod:`~shortcutlab.engine.family_pieces`), which a test checks every registered family's pieces
against. A family leaves out what its protocol lacks; asking for it
answers with a one-line error. Nothing outside a family's package asks "which family is this?":
it asks the registry for the record and calls its pieces.

Examples:
    >>> toy = Family(name="toy", title="Toy", summary="a family with no pieces")
    >>> toy.parse_spec({}, source="spec.yaml", base_dir=Path("."))
    Traceback (most recent call last):
    ...
    shortcutlab.errors.ConfigError: The toy family has no grid specs; use its own command (see 'shortcutlab --help').
"""

from __future__ import annotations

import importlib
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shortcutlab.engine.family_pieces import (
    EvaluateBuild,
    LoadResults,
    ParseSpec,
    PlanRun,
    PredictionSplits,
    ReportSections,
    ResultsFindings,
    ResultsTables,
    ResultsText,
    RunGrid,
    WriteFigures,
    WriteResults,
)
from shortcutlab.errors import ConfigError

NO_GRID = "use its own command (see 'shortcutlab --help')."


def resolve(piece: str | Callable[..., Any]) -> Callable[..., Any]:
    """The function a piece names (importing its module on first use)."""
    if not isinstance(piece, str):
        return piece
    module, _, name = piece.partition(":")
    return operator.attrgetter(name)(importlib.import_module(module))


@dataclass(frozen=True)
class Family:
    """One protocol's pieces (see the module docstring); each is called as documented here."""

    name: str  # the registry name and the ``family:`` key of specs and stored runs
    title: str  # the protocol in prose: "Shortcut Maze"
    summary: str  # one line for ``--help`` and ``shortcutlab list``
    #: The paper the protocol comes from, as a dataset card or a report cites it (CITATION.cff).
    citation: str = ""
    #: The ``kind`` its ``build`` writes into ``manifest.json`` (None: it builds no benchmarks).
    manifest_kind: str | None = None
    #: (raw mapping, *, source, base_dir) -> spec; the spec's ``family`` attribute is ``name``.
    spec_parser: str | ParseSpec | None = None
    #: (spec, out) -> list[PlannedCell]: the cells and whether each is finished in ``out``.
    planner: str | PlanRun | None = None
    #: (spec, out, *, executor, jobs, address, fail_fast, force, on_progress) -> RunReport.
    runner: str | RunGrid | None = None
    #: ``run --dry-run`` columns naming a cell's build: (title, attribute path on a cell plan).
    plan_columns: tuple[tuple[str, str], ...] = (("dataset", "benchmark.dataset.name"),)
    #: (run_dir, open store, stored spec, *, bootstrap) -> results (``family`` attribute ``name``).
    results_loader: str | LoadResults | None = None
    #: (results, fmt, metric, *, details) -> str: what ``shortcutlab results`` prints; the
    #: footnotes only with ``details``.
    results_text: str | ResultsText | None = None
    #: (results, metric) -> [(title, DataFrame, footnotes)]: the tables ``results`` prints in
    #: the terminal (without it, the terminal shows ``results_text``'s Markdown).
    results_tables: str | ResultsTables | None = None
    #: (results, metric) -> list[str]: the findings in plain words ``results`` ends with.
    results_findings: str | ResultsFindings | None = None
    #: (results, out, fmt) -> list[Path]: every table and figure written to ``out``.
    results_writer: str | WriteResults | None = None
    #: (results, folder) -> list[Path]: the figures ``results`` writes beside a run.
    figures: str | WriteFigures | None = None
    #: (results, margin) -> suite mapping: what ``results --save-suite`` writes (the measured
    #: bounds + margin as ``shortcutlab check`` requirements); without it, it is refused.
    #: (ReportInput with ``results`` loaded) -> list[Section]: a run folder's report sections.
    report_sections: str | ReportSections | None = None
    #: Report kinds of the family's other output folders (``cat --out``, ``explain --out``):
    #: kind -> collector module with ``recognises(path)`` and ``sections(found)``.
    output_collectors: Mapping[str, str] = field(default_factory=dict)
    #: (stored cell row) -> {name: [split, ...]}: a cell's predictions on its own test rows
    #: that the annotation app shows, one name per fit, one split per epoch kept.
    prediction_splits: str | PredictionSplits | None = None
    #: (build folder, **options) -> result: the Python function that evaluates one build of
    #: ``manifest_kind`` (``evaluate_benchmark`` for Maze); ``evaluate_command`` runs it.
    evaluator: str | EvaluateBuild | None = None
    #: The command words that evaluate one build ("suite evaluate"): where ``shortcutlab
    #: evaluate BENCH`` sends a folder of this family's ``manifest_kind``.
    evaluate_command: str | None = None
    #: Other manifest kinds ``evaluator`` reads besides ``manifest_kind`` (Maze: split files
    #: saved as they are, ``existing-splits``).
    also_evaluates: tuple[str, ...] = ()
    #: For a family that builds but evaluates no single build: what to run instead (the end of
    #: a sentence, "is measured by a grid: ...").
    no_evaluation: str = "has no evaluation of one build."

    def _piece(self, attribute: str, what: str, hint: str) -> Callable[..., Any]:
        piece = getattr(self, attribute)
        if piece is None:
            raise ConfigError(f"The {self.name} family has no {what}; {hint}")
        return resolve(piece)

    def parse_spec(self, raw: Mapping[str, Any], *, source: str, base_dir: Path) -> Any:
        parser = self._piece("spec_parser", "grid specs", NO_GRID)
        return parser(raw, source=source, base_dir=base_dir)

    def plan(self, spec: Any, out: Path) -> list[Any]:
        return self._piece("planner", "grids", NO_GRID)(spec, out)

    def run(self, spec: Any, out: Path, **options: Any) -> Any:
        return self._piece("runner", "grids", NO_GRID)(spec, out, **options)

    def load_results(
        self, run_dir: Path, store: Any, spec: Mapping[str, Any], *, bootstrap: int | None
    ) -> Any:
        loader = self._piece("results_loader", "run results", NO_GRID)
        return loader(run_dir, store, spec, bootstrap=bootstrap)

    def results_as_text(self, results: Any, fmt: str, metric: str, *, details: bool = True) -> str:
        piece = self._piece("results_text", "run results", NO_GRID)
        return piece(results, fmt, metric, details=details)

    def findings(self, results: Any, metric: str) -> list[str]:
        """The run's findings in plain words (none for a family without them)."""
        return (
            [] if self.results_findings is None else resolve(self.results_findings)(results, metric)
        )

    def results_sections(self, results: Any, metric: str) -> list[tuple[str, Any, list[str]]]:
        """The terminal's tables of ``results``; none where the family gives only text."""
        if self.results_tables is None:
            return []
        return resolve(self.results_tables)(results, metric)

    def write_results(self, results: Any, out: Path, fmt: str) -> list[Path]:
        return self._piece("results_writer", "run results", NO_GRID)(results, out, fmt)

    def write_figures(self, results: Any, folder: Path) -> list[Path]:
        return [] if self.figures is None else resolve(self.figures)(results, folder)

    def run_sections(self, found: Any) -> list[Any]:
        return [] if self.report_sections is None else resolve(self.report_sections)(found)

    def predictions_to_show(self, cell: Any) -> dict[str, list[str]]:
        hint = (
            "annotate a run whose cells store test predictions (see 'shortcutlab annotate --help')."
        )
        return self._piece("prediction_splits", "stored predictions to annotate", hint)(cell)

    def evaluated_kinds(self) -> tuple[str, ...]:
        """The manifest kinds of the folders ``shortcutlab evaluate`` sends to this family: its
        own builds' and ``also_evaluates``."""
        own = () if self.manifest_kind is None else (self.manifest_kind,)
        return (*own, *self.also_evaluates)

    def plan_values(self, cell: Any) -> list[Any]:
        """A cell plan's ``plan_columns``, as the cell holds them (λ a number)."""
        return [operator.attrgetter(path)(cell) for _, path in self.plan_columns]
