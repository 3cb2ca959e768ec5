"""Where the app's own files are: ``templates/``, ``static/`` and ``printables/``.

In a checkout they stand at the top of the repo, beside the package. A wheel (``pip
install .``, ``pipx install .``) carries them inside it, under ``referee/_assets`` (in the
repo, links to the top-level folders), so an installed app finds them from any folder.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def folder(name: str) -> Path:
    """The folder ``name`` (templates, static, printables) of this copy of the app."""
    inside = PACKAGE / "_assets" / name
    return inside if inside.is_dir() else PACKAGE.parent / name
