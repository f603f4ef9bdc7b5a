"""The audit's third stage, reliance: how much a model relies on the top candidates.

:mod:`.predictor` loads the model (a registered name fitted on the scanned rows, or a saved
pipeline); :func:`.measure.measure_candidates` measures it on each
:class:`~.measure.MeasureSpec` (a :class:`~..scan.candidates.Candidate` and the evaluation rows
it fires on: aligned against conflicting rows, the counterfactual removal and insertion tests
of :mod:`.counterfactual`, the redistribution anti-tests of :mod:`.redistribution`) and returns
the reliance table: one row per candidate with every ``MEASURE_COLUMNS`` key
(:mod:`..scan.candidates`).

May import: :mod:`..scan` (and :mod:`..triage`) and the shared libraries, never a later stage
(repair, report) nor ``families/audit``'s own modules.
"""
