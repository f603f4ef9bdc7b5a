"""``shortcutlab explain``: where a model's attributions sit relative to the cue a build inserted.

The model is fitted on the benchmark's training split (the plain fit, ``erm``, and with
``mitigation`` the mitigated one too, same backend and seed), then each explains the same seeded
rows that carry a recorded cue: SHAP values per token in the Shortcut Maze Table 4 layout, the
share of rows whose top token is the cue, exact occlusion of the cue and its sign agreement with
SHAP, the rationale/cue overlap of rationalizing models, and per-row pictures.

Outputs are byte-identical for the same inputs and seed; timings are returned, not written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.writing import atomic_output_dir, check_output_dir, write_json
from shortcutlab.errors import ConfigError, knob
from shortcutlab.explain import ExplainedRows, compare, explain_rows, summarize
from shortcutlab.explain.shap_text import MASK_TOKEN, TextExplainer
from shortcutlab.families.maze.explain_long import explain_long_table
from shortcutlab.families.maze.explain_pictures import row_html, row_png
from shortcutlab.families.maze.explain_source import (
    CueRows,
    ExplainSource,
    cue_rows,
    resolve_source,
)
from shortcutlab.mitigations import make_mitigation
from shortcutlab.mitigations.base import Mitigation, MitigationContext
from shortcutlab.mitigations.context import mitigation_context
from shortcutlab.models.adapters import json_safe_params, model_label
from shortcutlab.params import check_non_negative_int, check_positive_int
from shortcutlab.provenance import environment, tool_record

ERM = "erm"
RESULTS, ROWS_HTML, PICTURES = "results.json", "rows.html", "pictures"


@dataclass
class ExplainedModel:
    """One fitted method's explained rows and their summary."""

    method: str
    explained: ExplainedRows
    summary: dict[str, Any]


@dataclass(repr=False)  # a short __repr__ below: the explained rows hold arrays
class ExplainResult:
    """What :func:`explain` computed: ``results`` (written as results.json), each method's
    explained rows, the labels, the seconds per row and the folder written (if any)."""

    results: dict[str, Any]
    models: list[ExplainedModel]
    labels: tuple[Any, ...]
    seconds_per_row: dict[str, dict[str, float]] = field(default_factory=dict)
    out: Path | None = None

    def to_pandas(self) -> pd.DataFrame:
        """The long, tidy table: one row per method × summary figure on the explained split
        (columns in the glossary, "The tidy table"; the per-row figures stay in ``results``)."""
        return explain_long_table(self.results)

    def __repr__(self) -> str:
        config = self.results["config"]
        methods = ", ".join(m.method for m in self.models)
        shown = f", out='{self.out}'" if self.out is not None else ""
        return (
            f"ExplainResult(model={config['model']!r}, split={config['split']!r}, "
            f"rows={config['rows']}, methods=[{methods}]{shown})"
        )


def explain(
    source: Benchmark | str | Path,
    *,
    model: Any,
    params: Mapping[str, Any] | None = None,
    rows: int = 100,
    seed: int = 0,
    split: str = "test",
    mitigation: str | None = None,
    mitigation_params: Mapping[str, Any] | None = None,
    benchmark: str | None = None,
    max_evals: int | None = None,
    batch_size: int = 64,
    pictures: int = 10,
    out: str | Path | None = None,
    overwrite: bool = False,
) -> ExplainResult:
    """Explain ``rows`` cue-carrying rows of ``split`` with ``model`` (and ``mitigation``).

    ``source`` is a :class:`Benchmark` or its folder (``model``: a registry name with its ``params``, or any model
    :func:`~shortcutlab.models.adapters.resolve_model` takes) or a
    run folder (``model``: a model id of its spec, ``seed`` the cell's seed; ``benchmark`` picks
    the build when the run has several). ``pictures`` rows per method get a PNG.
    """
    check_positive_int("explain", "rows", rows)
    check_non_negative_int("explain", "seed", seed)
    check_non_negative_int("explain", "pictures", pictures)
    if out is not None:
        check_output_dir(Path(out), overwrite=overwrite)
    explainer = TextExplainer(max_evals=max_evals, batch_size=batch_size)  # checks, imports shap
    found = resolve_source(source, model=model, params=params, seed=seed, benchmark_id=benchmark)
    chosen = cue_rows(found.benchmark, split=split, rows=rows, seed=seed)
    contexts = _method_contexts(found, mitigation, mitigation_params)
    labels = found.benchmark.labels.values
    explained_models = []
    for method, context in contexts:
        explained = _explain_with(method, context, chosen, explainer)
        explained_models.append(
            ExplainedModel(method.name, explained, summarize(explained.rows, labels, seed=seed))
        )
    mitigated = contexts[1][0] if len(contexts) == 2 else None
    results = {
        "tool": tool_record(),
        "environment": {**environment(), "shap": version("shap")},
        "source": found.record,
        "config": {
            "model": model_label(found.model, found.params),
            "params": json_safe_params(found.params),
            "fit_seed": found.fit_seed,
            "seed": seed,
            "split": split,
            "rows": len(chosen.row_ids),
            "rows_with_cue": chosen.available,
            "max_evals": max_evals,  # null: enough for every token to get its own value
            "mask_token": MASK_TOKEN,
            "output": "probability",
            "mitigation": None if mitigated is None else mitigated.name,
            "mitigation_params": None if mitigated is None else mitigated.get_params(),
        },
        "labels": [str(v) for v in labels],
        "methods": {m.method: m.summary for m in explained_models},
        "rows": {m.method: _row_records(m.explained) for m in explained_models},
    }
    if len(explained_models) == 2:
        before, after = (m.explained.rows for m in explained_models)
        results["change"] = compare(before, after, seed=seed)
    result = ExplainResult(
        results,
        explained_models,
        tuple(labels),
        {
            m.method: {
                "shap": m.explained.shap_seconds / len(chosen.row_ids),
                "occlusion": m.explained.occlusion_seconds / len(chosen.row_ids),
            }
            for m in explained_models
        },
    )
    if out is not None:
        result.out = _write(result, Path(out), pictures=pictures, overwrite=overwrite)
    return result


