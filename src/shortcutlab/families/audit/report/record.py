"""The names of an audit folder's record, in a module that imports nothing heavy: the report
checks every folder it is given for ``audit.json``, and that check must not load the audit's
scan (scikit-learn, scipy)."""

from __future__ import annotations

AUDIT_JSON = "audit.json"
AUDIT_CSV = "audit.csv"
#: What audit.json says it is, and the version of its layout the report reads.
AUDIT_KIND = "shortcutlab-audit"
AUDIT_VERSION = 1
EXAMPLES_PER_CANDIDATE = 5
