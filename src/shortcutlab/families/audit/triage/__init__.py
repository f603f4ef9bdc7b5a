"""The audit's second stage, the triage: which candidates are likely shortcuts, which the label's
own signal, which need a person's judgement.

The scan's candidate table in; :func:`.stage.triage_stage` returns the table with a row per style,
the :class:`~.groups.Triage` (each candidate's verdict and the evidence for it) and the styles
(:class:`~.styles.MarkerSet`). :mod:`.groups` weighs the evidence of :mod:`.evidence`,
:mod:`.words`, :mod:`.affect` and :mod:`.relatedness`; the user's judgements (:mod:`.judgements`)
always win; :mod:`.config` holds what the triage is given.

May import: :mod:`..scan` and the shared libraries, never a later stage (reliance, repair,
report) nor ``families/audit``'s own modules.
"""
