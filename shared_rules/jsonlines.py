"""JSON Lines, one item at a time: scenario files now, a board's journal later.

A file of this shape is a header object on its first line, then one item per
line; blank lines and lines starting with '#' are comments. Items are parsed
as they are consumed, so a board never holds a whole file in RAM.

Every line is bounded as the board's link bounds a frame (shared_rules/wire.py): its
length before anything is parsed (MAX_LINE, as long as a line of the board's journal
may be), then its nesting (MAX_DEPTH, a frame's: an entry crosses the link in one) and
its numbers (MAX_DIGITS). A line past a bound, or not JSON, raises ValueError naming
its line: never a RecursionError from '[[[[...', nor an integer a thousand digits long.
"""

import json

from shared_rules import wire

MAX_LINE = 4096  # characters; as firmware/journal/line.py bounds a journal line
MAX_DEPTH = wire.MAX_DEPTH  # lists and objects, the line's own value counted
MAX_DIGITS = 18  # in a number: a seed, a count, a score; 10**18 is past all of them
_BIG = 10 ** MAX_DIGITS


def bounds_problem(value, room=MAX_DEPTH):
    """What of `value` is past the bounds (a text), or None. Walks no deeper than `room`."""
    if isinstance(value, (list, dict)):
        if room == 0:
            return "nested deeper than %d" % MAX_DEPTH
        for item in value.values() if isinstance(value, dict) else value:
            problem = bounds_problem(item, room - 1)
            if problem is not None:
                return problem
    elif isinstance(value, int) and not -_BIG < value < _BIG:
        return "a number of more than %d digits" % MAX_DIGITS
    return None


def loads(line, number):
    """The value on line `number` (1-based), within the bounds; raises ValueError naming it."""
    if len(line) > MAX_LINE:
        raise ValueError("line %d: %d characters, more than %d (one item a line)" % (number, len(line), MAX_LINE))
    try:
        value = json.loads(line)
    except RuntimeError:  # CPython's RecursionError
        raise ValueError("line %d: nested deeper than %d" % (number, MAX_DEPTH))
    except ValueError as e:  # CPython's JSONDecodeError says where in the line; MicroPython's says less
        if hasattr(e, "colno"):
            raise ValueError("line %d column %d: bad JSON: %s" % (number, e.colno, e.msg))
        raise ValueError("line %d: bad JSON: %s" % (number, e))
    problem = bounds_problem(value)
    if problem is not None:
        raise ValueError("line %d: %s" % (number, problem))
    return value


def read_lines(lines):
    """(header, iterator of items) from an iterable of lines (an open file). A bad line
    raises ValueError naming it (the header's at once, an item's when it is reached)."""
    it = iter(lines)
    header = None
    number = 0
    for line in it:
        number += 1
        line = line.strip()
        if line and not line.startswith("#"):
            header = loads(line, number)
            break
    if not isinstance(header, dict):
        raise ValueError("line %d: the first line is a header object (game, settings, seed, ...)" % max(number, 1))

    def items(number):
        for line in it:
            number += 1
            line = line.strip()
            if line and not line.startswith("#"):
                yield loads(line, number)

    return header, items(number)
