"""Nim's prose for people (host only)."""

DOCS = {
    "game": "Take 1 to 3 counters in turn; who takes the last wins.",
    "setting.players": "How many seats play.",
    "setting.pile": "How many counters the pile starts with.",
    "take": "Take counters from the pile.",
    "take.count": "How many: 1 to 3.",
}
