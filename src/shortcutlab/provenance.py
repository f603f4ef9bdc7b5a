"""What every manifest records about the tool and the environment that wrote it.

A neutral module (it imports only the package version), so the corpus generator, the benchmark
builders and the experiment engine all record the same keys without importing each other.
Versions come from the installed distributions' metadata: importing scikit-learn only to read its
version would cost every command that writes a manifest about half a second.
"""

from __future__ import annotations

import platform
from importlib.metadata import version

from shortcutlab._version import __version__

# Distributions whose versions can change outputs, under the names manifests use.
_RECORDED = ("numpy", "pandas", "scikit-learn")


def environment() -> dict[str, str]:
    """Versions that can change outputs, recorded in every manifest.

    Examples:
        >>> sorted(environment())
        ['numpy', 'pandas', 'python', 'scikit-learn']
    """
    return {"python": platform.python_version(), **{name: version(name) for name in _RECORDED}}


def tool_record() -> dict[str, str]:
    """The writing tool's name and version, e.g. ``{"name": "shortcutlab", "version": "0.3.0"}``."""
    return {"name": "shortcutlab", "version": __version__}
