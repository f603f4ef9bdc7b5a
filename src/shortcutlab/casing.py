"""Letter case at the start of a text, shared by the injectors and the rule-based rewriters.

A neutral module with no shortcutlab imports: ``shortcuts.text_ops`` and
``shortcuts.rewriters.rules_text`` both need it, and the rewriters must not import the injectors
(``shortcuts.style`` already imports the rewriters).
"""

from __future__ import annotations

# What may come before a sentence's first word without being part of it (an ellipsis too).
_LEADING = " \t\n.\u2026\"'([{\u2018\u201c\u00ab\u00bf\u00a1"


def capitalize_first(text: str) -> str:
    """Upper-case the first letter after any leading spaces, quotes or brackets; nothing else changes.

    A digit or any other character in that place stops it: "3 stars" stays as it is.

    Examples:
        >>> capitalize_first("if I'm being honest"), capitalize_first("'tis"), capitalize_first("3 stars")
        ("If I'm being honest", "'Tis", '3 stars')
    """
    start = len(text) - len(text.lstrip(_LEADING))
    return text[:start] + text[start : start + 1].upper() + text[start + 1 :]
