"""Allow `python -m narrator`.

Guarded: a render's worker processes are started with "spawn", which imports the main module
again (as `__mp_main__`); unguarded, each worker would run the command line again.
"""

from narrator.cli import main

if __name__ == "__main__":
    main()
