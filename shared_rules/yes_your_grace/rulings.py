"""Yes, Your Grace's rulings a table decides: which settings are readings tables differ on."""

# The rulings a table decides where the seed is silent (issue 43): settings added after games
# were logged without them, {name: the reading the core followed before}. A header without one
# means that reading, and the settings hold one only when it is another (engine.settings_for);
# the rules read them with schema.ruling. Their defaults, the readings the text favours, are
# in settings() below; their help with the seed's lines in docs.py.
RULINGS = {"overthrow_heir": "passes"}
