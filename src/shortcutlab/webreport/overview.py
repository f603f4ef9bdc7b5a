"""A grid run of any family: its overview (spec, data, seeds, versions, hashes, timings), then
the sections its family gives for the loaded results.

Everything comes from the run folder: the store's meta (resolved spec, its hash, the tool
version), its finished cells (package versions, seconds) and the benchmark
manifests (input hashes). No clock time is read, so the same folder gives the same page.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from shortcutlab.engine.mitigation_spec import fit_id
from shortcutlab.engine.run_folder import BENCHMARKS
from shortcutlab.engine.store import DATABASE, ResultStore
from shortcutlab.families import family, stored_family
from shortcutlab.reports.html.collect import ReportInput
from shortcutlab.reports.html.document import Facts, Section

LISTED = ("shortcuts", "attributes", "mitigations")


def recognises(path: Path) -> bool:
    return (path / DATABASE).is_file()


def title(found: ReportInput) -> tuple[str, str] | None:
    spec = _spec(found.path)
    return f"{spec.get('name', found.path.name)}", f"shortcutlab {stored_family(spec)} run"


def sections(found: ReportInput) -> list[Section]:
    return [_overview(found), *family(stored_family(_spec(found.path))).run_sections(found)]


def _overview(found: ReportInput) -> Section:
    with ResultStore.for_run(found.path) as store:
        spec = store.spec()
        meta = {key: store.meta(key) or "" for key in ("spec_hash", "tool_version", "cell_ids")}
        cells = store.cells(status=None)
        versions = [
            text
            for (text,) in store.connection.execute(
                "SELECT versions FROM cells WHERE status = 'done' ORDER BY cell_id"
            )
        ]
    planned = len(json.loads(meta["cell_ids"] or "[]"))
    done = cells[cells["status"] == "done"]
    run = [
        ("spec", f"{spec.get('name', '?')} (family {stored_family(spec)})"),
        ("spec sha256", meta["spec_hash"]),
        ("shortcutlab", meta["tool_version"]),
        (
            "cells",
            f"{len(done)} finished of {planned} planned; {int((cells['status'] == 'failed').sum())} failed",
        ),
    ]
    design = [
        ("datasets", _datasets(spec)),
        ("models", ", ".join(_names(spec.get("models", []), "id"))),
    ]
    design += [(key, ", ".join(_names(spec[key], "name"))) for key in LISTED if spec.get(key)]
    for key in ("strengths", "seeds"):
        if key in spec:
            design.append(
                (key, ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in spec[key]))
            )
    design += [(key, str(spec[key])) for key in ("vary", "build_seed", "bootstrap") if key in spec]
    return Section(
        id="overview",
        title="Overview",
        intro="What was run and with what: the resolved spec stored in the run folder, the "
        "package versions each cell recorded, and the input hashes of its benchmark builds.",
        blocks=[
            Facts(title="Run", items=run + _timings(done)),
            Facts(title="Design", items=design),
            Facts(title="Versions", items=_versions(versions)),
            Facts(title="Input hashes (sha256)", items=_input_hashes(found.path / BENCHMARKS)),
        ],
    )


def _spec(path: Path) -> dict[str, Any]:
    with ResultStore.for_run(path) as store:
        return store.spec()


def _names(entries: list[Any], key: str) -> list[str]:
    return [str(e.get(key) or e.get("name")) if isinstance(e, dict) else str(e) for e in entries]


def _datasets(spec: dict[str, Any]) -> str:
    described = []
    for entry in spec.get("datasets", []):
        options = ", ".join(f"{k}={v}" for k, v in sorted(entry.items()) if k != "name")
        described.append(f"{entry.get('name', '?')} ({options})")
    return "; ".join(described)


def _timings(done: Any) -> list[tuple[str, str]]:
    """Seconds spent fitting and predicting, a fit shared by seeds counted once (the store keeps
    no wall time of the run: workers run in parallel and runs resume)."""
    if done.empty:
        return []
    fits = done.assign(fit=[fit_id(r) for r in done.itertuples()]).drop_duplicates("fit")
    fit, predict = fits["fit_seconds"].sum(), fits["predict_seconds"].sum()
    return [
        (
            "time in cells",
            f"{fit:.1f} s fitting ({len(fits)} distinct fits) + {predict:.1f} s predicting; summed, not the run's wall time",
        ),
    ]


def _versions(texts: list[str | None]) -> list[tuple[str, str]]:
    """Each distinct set of package versions the cells recorded, with how many cells had it."""
    counted = Counter(
        ", ".join(f"{k} {v}" for k, v in sorted(json.loads(t).items())) if t else "not recorded"
        for t in texts
    )
    if len(counted) == 1:
        return [("packages", next(iter(counted)))]
    return [(f"packages ({n} cells)", versions) for versions, n in sorted(counted.items())]


def _input_hashes(benchmarks: Path) -> list[tuple[str, str]]:
    """The train/test inputs of the benchmark builds, one line per distinct input."""
    seen: dict[tuple[str, str], set[str]] = {}
    for manifest in sorted(benchmarks.glob("*/manifest.json")) if benchmarks.is_dir() else []:
        inputs = json.loads(manifest.read_text(encoding="utf-8")).get("inputs", {})
        for role, record in sorted(inputs.items()):
            if isinstance(record, dict) and record.get("sha256"):
                source = record.get("path") or record.get("format") or "?"
                seen.setdefault((role, record["sha256"]), set()).add(str(source))
    if not seen:
        return [("inputs", "no benchmark manifests in this folder")]
    return [
        (f"{role} ({', '.join(sorted(sources))})", digest)
        for (role, digest), sources in sorted(seen.items())
    ]
