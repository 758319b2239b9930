"""The Council's public state as text: a compact panel for the prompt and the mirror
(show.status), a full one for `chancery replay` (show.full).

Works on the public view (engine.game_module("the_council").view(state, None)). In
this game nothing is hidden but the reveal's sealed choices, which never enter the
state before the reveal: the panel says who has marked their pad, never what, and
prints no raw ballot data. Seats are "seat N" as in the core's own messages; the
drafted cards in front of a seat are numbered 1-5, the reveal ballot's options.
"""

from shared_rules import decktet, wording
from shared_rules.wording import fit, seat, seats  # noqa: F401  (seat, seats: the narrate imports them from here)

SUITS = decktet.SUITS
SHORT = ("Mo", "Su", "Wa", "Le", "Wy", "Kn")
STEPS = {
    "draft": "the draft",
    "event": "reveal the next event",
    "bid": "bidding",
    "reveal": "the reveal",
    "over": "game over",
}
REVEAL_QUESTION = "Reveal drafted cards"  # the question flow.py opens its ballot with

# the terminal game's help (host/chancery/play/game.py): the table's effects, whose words are least obvious
EXAMPLES = {
    "chips": ["chips 1 Moons 2 fix a misentry", "chips seat=0 suit=Knots amount=-1"],
    "ranks": ["ranks 0 Moons -1 house rule"],
    "traitors": ["traitors 0 1 Court played late"],
    "empire": ["empire Leaves -1 fix a misentry"],
}
CARD_FORMS = ""


def chips(n, suit=None):
    word = "chip" if n == 1 else "chips"
    return "%d %s %s" % (n, SUITS[suit], word) if suit is not None else "%d %s" % (n, word)


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def card_text(card):
    """'7 Cave (Waves/Wyrms)', 'Ace of Moons', 'the Excuse'."""
    return "the Excuse" if card == decktet.EXCUSE else decktet.label(card)


def card_short(card):
    """'7 Cave', 'Pawn Watchman', 'Ace of Moons', 'the Excuse': a card's rank and name."""
    r = decktet.rank(card)
    if card == decktet.EXCUSE or r == 1:
        return card_text(card)
    return "%s %s" % (decktet.rank_name(r), card)


def players(view):
    return view["settings"]["players"]


def matching(view):
    """The current (or last) event's suits, as indices (none without an event)."""
    if not view.get("event"):
        return []
    bits = decktet.suit_bits(view["event"])
    return [i for i in range(6) if bits & (1 << i)]


def need(card):
    """The total an event asks: numbers their rank, an Ace 1, Pawn/Court/Crown 0 (L34)."""
    r = decktet.rank(card)
    return r if r <= 9 else 0


def total_bid(view):
    """The chips bid so far on the event, in its matching suits (Pawns and Aces not yet revealed)."""
    return sum([view["bids"][s][i] for s in range(players(view)) for i in matching(view)])


def bid_words(row, short=False):
    """'Waves 1, Wyrms 2' (the chips one seat bid), '' for none."""
    names = SHORT if short else SUITS
    return ", ".join(["%s %d" % (names[i], row[i]) for i in range(6) if row[i]])


def has_bid(view, s):
    """Whether seat s has had its turn to bid on the current (or last) event (C10)."""
    step = view["step"]
    if step in ("reveal", "event", "over"):
        return bool(view.get("event"))
    if step != "bid" or view["turn"] is None:
        return False
    n = players(view)
    return (s - view["starter"]) % n < (view["turn"] - view["starter"]) % n


def bid_fact(view, s):
    if not has_bid(view, s):
        return "to bid" if view["step"] == "bid" and view["turn"] == s else "not bid yet"
    words = bid_words(view["bids"][s])
    return "bid " + words if words else "passed"


def fallen(view):
    """The suits where the empire is below at least one seat (L38-L39)."""
    return [i for i in range(6) if [r for r in view["ranks"] if r[i] > view["empire"][i]]]


def sealed(view):
    """The open (unrevealed) sealed ballot, or None."""
    b = view.get("ballot")
    if b is None or b.get("result") is not None:
        return None
    return b


def is_reveal(b):
    return b is not None and b.get("multi") and b.get("question") == REVEAL_QUESTION


def ballot_text(view):
    """Who has marked (never what), as panel parts: [] without an unrevealed ballot."""
    b = sealed(view)
    if b is None:
        return []
    waiting = [s for s in b["voters"] if s not in b["voted"]]
    if is_reveal(b):
        text = "Reveal ballot%s: %d of %d marked" % ("" if b["open"] else " closed", len(b["voted"]),
                                                   len(b["voters"]))
        if b["voted"]:
            text += " (%s)" % seats(b["voted"])
        if not b["open"]:
            return [text, "the unmarked reveal nothing" if waiting else "to be revealed"]
        return [text, "waiting for " + seats(waiting)]
    return ["Ballot %d (%s): %d of %d voted%s" % (b["n"], b["question"], len(b["voted"]), len(b["voters"]),
                                                 "" if b["open"] else ", closed")]


def event_text(view):
    """The current event and where its bidding stands, or the last event's outcome."""
    step, ev = view["step"], view.get("event")
    if step == "draft" or not ev:
        if step == "draft":
            waiting = [s for s in range(players(view)) if not view["front"][s]]
            how = "five cards and their chips each" if view["settings"]["draft"] == "chips" else \
                "five cards each, chips from their suits"
            return "Draft: waiting for %s (%s)" % (seats(waiting), how)
        return "No event yet: %s starts the bidding" % seat(view["starter"])
    suits = "/".join(decktet.suits(ev))
    k = need(ev)
    want = "needs %d" % k if k else "needs 0 (cannot fail)"
    head = "Event %s" % card_text(ev) if step in ("bid", "reveal") else "Last event %s" % card_text(ev)
    parts = [head, "bid %d, %s" % (total_bid(view), want)]
    if step == "bid":
        parts.append("%s to bid %s" % (seat(view["turn"]), suits))
    elif step == "event" and view.get("outcome"):
        parts.append(view["outcome"])
        parts.append("next bidding from %s" % seat(view["starter"]))
    elif step == "over" and view.get("outcome"):
        parts.append(view["outcome"])
    return " | ".join(parts)


