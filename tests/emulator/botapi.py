"""The old name of :mod:`localtable.telegram.botapi` (the same module object)."""

import sys

from localtable.telegram import botapi

sys.modules[__name__] = botapi
