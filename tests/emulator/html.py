"""The old name of :mod:`localtable.telegram.html` (the same module object)."""

import sys

from localtable.telegram import html

sys.modules[__name__] = html
