"""The table's effects: what no rule here decides, entered as typed, public actions.

The seed prints no effect beyond the revealed cards' (L28-L32), but a table plays
house rules and corrects what it entered wrongly; a companion that refused to
record it would be left aside. Each effect moves one public count by an amount
(+ gained, - lost) and keeps an optional reason ("house rule", "fix a misentry",
a card's name) in its event, so the log and the narration say why:

  chips     a seat takes chips of a suit from the supply (+) or returns them (-) (L7, L22)
  ranks     a seat's rank in a suit moved up (+) or down (-) (L8, L13)
  traitors  a seat gains (+) or loses (-) traitor chips (L11, L31, L36)
  empire    the empire's rank in a suit moved up (+) or down (-) (L10, L14, L36)

Rulings (the text is silent; __init__.py lists them with C1-C16):
  C17 An effect may be entered at any step until the game is over (the draft, an
      event's bidding, an open reveal ballot); it is public (the counts are, L23, L26)
      and changes nothing else. An amount of 0 is refused.
  C18 A count that would leave its range is refused, not clamped: ranks and the
      empire's ranks 0-6 (L8, T9), chips of a suit and traitor chips 0-99 (never
      negative; 99 is the resume settings' bound). A trade of a rank for a traitor
      chip is two effects.
  C19 An effect never ends the game: the collapse is checked at the end of an events
      phase (L16, L38), where a rank an effect moved counts as any other.
"""

from shared_rules.decktet import SUITS
from shared_rules.errors import RuleError
from shared_rules.schema import with_reason
from shared_rules.the_council.fold import slot

_MOST = {"chips": 99, "ranks": 6, "traitors": 99, "empire": 6}  # C18


def apply(state, act, emit):
    """The effect `act` names (flow.decide hands every effect here): checked, then one event."""
    key, amount = act["type"], act["amount"]
    if not amount:
        raise RuleError("zero_effect", {"what": key})
    seat = act.get("seat")
    suit = SUITS.index(act["suit"]) if "suit" in act else None
    have = state[key][slot(key, seat, suit)]
    if not 0 <= have + amount <= _MOST[key]:
        raise RuleError("effect_range", {"what": key, "seat": seat, "suit": suit, "have": have, "amount": amount,
                                         "most": _MOST[key]})
    ev = {"t": "effect", "key": key, "amount": amount}
    if seat is not None:
        ev["seat"] = seat
    if suit is not None:
        ev["suit"] = suit
    emit(with_reason(act, ev))
