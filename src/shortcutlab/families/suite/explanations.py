"""Explanation metrics of chain-of-thought answers per Suite set, and the error-type judge.

SFS, ICS, EQS and CFS (section 4.2) from :mod:`shortcutlab.metrics.explanations`, with the
embeddings and contradiction probabilities supplied by models; the error-type pass (5.2.4) asks
an LLM judge to name each wrong answer's mistake.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from shortcutlab.data.pairs import TextInput
from shortcutlab.metrics.explanations import (
    confidence_summary,
    explanation_quality,
    internal_consistency,
    reasoning_steps,
    semantic_fidelity,
    step_pairs,
)
from shortcutlab.models.nli_scorers import NliScorer
from shortcutlab.models.prompts import ERROR_TYPE_PROMPT, ERROR_TYPES

_ERROR_ANSWER = re.compile(r"error\s*type\s*:\s*(.+)", re.IGNORECASE)


def explanation_scores(
    *,
    prompts: Sequence[str],
    outputs: Sequence[str | None],
    confidence: np.ndarray,
    correct: np.ndarray,
    embed: Callable[[list[str]], np.ndarray] | None,
    nli_scorer: NliScorer | None,
) -> dict[str, Any]:
    """SFS, ICS, EQS and CFS over the rows that got an answer (None where a source is missing).

    All step pairs of all explanations go to the NLI scorer in one call.
    """
    answered = [i for i, output in enumerate(outputs) if output]
    steps = [reasoning_steps(outputs[i]) for i in answered]
    record: dict[str, Any] = {
        "explanations": len(answered),
        "steps_mean": float(np.mean([len(s) for s in steps])) if steps else None,
        "sfs": None,
        "ics": None,
        "ics_explanations": None,
        "ics_unparsed_pairs": None,
        "eqs": None,
        "max_contradiction_mean": None,
        "max_contradiction_explanations": None,
    }
    if answered and embed is not None:
        vectors = embed([prompts[i] for i in answered] + [str(outputs[i]) for i in answered])
        record["sfs"] = float(
            semantic_fidelity(
                prompt_embeddings=vectors[: len(answered)],
                output_embeddings=vectors[len(answered) :],
            ).mean()
        )
    if answered and nli_scorer is not None:
        record.update(_consistency_scores(steps, nli_scorer))
    if record["sfs"] is not None and record["ics"] is not None:
        record["eqs"] = explanation_quality(sfs=record["sfs"], ics=record["ics"])
    summary = confidence_summary(confidence=confidence, correct=correct)
    record["cfs"] = None if summary["stated"] == 0 else summary["cfs"]
    record["cfs_accuracy"] = None if summary["stated"] == 0 else summary["accuracy"]
    record["confidence_stated"] = summary["stated"]
    return record


def _consistency_scores(steps: Sequence[list[str]], nli_scorer: NliScorer) -> dict[str, Any]:
    """ICS and the mean largest p(contradiction), each over the explanations it can score.

    A step pair the scorer could not score (NaN: an LLM judge's unparseable answer) would read
    as "no contradiction" under ICS's p > 1/3 rule, so explanations with one are left out of both.
    """
    firsts, seconds, owners = [], [], []
    for row, row_steps in enumerate(steps):
        for i, j in step_pairs(len(row_steps)):
            firsts.append(row_steps[i])
            seconds.append(row_steps[j])
            owners.append(row)
    probabilities = (
        np.asarray(nli_scorer.contradiction_probabilities(firsts, seconds), dtype=np.float64)
        if firsts
        else np.zeros(0)
    )
    owner_array = np.asarray(owners, dtype=np.int64)
    per_row = [probabilities[owner_array == row] for row in range(len(steps))]
    scored = [p for p in per_row if not np.isnan(p).any()]
    # Beside ICS's all-or-nothing 1/3 threshold: how close explanations come to it; an
    # explanation of one step has no pair, so no largest p(contradiction).
    with_pairs = [p for p in scored if len(p)]
    unparsed = int(np.isnan(probabilities).sum())
    return {
        "ics": internal_consistency(pair_probabilities=scored) if scored else None,
        "ics_explanations": len(scored),
        "ics_unparsed_pairs": unparsed if getattr(nli_scorer, "parses_answers", False) else None,
        "max_contradiction_mean": float(np.mean([p.max() for p in with_pairs]))
        if with_pairs
        else None,
        "max_contradiction_explanations": len(with_pairs),
    }


class ErrorJudge:
    """An LLM labelling wrong CoT answers as distraction / disguised comprehension / logical
    fallacy / other (section 5.2.4); ``client`` is an openai-chat or hf-causal configuration."""

    def __init__(self, client: Mapping[str, Any], *, max_tokens: int = 16) -> None:
        from shortcutlab.llm import make_client

        self.client = make_client(dict(client))
        self.max_tokens = max_tokens

    def count(
        self, inputs: Sequence[TextInput], labels: Sequence[str], reasonings: Sequence[str]
    ) -> dict[str, int]:
        """Counts per error type (and ``unparsed``) over the wrong answers given."""
        from shortcutlab.llm.base import ChatRequest, require_answers

        requests = [
            ChatRequest(
                messages=(
                    (
                        "user",
                        ERROR_TYPE_PROMPT.format(
                            premise=item[0] if isinstance(item, tuple) else item,
                            hypothesis=item[1] if isinstance(item, tuple) else "",
                            label=label,
                            reasoning=reasoning.strip(),
                        ),
                    ),
                ),
                max_tokens=self.max_tokens,
            )
            for item, label, reasoning in zip(inputs, labels, reasonings, strict=True)
        ]
        counts = dict.fromkeys([*ERROR_TYPES, "unparsed"], 0)
        responses = self.client.complete(requests) if requests else []
        require_answers(responses, asked="error-type prompts", client=self.client)
        for response in responses:
            counts[parse_error_type(response.text)] += 1
        return counts

    def close(self) -> None:
        self.client.close()


def parse_error_type(answer: str | None) -> str:
    """The error type an answer names after "Error type:", or ``unparsed``.

    Examples:
        >>> parse_error_type("Error type: Logical fallacy."), parse_error_type("no idea")
        ('logical fallacy', 'unparsed')
    """
    match = _ERROR_ANSWER.search(answer or "")
    if match is None:
        return "unparsed"
    named = match.group(1).strip().lower()
    return next((t for t in ERROR_TYPES if named.startswith(t)), "unparsed")


def sentence_embedder(
    model: str | None = None, cache_dir: str | None = None
) -> Callable[[list[str]], np.ndarray]:
    """Texts -> vectors with the sentence encoder (default: the bundled all-MiniLM-L6-v2), for SFS."""
    from shortcutlab.models.sentence_encoder import SentenceEncoder

    encoder = SentenceEncoder(model=model, cache_dir=cache_dir, normalize=False)
    encoder.check()
    return lambda texts: encoder.embed(texts)


def make_nli_scorer(
    spec: str,
    *,
    train: Any = None,
    train_options: Mapping[str, Any] | None = None,
    judge_client: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> NliScorer:
    """The ICS scorer named by ``spec``: ``judge`` (an LLM through ``judge_client``), a registered
    shortcutlab model name (fitted on ``train``, NLI pairs, with ``seed``), or a Hugging Face
    checkpoint."""
    from shortcutlab.data import LabelSpace, load_table
    from shortcutlab.data.pairs import model_inputs, require_pairs
    from shortcutlab.errors import ConfigError
    from shortcutlab.models import MODELS, make_model
    from shortcutlab.models.base import check_input_kind
    from shortcutlab.models.nli_scorers import (
        HFNliScorer,
        LLMJudgeScorer,
        ModelNliScorer,
        contradiction_index,
    )

    if spec == "judge":
        if judge_client is None:
            raise ConfigError(
                "--nli-model judge needs an LLM client: pass --judge '{name: openai-chat, base_url: URL, model: NAME}'."
            )
        return LLMJudgeScorer(judge_client)
    if spec in MODELS.names():
        if train is None:
            raise ConfigError(
                f"--nli-model {spec} is trained on NLI pairs: pass --nli-train FILE (or --train)."
            )
        frame = load_table(train, role="nli-train", **dict(train_options or {})).frame
        inputs = model_inputs(frame)
        require_pairs(inputs, f"--nli-model {spec}", list(frame.columns))
        labels = sorted({str(v) for v in frame["label"]})
        space = LabelSpace.infer(frame["label"].astype(str).tolist(), given=labels)
        model = make_model(spec, seed=seed)
        # Before fitting: a model that reads one text per row would fail only after a full fit.
        check_input_kind(model, inputs)
        contradiction_index(labels, where=f"{spec} trained on {train}")
        model.check(len(space))
        model.fit(inputs, space.ranks(frame["label"].astype(str)), n_classes=len(space))
        return ModelNliScorer(model, labels)
    return HFNliScorer(spec)
