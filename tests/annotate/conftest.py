"""Fixtures of the annotation tests: small real sources (see task_sources.py)."""

from tests.annotate.task_sources import (  # noqa: F401
    audit_folder,
    cat_output,
    cat_run,
    concept_build,
    maze_run,
    mps_run,
    style_build,
)
