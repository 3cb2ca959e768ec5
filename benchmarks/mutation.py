"""Mutation score of each pure rules package, against that package's own rules tests.

For each package the script copies the working tree (referee, tests, templates, static,
printables, pyproject.toml; uncommitted changes count) into build/mutation/<package>/,
points mutmut at the package and at its rules tests only, runs ``mutmut run`` there and
prints what became of the mutants:

    .venv/bin/python benchmarks/mutation.py [PACKAGE ...] [--max-children N] [--survivors] [--diffs]

PACKAGE is ``rules`` (referee/rules/, tested by tests/rules/test_rules*.py) or a game
(referee/games/<game>/rules/, tested by tests/games/<game>/test_rules*.py); all of them by
default. The score is killed / mutants; a "no tests" mutant or a timeout is not killed.
A line marked ``# pragma: no mutate`` (an equivalent mutant, with the reason after it)
gets no mutant at all from mutmut 3.8.1, so marked mutants are never in the count; the
marks are listed instead, so that a reader can judge them. The exit status is 1 when a
package scores below 90 %. build/mutation/<package>/ stays for ``mutmut show NAME``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "duel", "coup", "berserk", "underworld")
THRESHOLD = 90.0
COPIED = ("referee", "tests", "templates", "static", "printables", "pyproject.toml")
PRAGMA = re.compile(r"#\s*pragma:\s*no mutate\b[\s:,.;-]*(.*)$")
# `mutmut results --all true` prints one "    <mutant name>: <status>" line a mutant.
RESULT = re.compile(r"^\s+(\S+): (.+?)\s*$")


def source_dir(package: str) -> str:
    """The package's code, relative to the repository's root."""
    return "referee/rules" if package == "rules" else f"referee/games/{package}/rules"


def test_dir(package: str) -> str:
    """Where the package's rules tests live, relative to the repository's root."""
    return "tests/rules" if package == "rules" else f"tests/games/{package}"


def rules_tests(package: str, root: Path = ROOT) -> list[str]:
    """The package's rules test files (test_rules*.py), found afresh so new ones count."""
    return sorted(p.relative_to(root).as_posix()
                  for p in (root / test_dir(package)).glob("test_rules*.py"))


@dataclass
class Mark:
    where: str  # file:line
    reason: str


def pragma_marks(package: str, root: Path = ROOT) -> list[Mark]:
    """Every ``# pragma: no mutate`` in the package's code, with the reason written after it."""
    marks = []
    for path in sorted((root / source_dir(package)).rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if found := PRAGMA.search(line):
                where = f"{path.relative_to(root).as_posix()}:{number}"
                marks.append(Mark(where, found.group(1).strip() or "(no reason given)"))
    return marks


def mutmut_config(package: str, tests: list[str]) -> str:
    """The [tool.mutmut] section for one package (JSON string lists are TOML arrays)."""
    return "\n".join([
        "", "", "[tool.mutmut]",
        'source_paths = ["referee/"]',
        # the sample decks and the pages some rules tests read (mutmut copies tests/ only)
        'also_copy = ["printables", "templates", "static"]',
        f"only_mutate = {json.dumps([source_dir(package) + '/*'])}",
        'pytest_add_cli_args = ["-n", "0", "-p", "no:cacheprovider"]',
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}",
        "",
    ])


def scratch_copy(package: str, tests: list[str], root: Path = ROOT) -> Path:
    """A fresh copy of the working tree under build/mutation/<package>/, set up for mutmut."""
    scratch = root / "build" / "mutation" / package
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", ".pytest_cache")
    for name in COPIED:
        if (root / name).is_dir():
            shutil.copytree(root / name, scratch / name, ignore=junk, symlinks=True)
        else:
            shutil.copy2(root / name, scratch / name)
    with open(scratch / "pyproject.toml", "a", encoding="utf-8") as config:
        config.write(mutmut_config(package, tests))
    return scratch


