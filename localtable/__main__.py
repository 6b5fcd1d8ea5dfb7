"""``python -m localtable [--port N] [--folder DIR]``: the local table, token or none (it never
uses one: the bot it runs talks only to the local Telegram)."""

from localtable.run import main

if __name__ == "__main__":
    main()
