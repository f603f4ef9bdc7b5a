"""``--overwrite`` never deletes a path the command line names.

Every command that replaces an ``--out`` folder reads inputs named on its command line, in many
shapes: ``--train d/train.csv``, ``--data d/pool.parquet::train``, ``-o rewrites=d/bible.csv``,
``--distractor appearance=d/a.csv``, a benchmark or run folder as an argument. One check over the
words of the command line, before any command runs, covers them all and every command added
later: a word (or its ``KEY=`` value, its path before ``::``, its comma-separated items) that
names an existing path inside the ``--out`` to replace is refused with one line, as is an
``--out`` that cannot be replaced at all (the working folder).

Examples:
    >>> check_overwrite_spares_inputs(["build", "maze", "--train", "t.csv", "--out", "d"])
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

OUT = "--out"
OVERWRITE = "--overwrite"


def check_overwrite_spares_inputs(args: Sequence[str], command_words: int = 0) -> None:
    """Refuse ``args`` that ask to overwrite an ``--out`` folder holding a path they name; the
    first ``command_words`` words name the command (``build mps``), not paths, even where a
    folder of that name exists."""
    if OVERWRITE not in args or "--help" in args:
        return
    found = _out_value(args)
    if found is None:
        return
    position, out = found
    if not Path(out).is_dir():
        return
    from shortcutlab.data.writing import check_output_dir  # pyarrow: not for every command

    named = [
        part
        for i, word in enumerate(args)
        if i != position and i >= command_words
        for part in _path_parts(word)
        if os.path.lexists(part)
    ]
    check_output_dir(Path(out), overwrite=True, inputs=named)


def _out_value(args: Sequence[str]) -> tuple[int, str] | None:
    """The position and value of the last ``--out`` (``--out DIR`` or ``--out=DIR``)."""
    found = None
    for i, word in enumerate(args):
        if word == OUT and i + 1 < len(args):
            found = (i + 1, args[i + 1])
        elif word.startswith(OUT + "="):
            found = (i, word.partition("=")[2])
    return found


def _path_parts(word: str) -> Iterator[str]:
    """The paths a word may name: itself, its value after ``=``, its path before ``::`` and its
    comma-separated items."""
    values = {word, word.partition("=")[2]}
    for value in list(values):
        values.update(value.split(","))
    for value in values:
        path = value.split("::")[0]
        if path and not path.startswith("-"):
            yield path
