"""The audit's fourth stage, ``audit --fix``: repair the candidates the model relies on.

:mod:`.targets` chooses the candidates and builds their evaluation sets, :mod:`.methods` fits erm
and each repair, :mod:`.compare` judges them against erm and recommends one (:mod:`.config`:
what is repaired and how it is judged). :func:`.stage.repair_candidates` returns the ``fix``
record and a :class:`~.stage.RepairedTraining` per recommended repair, which :mod:`.output` writes.

May import: :mod:`..scan`, :mod:`..triage`, :mod:`..reliance` and the shared libraries, never
the report nor ``families/audit``'s own modules.
"""
