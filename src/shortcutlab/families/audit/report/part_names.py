"""The user's column names in what an audit shows: a candidate on the second part of a pair reads
``hypothesis: no``, not ``text_pair: no``; its partial-input baseline ``hypothesis alone``.

Keys (``token:text_pair:no``) and the ``part`` column keep the inner names ``text`` and
``text_pair``, which the rest of the package (mitigations, repairs) reads.

Examples:
    >>> names = {"text": "premise", "text_pair": "hypothesis"}
    >>> shown_name("text_pair: no", names), shown_name("text alone", names)
    ('hypothesis: no', 'premise alone')
    >>> shown_detail("accuracy 0.6; tfidf-logreg on text_pair alone, 5 folds", names)
    'accuracy 0.6; tfidf-logreg on hypothesis alone, 5 folds'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_NAME = re.compile(r"^(text_pair|text)(?=: | alone$)")
_DETAIL = re.compile(r"\bon (text_pair|text) alone\b")


def shown_name(name: Any, names: Mapping[str, str]) -> Any:
    """A candidate's name with its part named as the user's column (anything else unchanged)."""
    if not names or not isinstance(name, str):
        return name
    return _NAME.sub(lambda match: names.get(match.group(1), match.group(1)), name)


def shown_detail(detail: Any, names: Mapping[str, str]) -> Any:
    """A partial-input detail sentence with its part named as the user's column."""
    if not names or not isinstance(detail, str):
        return detail
    return _DETAIL.sub(lambda m: f"on {names.get(m.group(1), m.group(1))} alone", detail)


def with_shown_names(table: Any, names: Mapping[str, str]) -> Any:
    """``table`` (the audit's candidates) with each candidate, and each partial input's detail,
    named by the user's columns (``names``: part → column)."""
    table = table.copy()
    table["candidate"] = [shown_name(name, names) for name in table["candidate"]]
    partial = table["kind"] == "partial-input"
    table.loc[partial, "detail"] = [shown_detail(d, names) for d in table.loc[partial, "detail"]]
    return table
