"""Imported once by the fork server of tests/stations/live.py: every module of the
package that ``referee serve`` may need, so that each station forked from it starts
without importing Flask and the app again (~0.8 CPU-s a station).

Importing starts no thread (a fork then copies only the thread that forks); the PDF
machinery is left out, as ``referee serve`` leaves it out (tests/test_cli.py).
"""

from __future__ import annotations

import importlib
import pkgutil

import referee

for module in pkgutil.walk_packages(referee.__path__, "referee."):
    if module.name.endswith("__main__") or (module.name.startswith("referee.printing.")
                                            and module.name != "referee.printing.web"):
        continue
    importlib.import_module(module.name)
