"""Where a Hugging Face model comes from: a local folder or a hub name, with one-line errors.

Local folders are loaded with ``local_files_only`` so they never touch the network; hub names go
through the hub (or its cache, or fail fast under ``HF_HUB_OFFLINE=1``) and loading failures are
mapped to :class:`ConfigError` at this boundary.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from shortcutlab.errors import ConfigError
from shortcutlab.params import PATH_LIMIT, quoted, require

T = TypeVar("T")


@dataclass(frozen=True)
class ModelSource:
    """A resolved model location: ``location`` is an absolute folder or a hub name."""

    owner: str
    parameter: str
    location: str
    local: bool

    def load(self, loader: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call ``loader(location, ...)``; hub failures become a ConfigError naming the parameter."""
        if self.local:
            return loader(self.location, *args, local_files_only=True, **kwargs)
        try:
            return loader(self.location, *args, **kwargs)
        except (OSError, ValueError) as exc:
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise ConfigError(
                f"The {self.owner} {quoted(self.parameter)} parameter is {quoted(self.location, PATH_LIMIT)}, which is not "
                f"a local folder and could not be loaded from the Hugging Face hub or its cache "
                f"({reason}). Check the name and the network, or pass a local folder."
            ) from exc


def looks_local(path: str) -> bool:
    """Hub names are "name" or "org/name"; anything else shaped like a path means a folder.

    Examples:
        >>> looks_local("sentence-transformers/all-MiniLM-L6-v2"), looks_local("./models/bert")
        (False, True)
    """
    return (
        os.path.isabs(path)
        or path.startswith((".", "~"))
        or "\\" in path
        or path.count("/") > 1
        or path.endswith("/")
    )


def model_source(owner: str, parameter: str, path: Any) -> ModelSource:
    """Resolve ``path`` to an existing folder or a hub name, or raise a ConfigError."""
    require(
        isinstance(path, str | os.PathLike) and str(path).strip() != "",
        owner,
        parameter,
        "a local folder or a Hugging Face hub name",
        path,
    )
    text = os.fspath(path)
    folder = Path(text).expanduser()
    if folder.is_dir():
        if not (folder / "config.json").is_file():
            raise ConfigError(
                f"The {owner} {quoted(parameter)} parameter points to '{text}', which has no config.json. "
                "Pass a folder written by save_pretrained, or a Hugging Face hub name."
            )
        return ModelSource(owner, parameter, str(folder.resolve()), local=True)
    if folder.exists():
        raise ConfigError(
            f"The {owner} {quoted(parameter)} parameter points to '{text}', which is a file. "
            "Pass the folder that holds config.json, or a Hugging Face hub name."
        )
    if looks_local(text) or isinstance(path, os.PathLike):
        raise ConfigError(
            f"The {owner} {quoted(parameter)} parameter points to '{text}', which does not exist. "
            "Pass a folder written by save_pretrained (shortcutlab.models.tiny builds small ones) "
            "or a Hugging Face hub name."
        )
    return ModelSource(owner, parameter, text, local=False)
