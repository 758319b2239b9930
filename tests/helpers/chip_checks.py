"""What the end-to-end tests on the virtual Pico check, shared by them (tests/test_vpico_*.py):

- expected_frame: the strip's bytes the board must send for a public view (render(), the
  current limiter at the pin map's budget, the strip's byte order);
- read_screen: the text on the decoded SSD1306 picture, read cell by cell against the glyphs
  of MicroPython's own framebuf font (drawn by the unix port, whose framebuf is the rp2
  port's), as a player reads the display;
- drawn: the lines a screen puts on the display (what firmware/board/mpboard.py draws);
- board_journal / flash_journal: the board's journal, as the board sends it back over the
  link (GET) or as it lies in the flash image's littlefs;
- same_entries: the host's logbook entries against the board's journal, entry by entry.
"""

import json
import os
import subprocess
import time

import paths

from chancery.board import micropython as mp
from chancery.hardware import files as hardware_files
from firmware.board import pins
from shared_rules import canon, power, render, wire

ROOT = paths.ROOT
COLUMNS, LINES = 16, 8  # an SSD1306 128x64 in framebuf's 8x8 font (firmware/board/mpboard.py)


def pin_map(board="rpi-pico"):
    with open(os.path.join(ROOT, "hardware", "boards", board + ".json")) as f:
        return json.load(f)


def layout_of(game):
    """The game's layout placed on the arrangement, as `chancery deploy` gives it to the board."""
    return hardware_files.layout(game)


def expected_frame(game, view, cfg, phase=0, layout=None):
    """The strip's bytes as the board must send them: render() of the public view, the
    current limiter at the pin map's budget, then the strip's byte order, for the strip's
    LEDs (a layout longer than the strip is cut, a shorter one leaves the rest dark).
    layout: the game's layout as the board has it (default: the repository's)."""
    layout = layout or layout_of(game)
    # as the board sizes it (firmware/board/mpboard.py): the whole strip when the layout fits it,
    # so the limiter counts the idle current of every LED on the strip, lit or not
    frame = bytearray(3 * max(layout["leds"], pins.strip(cfg)[1]))
    render.render(view, layout, frame, layout.get("level", 255), phase)
    power.limit(frame, pins.budget_ma(cfg))
    o = pins.order_offsets(pins.strip(cfg)[2])
    wire = bytes(frame[j + o[k]] for j in range(0, len(frame), 3) for k in range(3))
    n = 3 * pins.strip(cfg)[1]
    return wire[:n] + bytes(max(0, n - len(wire)))


# --- the display -------------------------------------------------------------------------------

_GLYPHS = None
_DRAW_GLYPHS = """
import framebuf, binascii
buf = bytearray(8)
fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
for c in range(32, 127):
    fb.fill(0)
    fb.text(chr(c), 0, 0, 1)
    print(c, binascii.hexlify(buf).decode())
"""


def glyphs():
    """{8 column bytes: character} of framebuf's font, as the unix port draws it."""
    global _GLYPHS
    if _GLYPHS is None:
        out = subprocess.run([mp.find_micropython(), "-c", _DRAW_GLYPHS], check=True, capture_output=True,
                             text=True, timeout=60).stdout
        table = {}
        for line in out.split("\n"):
            if line.strip():
                code, cells = line.split()
                table.setdefault(bytes.fromhex(cells), chr(int(code)))  # the space first: blank is " "
        _GLYPHS = table
    return _GLYPHS


def read_screen(picture):
    """The display's 8 lines of text (trailing blanks dropped on each line); a cell that is
    no glyph of the font reads as a control character, so it can never pass for text."""
    if picture is None or not picture.on or picture.inverted:
        return None
    table = glyphs()
    out = []
    for row in range(LINES):
        cells = []
        for col in range(COLUMNS):
            at = row * 128 + col * 8
            cells.append(table.get(picture.ram[at:at + 8], "\x00"))
        out.append("".join(cells).rstrip(" "))
    return out


def drawn(screen):
    """The 8 lines a screen puts on the display, as the board draws them and read_screen reads."""
    lines = [str(x)[:COLUMNS].rstrip(" ") for x in screen[:LINES]]
    return lines + [""] * (LINES - len(lines))


