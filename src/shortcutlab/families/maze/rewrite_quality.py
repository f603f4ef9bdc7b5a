"""How faithful are style rewrites? The checks behind ``shortcutlab rewrite-quality``.

- An LLM judge scores each rewrite on the Shortcut Maze's four criteria (appendix A.2.2, figure 7):
  meaning and attitude faithfulness, no added and no omitted information, each 1-5; averaged per
  style like the paper's Tables 5-6.
- Checks that need no LLM: cosine similarity of sentence embeddings (original vs rewrite), the
  length ratio, and label consistency: a TF-IDF classifier trained on the originals (cross-fitted,
  so it never saw the row) predicts the same label for the rewrite as for the original.
- Rows below the thresholds are listed for inspection.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, LoadedTable, load_table
from shortcutlab.data.writing import atomic_output_dir, write_json, write_table
from shortcutlab.errors import ConfigError, listed
from shortcutlab.params import quoted
from shortcutlab.shortcuts.rewriters import Rewriter, make_rewriter
from shortcutlab.shortcuts.rewriters.base import ORIGINAL

CRITERIA = ("meaning", "attitude", "no_added", "no_omitted")
DEFAULT_THRESHOLDS = {
    "similarity": 0.7,
    "length_ratio_low": 0.5,
    "length_ratio_high": 2.0,
    "judge": 3.0,
}

# Shortcut Maze, figure 7: the four questions and their 1-5 scales, asked of a judge LLM.
JUDGE_PROMPT = """You are given an original text and a modified version written in another style. Answer four questions about the modified text, each with a score from 1 to 5.

a. Despite changes in text style, how similar are the meanings expressed in the two texts? (Meaning faithfulness) 1 = 0% similar, 2 = 25% similar, 3 = 50% similar, 4 = 75% similar, 5 = 100% similar.
b. Despite changes in text style, how similar are the attitudes expressed in the two texts? (Attitude faithfulness, which could affect the ground truth labels.) 1 = 0% similar, 2 = 25% similar, 3 = 50% similar, 4 = 75% similar, 5 = 100% similar.
c. Despite changes in text style, does the modified text include additional information compared to the original text? If so, how much? 1 = Quite a lot, 2 = A lot, 3 = Somewhat, 4 = A little, 5 = None.
d. Despite changes in text style, does the modified text omit any information present in the original text? If so, how much? 1 = Quite a lot, 2 = A lot, 3 = Somewhat, 4 = A little, 5 = None.

Reply with four lines: "Q1: <score>", "Q2: <score>", "Q3: <score>", "Q4: <score>".

