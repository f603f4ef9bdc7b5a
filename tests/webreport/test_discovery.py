"""Discovery: the folder, its direct subfolders, an annotations/ folder's task folders and the
--include folders; each recognised folder's sections under page-unique anchors."""

from __future__ import annotations

import re

import pytest

from shortcutlab.errors import ConfigError, UnknownComponentError
from shortcutlab.reports.html.document import Paragraphs, Table
from shortcutlab.webreport import build


@pytest.fixture
def marker_kind():
    build.collectors().add("marker", "tests.webreport.marker_collector")
    yield
    build.collectors().remove("marker")


def marked(folder, text):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "marker.txt").write_text(text, encoding="utf-8")
    return folder


def paragraphs(report):
    return [
        (section.id, section.title, block.texts[0])
        for section in report.sections
        for block in section.blocks
        if isinstance(block, Paragraphs)
    ]


def test_the_folder_its_subfolders_and_annotation_tasks_are_read(marker_kind, tmp_path):
    root = marked(tmp_path / "run", "root")
    marked(root / "explain-tfidf", "child")
    marked(root / "annotations" / "label", "task")
    marked(root / "explain-tfidf" / "deeper", "too deep")
    marked(root / ".hidden", "hidden")
    report = build.build_report(root)
    assert paragraphs(report) == [
        ("marker", "Marker", "root"),
        ("annotations-label-marker", "Marker (annotations/label)", "task"),
        ("explain-tfidf-marker", "Marker (explain-tfidf)", "child"),
    ]
    tables = [b.name for s in report.sections for b in s.blocks if isinstance(b, Table)]
    assert tables == ["values", "annotations-label-values", "explain-tfidf-values"]


def test_a_folder_holding_only_runs_reports_them_and_includes_add_theirs(marker_kind, tmp_path):
    runs = tmp_path / "runs"
    marked(runs / "a", "a")
    marked(runs / "b", "b")
    extra = marked(tmp_path / "elsewhere", "included")
    page = build.write_html_report(runs, tmp_path / "page.html", include=[extra])
    text = page.read_text(encoding="utf-8")
    assert [t for _, _, t in paragraphs(build.build_report(runs, [extra]))] == [
        "a",
        "b",
        "included",
    ]
    ids = re.findall(r' id="([^"]+)"', text)
    assert len(ids) == len(set(ids)) and "elsewhere-marker" in ids


def test_nothing_recognised_is_refused_and_nothing_written(marker_kind, tmp_path):
    (tmp_path / "empty" / "sub").mkdir(parents=True)
    with pytest.raises(ConfigError, match="holds nothing a report is made from"):
        build.write_html_report(tmp_path / "empty", tmp_path / "page.html")
    assert not (tmp_path / "page.html").exists()


def test_a_kind_without_a_collector_is_named(tmp_path):
    with pytest.raises(
        UnknownComponentError,
        match="Unknown report collector 'nothing'.* Known report collectors: annotations, audit, "
        "cat, demo, evaluation, explain, rewrite-quality, run, suite.",
    ):
        build.collector("nothing")
    assert build.run_sections(tmp_path) == []
