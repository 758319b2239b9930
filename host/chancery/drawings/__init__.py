"""Hardware drawings made from the project's data: a wiring diagram per board pin map
(hardware/boards/*.json -> hardware/wiring/*.svg) and a printable overlay per LED
layout (hardware/layouts/*.json -> hardware/overlays/*.svg). `chancery hardware
drawings` writes them; its --check (and tests/test_drawings.py) says when a committed
drawing no longer matches its data.
"""

import os

# The repository root, as host/chancery/micropython.py finds it: the drawings read
# hardware/ from the checkout the package runs from (an editable install).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class UnknownName(ValueError):
    """A board or layout name with no file behind it; the message lists those that exist."""
