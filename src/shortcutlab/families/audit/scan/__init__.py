"""The audit's first stage, the scan: every candidate shortcut of a data set, tested and ranked.

The rows (:mod:`.inputs`: :class:`~.inputs.AuditInputs`, labels as ranks) → binary indicators
fitted on the training rows (:mod:`.features`: tokens and n-grams, attributes, surface
properties, lexicons, metadata values, one :class:`~.candidates.FeatureSet`) → each indicator
against the labels, corrected over every test, plus leakage (:mod:`.leakage`) and partial-input
baselines (:mod:`.partial_input`) → :func:`.stage.scan`, which returns a
:class:`~.stage.ScanResult` (the ranked candidate table, the fitted plan, the findings).
:mod:`.seeds` derives every seed of the audit, for this stage and the later ones.

May import: the shared libraries (data, metrics, attributes, shortcuts, ...), never another
stage of the audit nor ``families/audit``'s own modules; every later stage may import it.
"""
