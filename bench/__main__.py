"""`make bench` = `python -m bench [--datasets PATH] [--only NAME,...] [--quick]` (see bench/runner.py)."""
import sys

from bench.runner import main

sys.exit(main())
