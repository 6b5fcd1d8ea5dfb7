"""The variants of RULES.md §2, one module each.

Each module defines one :class:`engine.variant.Variant` subclass decorated with
:func:`engine.variant.register`; importing it registers it.  Adding a variant is one module
here and one line below (``docs/ENGINE_API.md``, "Adding a variant").
"""

from __future__ import annotations

from . import (
    chcv,  # noqa: F401
    donkey,  # noqa: F401
    muggins,  # noqa: F401
    telephone,  # noqa: F401
)
