"""The delivery room: what keeps the chats and the pages in step with the service's results.

Between ``handlers/`` (which parse an update and call the service) and ``ui/`` (which turns
views into texts, pictures, keyboards and pages, and keeps no state), this package holds
everything that remembers something between two updates: the message-id books of every
match, the publishing of each audience's messages, the outbox with Telegram's limits, the
processes that draw the table pictures, the Mini App's open pages and the check of their
signed data, who speaks which language, who blocked the bot, who administers which group, and
the :class:`~delivery.app.App` that holds them, wired once (:func:`delivery.app.wire`).

This package re-exports nothing: import each name from its module.
"""
