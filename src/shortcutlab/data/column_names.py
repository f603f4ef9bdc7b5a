"""The canonical column names of a loaded table, in a module that imports nothing, so that
option declarations (a command's ``--help``) name them without loading numpy and pyarrow."""

ROW_ID, TEXT, TEXT_PAIR, LABEL, SHORTCUT = "row_id", "text", "text_pair", "label", "shortcut"
