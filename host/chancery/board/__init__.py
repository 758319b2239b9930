"""The link to a board: the serial link (link.Link, what every job talks to a board with),
the simulated board (simboard.SimBoard: the firmware under the MicroPython unix port on a
pseudo-terminal) and the MicroPython tools the host runs it with (micropython: the unix
port, mpy-cross and the board's .mpy build). No command of its own: the mirror, deploy
and the tests use it."""
