"""The one YAML reader: every spec file, category list and YAML option goes through it.

It is PyYAML's safe loader, reading every spelling of a finite number that Python's ``float()``
reads as that number (YAML 1.1 reads ``5e-5``, ``1.0e5`` and ``.5e3`` as text, so ``lr: 5e-5``
was refused as "not a positive float"), with three refusals the safe loader lacks, each a
one-line :class:`~shortcutlab.errors.ConfigError` naming the file:

- aliases (``*name``) that expand to more than :data:`MAX_ALIAS_VALUES` values, and an alias inside
  the value it names (an "alias bomb" of nine nested aliases reads as millions of values, and every
  ``str()`` of it takes minutes and gigabytes);
- values nested deeper than :data:`MAX_DEPTH` (Python recurses on them, in PyYAML and in ``json``);
- a key given twice in one mapping (the safe loader silently keeps the last). A merge key
  (``<<: *base``) may still be overridden: that is what it is for.

Everything else reads as ``yaml.safe_load`` reads it (``inf`` and ``nan`` stay text; YAML spells
them ``.inf`` and ``.nan``). A neutral module (it imports ``errors`` and
``params``), so every package may use it.

Examples:
    >>> read_yaml("seeds: [0, 1]\\nname: t\\n", "'spec.yaml'")
    {'seeds': [0, 1], 'name': 't'}
    >>> read_yaml("lr: [5e-5, 1.0E5, .5e3, +2., 1_000.5]", "'spec.yaml'")
    {'lr': [5e-05, 100000.0, 500.0, 2.0, 1000.5]}
    >>> read_yaml("name: a\\nname: b\\n", "'spec.yaml'")
    Traceback (most recent call last):
    ...
    shortcutlab.errors.ConfigError: 'spec.yaml' gives the key 'name' twice in one mapping (line 1 and line 2); YAML would keep only the last. Remove one.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from shortcutlab.errors import ConfigError, EncodingError, one_line
from shortcutlab.params import quoted

#: Values an alias may add to a document; a spec writes its values out, so this is plenty.
MAX_ALIAS_VALUES = 10_000
#: Levels of nesting (a spec needs about five).
MAX_DEPTH = 64
_MERGE_TAG = "tag:yaml.org,2002:merge"
_FLOAT_TAG = "tag:yaml.org,2002:float"
# Python's float() spellings of finite numbers in ASCII digits (PEP 515 underscores included);
# tried after YAML 1.1's own float and int patterns, so what those read stays as it was.
_DIGITS = "[0-9](?:_?[0-9])*"
PYTHON_FLOAT = re.compile(
    rf"^[-+]?(?:{_DIGITS}(?:\.(?:{_DIGITS})?)?|\.{_DIGITS})(?:[eE][-+]?{_DIGITS})?$"
)


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, refusing alias bombs, deep nesting and duplicate keys in ``source``."""

    source = "YAML"

    def construct_document(self, node: yaml.Node) -> Any:
        _check_expansion(node, self.source)  # before anything is built from the graph
        return super().construct_document(node)

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            _check_unique_keys(self, node)
        return super().construct_mapping(node, deep=deep)


_BoundedLoader.add_implicit_resolver(_FLOAT_TAG, PYTHON_FLOAT, list("-+0123456789."))


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _check_expansion(root: yaml.Node, source: str) -> None:
    """Refuse a composed document whose aliases expand past the bounds.

    An alias is the node it names, so the composed document is a graph; its size as a tree (each
    alias written out) is counted by a post-order walk that visits each node once. Iterative, as
    the graph may be deeper than Python's recursion limit allows a walk.
    """
    size: dict[int, int] = {}  # id(node) -> values in its written-out tree
    height: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            on_path.discard(key)
            children = _children(node)
            size[key] = 1 + sum(size[id(c)] for c in children)  # exact: Python ints do not overflow
            height[key] = 1 + max((height[id(c)] for c in children), default=0)
            if height[key] > MAX_DEPTH:
                raise ConfigError(
                    f"{source} nests values more than {MAX_DEPTH} levels deep (line "
                    f"{node.start_mark.line + 1}). Nest them less."
                )
            continue
        if key in size:
            continue
        on_path.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in on_path:
                raise ConfigError(
                    f"{source} uses an alias inside the value it names (line "
                    f"{child.start_mark.line + 1}), which never ends. Write the value out."
                )
            if id(child) not in size:
                stack.append((child, False))
    if size[id(root)] - len(size) > MAX_ALIAS_VALUES:
        raise ConfigError(
            f"{source} uses YAML aliases (*name) that expand to more than {MAX_ALIAS_VALUES} "
            "values, which shortcutlab refuses (an alias bomb). Write the values out, or use fewer "
            "aliases."
        )


def _check_unique_keys(loader: _BoundedLoader, node: yaml.MappingNode) -> None:
    first_line: dict[Any, int] = {}
    for key_node, _ in node.value:
        if key_node.tag == _MERGE_TAG:
            continue
        key = loader.construct_object(key_node, deep=True)
        try:
            seen = key in first_line
        except TypeError:  # an unhashable key: the safe loader refuses it next
            continue
        line = key_node.start_mark.line + 1
        if seen:
            raise ConfigError(
                f"{loader.source} gives the key {quoted(key)} twice in one mapping (line "
                f"{first_line[key]} and line {line}); YAML would keep only the last. Remove one."
            )
        first_line[key] = line


def load_yaml(text: str, source: str) -> Any:
    """``text`` as :func:`yaml.safe_load` reads it, within the bounds; ``source`` names it in a
    refusal ("'spec.yaml'"). Invalid YAML raises :class:`yaml.YAMLError` (see :func:`read_yaml`)."""
    loader = _BoundedLoader(text)
    loader.source = source
    try:
        return loader.get_single_data()
    except RecursionError as exc:  # the composer recurses once per level, before any check
        raise ConfigError(f"{source} nests values too deeply to read. Nest them less.") from exc
    finally:
        loader.dispose()


def read_yaml(text: str, source: str) -> Any:
    """:func:`load_yaml` with invalid YAML refused in one line: where, and what is wrong."""
    try:
        return load_yaml(text, source)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source} is not valid YAML{_place(exc)}. Fix the file.") from exc


def read_yaml_file(path: str | Path, source: str | None = None) -> Any:
    """The YAML file at ``path`` (UTF-8), read by :func:`read_yaml`."""
    path = Path(path)
    source = source or f"'{path}'"
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EncodingError(
            f"{source} is not UTF-8 text: byte {exc.start} is {data[exc.start : exc.start + 1]!r}. "
            "Save the file as UTF-8."
        ) from exc
    return read_yaml(text, source)


def _place(exc: yaml.YAMLError) -> str:
    """The place and problem of a PyYAML error, on one line: " at line 3, column 5: ..."."""
    mark = getattr(exc, "problem_mark", None)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
    if isinstance(exc, yaml.reader.ReaderError):  # a character YAML does not allow
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        return f" at character {exc.position + 1}: character #x{code:04x} ({one_line(exc.reason)})"
    problem = getattr(exc, "problem", None) or str(exc)
    return f"{where}: {one_line(str(problem))}"
