"""The old name of :mod:`localtable.telegram.webhook` (the same module object)."""

import sys

from localtable.telegram import webhook

sys.modules[__name__] = webhook