def _method_contexts(
    found: ExplainSource, mitigation: str | None, mitigation_params: Mapping[str, Any] | None
) -> list[tuple[Mitigation, MitigationContext]]:
    """The plain fit (erm) and, with ``mitigation``, the mitigated one, each with its context.
    Every context is made first: a method the data cannot serve fails before any model is fitted."""
    methods = [make_mitigation(ERM)]
    if mitigation is not None and mitigation != ERM:
        methods.append(make_mitigation(mitigation, mitigation_params))
    elif mitigation_params:
        raise ConfigError(
            f"{knob('mitigation_params', flag='--mitigation-param')} needs {knob('mitigation')} "
            "naming a method other than erm."
        )
    contexts: list[tuple[Mitigation, MitigationContext]] = []
    for method in methods:
        method.check_backend(found.model)
        context = mitigation_context(
            found.benchmark, method, model=found.model, params=found.params, seed=found.fit_seed
        )
        contexts.append((method, context))
    return contexts


def _explain_with(
    method: Mitigation, context: MitigationContext, chosen: CueRows, explainer: TextExplainer
) -> ExplainedRows:
    predictor = method.fit(context)
    try:
        return explain_rows(
            predictor.predict_proba,
            chosen.inputs,
            chosen.spans,
            row_ids=chosen.row_ids,
            groups=chosen.groups,
            part=chosen.part,
            explainer=explainer,
            # Rationalizing models (a2r, cr) say which characters they read.
            rationales=getattr(predictor, "rationales", None),
            # Models that embed texts batch SHAP's masked texts ahead (sentence-encoder).
            embed_ahead=getattr(predictor, "embed_ahead", None),
        )
    finally:
        predictor.close()


def _row_records(explained: ExplainedRows) -> list[dict[str, Any]]:
    records = []
    for row in explained.rows:
        k = row.predicted
        top = int(abs(row.values[:, k]).argmax())
        records.append(
            {
                "row_id": row.row_id,
                "predicted": k,
                "probability": float(row.probabilities[k]),
                "probability_without_cue": float(row.without_cue[k]),
                "cue_shap": float(row.cue_values[k]),
                "cue_tokens": int(row.in_cue.sum()),
                "tokens": len(row.offsets),
                "top_token": row.tokens[top],
                "top_token_in_cue": bool(row.in_cue[top]),
                # What a report needs to shade the row's tokens (the predicted label's SHAP).
                "text": row.text,
                "cue_spans": [[int(start), int(end)] for start, end in row.spans],
                "token_offsets": [[int(start), int(end)] for start, end in row.offsets],
                "token_values": [float(value) for value in row.values[:, k]],
            }
        )
    return records


def _write(result: ExplainResult, out: Path, *, pictures: int, overwrite: bool) -> Path:
    with atomic_output_dir(out, overwrite=overwrite) as folder:
        figures = []
        for model in result.models:
            for number, row in enumerate(model.explained.rows):
                figures.append(row_html(row, result.labels, model=model.method))
                if number < pictures:
                    (folder / PICTURES).mkdir(exist_ok=True)
                    name = re.sub(r"[^\w.-]", "_", str(row.row_id))
                    row_png(
                        row,
                        result.labels,
                        folder / PICTURES / f"{model.method}-row-{name}.png",
                        model=model.method,
                    )
        (folder / ROWS_HTML).write_text("\n".join(figures) + "\n", encoding="utf-8")
        write_json(folder / RESULTS, result.results)
    return out
