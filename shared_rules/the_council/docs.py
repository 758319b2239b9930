"""What people read about The Council's settings and actions (host side).

Kept apart from actions.py so the board never loads this prose. Keys:
"setting.NAME", "ACTION" and "ACTION.PARAM". Lnn: lines of
../shared/seeds/the-council.txt; Tn: rulings of ../shared/rules/the-council.md;
Cn: rulings in the_council/__init__.py (C17-C19, the table's effects: effects.py).
"""

_SEAT = "The seat whose count changes."
_SUIT_OF = "The suit: Moons, Suns, Waves, Leaves, Wyrms or Knots."
_WHY = "Why, in up to 40 characters (\"house rule\", \"fix a misentry\", a card's name): kept in the log and said."
_SUIT = "Chips of %s bid on the event (only the event's suits, L25; spent whatever the outcome, T2)."

DOCS = {
    "title": "The Council",  # the game's name as people write it (a chart's title)
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
    "setting.effects": "A ruling a table decides (T4; the seed does not say): whether a revealed Court or Crown "
                       "that shares no suit with the event takes effect. all (default, the reading the text "
                       "favours: a Court's traitor chip on a failure, L31, and a Crown's rank in its own suit, "
                       "L32, are given with no word of the event's suits, where L30 narrows a Pawn to its valid "
                       "suits and L26 the chips bid to the event's): every revealed Court and Crown takes effect "
                       "(C14); matching (the digest's T4): only revealed cards sharing a suit with the event do. "
                       "Aces, numbers and Pawns act in the event's suits either way (L26, L28-L30, L34).",
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
    # the table's effects (effects.py): not the setting `effects`, which says which revealed cards act
    "chips": "The table's effect: a seat takes chips of a suit from the supply (+) or returns them (-) (L7, L22), "
             "for a house rule or to fix a misentry; at any step until the game is over (C17). A seat's chips of "
             "a suit stay within 0-99 (C18).",
    "chips.seat": _SEAT,
    "chips.suit": _SUIT_OF,
    "chips.amount": "Chips taken (+, 1-9) or returned (-, 1-9); more: enter it twice.",
    "chips.reason": _WHY,
    "ranks": "The table's effect: a seat's rank in a suit moves up (+) or down (-) on its track (L8, L13), "
             "within 0-6 (T9, C18). The collapse is still checked only at the end of the events phase (C19). "
             "Trading a rank for a traitor chip is two effects (ranks, then traitors).",
    "ranks.seat": _SEAT,
    "ranks.suit": _SUIT_OF,
    "ranks.amount": "Ranks gained (+) or lost (-), 1-6.",
    "ranks.reason": _WHY,
    "traitors": "The table's effect: a seat gains (+) or loses (-) traitor chips (L11, L31, L36); they count one "
                "point each at the collapse (L39). Within 0-99 (C18).",
    "traitors.seat": _SEAT,
    "traitors.amount": "Traitor chips gained (+) or lost (-), 1-9.",
    "traitors.reason": _WHY,
    "empire": "The table's effect: the empire's rank in a suit moves up (+) or down (-) (L10, L14, L36), within "
              "0-6 (T9, C18); the collapse is checked at the end of the events phase (C19).",
    "empire.suit": _SUIT_OF,
    "empire.amount": "Ranks the empire gains (+) or loses (-), 1-6.",
    "empire.reason": _WHY,
}
