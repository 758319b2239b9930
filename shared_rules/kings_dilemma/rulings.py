"""The King's Dilemma's rulings a table decides: which settings are readings tables differ on."""

# The rulings a table decides where the rulebook is silent (issue 43): settings added after
# games were logged without them, {name: the reading the core followed before}. A header
# without one means that reading, and the settings hold one only when it is another
# (engine.settings_for); the rules read them with schema.ruling. Their defaults, the readings
# the rulebook's text favours, are in setup.py; their help with the lines in docs.py.
RULINGS = {"zero_power": "no_bonus", "bargain": "any"}
