"""Allow `python -m narrator`."""

from narrator.cli import main

main()
