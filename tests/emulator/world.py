"""The old name of :mod:`localtable.telegram.world` (the same module object)."""

import sys

from localtable.telegram import world

sys.modules[__name__] = world
