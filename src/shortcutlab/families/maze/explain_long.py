"""An explanation's summary figures as the long table (:mod:`shortcutlab.reports.tidy`): one row
per method × metric on the explained split (``ExplainResult.to_pandas()``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pandas as pd

from shortcutlab.reports.tidy import Measure, long_table

#: The figures of one method, on the explained split (set per result).
EXPLAIN_MEASURES = (
    Measure("", "mean_abs_shap_cue", "mean_abs_shap_cue", n="rows"),
    Measure("", "mean_abs_shap_others", "mean_abs_shap_others", n="rows"),
    Measure(
        "",
        "cue_minus_others_abs_shap",
        "cue_minus_others",
        ci_low="cue_minus_others_low",
        ci_high="cue_minus_others_high",
        n="rows",
    ),
    Measure("", "top_token_in_cue", "top_token_in_cue", n="rows"),
    Measure("", "top_token_in_cue_by_chance", "top_token_chance", n="rows"),
    Measure("", "sign_agreement", "sign_agreement", n="sign_rows"),
    Measure("", "occlusion_predicted_label", "occlusion_predicted_label", n="rows"),
    Measure("", "occlusion_total_variation", "occlusion_total_variation", n="rows"),
)


def explain_long_table(results: Mapping[str, Any]) -> pd.DataFrame:
    """One row per explained method × summary figure; ``mitigation`` names the method only when
    one was asked for (the plain fit alone has none)."""
    config = results["config"]
    asked = config.get("mitigation") is not None
    wide = []
    for method, summary in results["methods"].items():
        shap = summary["mean_abs_shap"]
        interval = shap["cue_minus_others_per_row"].get("interval_95") or (None, None)
        wide.append(
            {
                "dataset": results.get("source", {}).get("path"),
                "model": config["model"] if isinstance(config["model"], str) else None,
                "mitigation": method if asked else None,
                "shortcut": results.get("source", {}).get("shortcut"),
                "strength": results.get("source", {}).get("strength"),
                "rows": summary["rows"],
                "mean_abs_shap_cue": shap["cue"],
                "mean_abs_shap_others": shap["others"],
                "cue_minus_others": shap["cue_minus_others_per_row"]["mean"],
                "cue_minus_others_low": interval[0],
                "cue_minus_others_high": interval[1],
                "top_token_in_cue": summary["top_token_in_cue"]["share"],
                "top_token_chance": summary["top_token_in_cue"]["chance"],
                "sign_agreement": summary["sign_agreement"]["share"],
                "sign_rows": summary["sign_agreement"]["rows"],
                "occlusion_predicted_label": summary["occlusion"]["predicted_label"],
                "occlusion_total_variation": summary["occlusion"]["total_variation"],
            }
        )
    measures = [replace(m, split=config["split"]) for m in EXPLAIN_MEASURES]
    table = long_table(wide, measures)
    return table.dropna(subset=["estimate"]).reset_index(drop=True)
