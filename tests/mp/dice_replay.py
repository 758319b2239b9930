"""Replay recorded GoDice notifications through firmware.dice.godice.Reader (MicroPython-safe).

    micropython dice_replay.py RECORDINGS.json

For each shell in the file: a reader for that shell reads each notification (hex) and
prints one line per notification, "SHELL HEX EVENT" with EVENT as JSON (null for none);
then "command NAME HEX" for each command's bytes.
"""

import binascii
import json
import sys

from firmware.dice import godice, godice_commands


def main(path):
    f = open(path)
    recordings = json.load(f)
    f.close()
    for shell in sorted(recordings):
        reader = godice.Reader(recordings[shell]["die"], shell)
        for hexed, _expected in recordings[shell]["notifications"]:
            event = reader.feed(binascii.unhexlify(hexed))
            print(shell, hexed, json.dumps(list(event) if event is not None else None))
    for name, data in (("battery", godice.ask_battery()), ("colour", godice_commands.ask_colour()),
                       ("leds", godice_commands.leds((0, 0, 255), (255, 255, 0))),
                       ("pulse", godice_commands.pulse(3, 10, 20, (255, 0, 0)))):
        print("command", name, binascii.hexlify(data).decode())


main(sys.argv[1])
