"""The board layer: each backend hides one kind of hardware behind the same small interface.

A backend module offers `Hardware(options)` with:
  board_id()            a stable id in hex (machine.unique_id() on a real board)
  entropy(n)            n random bytes (os.urandom)
  data_dir()            where the journal lives on flash
  send(kind, body)      one frame to the host, dropped if nobody listens
  controls              the table's keys (firmware/controls.py's Controls): firmware/boot.py sets it
  async link(table)     read frames from the host and hand them to the host's link (firmware/link.py,
                        made at the first byte: sim.host_link), a client of the table
  async inputs(table)   scan buttons (and the encoder) and hand presses to the controls
  show(table)           redraw pixels and display after a change (the display's lines: the controls')
Backends: sim (the unix port), rp2 (Pico), esp32, circuitpy. Pin maps and LED
layouts are data in hardware/, read by the backend.
"""


def load(name):
    # one import per branch: a board loads only its own backend (and its RAM)
    if name == "sim":
        from firmware.board import sim

        return sim
    if name == "rp2":
        from firmware.board import rp2

        return rp2
    if name == "esp32":
        from firmware.board import esp32

        return esp32
    if name == "circuitpy":
        from firmware.board import circuitpy

        return circuitpy
    raise ValueError("no board backend %r (known: sim, rp2, esp32, circuitpy)" % name)
