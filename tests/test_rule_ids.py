"""Every rule id of the rule pages is cited by a test named after it.

The rule pages live beside the project (``../shared/rules``); a copy is kept in
``tests/fixtures/rules`` so the check runs wherever the repository is checked out, and a
test keeps the copy in step with the pages whenever they are there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "rules"
RULES = ROOT / "tests" / "fixtures" / "rules"
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


def test_every_rule_id_is_cited_by_a_test_named_after_it():
    pages = rule_ids()
    assert set(pages) >= {"duel", "underworld", "coup", "berserk"}
    assert all(pages.values()), pages  # each page has its rules
    names = cited()
    uncited = [rid for ids in pages.values() for rid in ids if rid not in names]
    assert not uncited, f"rule ids no test is named after: {uncited}"


@pytest.mark.skipif(not SHARED.is_dir(), reason="the rule pages are not beside this checkout")
def test_the_copy_of_the_rule_pages_is_the_pages_themselves():
    pages = {page.name: page.read_text(encoding="utf-8") for page in SHARED.glob("*.md")}
    copy = {page.name: page.read_text(encoding="utf-8") for page in RULES.glob("*.md")}
    assert copy == pages, "copy ../shared/rules/*.md to tests/fixtures/rules/"
