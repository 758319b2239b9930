"""The board's LEDs (hardware/arrangement.json): a grid's cells and the strip's LED indices.

Every game's layout places its tracks on the arrangement's cells, by column and row
(column 0 on the left, row 0 at the top, seen from the front): a track's `at` is its
first LED's cell, its `length` LEDs run to the right along that row, and a track given
`wrap` W continues on the next row, below its start, after every W LEDs (reading order,
always). How the strip's data runs through the cells (from which corner, along rows or
columns, serpentine or not) is the arrangement's business alone: resolve() turns each
track's cells into the strip's LED indices, in the track's own order (its first LED
first), and that list (the track's `idx`) is what render.plan() and the board read.

Positions are whole micrometres from the panel's top-left corner, as the drawings use them.
"""

CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
RUNS = ("rows", "columns")


def problems(grid):
    """What is wrong with an arrangement (empty when nothing is)."""
    out = []
    for key in ("columns", "rows", "pitch_um", "edge_um"):
        v = grid.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            out.append("%s must be a whole number above 0, not %r" % (key, v))
    if grid.get("first") not in CORNERS:
        out.append("first must be one of %s, not %r" % (", ".join(CORNERS), grid.get("first")))
    if grid.get("runs") not in RUNS:
        out.append("runs must be rows or columns, not %r" % (grid.get("runs"),))
    if not isinstance(grid.get("serpentine"), bool):
        out.append("serpentine must be true or false, not %r" % (grid.get("serpentine"),))
    return out


def count(grid):
    """How many LEDs the arrangement has (the strip's length)."""
    return grid["columns"] * grid["rows"]


def index(grid, col, row):
    """The strip's LED index of the cell at (col, row); ValueError off the grid."""
    cols, rows = grid["columns"], grid["rows"]
    if not (0 <= col < cols and 0 <= row < rows):
        raise ValueError("cell (%d, %d) is not on the %dx%d grid" % (col, row, cols, rows))
    first = grid.get("first", "top-left")
    c = cols - 1 - col if first.endswith("right") else col
    r = rows - 1 - row if first.startswith("bottom") else row
    if grid.get("runs", "rows") == "rows":
        if grid.get("serpentine", True) and r % 2:
            c = cols - 1 - c
        return r * cols + c
    if grid.get("serpentine", True) and c % 2:
        r = rows - 1 - r
    return c * rows + r


def cell(grid, i):
    """The (col, row) of the strip's LED i: index()'s inverse."""
    if not 0 <= i < count(grid):
        raise ValueError("LED %d is not on the %d-LED arrangement" % (i, count(grid)))
    cols, rows = grid["columns"], grid["rows"]
    if grid.get("runs", "rows") == "rows":
        r, c = divmod(i, cols)
        if grid.get("serpentine", True) and r % 2:
            c = cols - 1 - c
    else:
        c, r = divmod(i, rows)
        if grid.get("serpentine", True) and c % 2:
            r = rows - 1 - r
    first = grid.get("first", "top-left")
    col = cols - 1 - c if first.endswith("right") else c
    row = rows - 1 - r if first.startswith("bottom") else r
    return col, row


def centre_um(grid, col, row):
    """The (x, y) of a cell's LED centre, in micrometres from the panel's top-left corner."""
    return grid["edge_um"] + col * grid["pitch_um"], grid["edge_um"] + row * grid["pitch_um"]


def size_um(grid):
    """The panel's (width, height) in micrometres: the grid and its edges."""
    return (2 * grid["edge_um"] + (grid["columns"] - 1) * grid["pitch_um"],
            2 * grid["edge_um"] + (grid["rows"] - 1) * grid["pitch_um"])


def cells(track):
    """A track's cells [(col, row)], first LED first: from `at`, `length` to the right, on the
    next row below its start after every `wrap` LEDs when it has one."""
    col, row = track["at"]
    length = track.get("length", 0)
    wrap = track.get("wrap") or length or 1
    return [(col + k % wrap, row + k // wrap) for k in range(length)]


def placed(track):
    """Whether a track is placed on the arrangement (at), not on the bare strip (start, dir)."""
    return "at" in track


def resolve(layout, grid):
    """The layout as every renderer reads it: each placed track with `idx`, its LEDs' strip
    indices first to last, and `leds` the arrangement's count. A new dict (the tracks copied);
    ValueError names a track that leaves the grid or an LED two tracks use."""
    out = dict(layout)
    out["leds"] = count(grid)
    owner = {}
    tracks = []
    for t in layout["tracks"]:
        t = dict(t)
        if placed(t):
            idx = []
            for col, row in cells(t):
                try:
                    i = index(grid, col, row)
                except ValueError as e:
                    raise ValueError("track %s: %s" % (t.get("name"), e))
                if i in owner:
                    raise ValueError("track %s: cell (%d, %d) is %s's too" % (t.get("name"), col, row, owner[i]))
                owner[i] = t.get("name")
                idx.append(i)
            t["idx"] = idx
        tracks.append(t)
    out["tracks"] = tracks
    return out
