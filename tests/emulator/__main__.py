"""``python -m tests.emulator``: the same as ``python -m localtable.telegram``."""

from localtable.telegram.__main__ import main

if __name__ == "__main__":
    main()
