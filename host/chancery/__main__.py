"""`python -m chancery`: the same as the `chancery` command."""

import sys

from chancery.cli import main

sys.exit(main())
