"""The audit's last stage, the report: the record, the files and the pages people read.

:func:`.audit_record.build_record` assembles ``audit.json``'s record (versioned by
:mod:`.record`) from the earlier stages' results, with example rows (:mod:`.examples`) and the
user's column names (:mod:`.part_names`); :class:`~.audit_record.AuditResult` carries it with the
scan and the ranked table, and :func:`.output.write_audit` writes ``audit.json`` and
``audit.csv``. :mod:`.sections` turns a record into the HTML report's sections (the triage's
lists, :mod:`.triage`; the candidate table, :mod:`.candidate_table`; reliance, :mod:`.reliance`;
repairs, :mod:`.repair`), and the CLI shows the same tables.

May import: every earlier stage (scan, triage, reliance, repair) and the shared libraries, never
``families/audit``'s own modules. Keep this file light: the HTML report loads :mod:`.sections`
for every folder it is given, and :mod:`.record` is read without loading the scan.
"""
