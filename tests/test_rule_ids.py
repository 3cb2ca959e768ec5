"""Every rule id of the rule pages (shared/rules/*.md) is cited by a test named after it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "rules"
RULE = re.compile(r"^- \*\*([A-Z]\d+)\b", re.MULTILINE)


def rule_ids() -> dict[str, list[str]]:
    """Each page's rule ids, in the order they are written."""
    return {page.stem: RULE.findall(page.read_text(encoding="utf-8"))
            for page in sorted(RULES.glob("*.md"))}


def cited() -> set[str]:
    """Rule ids named by a test function: ``test_B12_B13_…`` cites B12 and B13."""
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                    and node.name.startswith("test_"):
                found.update(re.findall(r"(?<=_)[A-Z]\d+(?=_|$)", node.name))
    return found


@pytest.mark.skipif(not RULES.is_dir(), reason="the rule pages are at ../shared/rules")
def test_every_rule_id_is_cited_by_a_test_named_after_it():
    pages = rule_ids()
    assert set(pages) >= {"duel", "underworld", "coup", "berserk"}
    assert all(pages.values()), pages  # each page has its rules
    names = cited()
    uncited = [rid for ids in pages.values() for rid in ids if rid not in names]
    assert not uncited, f"rule ids no test is named after: {uncited}"
