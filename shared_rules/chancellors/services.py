"""The royal services and step A, control by revealed cards.

Rules: ../shared/seeds/chancellors.txt L23 (the three services), L31-L43
(control), L106-L108 (Pawns keep only, Courts take only the Diplomatic corps).
"""

from shared_rules import decktet

# In the order they act in step B: decreasing rank of the service card (L47).
ORDER = tuple(["diplomatic", "army", "navy"])
CARD = {"diplomatic": "Diplomat", "army": "Soldier", "navy": "Sailor"}
TITLE = {"diplomatic": "Diplomatic corps", "army": "Army", "navy": "Navy"}
SERVICE_CARDS = tuple(["Diplomat", "Soldier", "Sailor"])


def controlled_by(control, seat):
    """The services `seat` controls, in step-B order."""
    return [s for s in ORDER if control[s] == seat]


def can_contest(card, service, seat, control):
    """Can `card`, played by `seat`, compete for `service` in step A?"""
    r = decktet.rank(card)
    if r == decktet.COURT:  # L108: Courts act only for the Diplomatic corps, whatever their suits
        return service == "diplomatic"
    if not decktet.shares_suit(card, CARD[service]):
        return False
    if r == decktet.PAWN:  # L106: a Pawn only keeps a service its seat already controls
        return control[service] == seat
    return True


def adjudicate(cards, control, scores):
    """Who controls each service after the cards of step A are revealed.

    cards: one card name per seat. Returns [(service, seat or None, why)], one
    per service in ORDER; why is "only", "highest", "lower_score", "tie" (equal
    rank and equal score: uncontrolled, L41) or "unchanged" (no card could
    contest it, L39).
    """
    out = []
    for service in ORDER:
        contenders = [seat for seat in range(len(cards)) if can_contest(cards[seat], service, seat, control)]
        if not contenders:
            out.append((service, control[service], "unchanged"))
            continue
        if len(contenders) == 1:
            out.append((service, contenders[0], "only"))
            continue
        top = max([decktet.rank(cards[s]) for s in contenders])
        best = [s for s in contenders if decktet.rank(cards[s]) == top]
        if len(best) == 1:
            out.append((service, best[0], "highest"))
            continue
        low = min([scores[s] for s in best])
        lowest = [s for s in best if scores[s] == low]
        if len(lowest) == 1:
            out.append((service, lowest[0], "lower_score"))
        else:
            out.append((service, None, "tie"))
    return out
