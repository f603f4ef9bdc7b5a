"""What identifies a spec's component: its label in tables (without the options that only change
how it runs) and the canonical hash that cells, builds and specs are keyed by."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Mapping
from typing import Any

from shortcutlab.errors import ConfigError


def option_label(name: str, options: Mapping[str, Any], operational: Collection[str] = ()) -> str:
    """``single-term`` or, with options, ``single-term[term=frankly]``: a component's name in tables.

    Options named in ``operational`` (the component's registry line: cache folders, batch sizes,
    a client's concurrency, ...; dotted names reach into mapping options) change how it runs, not
    what it computes, so the label leaves them out. Labels are for people: a cell's id hashes
    every option.

    Examples:
        >>> option_label("frequent-words", {"k": 6})
        'frequent-words[k=6]'
        >>> option_label("sentence-concept", {"method": "llm", "cache_dir": "/tmp/x",
        ...     "client": {"name": "openai-chat", "cache": "c.sqlite"}}, ("cache_dir", "client.cache"))
        "sentence-concept[client={'name': 'openai-chat'}, method=llm]"
    """
    shown = identity_options(options, operational)
    if not shown:
        return name
    return f"{name}[{', '.join(f'{k}={v}' for k, v in sorted(shown.items()))}]"


def identity_options(options: Mapping[str, Any], operational: Collection[str]) -> dict[str, Any]:
    """``options`` without the ``operational`` ones (``client.cache`` reaches into ``client``)."""
    shown: dict[str, Any] = {}
    for key, value in options.items():
        if key in operational:
            continue
        inner = [o.removeprefix(f"{key}.") for o in operational if o.startswith(f"{key}.")]
        shown[key] = (
            identity_options(value, inner) if inner and isinstance(value, Mapping) else value
        )
    return shown


def component_record(name: str, options: Mapping[str, Any], files_sha256: str) -> dict[str, Any]:
    """A shortcut or attribute entry as stored: its name, options and the hash of the files its
    options name (when any)."""
    return {"name": name, **options, **({"files_sha256": files_sha256} if files_sha256 else {})}


def canonical_hash(payload: Any) -> str:
    try:
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    except TypeError as exc:  # only a user's mapping mixes key types ({1: a, b: c}) or uses dates
        raise ConfigError(
            "A mapping in the spec has keys that cannot be compared or stored (text mixed with "
            "numbers or null, or dates). Quote the keys so that they are all text."
        ) from exc
    return hashlib.sha256(text.encode()).hexdigest()
