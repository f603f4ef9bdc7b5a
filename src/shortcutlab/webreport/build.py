"""Build a report from a folder: find what it holds, collect each input's sections, render.

Discovery reads the given folder, each of its direct subfolders (and the subfolders of a
:data:`CONTAINERS` folder such as ``annotations/``), and every ``include`` folder the same way.
Every collector in :func:`collectors` that recognises a folder makes one :class:`ReportInput` of
it. A run folder of any family is one ``run`` input: its overview, then the sections its family
gives. The other kinds are the demo, annotation outputs, and each family's own output folders
(declared on the family's record). Collectors are imported on first use, by name.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

from shortcutlab.engine.store import DATABASE, ResultStore, run_command
from shortcutlab.engine.stored_figures import figures_kept_on_success
from shortcutlab.errors import GRID, ConfigError, DataError, InputFileError, caller, knob
from shortcutlab.families import FAMILIES, family, load_results, run_family
from shortcutlab.registry import Registry
from shortcutlab.reports.html.collect import ReportInput, slug
from shortcutlab.reports.html.document import Report, Section
from shortcutlab.reports.html.render import write_report_html

# The kinds every installation has, in page order; each family's output kinds follow ``demo``.
GENERAL_COLLECTORS = {
    "run": "shortcutlab.webreport.overview",  # a grid run of any family
    "demo": "shortcutlab.webreport.demo",
}
LAST_COLLECTORS = {"annotations": "shortcutlab.webreport.annotations"}
REPORT_FILE = "report.html"
# Subfolders that only hold outputs one level further down (RUN/annotations/<task kind>/).
CONTAINERS = ("annotations",)


def build_report(path: str | Path, include: Sequence[str | Path] = ()) -> Report:
    """The report of a run folder (a grid run, a demo folder, or a folder holding such outputs)
    and of the ``include`` folders; raises a one-line error where nothing is recognised."""
    root = _folder(Path(path), "run folder")
    folders = _discover(root, required=True)
    for extra in include:
        folders += [
            f
            for f in _discover(_folder(Path(extra), f"{knob('include')} folder"), required=True)
            if f not in folders
        ]
    inputs = [found for folder in folders for found in _inputs(folder)]
    sections: list[Section] = []
    used: set[str] = set()  # section ids and block names share the page's id namespace
    for found in inputs:
        label = "" if found.path == root else _relative(found.path, root)
        for section in collector(found.kind).sections(found):
            sections.append(_anchored(section, label, found.kind, used))
    title, subtitle = _titles(inputs)
    return Report(title=title, subtitle=subtitle, sections=sections)


def write_html_report(
    path: str | Path, out: str | Path | None = None, include: Sequence[str | Path] = ()
) -> Path:
    """Build the report of ``path`` and write it to ``out`` (default ``PATH/report.html``) as one
    self-contained HTML file; nothing is written when building fails."""
    with figures_kept_on_success():  # a refused write leaves the run folder's store as it was
        report = build_report(path, include)
        return write_report_html(report, Path(out) if out is not None else Path(path) / REPORT_FILE)


@functools.cache
def collectors() -> Registry[ModuleType]:
    """Every report kind and its collector module, in page order: run folders, the demo, each
    registered family's output folders, annotation outputs."""
    found: Registry[ModuleType] = Registry("report collector")
    kinds = dict(GENERAL_COLLECTORS)
    for name in FAMILIES.registration_order():
        kinds |= FAMILIES.get(name).output_collectors
    for kind, module in (kinds | LAST_COLLECTORS).items():
        found.add(kind, module)
    return found


def collector(kind: str) -> ModuleType:
    """The collector module of ``kind``."""
    return collectors().get(kind)


def run_sections(path: Path) -> list[Section]:
    """The sections a run folder's family gives (without the overview), or none where ``path``
    is not a run folder (the demo's MPS run)."""
    name = run_family(path)
    if name is None:
        return []
    with caller(GRID):  # a run's notes name its spec's keys, as 'shortcutlab results' does
        return family(name).run_sections(ReportInput(kind="run", path=path, results=_results(path)))


def _folder(path: Path, what: str) -> Path:
    if not path.exists():
        raise InputFileError(f"The {what} '{path}' does not exist.")
    if not path.is_dir():
        raise ConfigError(
            f"The {what} '{path}' is a file; give a folder (a run folder written by 'shortcutlab run' or 'shortcutlab demo')."
        )
    return path


def _discover(folder: Path, *, required: bool) -> list[Path]:
    """``folder`` and its subfolders (those of containers too) that some collector recognises,
    in name order."""
    candidates = [folder]
    for child in _subfolders(folder):
        candidates += [child, *(_subfolders(child) if child.name in CONTAINERS else [])]
    kinds = collectors().registration_order()
    found = [p for p in candidates if any(collector(kind).recognises(p) for kind in kinds)]
    if required and not found:
        raise ConfigError(
            f"'{folder}' holds nothing a report is made from: a run folder holds {DATABASE} "
            "(shortcutlab run SPEC --out DIR), a demo folder demo.json (shortcutlab demo), an audit "
            "folder audit.json (shortcutlab audit DATA --out DIR), and "
            "their subfolders hold explain, Suite, rewrite-quality or annotation outputs."
        )
    return found


def _subfolders(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def _inputs(folder: Path) -> list[ReportInput]:
    kinds = [k for k in collectors().registration_order() if collector(k).recognises(folder)]
    results = _results(folder)
    return [ReportInput(kind=kind, path=folder, results=results) for kind in kinds]


def _results(folder: Path) -> Any:
    """A grid run's results (the numbers ``shortcutlab results`` prints), or None for other folders."""
    if not (folder / DATABASE).is_file():
        return None
    with ResultStore.for_run(folder) as store:
        try:
            store.spec_cells()
        except DataError:
            raise DataError(
                f"'{folder}' has no finished cells: run {run_command(folder)} first."
            ) from None
    return load_results(folder)


def _anchored(section: Section, label: str, kind: str, used: set[str]) -> Section:
    """``section`` with page-unique anchors: a subfolder's or included folder's anchors start with
    its name; an anchor another input took already gets the kind too (then a number)."""

    def unique(anchor: str) -> str:
        candidates = [anchor, f"{slug(kind)}-{anchor}"]
        candidates += [f"{slug(kind)}-{anchor}-{n}" for n in range(2, len(used) + 3)]
        if label:
            candidates = [f"{slug(label)}-{c}" for c in candidates]
        chosen = next(c for c in candidates if c not in used)
        used.add(chosen)
        return chosen

    identifier = unique(section.id)
    blocks = [
        replace(block, name=unique(block.name)) if hasattr(block, "name") else block
        for block in section.blocks
    ]
    title = f"{section.title} ({label})" if label else section.title
    return replace(section, id=identifier, title=title, blocks=blocks)


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def _titles(inputs: list[ReportInput]) -> tuple[str, str]:
    """The page title from the first input that names itself (a spec's name, the demo)."""
    for found in inputs:
        title = getattr(collector(found.kind), "title", None)
        if title is not None:
            named = title(found)
            if named:
                return named
    return "shortcutlab report", ""
