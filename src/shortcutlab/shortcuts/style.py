"""Style shortcuts: register, author and Bible style (Shortcut Maze 2.2.2; Shortcut Suite 4.1).

Each row is written in style A with probability P_i (the label schedule and strength, exactly as the
category shortcut chooses "country", section 2.2.2), otherwise in style B:

- ``register``: formal (A) or casual (B);
- ``author``: Shakespeare (A) or Hemingway (B);
- ``bible``: Bible style (A) or the original text (B).

A rewriter makes the texts: ``rules`` (offline, the default), ``file`` (the user's rewrites, e.g. the
paper's release) and, later, ``llm``. Every row of each input table is rewritten in both styles
before any split is carved (:meth:`StyleShortcut.prepare`), so failed rewrites can be dropped from
all splits at once and test / anti-test stay paired.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from shortcutlab.data.loading import LoadedTable
from shortcutlab.errors import ConfigError, DataError, listed
from shortcutlab.params import check_choice, quoted
from shortcutlab.shortcuts.base import (
    UNDECIDABLE,
    BinaryCueShortcut,
    Preparation,
    RowDraws,
    SplitPlan,
)
from shortcutlab.shortcuts.rewriters import REWRITERS, Rewriter, make_rewriter
from shortcutlab.shortcuts.rewriters.base import STYLES

# original-style: a failed rewrite keeps the original text and the row counts as written in the
# casual style, as the Shortcut Maze code does for register (it falls back to the casual original
# when a formal rewrite is empty); keep-original keeps the text but records the assigned style.
ON_FAILED = ("drop", "keep-original", "original-style", "error")
FALLBACK_STYLE = {"register": "casual"}
# Shortcut options forwarded to the rewriter's constructor when it takes them, with their defaults.
_FORWARDED = {"rewrites": None, "encoding": "utf-8"}


class StyleShortcut(BinaryCueShortcut):
    """Write each row in style A (probability P_i) or style B with a rewriter.

    Args:
        rewriter: The rewriter that writes the styles: rules, file or llm.
        rewrites: For the file rewriter: {style: {train: PATH, test: PATH}} or one PATH.
        encoding: The text encoding of the file rewriter's files.
        on_failed: A failed rewrite: drop, keep-original, original-style (register only) or error.
        rewriter_options: Further options for the rewriter's constructor (a mapping).
    """

    needs_preparation = True
    styles: ClassVar[tuple[str, str]]

    def __init__(
        self,
        rewriter: str = "rules",
        rewrites: Mapping[str, Any] | None = None,
        encoding: str = "utf-8",
        on_failed: str = "drop",
        rewriter_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.rewriter = rewriter
        self.rewrites = rewrites
        self.encoding = encoding
        self.on_failed = on_failed
        self.rewriter_options = rewriter_options
        self._rewriter: Rewriter | None = None
        self._rewrites: dict[str, dict[str, dict[int, str]]] = {}
        self._kept_original: dict[str, dict[str, set[int]]] = {}
        self._rewritten: dict[tuple[str, str], dict[str, list[str | None]]] = {}

    def make_rewriter(self) -> Rewriter:
        """The configured rewriter (built once), after checking the options and both styles."""
        if self._rewriter is None:
            check_choice("on_failed", self.on_failed, ON_FAILED)
            if self.on_failed == "original-style" and self.name not in FALLBACK_STYLE:
                raise ConfigError(
                    f"on_failed=original-style applies to the register shortcut, whose casual style "
                    f"is the original text; the {self.name} shortcut takes drop, keep-original or error."
                )
            if not isinstance(self.rewriter, str):
                raise ConfigError(
                    f"The 'rewriter' option must be a rewriter name ({', '.join(REWRITERS)}). "
                    f"Got {quoted(self.rewriter)} instead."
                )
            rewriter = make_rewriter(self.rewriter, self._rewriter_params())
            self._check_rewrite_styles()
            for style in self.styles:
                rewriter.check_supports(style, self.name)
            self._rewriter = rewriter
        return self._rewriter

    def _rewriter_params(self) -> dict[str, Any]:
        if self.rewriter_options is not None and not isinstance(self.rewriter_options, Mapping):
            raise ConfigError(
                f"The 'rewriter_options' option must be a mapping of the {self.rewriter} "
                f"rewriter's options. Got {quoted(self.rewriter_options)} instead."
            )
        params = dict(self.rewriter_options or {})
        accepted = REWRITERS.parameters(self.rewriter)
        for option, default in _FORWARDED.items():
            value = getattr(self, option)
            if option in accepted:
                params.setdefault(option, value)
            elif value != default:
                raise ConfigError(
                    f"The {quoted(option)} option applies to rewriters that take it (file); the "
                    f"{self.rewriter} rewriter does not. Drop it or pass -o rewriter=file."
                )
        return params

    def validate(self, labels: object) -> None:
        self.make_rewriter()

    def prepare(self, table: LoadedTable, *, role: str) -> Preparation:
        """Rewrite every row in both styles; handle failed rewrites by ``on_failed``."""
        rewriter = self.make_rewriter()
        rewriter.attach(table, role=role)
        texts = table.texts()
        row_ids = table.row_ids()
        # The same rows seen again (another build seed of the same design) are not rewritten again.
        digest = hashlib.sha256(row_ids.tobytes() + "\x00".join(texts).encode()).hexdigest()
        outputs = self._rewritten.get((role, digest))
        if outputs is None:
            outputs = {
                style: _checked(rewriter.rewrite(texts, style, role=role, row_ids=row_ids), texts)
                for style in self.styles
            }
            self._rewritten[(role, digest)] = outputs
        failed = {style: np.array([t is None for t in out]) for style, out in outputs.items()}
        ids = row_ids.tolist()
        for style, mask in failed.items():
            if self.on_failed == "error" and mask.any():
                raise self._failed_error(style, role, int(mask.sum()), ids[int(np.argmax(mask))])
        keep = np.ones(len(texts), dtype=bool)
        if self.on_failed == "drop":
            for mask in failed.values():
                keep &= ~mask
            if not keep.any():
                raise DataError(
                    f"Every row of the {role} data failed to rewrite in the {self.name} styles; "
                    f"check the rewriter ({self.rewriter}) and its files."
                )
        self._rewrites[role], self._kept_original[role] = {}, {}
        styles_record: dict[str, Any] = {}
        for style, out in outputs.items():
            kept = failed[style] & keep  # failed rows still present use their original text
            self._rewrites[role][style] = {
                row_id: (text if rewrite is None else rewrite)
                for row_id, text, rewrite, present in zip(
                    ids, texts, out, keep.tolist(), strict=True
                )
                if present
            }
            self._kept_original[role][style] = set(row_ids[kept].tolist())
            styles_record[style] = {
                "failed": int(failed[style].sum()),
                "dropped": int((failed[style] & ~keep).sum()),
                "kept_original": int(kept.sum()),
            } | ({"source": source} if (source := rewriter.provenance(style, role)) else {})
        record = {
            "rewriter": rewriter.name,
            "on_failed": self.on_failed,
            "rows": len(texts),
            "rows_dropped": int((~keep).sum()),
            "styles": styles_record,
        }
        return Preparation(keep=None if keep.all() else keep, record=record)

    def _check_rewrite_styles(self) -> None:
        if not isinstance(self.rewrites, Mapping):
            return
        # Misspelt names are left to the rewriter's check, which suggests the closest style.
        named = [str(s).strip().lower() for s in self.rewrites]
        extra = [s for s in named if s in STYLES and s not in self.styles]
        if extra:
            raise ConfigError(
                f"The 'rewrites' option names the style {quoted(extra[0])}, which the {self.name} "
                f"shortcut does not use; its styles are {listed(self.styles)}."
            )

    def details(self, draws: RowDraws, plan: SplitPlan) -> dict[str, Any]:
        """Rows written in each style, and how many of them kept their original text."""
        ids = plan.ids()
        kept = self._kept_original.get(plan.role, {})
        details = {}
        for style, mask in zip(self.styles, (draws.side_a, ~draws.side_a), strict=True):
            originals = kept.get(style, set())
            rows = ids[mask].tolist()
            details[style] = {
                "rows": len(rows),
                "kept_original": sum(1 for i in rows if i in originals),
            }
        return {"styles": details}

    def render(
        self, texts: Sequence[str], draws: RowDraws, plan: SplitPlan
    ) -> tuple[list[str], list[str]]:
        ids = plan.ids().tolist()
        new_texts = list(texts)
        for style, mask in zip(self.styles, (draws.side_a, ~draws.side_a), strict=True):
            rows = np.flatnonzero(mask).tolist()
            rewritten = self._rewrites_of(texts, [ids[r] for r in rows], rows, style, plan.role)
            for row, text in zip(rows, rewritten, strict=True):
                new_texts[row] = text
        style_a, style_b = self.styles
        values = [style_a if a else style_b for a in draws.side_a.tolist()]
        if self.on_failed == "original-style":
            fell_back = self._kept_original.get(plan.role, {}).get(style_a, set())
            for row in np.flatnonzero(draws.side_a).tolist():
                if ids[row] in fell_back:
                    values[row] = FALLBACK_STYLE[self.name]
        return new_texts, values

    def observe(self, texts: Sequence[str], plan: SplitPlan) -> np.ndarray:
        """1 where a text is its row's style-A rewrite, 0 where it is the style-B one; UNDECIDABLE
        where both rewrites are the same text, a rewrite failed and the row kept its original text
        (on_failed keep-original or original-style), or the rows were not prepared."""
        prepared = self._rewrites.get(plan.role, {})
        side_a, side_b = (prepared.get(style, {}) for style in self.styles)
        kept = self._kept_original.get(plan.role, {})
        fell_back = kept.get(self.styles[0], set()) | kept.get(self.styles[1], set())
        out = np.full(len(texts), UNDECIDABLE, dtype=np.int64)
        for row, (text, row_id) in enumerate(zip(texts, plan.ids().tolist(), strict=True)):
            if row_id in fell_back or row_id not in side_a or row_id not in side_b:
                continue
            if side_a[row_id] != side_b[row_id]:
                out[row] = int(text == side_a[row_id])
        return out

    def recorded_cue(self, values: Sequence[str], plan: SplitPlan) -> np.ndarray:
        return np.asarray([value == self.styles[0] for value in values], dtype=bool)

    def _rewrites_of(
        self, texts: Sequence[str], ids: list[int], rows: list[int], style: str, role: str
    ) -> list[str]:
        prepared = self._rewrites.get(role, {}).get(style)
        if prepared is not None and all(i in prepared for i in ids):
            return [prepared[i] for i in ids]
        # Not prepared (inject called directly): rewrite just these rows now.
        originals = [texts[r] for r in rows]
        out = _checked(
            self.make_rewriter().rewrite(originals, style, role=role, row_ids=np.asarray(ids)),
            originals,
        )
        failed = [i for i, rewrite in zip(ids, out, strict=True) if rewrite is None]
        if failed and self.on_failed not in ("keep-original", "original-style"):
            if self.on_failed == "drop":
                raise DataError(
                    f"{len(failed)} {style} rewrites failed (first: row {failed[0]}) and rows can "
                    f"only be dropped before the splits are made: build with build_maze_benchmark "
                    f"(it calls prepare) or pass -o on_failed=keep-original."
                )
            raise self._failed_error(style, role, len(failed), failed[0])
        self._kept_original.setdefault(role, {}).setdefault(style, set()).update(failed)
        return [o if r is None else r for o, r in zip(originals, out, strict=True)]

    def _failed_error(self, style: str, role: str, count: int, first: int) -> DataError:
        return DataError(
            f"The {style} rewrites of the {role} data have {count} failed or empty rows (first: "
            f"row {first}). Pass -o on_failed=drop or -o on_failed=keep-original, or fix the "
            f"{self.rewriter} rewriter's output."
        )


def _checked(out: Sequence[str | None], texts: Sequence[str]) -> list[str | None]:
    if len(out) != len(texts):
        raise RuntimeError(f"A rewriter returned {len(out)} texts for {len(texts)} inputs.")
    return [t if isinstance(t, str) and t.strip() else None for t in out]


class Register(StyleShortcut):
    """The register shortcut: formal (side A) or casual (side B) rewrites."""

    name = "register"
    styles = ("formal", "casual")


class Author(StyleShortcut):
    """The author-style shortcut: Shakespeare (side A) or Hemingway (side B) rewrites."""

    name = "author"
    styles = ("shakespeare", "hemingway")


class Bible(StyleShortcut):
    """The Bible-style shortcut: a Bible-style rewrite (side A) or the original text (side B)."""

    name = "bible"
    styles = ("bible", "original")
