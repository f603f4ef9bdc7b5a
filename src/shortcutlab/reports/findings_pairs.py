"""Findings of the pair protocols in plain words: a CAT run's attentiveness and partial-input
baseline (``shortcutlab cat``'s ``results.json``), and a Shortcut Suite evaluation per set
(``suite evaluate``'s ``results.json``). Percentages as their tables print them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shortcutlab.reports.phrases import missing, p_phrase, percent

ALPHA = 0.05  # the level of the CAT baseline test and of a Suite set's change (no family)


def cat_findings(results: Mapping[str, Any]) -> list[str]:
    """Two sentences of a CAT run: how often the model's prediction changes when the replaced
    part comes from another row (attentiveness), and whether the other part alone predicts the
    label better than the majority label (the partial-input baseline)."""
    config, cat, base = results["config"], results["attentiveness"], results["baselines"]
    model = config["model"] + (" with CAT augmentation" if config["augment"] else "")
    replaced, kept_part = config["replace"], base["partial_input"]["trained_on"]
    spread = (
        f"mean over {cat['k']} counterfactual sets, ± {100 * cat['std']:.1f}"
        if not missing(cat["std"])
        else "one counterfactual set, so no spread is measured"
    )
    attentive = (
        f"{model} is attentive to {replaced} on {percent(cat['mean'])} of the "
        f"{cat['rows_kept']} test pairs it does not label {config['default_label']}: its "
        f"prediction changes when {replaced} comes from another row ({spread}); on the other "
        f"{percent(1 - cat['mean'])} it keeps its answer, as if it read {kept_part} alone."
    )
    partial, majority = base["partial_input"]["value"], base["majority"]
    p = base["partial_vs_majority"]["p_value"]
    if p < ALPHA and partial > majority["value"]:
        baseline = (
            f"A model trained on {kept_part} alone reaches {percent(partial)} accuracy against "
            f"{percent(majority['value'])} for always answering {majority['label']} "
            f"({p_phrase(p)}): {kept_part} alone predicts much of the label."
        )
    else:
        baseline = (
            f"A model trained on {kept_part} alone does no better than always answering "
            f"{majority['label']} ({percent(partial)} against {percent(majority['value'])}, "
            f"{p_phrase(p)})."
        )
    return [attentive, baseline]


def suite_findings(results: Mapping[str, Any]) -> list[str]:
    """One sentence per strategy × set: its accuracy (E / ¬E apart on a 2-class set) and, where
    the folder has a standard set, whether it differs from standard at the 5 % level."""
    two_class = set(results["two_class_sets"])
    sentences = []
    for run in results["strategies"]:
        subject = results["model"]["name"] + (f" ({run['strategy']})" if run["strategy"] else "")
        for name, scored in run["sets"].items():
            sentences.append(_set_sentence(subject, name, scored, name in two_class))
    return sentences


def _set_sentence(subject: str, name: str, scored: Mapping[str, Any], two_class: bool) -> str:
    if missing(scored.get("accuracy")):
        return f"{subject} has no accuracy on {name}: no answer could be scored."
    halves = (
        f", with {_share(scored.get('accuracy_entailment'))} on its entailment rows and "
        f"{_share(scored.get('accuracy_non_entailment'))} on the others"
        if two_class
        else ""
    )
    change = scored.get("change")
    if change is None:
        return f"{subject} scores {percent(scored['accuracy'])} on {name}{halves}."
    figures = (
        f"{percent(scored['accuracy'])} against {percent(change['standard_accuracy'])} on "
        f"standard ({p_phrase(change['p_value'])}){halves}"
    )
    if change["p_value"] >= ALPHA or change["delta"] == 0:
        return f"{subject} shows no significant change on {name}: {figures}."
    verb = "loses" if change["delta"] < 0 else "gains"
    return f"{subject} {verb} {100 * abs(change['delta']):.1f} points on {name}: {figures}."


def _share(value: Any) -> str:
    return "—" if missing(value) else percent(value)
