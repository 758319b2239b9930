"""JSON Lines, one item at a time: scenario files now, a board's journal later.

A file of this shape is a header object on its first line, then one item per
line; blank lines and lines starting with '#' are comments. Items are parsed
as they are consumed, so a board never holds a whole file in RAM.
"""

import json


def read_lines(lines):
    """(header, iterator of items) from an iterable of lines (an open file)."""
    it = iter(lines)
    header = None
    for line in it:
        line = line.strip()
        if line and not line.startswith("#"):
            header = json.loads(line)
            break
    if not isinstance(header, dict):
        raise ValueError("the first line is a header object (game, settings, seed, ...)")

    def items():
        for line in it:
            line = line.strip()
            if line and not line.startswith("#"):
                yield json.loads(line)

    return header, items()
