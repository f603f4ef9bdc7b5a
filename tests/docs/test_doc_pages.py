"""The doc-test convention's parser, on small pages."""

from __future__ import annotations

import pytest

from tools.doc_pages import DEFAULT_TIMEOUT, DocPage, DocPageError, parse_page

FENCE = "```"


def page(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def test_only_console_blocks_run_and_only_their_dollar_lines():
    text = page(
        "# Title",
        "$ not in a block",
        f"{FENCE}console",
        "$ shortcutlab generate --out corpus",
        "Wrote corpus/train.csv",
        "$ ls corpus",
        FENCE,
        f"{FENCE}bash",
        "$ shortcutlab demo",
        FENCE,
        f"{FENCE}text",
        "$ also shown only",
        FENCE,
        f"{FENCE}console",
        "$ cat corpus/train.csv",
        FENCE,
    )
    assert parse_page(text) == DocPage(
        commands=("shortcutlab generate --out corpus", "ls corpus", "cat corpus/train.csv")
    )


def test_a_trailing_backslash_continues_the_command():
    text = page(
        f"{FENCE}console",
        "$ shortcutlab build maze --train train.csv \\",
        "    --test test.csv \\",
        "    --out bench",
        "Wrote bench",
        FENCE,
    )
    assert parse_page(text).commands == (
        "shortcutlab build maze --train train.csv \\\n    --test test.csv \\\n    --out bench",
    )


def test_an_indented_block_inside_an_admonition_runs():
    text = page("!!! note", "", f"    {FENCE}console", "    $ echo hi", "    hi", f"    {FENCE}")
    assert parse_page(text).commands == ("echo hi",)


def test_a_longer_fence_holds_a_shorter_one():
    text = page("````console", "$ echo one", FENCE, "$ echo two", "````")
    assert parse_page(text).commands == ("echo one", "echo two")


def test_the_set_up_comment_gives_needs_timeout_and_hidden_commands():
    text = page(
        "<!-- doc-test: needs=shared-data timeout=120",
        'ln -s "$SHARED_DATA/mnli-dev-matched/dev_matched.tsv" mnli.tsv',
        "shortcutlab generate \\",
        "  --out corpus",
        "-->",
        "# Page",
        f"{FENCE}console",
        "$ wc -l mnli.tsv",
        FENCE,
    )
    assert parse_page(text) == DocPage(
        needs=("shared-data",),
        timeout=120,
        setup=(
            'ln -s "$SHARED_DATA/mnli-dev-matched/dev_matched.tsv" mnli.tsv',
            "shortcutlab generate \\\n--out corpus",
        ),
        commands=("wc -l mnli.tsv",),
    )


def test_without_a_set_up_comment_the_defaults_hold():
    parsed = parse_page(page(f"{FENCE}console", "$ true", FENCE))
    assert (parsed.needs, parsed.timeout, parsed.setup) == ((), DEFAULT_TIMEOUT, ())


def test_a_one_line_set_up_comment_has_no_set_up_commands():
    parsed = parse_page(page("<!-- doc-test: timeout=60 -->", f"{FENCE}console", "$ true", FENCE))
    assert (parsed.timeout, parsed.setup) == (60, ())


@pytest.mark.parametrize("setting", ["need=shared-data", "needs=gpu", "timeout=soon", "timeout=0"])
def test_an_unknown_setting_is_refused_by_name(setting):
    with pytest.raises(DocPageError, match=f"unknown doc-test setting '{setting}'"):
        parse_page(page(f"<!-- doc-test: {setting}", "-->"))


def test_an_unclosed_block_is_refused():
    with pytest.raises(DocPageError, match="never closed"):
        parse_page(page(f"{FENCE}console", "$ true"))
