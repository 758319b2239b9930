"""Smart dice: readers that turn a die's Bluetooth notifications into events.

A reader (one per connected die; godice.Reader for GoDice, a Pixels reader can join
with the same two methods) is pure: bytes in, events out, no radio, no clock.
  feed(data)  one notification's bytes: an event, or None for a message that means
              nothing to a table (an unknown one, or one too short to read)
  lost()      the die's connection dropped: its event
An event is a tuple whose first item says what happened, the second the die's id:
  ("rolling", die)           the die is tumbling: its face means nothing yet
  ("settled", die, face)     it came to rest from a roll: `face` is the printed face read
  ("moved", die, face)       it came to rest without a roll (turned or slid by hand)
  ("tilted", die, face)      it came to rest cocked against something: a roll to repeat
  ("battery", die, percent)
  ("colour", die, name)      the colour of its pips
  ("lost", die)              disconnected
Only "settled" gives a value. roll.py turns events into a roll's values; the board's BLE
(firmware/board/ble_dice.py) and the host (chancery/dice/) feed the same readers.
Loaded only where dice are used: a board without them imports nothing from here.
"""
