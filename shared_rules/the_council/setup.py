"""The Council's setup (L13-L17): its settings, checked against the seats, and the first state.

A module of its own: what a new game (or a resume, which starts from the header's
settings) reads, apart from the rules of play.
"""

from shared_rules import decktet
from shared_rules.errors import RuleError
from shared_rules.the_council import NAME


def settings():
    """The settings, as actions.SETTINGS gives them (its Built calls this)."""
    six = {"kind": "list", "of": {"kind": "int", "min": 0, "max": 6}, "min": 6, "max": 6}
    per_seat = {"kind": "list", "of": {"kind": "int", "min": 0, "max": 99}, "min": 0, "max": 5}
    for name, domain, default in (
            ("players", {"kind": "int", "min": 3, "max": 5}, 4),
            ("extended", {"kind": "bool"}, False),
            ("dealer", {"kind": "int", "min": 0, "max": 4, "seats_max": -1}, 0),  # a seat: 0..players - 1
            # the draft entered as cards, chips derived (L23), or with the chips as counted (C3)
            ("draft", {"kind": "enum", "values": ["cards", "chips"]}, "cards"),
            ("events", {"kind": "int", "min": 0, "max": 45}, 0),  # T1: 0 = until the deck is empty
            # T4, a ruling a table decides: off-suit Courts and Crowns act (all: L31-L32 name no suit
            # but the Crown's own, where L30 narrows the Pawn to its valid suits) or not (matching,
            # the digest's T4 and the default until issue 43: stored in every header, so old logs
            # replay as they were)
            ("effects", {"kind": "enum", "values": ["matching", "all"]}, "all"),
            ("lowest", {"kind": "enum", "values": ["all", "bidders"]}, "all"),  # T7
            ("lowest_ties", {"kind": "enum", "values": ["none", "all"]}, "none"),  # T7
            # a game resumed (or a teaching position): [] = the seed's setup (L13-L14)
            ("ranks", {"kind": "list", "of": six, "min": 0, "max": 5}, []),
            ("empire", {"kind": "list", "of": {"kind": "int", "min": 0, "max": 6}, "min": 0, "max": 6}, []),
            ("traitors", per_seat, []),
            ("chips", {"kind": "list", "of": dict(six, of={"kind": "int", "min": 0, "max": 99}), "min": 0,
                       "max": 5}, [])):
        out = {"name": name, "domain": domain, "default": default}
        if name == "effects":  # a ruling a table decides: `chancery rules` lists it with its number
            out["ruling"] = "T4"
        yield out


def initial(settings, seed):
    """The state of the first draft (L13-L17), after the settings are checked against
    the number of seats: the dealer is a seat, per-seat lists have one item per seat
    (or none), the empire six ranks (or none). `seed` is unused: chance is the
    physical deck, entered as it is drafted and revealed. The resume settings (ranks,
    empire, traitors, chips) start from a position instead of the seed's setup."""
    s = dict(settings)
    n = s["players"]
    for name, k in (("ranks", n), ("traitors", n), ("chips", n), ("empire", 6), ("dealer", 0)):
        v = s[name]
        if (k and v and len(v) != k) or (not k and v >= n):
            dom = {"kind": "int", "min": 0, "max": n - 1} if not k else \
                {"kind": "list", "of": {"kind": "int", "min": 0, "max": 99}, "min": k, "max": k}
            raise RuleError("bad_setting", {"name": name, "why": "count" if k else "out_of_range", "value": v,
                                            "seats": n, "domain": dom})
    return {
        "game": NAME,
        "settings": s,
        "step": "draft",
        "hand": 1,
        "dealer": s["dealer"],
        "starter": s["dealer"],
        "turn": None,
        "ranks": [x for r in s["ranks"] for x in r] or [0] * (6 * n),
        "empire": list(s["empire"]) or [6] * 6,
        "chips": [x for c in s["chips"] for x in c] or [0] * (6 * n),
        "traitors": list(s["traitors"]) or [0] * n,
        "front": [[] for _ in range(n)],
        "discard": [],
        "deck": len(decktet.names(s["extended"])),
        "events": 0,
        "event": "",
        "bids": [0] * (6 * n),
        "last": [0] * n,
        "outcome": "",
        "scores": [],
        "winners": [],
    }