def head(view):
    step = view["step"]
    parts = ["Hand %d, %s" % (view["hand"], STEPS.get(step, step)), "dealer " + seat(view["dealer"]),
             "deck %s" % plural(view["deck"], "card")]
    if step != "draft":
        parts.append("%s resolved this hand" % plural(view["events"], "event"))
    return parts


def nums(row):
    return "".join(["%3d" % x for x in row])


def seat_row(view, s):
    return ["seat %d ranks%s" % (s, nums(view["ranks"][s])), "chips%s" % nums(view["chips"][s]),
            "traitors %d" % view["traitors"][s]] + (
                [bid_fact(view, s)] if view["step"] != "draft" and view.get("event") else [])


def cards_row(view, s):
    front = view["front"][s]
    return "  cards " + "  ".join(["%d %s" % (k + 1, c) for k, c in enumerate(front)])


def ending(view):
    if view["step"] != "over":
        return ""
    w = view["winners"]
    best = view["scores"][w[0]] if w and view["scores"] else 0
    return "The empire has collapsed (fallen: %s). Winner%s: %s (%s)." % (
        ", ".join([SUITS[i] for i in fallen(view)]) or "none", "s" if len(w) > 1 else "", seats(w),
        plural(best, "point"))


def scores_text(view):
    return ", ".join(["%s %d" % (seat(s), v) for s, v in enumerate(view["scores"])])


def status(view):
    """A panel of a few lines (at most 100 columns) for the prompt and the mirror."""
    lines = fit(head(view))
    lines += fit(event_text(view).split(" | "))
    b = ballot_text(view)
    if b:
        lines += fit(b)
    lines.append("Empire ranks%s  (%s)" % (nums(view["empire"]), " ".join(SUITS)))
    for s in range(players(view)):
        lines += fit(seat_row(view, s))
        if view["front"][s]:
            lines += fit([cards_row(view, s)])
    if view["step"] == "over":
        lines.append(ending(view))
        lines += fit(["Scores " + scores_text(view)])
    return "\n".join(lines)


def _settings_text(st):
    events = "until the deck is empty" if not st["events"] else "%s per hand" % plural(st["events"], "event")
    return "The Council: %d seats, %s deck, events %s, effects %s, lowest bidder %s (ties: %s), draft %s" % (
        st["players"], "extended" if st["extended"] else "basic", events, st["effects"], st["lowest"],
        st["lowest_ties"], "with chips entered" if st["draft"] == "chips" else "chips from the cards")


def full(view, prompt_line):
    """The multi-line form printed by `chancery replay`."""
    n = players(view)
    lines = [_settings_text(view["settings"])]
    lines.append(" | ".join(head(view)))
    lines.append("Starting bidder: %s   Cards discarded since the last reshuffle: %d" % (
        seat(view["starter"]), len(view["discard"])))
    lines.append(event_text(view))
    b = ballot_text(view)
    if b:
        lines.append(" | ".join(b))
    lines.append("Empire: " + ", ".join(["%s %d" % (SUITS[i], view["empire"][i]) for i in range(6)]))
    for s in range(n):
        lines.append("%s:" % seat(s))
        lines.append("  ranks:  " + ", ".join(["%s %d" % (SUITS[i], view["ranks"][s][i]) for i in range(6)]))
        lines.append("  chips:  " + ", ".join(["%s %d" % (SUITS[i], view["chips"][s][i]) for i in range(6)]))
        lines.append("  traitor chips: %d" % view["traitors"][s])
        if view["step"] != "draft" and view.get("event"):
            lines.append("  this event: " + bid_fact(view, s))
        if view["front"][s]:
            lines.append("  drafted cards (ballot positions): " + "; ".join(
                ["%d: %s" % (k + 1, card_text(c)) for k, c in enumerate(view["front"][s])]))
        if view["last"][s]:
            lines.append("  lowest card revealed in the last event: %s" % decktet.rank_name(view["last"][s]))
    if view["step"] == "over":
        lines.append(ending(view))
        lines.append("Scores: " + scores_text(view))
    else:
        lines.append("Now: " + prompt_line)
    return "\n".join(lines)


def actor(state):
    """The seat whose turn it is (the terminal game's prompt): the seat bidding now."""
    return state.get("turn") if state.get("step") == "bid" else None


def heading(settings):
    """What is played, in one line (the terminal game's first)."""
    return wording.playing("The Council", settings)


# --- the logbook's hooks (host only: `chancery log stats` and `chancery log chart`) ---

def facts(events):
    """What one play came to beyond its scores, from all its events in order: a fact in words for
    each time it happened (`chancery log stats` counts them over the plays): the empire's collapse (the
    game's end) and each suit that fell in it, and how the events went."""
    out = []
    for ev in events:
        t = ev.get("t")
        if t == "over":
            out.append("collapse of the empire")
            out += ["collapse: %s fell" % SUITS[suit] for suit in ev.get("fallen", [])]
        elif t == "resolved":
            out.append("event %s" % ("succeeded" if ev.get("outcome") == "success" else "failed"))
    return out


def progress(state):
    """What a chart draws after each entry: every seat's score as it would be counted now, no table
    track, and the hand."""
    from shared_rules.the_council import reveal

    return {"scores": reveal.scores(state), "tracks": [], "round": ["hand", state["hand"]]}
