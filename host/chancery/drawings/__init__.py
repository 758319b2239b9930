"""Hardware drawings made from the project's data: a wiring diagram per board pin map
(hardware/boards/*.json -> hardware/wiring/*.svg) and a printable overlay per LED
layout (hardware/layouts/*.json -> hardware/overlays/*.svg). `chancery hardware
drawings` writes them; its --check (and tests/test_drawings.py) says when a committed
drawing no longer matches its data.
"""

from chancery.hardware_files import ROOT, UnknownName  # noqa: F401  (the drawings' names for them)