Original text: {original}
Modified text: {modified}"""
_SCORE = re.compile(r"Q\s*([1-4])\s*[:=)\-]\s*([1-5])", re.IGNORECASE)


def parse_judge(answer: str | None) -> list[float]:
    """The four scores of a judge answer (NaN for any it did not give).

    Examples:
        >>> parse_judge("Q1: 5\\nQ2: 4\\nQ4: 2")
        [5.0, 4.0, nan, 2.0]
    """
    scores = [float("nan")] * 4
    for number, score in _SCORE.findall(answer or ""):
        scores[int(number) - 1] = float(score)
    return scores


@dataclass
class QualityReport:
    """Per-row checks (``rows``) and their per-style means (``summary``)."""

    rows: pd.DataFrame
    summary: pd.DataFrame
    settings: dict[str, Any] = field(default_factory=dict)

    def flagged(self) -> pd.DataFrame:
        return self.rows[self.rows["flags"] != ""]

    def save(self, out: str | Path, *, overwrite: bool = False) -> Path:
        with atomic_output_dir(Path(out), overwrite=overwrite) as tmp:
            # People read these three in spreadsheets: one row per style, every row, the flagged.
            write_table(self.summary.reset_index(), tmp / "summary.csv", for_people=True)
            write_table(self.rows, tmp / "rows.csv", for_people=True)
            write_table(self.flagged(), tmp / "flagged.csv", for_people=True)
            summary = json.loads(self.summary.to_json(orient="index"))
            write_json(tmp / "quality.json", {"settings": self.settings, "styles": summary})
        return Path(out)


def styles_of(shortcut: str) -> list[str]:
    """The rewritten styles of a style shortcut (``original`` needs no check)."""
    from shortcutlab.shortcuts import SHORTCUTS

    styles = SHORTCUTS.having("family", "style")
    if shortcut not in styles:
        raise ConfigError(
            f"rewrite-quality needs a style shortcut ({', '.join(styles)}). Got {quoted(shortcut)} instead."
        )
    return [s for s in SHORTCUTS.get(shortcut).styles if s != ORIGINAL]


def rewrite_quality(
    table: Any,
    *,
    shortcut: str = "register",
    styles: Sequence[str] | None = None,
    rewriter: str = "rules",
    rewriter_options: Mapping[str, Any] | None = None,
    role: str = "train",
    judge: Mapping[str, Any] | None = None,
    encoder: Mapping[str, Any] | None = None,
    embeddings: bool = True,
    sample: int | None = None,
    seed: int = 0,
    thresholds: Mapping[str, float] | None = None,
    **load: Any,
) -> QualityReport:
    """Rewrite ``table``'s texts in each style and check every rewrite against its original.

    ``judge`` is an LLM client config (e.g. ``{"name": "openai-chat", ...}``); without it the
    judge columns are left out. ``encoder`` holds sentence-encoder parameters.
    """
    limits = {**DEFAULT_THRESHOLDS, **(thresholds or {})}
    unknown = sorted(set(limits) - set(DEFAULT_THRESHOLDS))
    if unknown:
        raise ConfigError(
            f"Unknown threshold(s) {listed(unknown)}. Known: {', '.join(DEFAULT_THRESHOLDS)}."
        )
    loaded = table if isinstance(table, LoadedTable) else load_table(table, role=role, **load)
    frame = loaded.frame
    if sample is not None and sample < len(frame):
        frame = frame.iloc[
            np.sort(np.random.default_rng(seed).choice(len(frame), sample, replace=False))
        ]
    chosen = list(styles) if styles else styles_of(shortcut)
    writer = make_rewriter(rewriter, rewriter_options)
    for style in chosen:
        writer.check_supports(style, shortcut)
    writer.attach(loaded, role=role)
    consistency = _label_predictions(loaded.frame, seed)
    rows = pd.concat(
        [_style_rows(frame, style, writer, role, consistency) for style in chosen],
        ignore_index=True,
    )
    if embeddings:
        rows["similarity"] = _similarity(rows, encoder)
    if judge is not None:
        rows[list(CRITERIA)] = _judge(rows, judge)
    rows["flags"] = _flags(rows, limits)
    summary = _summary(rows)
    settings = {
        "shortcut": shortcut,
        "styles": chosen,
        "rewriter": rewriter,
        "role": role,
        "rows": len(frame),
        "seed": seed,
        "thresholds": limits,
        "judge": dict(judge)["name"] if judge else None,
    }
    return QualityReport(rows=rows, summary=summary, settings=settings)


def _style_rows(
    frame: pd.DataFrame,
    style: str,
    writer: Rewriter,
    role: str,
    consistency: tuple[np.ndarray, Any],
) -> pd.DataFrame:
    """Each row of ``frame`` rewritten in ``style``: the rewrite (missing where it failed), its
    length against the original's, and whether the label predicted for it stays the original's."""
    originals = frame[TEXT].tolist()
    ids = frame[ROW_ID].to_numpy()
    rewrites = writer.rewrite(originals, style, role=role, row_ids=ids)
    part = pd.DataFrame(
        {
            "row_id": ids,
            "style": style,
            "label": frame[LABEL].to_numpy(),
            "original": originals,
            "rewrite": rewrites,
        }
    )
    part["failed"] = part["rewrite"].isna()
    part["length_ratio"] = [
        len(str(r).split()) / max(len(o.split()), 1) if r else np.nan
        for o, r in zip(originals, rewrites, strict=True)
    ]
    predicted_original, predict = consistency
    rewritten = [r or "" for r in rewrites]
    part["label_consistent"] = np.where(
        part["failed"],
        np.nan,
        (predict(rewritten, ids) == predicted_original[ids]).astype(float),
    )
    return part


def _label_predictions(frame: pd.DataFrame, seed: int) -> tuple[np.ndarray, Any]:
    """Cross-fitted TF-IDF predictions for the originals, and a predictor for rewrites of the same rows."""
    from sklearn.model_selection import StratifiedKFold

    from shortcutlab.models import make_model

    space = LabelSpace.infer(frame[LABEL].tolist(), given=None)
    ranks = space.ranks(frame[LABEL])
    folds = max(2, min(5, int(np.bincount(ranks).min())))
    if np.bincount(ranks).min() < 2:
        raise ConfigError(
            "Label consistency needs at least two rows per label; pass a larger table."
        )
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    texts = frame[TEXT].tolist()
    fold_of = np.zeros(len(frame), dtype=np.int64)
    models = []
    predicted = np.zeros(len(frame), dtype=np.int64)
    for fold, (train, held_out) in enumerate(splitter.split(np.zeros(len(ranks)), ranks)):
        model = make_model("tfidf-logreg").fit(
            [texts[i] for i in train], ranks[train], n_classes=len(space)
        )
        predicted[held_out] = model.predict([texts[i] for i in held_out])
        fold_of[held_out] = fold
        models.append(model)
    position = {row_id: i for i, row_id in enumerate(frame[ROW_ID].to_numpy())}
    by_id = np.full(max(position) + 1, -1, dtype=np.int64)
    for row_id, i in position.items():
        by_id[row_id] = predicted[i]

    def predict(rewrites: list[str], row_ids: np.ndarray) -> np.ndarray:
        out = np.zeros(len(rewrites), dtype=np.int64)
        folds_of_rows = fold_of[[position[r] for r in row_ids]]
        for fold, model in enumerate(models):
            members = np.flatnonzero(folds_of_rows == fold)
            if len(members):
                out[members] = model.predict([rewrites[i] for i in members])
        return out

    return by_id, predict


def _similarity(rows: pd.DataFrame, encoder: Mapping[str, Any] | None) -> np.ndarray:
    from shortcutlab.models import make_model

    model = make_model("sentence-encoder", dict(encoder or {}))
    model.check()
    valid = ~rows["failed"].to_numpy()
    scores = np.full(len(rows), np.nan)
    if valid.any():
        a = model.embed(rows.loc[valid, "original"].tolist())
        b = model.embed(rows.loc[valid, "rewrite"].tolist())
        scores[valid] = np.einsum("ij,ij->i", a, b) / np.maximum(
            np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1), 1e-12
        )
    return scores


def _judge(rows: pd.DataFrame, judge: Mapping[str, Any]) -> np.ndarray:
    from shortcutlab.llm import make_client
    from shortcutlab.llm.base import ChatRequest, require_answers

    scores = np.full((len(rows), 4), np.nan)
    valid = np.flatnonzero(~rows["failed"].to_numpy())
    with make_client(dict(judge)) as client:
        client.check()
        requests = [
            ChatRequest(
                messages=(
                    (
                        "user",
                        JUDGE_PROMPT.format(
                            original=rows["original"].iat[i], modified=rows["rewrite"].iat[i]
                        ),
                    ),
                ),
                max_tokens=32,
            )
            for i in valid
        ]
        responses = client.complete(requests)
        require_answers(responses, asked="judge prompts", client=client)
        for i, response in zip(valid, responses, strict=True):
            scores[i] = parse_judge(response.text)
    return scores


def _flags(rows: pd.DataFrame, limits: Mapping[str, float]) -> list[str]:
    reasons = []
    for row in rows.itertuples():
        found = []
        if row.failed:
            found.append("failed")
        else:
            if "similarity" in rows and row.similarity < limits["similarity"]:
                found.append(f"similarity<{limits['similarity']:g}")
            if not limits["length_ratio_low"] <= row.length_ratio <= limits["length_ratio_high"]:
                found.append("length")
            if row.label_consistent == 0:
                found.append("label-changed")
            if all(c in rows for c in CRITERIA) and any(
                getattr(row, c) < limits["judge"] for c in CRITERIA
            ):
                found.append(f"judge<{limits['judge']:g}")
        reasons.append(",".join(found))
    return reasons


def _summary(rows: pd.DataFrame) -> pd.DataFrame:
    columns = [
        c for c in ("similarity", "length_ratio", "label_consistent", *CRITERIA) if c in rows
    ]
    grouped = rows.groupby("style", sort=False)
    summary = grouped[columns].mean()
    summary.insert(0, "rows", grouped.size())
    summary.insert(1, "failed", grouped["failed"].sum().astype(int))
    summary["flagged"] = grouped["flags"].agg(lambda flags: int((flags != "").sum()))
    return summary
