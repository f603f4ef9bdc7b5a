"""Scoring for detection.py: where a build's planted cue ranks in each method's list, how many
genuine label words each method flags, and the targets, from audit.json alone.

Each method is an ordered list of the audit's significant candidates (a candidate that does not
survive the correction is not a finding of any method):

- triage: the likely shortcuts (``group == "shortcut"``), by ``shortcut_rank``;
- association: every candidate, by the audit's ``rank`` (association alone);
- reliance: the candidates the model relies on (``relied_on`` true), in the audit's order.

The planted cue's rank is the 1-based position of the first candidate the cue's names match
(its name, or a name its detail lists as having the same rows); None when none is listed. On a
null build (λ = 0) a rank means the method flagged the cue: a false flag.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from maze_cues import listed_names

METHODS = ("triage", "association", "reliance")
TOP_K = 5
#: The audit's false-discovery level: a null row passes when at most this share of builds flag.
ALPHA = 0.05
#: Shortcut families with a recall target, and the share of builds with the cue at #1 by λ.
TARGET_FAMILIES = ("occurrence", "style")
RECALL_TARGETS = ((0.6, 0.9), (0.4, 0.6))  # (λ at least, share at least), first that applies
#: The data set whose label words must stay out of the top five likely shortcuts.
LABEL_WORD_TARGET = "goemotions"
MISSING = "—"


def has_triage(audit: Mapping[str, Any]) -> bool:
    """Whether the audit sorted its candidates into groups (issue 35's triage has landed)."""
    return any("group" in c for c in audit["candidates"])


def method_list(audit: Mapping[str, Any], method: str) -> list[Mapping[str, Any]]:
    """The method's significant candidates in its order (see the module docstring)."""
    found = [c for c in audit["candidates"] if c.get("significant") is True]
    if method == "triage":
        # A style's markers are read as the style (its line stands for them).
        found = [c for c in found if c.get("group") == "shortcut" and not c.get("member_of")]
        return sorted(found, key=lambda c: (c.get("shortcut_rank") is None, c.get("shortcut_rank")))
    found = sorted(found, key=lambda c: c["rank"])
    if method == "reliance":
        return [c for c in found if c.get("relied_on") is True]
    if method != "association":
        raise ValueError(f"unknown method {method!r}")
    return found


def candidate_words(candidate: Mapping[str, Any]) -> str | None:
    """The words a token, n-gram or frequent-words candidate stands for (no part prefix)."""
    name = str(candidate["candidate"])
    if candidate.get("kind") in ("token", "ngram"):
        return name.rsplit(": ", 1)[-1] if candidate.get("part") == "text_pair" else name
    marker = "frequent-words has '"
    if candidate.get("kind") == "attribute" and marker in name:
        return name.split(marker, 1)[1].rstrip("'")
    return None


def is_label_word(candidate: Mapping[str, Any], label_words: Mapping[str, Sequence[str]]) -> bool:
    """Whether the candidate's words hold a genuine word of the label it points to."""
    found = candidate_words(candidate)
    if found is None:
        return False
    spaced = f" {found.lower()} "
    return any(f" {w.lower()} " in spaced for w in label_words.get(str(candidate["label"]), ()))


@dataclass(frozen=True)
class MethodScore:
    """One method on one build: the cue's rank, and the label words it flags (top five, all)."""

    rank: int | None
    label_words_top: int
    label_words_total: int


def score_method(
    audit: Mapping[str, Any],
    method: str,
    cue: set[str],
    label_words: Mapping[str, Sequence[str]],
) -> MethodScore | None:
    """The method's score on one audit; None for the triage when the audit has no groups."""
    if method == "triage" and not has_triage(audit):
        return None
    listed = method_list(audit, method)
    is_cue = [bool(listed_names(c["candidate"], c.get("detail")) & cue) for c in listed]
    rank = is_cue.index(True) + 1 if any(is_cue) else None
    words = [
        not hit and is_label_word(c, label_words) for c, hit in zip(listed, is_cue, strict=True)
    ]
    return MethodScore(rank, sum(words[:TOP_K]), sum(words))


def score_audit(
    audit: Mapping[str, Any], cue: set[str], label_words: Mapping[str, Sequence[str]]
) -> dict[str, MethodScore | None]:
    return {method: score_method(audit, method, cue, label_words) for method in METHODS}


@dataclass
class Cell:
    """The builds of one (data set, shortcut, λ): λ None for real data with a known artefact."""

    dataset: str
    shortcut: str
    family: str
    strength: float | None
    scores: dict[str, list[MethodScore | None]] = field(default_factory=dict)

    @property
    def null(self) -> bool:
        return self.strength == 0

    @property
    def builds(self) -> int:
        return len(self.scores["association"])

    def scored(self, method: str) -> list[MethodScore] | None:
        """The method's scores, or None when any build lacks them (no triage yet)."""
        found = self.scores[method]
        return None if any(s is None for s in found) else found  # type: ignore[return-value]

    def recall(self, method: str, k: int) -> float | None:
        found = self.scored(method)
        if not found:
            return None
        return sum(s.rank is not None and s.rank <= k for s in found) / len(found)

    def flags(self, method: str) -> int | None:
        found = self.scored(method)
        return None if found is None else sum(s.rank is not None for s in found)

    def label_words(self, method: str, total: bool = False) -> list[int] | None:
        found = self.scored(method)
        if found is None:
            return None
        return [s.label_words_total if total else s.label_words_top for s in found]

    def recall_target(self) -> float | None:
        """The share of builds with the cue at #1 this cell must reach, if any."""
        if self.null or self.strength is None or self.family not in TARGET_FAMILIES:
            return None
        return next((share for at, share in RECALL_TARGETS if self.strength >= at - 1e-9), None)

    def targets(self, method: str = "triage") -> list[tuple[str, bool | None]]:
        """(what, met) per target of this cell; met is None when the method has no scores."""
        checks: list[tuple[str, bool | None]] = []
        share = self.recall_target()
        if share is not None:
            found = self.recall(method, 1)
            checks.append((f"#1 in ≥ {share:.0%}", None if found is None else found >= share))
        if self.dataset == LABEL_WORD_TARGET:
            words = self.label_words(method)
            checks.append(("no label word in top 5", None if words is None else not any(words)))
        if self.null:
            flags = self.flags(method)
            met = None if flags is None else flags <= ALPHA * self.builds
            checks.append((f"flagged in ≤ {ALPHA:.0%} of null builds", met))
        return checks

    def result(self, method: str = "triage") -> str:
        checks = self.targets(method)
        if not checks or any(met is None for _, met in checks):
            return MISSING
        return "PASS" if all(met for _, met in checks) else "MISS"


def cells(results: Iterable[Mapping[str, Any]]) -> list[Cell]:
    """Group per-build results (dataset, shortcut, family, strength, scores) into cells."""
    grouped: dict[tuple[str, str, float | None], Cell] = {}
    for row in results:
        key = (row["dataset"], row["shortcut"], row["strength"])
        cell = grouped.setdefault(key, Cell(*key[:2], row["family"], row["strength"]))
        for method in METHODS:
            cell.scores.setdefault(method, []).append(row["scores"][method])
    return sorted(
        grouped.values(),
        key=lambda c: (c.dataset, c.shortcut, -1 if c.strength is None else c.strength),
    )


@dataclass(frozen=True)
class Summary:
    """One grid-wide target for one method: how many builds meet it, of how many."""

    target: str
    method: str
    met: int | None
    builds: int
    passed: bool | None


def summaries(found: Sequence[Cell]) -> list[Summary]:
    """The grid-wide targets (docstring of detection.py), for every method."""
    out = []
    for method in METHODS:
        for at, share in RECALL_TARGETS:
            chosen = [c for c in found if c.recall_target() == share and c.strength is not None]
            where = "λ ≥ 0.6" if at == 0.6 else "λ = 0.4"
            ranks = _all_ranks(chosen, method)
            builds = sum(c.builds for c in chosen)
            met = None if ranks is None or not builds else sum(r == 1 for r in ranks)
            passed = None if met is None else met >= share * builds
            text = f"occurrence and style builds, {where}: cue #1 in ≥ {share:.0%}"
            out.append(Summary(text, method, met, builds, passed))
        chosen = [c for c in found if c.dataset == LABEL_WORD_TARGET]
        words = [c.label_words(method) for c in chosen]
        met = None if any(w is None for w in words) else sum(n > 0 for w in words for n in w)
        builds = sum(c.builds for c in chosen)
        text = "GoEmotions builds with a label word in the top 5 (target: none)"
        out.append(
            Summary(text, method, met, builds, None if met is None or not builds else met == 0)
        )
        nulls = [c for c in found if c.null]
        flags = [c.flags(method) for c in nulls]
        met = None if any(f is None for f in flags) else sum(flags)  # type: ignore[arg-type]
        builds = sum(c.builds for c in nulls)
        passed = None if met is None or not builds else met <= ALPHA * builds
        text = f"null builds that flag the cue (target: ≤ {ALPHA:.0%})"
        out.append(Summary(text, method, met, builds, passed))
    return out


def _all_ranks(chosen: Sequence[Cell], method: str) -> list[int | None] | None:
    ranks: list[int | None] = []
    for cell in chosen:
        found = cell.scored(method)
        if found is None:
            return None
        ranks += [s.rank for s in found]
    return ranks
