"""``python -m referee`` works as the ``referee`` command does."""

import sys

from referee.cli import main

sys.exit(main())