def as_menu_screen(lines):
    """A read display as a menu screen (tests/helpers/menu_player.py's reading: the footer is the
    last line): blank lines below the screen dropped, but an empty footer kept, which
    shows as a blank line below a menu item (an item line starts with its cursor mark)."""
    lines = list(lines)
    while lines and lines[-1] == "":
        lines.pop()
    if len(lines) > 1 and lines[-1][:1] in (">", " "):
        lines.append("")
    return lines


# --- the journal --------------------------------------------------------------------------------

def entry_of(i, move, events, digest):
    """One entry in the terms both sides share: its index, canonical action and events, digest."""
    return (i, canon.encode(move), canon.encode(events), digest)


def board_journal(link, i, j, wait=90.0):
    """Entries i..j-1 as the board reads them back from its journal: a GET over the link
    (frames other than those entries go to the link as usual)."""
    got = {}
    seq = link.send(wire.GET, {"i": i, "j": j})
    deadline = time.monotonic() + wait
    while len(got) < j - i:
        assert time.monotonic() < deadline, "the board sent %d of entries %d..%d" % (len(got), i, j - 1)
        waiting = link.ser.in_waiting
        if not waiting:
            time.sleep(0.005)
            continue
        for item in link.reader.feed(link.ser.read(waiting)):
            if isinstance(item, wire.FrameError):
                continue
            if item[1] == wire.ENTRY and i <= item[2]["i"] < j and item[2]["i"] not in got:
                b = item[2]
                got[b["i"]] = entry_of(b["i"], b["move"], b["events"], b["digest"])
            elif item[1] == wire.ERROR and item[2].get("re") == seq:
                raise AssertionError("the board refused the get: %r" % item[2])
            else:
                link._handle(item)
    return [got[k] for k in range(i, j)]


def logbook_entries(logbook, game_id):
    return [entry_of(k, e["action"], e["events"], e["digest"]) for k, e in enumerate(logbook.entries(game_id))]


def _littlefs_of(image_path):
    """The littlefs of a flash image (the RPI_PICO layout of chancery.vpico.image), mounted."""
    import littlefs

    from chancery.vpico import image

    fs = littlefs.LittleFS(block_size=image.BLOCK, block_count=image.BLOCKS, read_size=32, prog_size=32,
                           lookahead_size=32, name_max=255, mount=False)
    with open(image_path, "rb") as f:
        f.seek(image.FS_OFFSET)
        fs.context.buffer[:] = f.read(image.BLOCK * image.BLOCKS)
    fs.mount()
    return fs


class ImageFlash:
    """rp2.Flash() as the board sees it (the block device under its littlefs), read from a
    flash image: what firmware/journal/flash.py reads the journal's lines through."""

    def __init__(self, image_path):
        from chancery.vpico import image

        with open(image_path, "rb") as f:
            f.seek(image.FS_OFFSET)
            self.data = f.read(image.BLOCK * image.BLOCKS)
        self.block = image.BLOCK

    def ioctl(self, op, arg):
        return len(self.data) // self.block if op == 4 else 0

    def readblocks(self, n, buf, off=0):
        at = n * self.block + off
        buf[:] = self.data[at:at + len(buf)]


def flash_journal(image_path, into, folder="/chancery"):
    """The entries of the board's journal in a flash image, as entry_of tuples: its folder
    copied out of littlefs into `into`, read by firmware/journal/ as the board reads it
    (the raw flash log's lines from the image's blocks, or game.jsonl)."""
    from firmware.journal import Journal
    from firmware.journal.store import LfsStore, Store

    fs = _littlefs_of(image_path)
    os.makedirs(into, exist_ok=True)
    for name in fs.listdir(folder):
        with fs.open(folder + "/" + name, "rb") as f, open(os.path.join(into, name), "wb") as out:
            out.write(f.read())
    if Store(into).seqs():
        journal = Journal(into, store=LfsStore(into, ImageFlash(image_path)))
        journal.flash.load()
    else:
        journal = Journal(into, store=False)
    return [entry_of(k, e["action"], e["events"], e["digest"]) for k, e in enumerate(journal.entries(0))]
