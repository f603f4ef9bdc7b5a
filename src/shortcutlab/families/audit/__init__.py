"""Audit a user's own data set for shortcuts nobody injected, and measure a model's reliance on them.

The data flows one way through five stages, each a subpackage that imports only those before it:
:mod:`.scan` (the rows → binary indicators fitted on the training rows → each tested against the
labels with false-discovery control, plus leakage and partial-input baselines: a ranked
candidate table, ``ScanResult``) → :mod:`.triage` (likely shortcuts, the label's signal, those
needing a judgement: ``Triage``) → :mod:`.reliance` (for the top candidates and a model:
aligned vs conflicting rows, counterfactual removal and insertion, redistribution anti-tests:
the reliance table) → :mod:`.repair` (``audit --fix``: the ``fix`` record and the repaired
training sets) → :mod:`.report` (``audit.json``'s record, ``AuditResult``, the written folder and
the report's sections). :mod:`.run` joins the stages (``run_audit``) and :mod:`.api` adds files
and the output folder (``audit_dataset``); no stage imports either. The audit imports the engine
and the shared libraries, and one family: the MPS builder makes its redistribution anti-tests.
"""

from __future__ import annotations

from shortcutlab.engine.family import Family

FAMILY = Family(
    name="audit",
    title="Dataset audit",
    summary="latent shortcuts in your own data, ranked, and a model's measured reliance on them",
    output_collectors={"audit": "shortcutlab.families.audit.report.sections"},
)
