"""The two files a CircuitPython board runs at power-on, as `chancery deploy --drive` writes them.

boot.py runs once at each reset, before USB starts. It turns on the second USB serial port
(usb_cdc data: the link, so the REPL's console stays out of the frames) and decides whose the
CIRCUITPY drive is until the next reset:
- the board's (the default): storage.remount("/", readonly=False) lets the firmware write its
  journal, and the computer then sees the drive read-only;
- the computer's, when the table's key named by host_key() (back, else push) is held through the
  reset: the drive stays writable over USB for the next deploy, and code.py does not start the
  firmware, which could not write its journal.
code.py runs after it (and again after each auto-reload): it starts the firmware with the board's
options (chancery.deploy.flash.run_options, as a MicroPython board's main.py does) when the drive
is the board's, and otherwise says why it does not.
"""

from chancery.hardware import wiring

BACK, PUSH = 18, 16  # firmware/pads.py's table back and push buttons (hardware/wiring.py's TABLE_BUTTONS)


def host_key(cfg):
    """(index, pin name) of the button that, held at reset, leaves the drive the computer's: the table's
    back button, else its push, else the first fitted."""
    order = [BACK, PUSH] + list(range(len(cfg["buttons"])))
    for i in order:
        if cfg["buttons"][i] is not None:
            return i, cfg["buttons"][i]
    raise ValueError("the pin map fits no button")


def key_words(cfg):
    """The host key in words: "the table's back button (MISO)"."""
    index, pin = host_key(cfg)
    return "the %s button (%s)" % (wiring.button_role(index).lower().replace("table ", "table's "), pin)


def boot_py(board_name, cfg):
    """The board's boot.py."""
    _, pin = host_key(cfg)
    up = cfg.get("pull", "up") == "up"
    pressed = "not key.value" if cfg.get("active_low", True) else "key.value"
    return ('''# Written by `chancery deploy --board %(board)s --drive`: runs at each reset, before USB starts.
# Holding %(key)s through a reset leaves CIRCUITPY writable by the computer (for the next
# deploy) and the firmware does not start; otherwise the firmware has the drive for its journal,
# and the computer sees it read-only until then.
import board
import digitalio
import storage
import usb_cdc

usb_cdc.enable(console=True, data=True)  # the REPL on the first serial port, the link on the second
key = digitalio.DigitalInOut(board.%(pin)s)
key.switch_to_input(pull=digitalio.Pull.%(pull)s)
held = %(pressed)s  # the key is down
key.deinit()
if not held:
    storage.remount("/", readonly=False)  # the firmware's: it writes its journal
''' % {"board": board_name, "key": key_words(cfg), "pin": pin, "pull": "UP" if up else "DOWN",
       "pressed": pressed})


def code_py(board_name, cfg, opts):
    """The board's code.py: firmware.main.run(opts) when the drive is the board's."""
    return ('''# Written by `chancery deploy --board %(board)s --drive`: starts the Chancery firmware.
import storage

if storage.getmount("/").readonly:
    print("chancery: CIRCUITPY is the computer's (%(key)s was held at reset, or the "
          "board has not been reset since a deploy): the game does not start. Reset the board to play.")
else:
    from firmware import main

    main.run(%(opts)r)
''' % {"board": board_name, "key": key_words(cfg), "opts": opts})
