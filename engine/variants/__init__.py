"""The variants of RULES.md §2, one module each.

Each module defines one :class:`engine.variant.Variant` subclass decorated with
:func:`engine.variant.register`; importing it registers it.  Adding a variant is one module
here and one line below (``docs/ENGINE_API.md``, "Adding a variant").
"""

from __future__ import annotations

from . import (
    chcv,  # noqa: F401  RULES.md §2.3
    donkey,  # noqa: F401  RULES.md §2.2
    general,  # noqa: F401  RULES.md §2.9
    kolbasa,  # noqa: F401  RULES.md §2.12
    mexican_train,  # noqa: F401  RULES.md §2.11
    muggins,  # noqa: F401  RULES.md §2.5
    sea_goat,  # noqa: F401  RULES.md §2.1
    seven,  # noqa: F401  RULES.md §2.8
    sport,  # noqa: F401  RULES.md §2.7
    telephone,  # noqa: F401  RULES.md §2.4
    traditional,  # noqa: F401  RULES.md §2.6
)