def mutmut(scratch: Path, *args: str, log: Path | None = None) -> str:
    """Run the mutmut of this Python's environment in ``scratch``; its output, or a log file."""
    command = [str(Path(sys.executable).with_name("mutmut")), *args]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    if log is None:
        done = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True)
        output = done.stdout
    else:
        with open(log, "w", encoding="utf-8") as out:
            done = subprocess.run(command, cwd=scratch, env=env, stdout=out,
                                  stderr=subprocess.STDOUT)
        output = ""
    if done.returncode != 0:
        tail = log.read_text(encoding="utf-8")[-2000:] if log else done.stderr[-2000:]
        sys.exit(f"mutmut {' '.join(args)} failed in {scratch}:\n{tail}")
    return output


def parse_results(output: str) -> dict[str, str]:
    """Mutant name → status ("killed", "survived", "no tests", "timeout", ...)."""
    return {m.group(1): m.group(2) for line in output.splitlines() if (m := RESULT.match(line))}


@dataclass
class Outcome:
    package: str
    status: dict[str, str]
    seconds: float
    marks: list[Mark] = field(default_factory=list)

    @property
    def counts(self) -> Counter:
        return Counter(self.status.values())

    @property
    def score(self) -> float:
        """Killed / mutants in %; marked lines have no mutant, so nothing is taken off."""
        total = len(self.status)
        return 100.0 * self.counts["killed"] / total if total else 100.0

    def survivors(self) -> list[str]:
        return sorted(name for name, status in self.status.items() if status != "killed")


def measure(package: str, max_children: int) -> Outcome:
    tests = rules_tests(package)
    if not tests:
        sys.exit(f"{package}: no rules tests in {test_dir(package)}/test_rules*.py")
    scratch = scratch_copy(package, tests)
    print(f"{package}: mutating {source_dir(package)}/ against {' '.join(tests)} "
          f"(log: {(scratch / 'run.log').relative_to(ROOT)})", flush=True)
    started = time.monotonic()
    mutmut(scratch, "run", "--max-children", str(max_children), log=scratch / "run.log")
    seconds = time.monotonic() - started
    status = parse_results(mutmut(scratch, "results", "--all", "true"))
    return Outcome(package, status, seconds, pragma_marks(package))


def report(outcome: Outcome, survivors: bool, diffs: bool) -> None:
    counts, total = outcome.counts, len(outcome.status)
    others = total - sum(counts[s] for s in ("killed", "survived", "no tests", "timeout"))
    verdict = "ok" if outcome.score >= THRESHOLD else f"BELOW {THRESHOLD:.0f} %"
    print(f"\n{outcome.package} ({source_dir(outcome.package)}/)\n"
          f"  mutants {total}  killed {counts['killed']}  survived {counts['survived']}  "
          f"no tests {counts['no tests']}  timeouts {counts['timeout']}"
          + (f"  other {others}" if others else "") + "\n"
          f"  score {outcome.score:.1f} % = killed / mutants  ({verdict})\n"
          f"  time {outcome.seconds:.0f} s ({total / max(outcome.seconds, 1e-9):.1f} mutants/s)\n"
          f"  marked '# pragma: no mutate': {len(outcome.marks)}")
    for mark in outcome.marks:
        print(f"    {mark.where}  {mark.reason}")
    if survivors:
        scratch = ROOT / "build" / "mutation" / outcome.package
        for name in outcome.survivors():
            print(f"  {outcome.status[name]}: {name}")
            if diffs:
                diff = mutmut(scratch, "show", name).splitlines()[1:]
                print("\n".join("      " + line for line in diff if line.strip()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="*", metavar="PACKAGE",
                        help=f"any of {', '.join(PACKAGES)} (default: all)")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2,
                        help="mutants tested at once (default: one a CPU)")
    parser.add_argument("--survivors", action="store_true",
                        help="list the mutants not killed (then: mutmut show NAME in "
                             "build/mutation/<package>/)")
    parser.add_argument("--diffs", action="store_true", help="with --survivors: each one's diff")
    args = parser.parse_args(argv)
    if unknown := [p for p in args.packages if p not in PACKAGES]:
        parser.error(f"unknown package {', '.join(unknown)}: choose from {', '.join(PACKAGES)}")
    outcomes = []
    for package in dict.fromkeys(args.packages or PACKAGES):
        outcomes.append(measure(package, args.max_children))
        report(outcomes[-1], args.survivors or args.diffs, args.diffs)
    print("\nsummary: " + "  ".join(f"{o.package} {o.score:.1f} %" for o in outcomes))
    return 0 if all(o.score >= THRESHOLD for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
