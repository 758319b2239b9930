"""The heap the tests give the firmware under MicroPython's unix port, in one place.

The board's memory is measured on its chip (tools/chip/heap.py, docs/performance.md): with the
code in a firmware's ROMFS partition, the heap in use at idle and every path's peak against half
of a Pico's heap; on a stock firmware, with the .mpy in RAM, against three quarters of it. The
unix port cannot stand in for that (its objects are twice the size, its code is in its heap), so
the board's runs here get the simulated board's heap (chancery.board.simboard.HEAP, sized from
the same goals), as `chancery sim` does: a run that runs out in it has found a real regression.
"""

from chancery.board.simboard import HEAP as BOARD

__all__ = ["BOARD"]
