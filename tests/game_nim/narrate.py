"""Nim's events in words (host only)."""

from shared_rules import wording


def _one(before, after, ev):
    if ev["t"] == "took":
        return "%s takes %d; %d left." % (wording.cap(wording.seat(ev["seat"])), ev["count"], after["pile"])
    return "%s took the last counter and wins." % wording.cap(wording.seat(ev["winners"][0]))


def lines(before, events, action=None):
    return wording.each("nim", before, events, _one)
