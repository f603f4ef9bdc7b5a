"""Triage: which candidates are likely shortcuts, which are the label's own signal, which need a person.

A shortcut goes with the label in this data and does not make the label what it is; the signal
does. Both are associated, and a good model relies on both, so association and reliance alone
cannot tell them apart. The triage weighs evidence that can (:mod:`.evidence`): what kind of
feature a candidate is (:mod:`.word_classes`: discourse markers, function words, places,
numbers, surface properties, metadata, a partial input), whether its words carry the feeling
of the label's name (:mod:`.affect`) or its meaning (:mod:`.relatedness`), and the user's own
judgements (:mod:`.judgements`), which always win.

Data flows one way: the scan's candidate table in, a :class:`~.groups.Triage` out. This package
imports the standard library, numpy/pandas, the audit's lexicons and the errors module; never
the reliance measurement, the repairs or the report, which read its result.
"""

from __future__ import annotations
