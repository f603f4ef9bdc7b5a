"""What spawned worker processes make of the user's main module (their script or notebook).

A spawned worker imports the main module again, as ``__mp_main__``, when it is a script file or a
``python -m`` module: its top level runs again in every worker, so a call that starts workers
must sit under ``if __name__ == "__main__":``, and classes defined there are importable by the
workers. A notebook, ``python -c`` or a package's ``__main__`` is not imported again: what it
defines stays out of the workers' reach.
"""

from __future__ import annotations

import ast
import multiprocessing
import os
import sys
import tokenize
from pathlib import Path

from shortcutlab.errors import ConfigError

GUARD = 'if __name__ == "__main__":'


def reimported_main_file() -> Path | None:
    """The source file of the main module when spawned workers import it again (mirroring
    ``multiprocessing.spawn``'s preparation), else None."""
    main = sys.modules.get("__main__")
    spec_name = getattr(getattr(main, "__spec__", None), "name", None)
    if spec_name is not None:  # python -m NAME: workers run NAME again, unless a __main__
        if spec_name == "__main__" or spec_name.endswith(".__main__"):
            return None
        origin = getattr(main.__spec__, "origin", None)  # type: ignore[union-attr]
        return Path(origin) if origin else None
    path = getattr(main, "__file__", None)
    if path is None or os.path.splitext(os.path.basename(path))[0] == "ipython":
        return None
    return Path(path)


def main_is_importable() -> bool:
    """Whether spawned workers can import what the main module defines."""
    return reimported_main_file() is not None


def has_main_guard(source: str) -> bool:
    """Whether Python ``source`` compares ``__name__`` with ``"__main__"`` anywhere.

    Examples:
        >>> has_main_guard('if __name__ == "__main__":\\n    run()\\n'), has_main_guard("run()")
        (True, False)
    """

    def is_guard(node: ast.AST) -> bool:
        if not isinstance(node, ast.Compare) or len(node.comparators) != 1:
            return False
        sides = [node.left, node.comparators[0]]
        names = [s.id for s in sides if isinstance(s, ast.Name)]
        texts = [s.value for s in sides if isinstance(s, ast.Constant)]
        return names == ["__name__"] and texts == ["__main__"]

    return any(is_guard(node) for node in ast.walk(ast.parse(source)))


def guard_message(call: str, jobs: object, file: object) -> str:
    """The one line that names the missing guard."""
    return (
        f"{call}(jobs={'...' if jobs is None else jobs}) starts worker processes, which import your script again "
        f"(multiprocessing's spawn): put the call under `{GUARD}` in {file}, or pass jobs=1."
    )


def check_main_guard(call: str, jobs: int) -> None:
    """Refuse, in the parent before any worker starts, where every worker would run the user's
    script's top level again: a main file with no ``__name__ == "__main__"`` block."""
    path = reimported_main_file()
    if path is None:
        return
    try:
        with tokenize.open(path) as file:  # the encoding the file declares
            guarded = has_main_guard(file.read())
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return  # cannot tell: a worker refuses in refuse_while_spawning
    if not guarded:
        raise ConfigError(guard_message(call, jobs, path))


def refuse_while_spawning(call: str, jobs: object) -> None:
    """Raise the guard's message inside a worker that is still importing the main module (its
    script calls ``call`` at top level), before anything touches a run folder."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        main = sys.modules.get("__mp_main__")  # the script, as the worker runs it again
        raise ConfigError(guard_message(call, jobs, getattr(main, "__file__", "your script")))
