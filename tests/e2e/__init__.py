"""End-to-end tests: the real bot process, the Bot API emulator, simulated people.

- :mod:`tests.e2e.botproc` starts and stops ``python bot.py`` (:class:`BotProcess`);
- :mod:`tests.e2e.players` creates groups and players and plays matches by pressing the
  buttons the bot offers (:class:`Table`, :class:`CallFeed`);
- :mod:`tests.e2e.checks` replays a match from the bot's database through the engine and
  checks what the chats showed against it;
- :mod:`tests.e2e.fixtures` has the pytest fixtures (``bot``, ``bot_settings``, ``feed``).
"""
