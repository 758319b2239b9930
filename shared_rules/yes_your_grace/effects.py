"""What Intrigue cards and other printed effects do, which no rule here can know: typed
effects the table enters (the rules leave them to the card: "the Controlling Player gets to
enact the effect", L20, L22). Each is public, as the card is once resolved, and carries an
optional reason (the card's name, "house rule", "fix a misentry"), kept in its event and
narrated; each is checked against the state and refused, with nothing changed, when it does
not fit. Any time of a round (the Resource, Intrigue and Event Phases), never while a
succession, a Civil War or a failed Crisis's damage waits (flow.decide).

  heir     the Heir named, or none (not the King: L24).
  role     a Role card given to a seat, or back to the King (not to the King: G7).
  holding  one Holding of a seat gained (Undamaged), lost (G10), damaged or repaired:
           a kind holds 0-9 Holdings (the settings' range), a damage needs an Undamaged one,
           a repair a Damaged one.
  fall     the King Deposed or Assassinated; the crown passes to `to`, else the Heir, else
           the realm goes into Civil War (L23-L25, G9).
  face     the King card turned to its other face (G15).
  cards    Resource cards, Coin cards among them, moved between a seat's hand and the decks
           or another seat's hand (G14).

Rulings (the seed is silent; the numbering goes on from __init__.py's G1-G13):
  G14 Coins are Coin cards (L16, G3) and every Resource card in a hand is secret until it is
      revealed on an Event (L15), so the companion holds no hand and no pool of Coins: `cards`
      records what the table sees a printed effect move, how many cards, from whose hand (or
      the decks) to whose (or the decks), and their type only when the effect shows it (each
      type is its own deck, L21; a card shown face up), never a value or a cost. It changes
      nothing the companion counts with: those cards reach the calculator when they are
      revealed on an Event. Hands are held from the Resource Phase until the Intrigue Phase
      ends with the rest discarded (L13), so in the Event Phase `cards` is refused: an effect
      there on Coins or cards acts on an Event still to resolve, entered as it lies when it
      resolves (L14).
  G15 The face of the King card is public (it lies face up, L23); `face` turns it (a printed
      effect, or an `accede` misentered) and refuses to turn it to the face it shows.
"""

from shared_rules.errors import RuleError
from shared_rules.schema import with_reason
from shared_rules.yes_your_grace.actions import KINDS, TYPES
from shared_rules.yes_your_grace.resolve import fall as crown_falls

MOST_HOLDINGS = 9  # of one kind per seat: the settings' own range (actions.py)


def heir(state, act, emit):
    seat = act["seat"]
    if seat is not None and seat == state["king"]:
        raise RuleError("king_not_heir", {"seat": seat})
    emit(with_reason(act, {"t": "heir", "seat": seat}))


def role(state, act, emit):
    seat = act["seat"]
    if seat is not None and seat == state["king"]:
        raise RuleError("king_no_role", {"seat": seat, "role": act["role"]})
    emit(with_reason(act, {"t": "role", "role": act["role"], "seat": seat}))


def holding(state, act, emit):
    seat, k, change = act["seat"], KINDS.index(act["kind"]), act["change"]
    whole, hurt = state["holdings"][seat][k], state["damaged"][seat][k]
    if (change in ("lose", "damage") and not whole and (change == "damage" or not hurt)) or (
            change == "repair" and not hurt) or (change == "gain" and whole + hurt >= MOST_HOLDINGS):
        raise RuleError("no_holding", {"seat": seat, "kind": act["kind"], "change": change, "undamaged": whole,
                                       "damaged": hurt, "most": MOST_HOLDINGS})
    emit(with_reason(act, {"t": "holding", "seat": seat, "kind": k, "change": change,
                       "damaged": change == "lose" and not whole}))


def fall(state, act, emit):
    crown_falls(state, act["how"], act.get("to"), emit, act.get("reason"))


def face(state, act, emit):
    if act["face"] == state["face"]:
        raise RuleError("same_face", {"face": act["face"], "king": state["king"]})
    emit(with_reason(act, {"t": "face", "face": act["face"]}))


def cards(state, act, emit):
    giver, taker = act["giver"], act["taker"]
    if state["step"] == "event":
        raise RuleError("no_hands", {"count": act["count"]})
    if giver == taker:
        raise RuleError("cards_nowhere", {"giver": giver})
    ev = {"t": "cards", "giver": giver, "taker": taker, "count": act["count"]}
    if act.get("resource") is not None:
        ev["resource"] = TYPES.index(act["resource"])
    emit(with_reason(act, ev))


def apply(state, act, emit):
    """The effect `act` names (flow.decide hands every effect here)."""
    kind = act["type"]
    (heir if kind == "heir" else role if kind == "role" else holding if kind == "holding" else
     fall if kind == "fall" else face if kind == "face" else cards)(state, act, emit)
