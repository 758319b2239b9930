"""What people read about The Council's settings and actions (host side).

Kept apart from actions.py so the board never loads this prose. Keys:
"setting.NAME", "ACTION" and "ACTION.PARAM". Lnn: lines of
../shared/seeds/the-council.txt; Tn: rulings of ../shared/rules/the-council.md;
Cn: rulings in the_council/__init__.py.
"""

_SUIT = "Chips of %s bid on the event (only the event's suits, L25; spent whatever the outcome, T2)."

DOCS = {
    "game": "The Council, 3-5 seats and a Decktet: draft cards for suit chips, bid them on the empire's "
            "events, reveal drafted cards, and be strongest where the empire falls.",
    "setting.players": "Seats at the table, 3-5; seat 0.. clockwise.",
    "setting.extended": "Play with the extended deck (Pawns, Courts, the Excuse: 45 cards); false: the "
                        "basic 36 cards.",
    "setting.dealer": "The first hand's dealer, who bids first on its first event (L24); the dealer moves "
                      "clockwise each hand (C12).",
    "setting.draft": "cards: the board derives each seat's chips from its five drafted cards, one per suit "
                     "symbol (L23); chips: the draft entry also gives the chips as the table counted them (C3).",
    "setting.events": "T1: the most events in one events phase; 0 (default): until the draw deck is empty "
                      "(36 cards: 18, 12 or 6 events for 3, 4 or 5 seats).",
    "setting.effects": "T4: matching (default): only revealed cards sharing a suit with the event take effect; "
                       "all: every revealed Court and Crown takes effect (C14).",
    "setting.lowest": "T7: who may be the lowest bidder in a suit on a failure: all (default, zero bids "
                      "included) or bidders (only seats that bid in that suit).",
    "setting.lowest_ties": "T7: lowest bidders still tied after the number cards: none (default) trades, or all do.",
    "setting.ranks": "Start ranks per seat, six each (Moons, Suns, Waves, Leaves, Wyrms, Knots), to resume a "
                     "game; empty: 0 (L13).",
    "setting.empire": "The empire's start ranks, six; empty: 6 each (L14).",
    "setting.traitors": "Traitor chips per seat at the start; empty: none.",
    "setting.chips": "Suit chips per seat at the start, six counts each (to resume a game); empty: none.",
    "draft": "A seat's five drafted cards, face up in front of it (L18-L23); the board gives it one chip "
             "per suit symbol (or takes the chips entered, C3). When every seat has drafted, the events begin.",
    "draft.cards": "The five cards, in the order they lie: ballot positions 1-5 name them at a reveal.",
    "draft.chips": "With the setting draft = chips only: the seat's chips, six counts in suit order.",
    "event": "The card revealed from the deck: the event (L24). The Excuse does nothing; reveal the next (T12).",
    "event.card": "The card's name.",
    "bid": "The seat whose turn it is offers chips of the event's suits, public (L25-L26); each parameter is "
           "a suit's name (Moons, Suns, Waves, Leaves, Wyrms, Knots). Then the "
           "next seat clockwise; after the last, every seat picks the cards it reveals in a sealed ballot.",
    "bid.Moons": _SUIT % "Moons",
    "bid.Suns": _SUIT % "Suns",
    "bid.Waves": _SUIT % "Waves",
    "bid.Leaves": _SUIT % "Leaves",
    "bid.Wyrms": _SUIT % "Wyrms",
    "bid.Knots": _SUIT % "Knots",
    "pass": "The seat whose turn it is bids nothing (C10).",
}
