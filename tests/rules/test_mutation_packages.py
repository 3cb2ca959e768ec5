"""Every pure rules package has rules tests of its own, and the mutation runner measures it.

Not named test_rules*: the runner selects those files for mutmut in a copy of the tree
that holds no benchmarks/, and this test is about the layout, not about a rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import mutation as runner

ROOT = Path(__file__).resolve().parents[2]


def rules_packages(root: Path) -> list[str]:
    """The pure rules packages under ``root``: "rules" for referee/rules/, and each game
    with a referee/games/<game>/rules/ package, by the runner's names."""
    found = ["rules"] if (root / "referee/rules/__init__.py").is_file() else []
    return found + sorted(p.parent.parent.name
                          for p in (root / "referee/games").glob("*/rules/__init__.py"))


def untested(root: Path) -> list[str]:
    """The rules packages without a rules test file named after them."""
    return [name for name in rules_packages(root) if not runner.rules_tests(name, root)]


def test_every_rules_package_has_rules_tests_named_after_it():
    assert rules_packages(ROOT)[0] == "rules" and len(rules_packages(ROOT)) >= 5
    assert untested(ROOT) == []


def test_the_mutation_runner_measures_every_rules_package():
    assert sorted(runner.PACKAGES) == sorted(rules_packages(ROOT))
    for name in runner.PACKAGES:
        assert (ROOT / runner.source_dir(name) / "__init__.py").is_file()


def _layout(root: Path, files: list[str]) -> Path:
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("")
    return root


CORE = ["referee/rules/__init__.py", "tests/rules/test_rules_stats.py",
        "referee/games/duel/rules/__init__.py", "tests/games/duel/test_rules.py"]


@pytest.mark.parametrize(("extra", "missing"), [
    ([], []),
    # a new game whose rules have only web tests, or none, is found
    (["referee/games/dice/rules/__init__.py", "tests/games/dice/test_web.py"], ["dice"]),
    (["referee/games/dice/rules/__init__.py"], ["dice"]),
    (["referee/games/dice/rules/__init__.py", "tests/games/dice/test_rules_roll.py"], []),
    # a rules test of another package does not count
    (["referee/games/dice/rules/__init__.py", "tests/rules/test_rules_dice.py"], ["dice"]),
    # a game without a rules package is not one
    (["referee/games/hub/__init__.py"], []),
])
def test_a_rules_package_without_its_rules_tests_is_found(tmp_path, extra, missing):
    root = _layout(tmp_path, CORE + extra)
    assert untested(root) == missing
    assert ("dice" in rules_packages(root)) == any("dice/rules" in f for f in extra)


def test_a_missing_core_rules_test_is_found(tmp_path):
    root = _layout(tmp_path, [f for f in CORE if f != "tests/rules/test_rules_stats.py"])
    assert untested(root) == ["rules"]


def test_a_new_game_unknown_to_the_runner_fails_the_check(tmp_path):
    root = _layout(tmp_path, CORE + ["referee/games/dice/rules/__init__.py"])
    assert set(rules_packages(root)) - set(runner.PACKAGES) == {"dice"}
