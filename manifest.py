# Freeze Chancery's rules core and board firmware into a MicroPython build
# (micropython-lib's manifest format; https://docs.micropython.org/en/latest/reference/manifest.html).
#
#   cd micropython/ports/rp2
#   make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/chancery/manifest.py
#
# Frozen bytecode runs from flash: the board keeps none of it in RAM, which
# leaves the heap to the game. The pin maps, the layouts and main.py stay files
# (data the builder edits): put them on the board with
#
#   chancery deploy --board rpi-pico --skip-code
#
# The .frozen entry comes before /lib on sys.path, so frozen modules win over
# any copies an earlier deploy left in /lib.

metadata(description="Chancery: the rules core and the board firmware", version="0.1.0")

# What the port freezes anyway (asyncio, neopixel, ...). A board with a manifest of
# its own (RPI_PICO_W: the network modules) wants "$(BOARD_DIR)/manifest.py" instead.
include("$(PORT_DIR)/boards/manifest.py")

# micropython-lib's SSD1306 driver, for the optional display.
require("ssd1306")

package("shared_rules")
package("firmware")
