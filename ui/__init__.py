"""Everything the bot writes: texts (``locales/`` via :mod:`ui.i18n`), renderers
(:mod:`ui.render`), keyboards (:mod:`ui.keyboards`), callback data (:mod:`ui.callbacks`),
command menus (:mod:`ui.commands`) and the rate-limited :class:`delivery.outbox.Outbox`.

Importing the package does nothing else; locale files load on first use.
"""
