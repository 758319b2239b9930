# Freeze Chancery's rules core and board firmware into a MicroPython build
# (micropython-lib's manifest format; https://docs.micropython.org/en/latest/reference/manifest.html).
#
#   cd micropython/ports/rp2
#   make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/chancery/manifest.py
#
# For an ESP32 board, give FROZEN_MANIFEST a manifest of one line that picks its backend:
#
#   include("/path/to/chancery/manifest.py", backend="esp32")
#
# It freezes what a board runs and nothing else, by the rule `chancery deploy` follows
# (host/chancery/deploy/modules.py): the modules that firmware/main.py and the board's
# own backend (firmware/board/rp2.py or esp32.py) import, walked statically. So not the
# games' host-only words (show, narrate, working, wording), their docs, the scenario
# runner, the unix port's or CircuitPython's backend. The lists below are that walk's
# result, written out; tests/tools/test_manifest.py fails when they and the walk differ (a
# module added, moved or newly imported: print the walk with
# `python -c "from chancery.deploy import modules; print(modules.board_files('rp2'))"`).
# opt=3 is what deploy compiles with (mpy-cross -O3: no line-number tables).
#
# Frozen bytecode runs from flash: the board keeps none of it in RAM, which
# leaves the heap to the game. The pin maps, the layouts, main.py and the
# refusals' words for the display (firmware/refusals.txt, read from
# /lib/firmware/ when a refusal happens) stay files: put them on the board with
#
#   chancery deploy --board rpi-pico --skip-code
#
# The .frozen entry comes before /lib on sys.path, so frozen modules win over
# any copies an earlier deploy left in /lib.

metadata(description="Chancery: the rules core and the board firmware", version="0.1.0")

options.defaults(backend="rp2")  # the firmware backend: rp2 (Pico) or esp32

# What the port freezes anyway (asyncio, neopixel, framebuf's display, ...). A board with a
# manifest of its own (RPI_PICO_W: the network modules) wants "$(BOARD_DIR)/manifest.py" instead.
include("$(PORT_DIR)/boards/manifest.py")

GAMES = {
    "chancellors": ["actions", "effects", "flow", "fold", "services", "setup", "solving", "texts", "views"],
    "kings_dilemma": ["actions", "dilemma", "effects", "flow", "fold", "pads", "rulings", "scoring", "setup", "texts",
                      "views", "voting"],
    "the_council": ["actions", "effects", "flow", "fold", "reveal", "setup", "texts", "views"],
    "yes_your_grace": ["actions", "calc", "effects", "flow", "fold", "resolve", "rulings", "setup", "texts", "views"],
}
SHARED_RULES = [
    "ballot", "canon", "compat", "decktet", "engine", "errors", "game", "games", "power", "prng", "render",
    "render_leds", "render_tracks", "schema", "seat_names", "texts", "wire",
]
FIRMWARE = [
    "ahead", "argv", "ballot_box", "ballot_keys", "boot", "buttons", "controls", "keymap", "keys", "kept", "link", "main",
    "menu", "menus", "names", "pads", "table", "ticks", "undo", "words",
]
JOURNAL = ["__init__", "core", "flash", "flash_read", "kept", "line", "read", "resume", "start", "store"]  # not files: the CPython tests
BOARD = ["ble_dice", "dice_events", "dice_holders", "knob", "later", "leds", "mpboard", "oled", "pace", "pins", "reboot", "sim", "wiring"]  # sim: its link helpers, used by mpboard
# smart dice (imported only when the board's options name dice; aioble is the port's or mip's: see ble_dice.py)
DICE = ["__init__", "desk", "godice", "roll"]
BACKENDS = ("rp2", "esp32")

if options.backend not in BACKENDS:
    raise ValueError("manifest.py: backend must be one of %s, not %r" % (BACKENDS, options.backend))

package("shared_rules", files=["__init__.py"] + [m + ".py" for m in SHARED_RULES]
        + [g + "/" + m + ".py" for g in GAMES for m in ["__init__"] + GAMES[g]], opt=3)
package("firmware", files=["__init__.py", "board/__init__.py"] + [m + ".py" for m in FIRMWARE]
        + ["journal/" + m + ".py" for m in JOURNAL] + ["board/" + m + ".py" for m in BOARD + [options.backend]]
        + ["dice/" + m + ".py" for m in DICE], opt=3)
