"""The bundle's entry point: the `reviewer` command."""

import multiprocessing
import sys

from reviewer.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
