"""`chancery hardware`: the builder's files made from the project's data, a wiring diagram
per board pin map (hardware/boards/*.json -> hardware/wiring/*.svg: wiring) and a printable
overlay per LED layout (hardware/layouts/*.json -> hardware/overlays/*.svg: overlay), and the
strip's current (power). cli.py is the entry point; files reads the pin maps and layouts.
`chancery hardware drawings --check` (and tests/host/test_drawings.py) says when a committed
drawing no longer matches its data.
"""
