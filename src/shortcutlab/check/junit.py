"""A check's outcomes as JUnit XML, the report format CI systems read (one testcase each)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from shortcutlab.check.run import CheckResult


def junit_xml(result: CheckResult) -> str:
    """``<testsuites><testsuite name=SUITE>`` with one ``<testcase classname=KIND name=ID>`` per
    requirement; a failing or inconclusive one holds ``<failure message=...>`` with its figure,
    interval and bound."""
    counts = result.counts()
    failures = len(result.outcomes) - counts["pass"]
    attributes = {
        "name": result.suite,
        "tests": str(len(result.outcomes)),
        "failures": str(failures),
        "errors": "0",
        "time": f"{result.seconds:.3f}",
    }
    root = ET.Element("testsuites", attributes)
    suite = ET.SubElement(root, "testsuite", attributes)
    properties = ET.SubElement(suite, "properties")
    ET.SubElement(properties, "property", {"name": "model", "value": result.model})
    for outcome in result.outcomes:
        case = ET.SubElement(
            suite,
            "testcase",
            {"classname": outcome.kind, "name": outcome.id, "time": f"{outcome.seconds:.3f}"},
        )
        if outcome.failed:
            failure = ET.SubElement(
                case, "failure", {"message": outcome.failure_message(), "type": outcome.verdict}
            )
            failure.text = "\n".join([outcome.failure_message(), *outcome.notes])
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
