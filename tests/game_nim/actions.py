"""Nim's settings and action schemas."""

from shared_rules.schema import action, param

SETTINGS = (
    {"name": "players", "domain": {"kind": "int", "min": 2, "max": 4}, "default": 2},
    {"name": "pile", "domain": {"kind": "int", "min": 1, "max": 30}, "default": 7},
)
SCHEMAS = (action("take", "seat", [param("count", {"kind": "int", "min": 1, "max": 3})]),)
