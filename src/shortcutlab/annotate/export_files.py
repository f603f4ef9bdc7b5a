"""The file names of an annotation export and the marker its summary.json carries, in a module
that imports nothing heavy: the report checks every folder it is given for an export, and that
check must not load the agreement statistics (scipy, scikit-learn)."""

from __future__ import annotations

ANSWERS, SUMMARY_JSON, SUMMARY_MD = "answers.csv", "summary.json", "summary.md"
MARKER = "shortcutlab-annotations"  # summary.json's "format": what the report collector looks for
