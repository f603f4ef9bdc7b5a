"""The protocols shortcutlab runs, one subpackage each, and the one registry that finds them.

==============  ================================================================================
``maze``        Shortcut Maze (Zhou et al.): a cue injected with strength λ; train / test / anti-test
``mps``         MPS: labels redistributed around an attribute; imbalanced / balanced / test
``cat``         Counterfactual Attentiveness Test (Elazar et al.) for paired inputs
``suite``       Shortcut Suite (Yuan et al.): NLI test sets with one shortcut each
``audit``       latent shortcuts in a user's own data, and a model's measured reliance on them
``robustness``  a test set perturbed by named classes (INV / DIR): accuracy drop and flips per class
==============  ================================================================================

A family's package holds its build, spec, cells, results, tables and report sections, and an
instance of :class:`~shortcutlab.engine.family.Family` registered below. Its capabilities are
declared on its line here, readable without importing it. Code outside a family's package asks
this registry (:func:`family`, :func:`load_spec`, :func:`run_experiment`, :func:`load_results`)
and never compares family names; ``tests/test_family_dispatch.py`` keeps it so.

A family package imports the engine and shared libraries below it, never this package (so the
registry's lazy entries are the only edges from here to them). Adding a family is one
subpackage and one line here.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shortcutlab.engine.family import Family
from shortcutlab.errors import GRID, CellsFailedError, ConfigError, DataError, caller, knob, listed
from shortcutlab.params import check_spec_numbers, choice, quoted
from shortcutlab.registry import Registry

if TYPE_CHECKING:
    from shortcutlab.engine.run_folder import PlannedCell, Progress, RunReport

# The engine (run loop, store, spec files) loads inside the functions that use it: importing the
# registry, as every command and family package does, stays cheap.

FAMILIES: Registry[Family] = Registry(
    "family",
    plural="families",
    capabilities={
        "build": False,  # has a `shortcutlab build` sub-command
        "attribute_groups": False,  # builds group rows by an annotated attribute
        "counterfactuals": False,  # outputs hold counterfactual pairs to verify
        "command": False,  # has its own top-level `shortcutlab NAME` command (cli/NAME.py)
    },
)
FAMILIES.add(
    "maze",
    "shortcutlab.families.maze:FAMILY",
    build=True,
)
FAMILIES.add(
    "mps",
    "shortcutlab.families.mps:FAMILY",
    build=True,
    attribute_groups=True,
)
FAMILIES.add("cat", "shortcutlab.families.cat:FAMILY", counterfactuals=True, command=True)
FAMILIES.add("suite", "shortcutlab.families.suite:FAMILY", build=True, command=True)
FAMILIES.add("audit", "shortcutlab.families.audit:FAMILY", command=True)
FAMILIES.add("robustness", "shortcutlab.families.robustness:FAMILY", build=True, command=True)


def grid_families() -> list[str]:
    """The families that run grids (their record has a spec parser), sorted."""
    return [name for name in FAMILIES.names() if FAMILIES.get(name).spec_parser is not None]


#: The family of a YAML spec or a stored run's spec without a ``family`` key: Maze specs predate
#: the key (docs/reference/grid-spec.md, "family: maze, the default"). Nothing else defaults.
DEFAULT_FAMILY = "maze"


def family(name: str) -> Family:
    """The registered family ``name`` (a one-line error with the close matches otherwise)."""
    return FAMILIES.get(name)


def family_of(thing: Any) -> Family:
    """The family of a spec, a cell plan's spec or loaded results: its ``family`` attribute
    (an object without one, or naming no registered family, is refused in one line).

    Examples:
        >>> family_of(object())
        Traceback (most recent call last):
        ...
        shortcutlab.errors.ConfigError: object objects name no family: they have no 'family' attribute naming one of audit, cat, maze, mps, robustness and 1 more. Pass a spec or results object that shortcutlab made.
    """
    name = getattr(thing, "family", None)
    if not isinstance(name, str):
        raise ConfigError(
            f"{type(thing).__name__} objects name no family: they have no 'family' attribute "
            f"naming one of {listed(FAMILIES.names())}. Pass a spec or results object that "
            "shortcutlab made."
        )
    return FAMILIES.get(name)


def family_of_manifest(kind: str) -> Family | None:
    """The family whose ``build`` writes manifests of ``kind`` (None for an unknown kind)."""
    found = [FAMILIES.get(name) for name in FAMILIES.names()]
    return next((f for f in found if f.manifest_kind == kind), None)


def family_of_build(folder: str | Path) -> Family | None:
    """The family whose ``evaluate_command`` evaluates the build in ``folder``, from its
    manifest's ``kind``; None where ``folder`` holds no readable manifest.json (reading the
    folder then says what is wrong). A kind no family builds, and a family that evaluates no
    single build, are refused in one line."""
    from shortcutlab.data.benchmark import MANIFEST
    from shortcutlab.data.reading import read_json_object

    path = Path(folder) / MANIFEST
    manifest = read_json_object(path)
    if manifest is None:
        return None
    kind = manifest.get("kind")
    families = [family(name) for name in FAMILIES.names()]
    owners = [f for f in families if isinstance(kind, str) and kind in f.evaluated_kinds()]
    found = owners[0] if owners else None
    if found is None:
        builders = [f for f in families if f.evaluate_command]
        named = (
            "no kind of build"
            if kind is None
            else f"the kind {quoted(kind)}, which no family builds"
        )
        raise DataError(
            f"'{path}' names {named}: evaluate reads the builds of 'shortcutlab build "
            f"{'|'.join(b.name for b in builders)}' ({listed(b.manifest_kind for b in builders)}). "
            "Pass a folder one of them wrote, or restore the manifest.json it wrote."
        )
    if found.evaluate_command is None:
        raise ConfigError(f"The {found.title} build in '{folder}' {found.no_evaluation}")
    return found


def stored_family(spec: Mapping[str, Any]) -> str:
    """The family named by a stored (resolved) spec: its ``family`` key, or Maze where the spec
    has none (:data:`DEFAULT_FAMILY`); any other value is refused in one line.

    Examples:
        >>> stored_family({}), stored_family({"family": "mps"})
        ('maze', 'mps')
        >>> stored_family({"family": None})
        Traceback (most recent call last):
        ...
        shortcutlab.errors.DataError: The run's stored spec names the family None, which is not one of audit, cat, maze, mps, robustness and 1 more (a spec without the key is Maze's). Restore the spec.json the run wrote.
    """
    name = spec.get("family", DEFAULT_FAMILY)
    if not isinstance(name, str) or name not in FAMILIES.names():
        raise DataError(
            f"The run's stored spec names the family {quoted(name)}, which is not one of "
            f"{listed(FAMILIES.names())} (a spec without the key is Maze's). Restore the "
            "spec.json the run wrote."
        )
    return name


def run_family(path: str | Path) -> str | None:
    """The family of a run folder (from its spec copy), or None when ``path`` is not one."""
    from shortcutlab.data.reading import read_json_object
    from shortcutlab.engine.store import DATABASE, SPEC_COPY

    path = Path(path)
    if not (path / DATABASE).is_file():
        return None
    spec = read_json_object(path / SPEC_COPY)
    return None if spec is None else stored_family(spec)


def parse_spec(raw: Mapping[str, Any], *, source: str = "spec", base_dir: str | Path = ".") -> Any:
    """Validate a spec mapping (as read from YAML) of any grid family (``family:``, default maze)."""
    name = choice(raw.get("family", DEFAULT_FAMILY), grid_families(), f"{source}: family")
    spec = FAMILIES.get(name).parse_spec(raw, source=source, base_dir=Path(base_dir))
    check_spec_numbers(raw, source)  # after the parser, whose messages name each key's own range
    return spec


def load_spec(path: str | Path) -> Any:
    """Read and validate a YAML spec; relative data and model paths are relative to the file.

    Examples:
        >>> import tempfile, pathlib
        >>> spec_file = pathlib.Path(tempfile.mkdtemp()) / "spec.yaml"
        >>> _ = spec_file.write_text("family: mazz\\nmodels: [majority]\\n")
        >>> load_spec(spec_file)
        Traceback (most recent call last):
        ...
        shortcutlab.errors.ConfigError: The 'family' key in spec.yaml must be one of 'cat', 'maze', 'mps', 'robustness'. Got 'mazz' instead. Did you mean 'maze'?
    """
    from shortcutlab.engine.spec_entries import read_spec_file

    path = Path(path)
    return parse_spec(read_spec_file(path), source=path.name, base_dir=path.parent)


def _spec(spec: Any) -> Any:
    return load_spec(spec) if isinstance(spec, str | Path) else spec


def plan_run(spec: Any, out: str | Path) -> tuple[Any, list[PlannedCell]]:
    """The cells of a run and whether each is already finished in ``out`` (for --dry-run)."""
    with caller(GRID):  # messages name the spec's keys, not a command's options
        spec = _spec(spec)
        return spec, family_of(spec).plan(spec, Path(out))


def run_experiment(
    spec: Any,
    out: str | Path,
    *,
    executor: str = "local",
    jobs: int | None = None,
    address: str | None = None,
    fail_fast: bool = False,
    force: bool = False,
    on_progress: Progress | None = None,
    track: str | None = None,
    raise_on_failure: bool = True,
) -> RunReport:
    """Run (or resume) the grid of ``spec`` (a spec object or a YAML path, any grid family)
    into the run folder ``out``. ``track`` (``mlflow`` or ``mlflow:URI``; default: the spec's
    ``tracking`` key) logs each finished cell, and at the end the run's report, to a tracker.

    A run where cells failed raises :class:`~shortcutlab.errors.CellsFailedError` (its
    ``.report`` is the run's report) once every other cell is recorded; with
    ``raise_on_failure=False`` the report is returned, its ``failed`` counting them.
    ``jobs`` > 1 runs cells in spawned worker processes, which import the calling script
    again: the call must sit under ``if __name__ == "__main__":``."""
    from shortcutlab.engine.main_module import refuse_while_spawning
    from shortcutlab.engine.pool import check_jobs
    from shortcutlab.engine.tracking import parse_target

    refuse_while_spawning("run_experiment", jobs)  # a worker re-running an unguarded script
    started = time.perf_counter()
    if jobs is not None:  # here, where a message names --jobs (or jobs=), not a spec key
        check_jobs(jobs)
    target = None if track is None else parse_target(track, knob("track"))
    with caller(GRID):  # messages name the spec's keys, not a command's options
        spec = _spec(spec)
        target = target or getattr(spec, "tracking", None)
        tracker = None if target is None else target.make()
        report = family_of(spec).run(
            spec,
            Path(out),
            executor=executor,
            jobs=jobs,
            address=address,
            fail_fast=fail_fast,
            force=force,
            on_progress=on_progress,
            tracker=tracker,
        )
        if tracker is not None and report.done + report.skipped:
            complete = not report.failed and report.done + report.skipped == report.total
            _log_report(tracker, Path(out), complete=complete)
    report.wall_seconds = time.perf_counter() - started
    if report.failed and raise_on_failure:
        raise CellsFailedError(_failures_line(report), report)
    return report


def _failures_line(report: RunReport) -> str:
    """How many cells failed, the first one's reason, and where to read the rest."""
    where, error = report.errors[0]
    reason = error.strip().splitlines()[0] if error.strip() else "no reason recorded"
    return (
        f"{report.failed} of {report.total} cells failed; the first, {where}: {reason}. This "
        f"error's .report.errors lists every failure; the run folder {report.run_dir} keeps the "
        f"finished cells, and running again retries the failed ones (pass "
        f"raise_on_failure=False to get the report back instead)."
    )


def _log_report(tracker: Any, out: Path, *, complete: bool) -> None:
    """Hand the tracker the run's report: the tables and figures ``results --out`` writes;
    ``complete`` when every cell of the grid finished."""
    import tempfile

    loaded = load_results(out)
    with tempfile.TemporaryDirectory(prefix="shortcutlab-report-") as folder:
        family_of(loaded).write_results(loaded, Path(folder), "md")
        tracker.log_report(Path(folder), complete=complete)


def load_results(run_dir: str | Path, *, bootstrap: int | None = None) -> Any:
    """Read a run folder's store and compute the statistics of its spec's cells (each family's
    results object: Maze, MPS or CAT). In a notebook the object shows the tables of the run's
    report, and ``.to_pandas()`` gives the tidy table ``shortcutlab results --format csv`` prints."""
    from shortcutlab.engine.store import ResultStore

    run_dir = Path(run_dir)
    with caller(GRID), ResultStore.for_run(run_dir) as store:
        spec = store.spec()
        return family(stored_family(spec)).load_results(run_dir, store, spec, bootstrap=bootstrap)


__all__ = [
    "DEFAULT_FAMILY",
    "FAMILIES",
    "Family",
    "family",
    "family_of",
    "family_of_build",
    "load_results",
    "load_spec",
    "parse_spec",
    "plan_run",
    "run_experiment",
    "run_family",
    "stored_family",
]
