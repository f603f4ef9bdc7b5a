"""Audit a user's own data set for shortcuts nobody injected, and measure a model's reliance on them.

The flow runs one way: :mod:`.inputs` (the rows, as label ranks) → :mod:`.features` (binary
indicators fitted on the training rows: tokens and n-grams, attributes, surface properties,
lexicons, metadata values) → :mod:`shortcutlab.metrics.association` (each indicator against the
labels: rows with it against rows without it, G-test, false-discovery control) plus
:mod:`.leakage` (with the MinHash search of :mod:`.near_duplicates`) and :mod:`.partial_input` →
:mod:`.scan` (the ranked candidate table) → :mod:`.measure` (for the top candidates and a model:
aligned vs conflicting rows, counterfactual removal, redistribution anti-tests) → :mod:`.output`;
the report sections of an audit folder in :mod:`.report`. It imports the engine and the shared
libraries, and one family: the MPS builder makes its redistribution anti-tests.
"""

from __future__ import annotations

from shortcutlab.engine.family import Family

FAMILY = Family(
    name="audit",
    title="Dataset audit",
    summary="latent shortcuts in your own data, ranked, and a model's measured reliance on them",
    output_collectors={"audit": "shortcutlab.families.audit.report"},
)
