"""``python -m loopkit replay FILE``: see :mod:`loopkit.cli` (``python -m loopkit replay --help``)."""

import sys

from loopkit.cli import main

if __name__ == "__main__":
    sys.exit(main())
