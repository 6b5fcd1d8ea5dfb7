"""The local table (issue 34): the bot played in a browser before it has a token.

``make run`` without ``BOT_TOKEN`` runs ``bot.py --local-table-without-token``, which starts
this room instead of stopping: the real bot (``handlers.run.run``) against the local Telegram
(:mod:`localtable.telegram`, a Bot API server on 127.0.0.1 with nothing behind it but this
computer), and a page on ``http://127.0.0.1:<port>/`` (:mod:`localtable.page`) where one
chooses a game and opponents and plays: the Mini App's table and hand, and the group's and the
private chat's messages as Telegram shows them.  :mod:`localtable.run` starts and stops it all.

The room sits above the handlers (``localtable → handlers → delivery → ui → service``);
nothing below imports it, and the bot with a token never does.
"""
