"""Yes, Your Grace's calculator working in words: which cards paid, were discarded, kept
and doubled, each Role's part and each side's sum (narrate.py's Events
and Civil Wars). A card is named when the action that made the working is known,
else by its index as entered ("card #3").
"""

from shared_rules.yes_your_grace import calc
from shared_rules.yes_your_grace.show import (
    KIND_NAMES,
    PLURALS,
    ROLE_NAMES,
    ROLES,
    TYPES,
    coins,
    plural,
    role_name,
    seat,
)

COIN = 3
ARTICLE = ("a Soldier", "a Spy", "a Diplomat")
HOLDING_OF = ("Military", "Espionage", "Diplomacy")  # the Holding kind behind each Resource type (L19, L25)



def _and(items):
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# --- one side, in words --------------------------------------------------------------

class Side:
    """One side of an Event (or one seat in a Civil War): its working and, if known, its cards."""

    def __init__(self, label, work, names, all_economic=False):
        self.label, self.w = label, work
        self.all_economic = all_economic  # Y2 "all": the Steward counts Damaged Economic Holdings too
        self.cards = None
        if names is not None:
            try:
                self.cards = [calc.parse(n) for n in names]
                self.names = list(names)
            except (ValueError, IndexError, AttributeError):
                self.cards = None
        if self.cards is not None and not self._checks():
            self.cards = None  # the action does not match the working: read the indexes only

    def _checks(self):
        n = len(self.cards)
        idx = self.w["paid"] + self.w["discarded"] + self.w["kept"] + self.w["doubled"]
        if [i for i in idx if i >= n]:
            return False
        total = sum([self.term(i)[1] for i in self.remaining()])
        total += sum([r[1] * (2 if r[2] else 1) for r in self.w["roles"] if r[0] != "steward"])
        return total == self.w["total"]

    def remaining(self):
        return sorted(self.w["paid"] + self.w["kept"])

    def name(self, i):
        if self.cards is None:
            return "card #%d" % i
        return self.names[i]

    def term(self, i):
        """(text, amount) of a remaining card in the sum."""
        v = self.cards[i][1]
        if i in self.w["doubled"]:
            return "%dx2" % v, 2 * v
        return "%d" % v, v

    def types(self):
        """Resource types that remain on this side (cards and Roles with something to add, G4)."""
        out = set()
        if self.cards is not None:
            for i in self.remaining():
                out.add(self.cards[i][0])
        for r in self.w["roles"]:
            t = ROLES.index(r[0]) if r[0] in ROLES else COIN
            if t < COIN and r[1] > 0:
                out.add(t)
        return out

    def discarded_types(self):
        if self.cards is None:
            return set()
        return set([self.cards[i][0] for i in self.w["discarded"]])

    def card_types(self):
        return set([self.cards[i][0] for i in self.remaining()]) if self.cards is not None else set()


def _by_cost(side, idx):
    if side.cards is None:
        return sorted(idx)
    return sorted(idx, key=lambda i: (-side.cards[i][2], i))


def _coins_words(side, holders):
    w = side.w
    steward = sum([r[1] for r in w["roles"] if r[0] == "steward"])
    text = coins(w["coins"])
    sources = []
    if side.cards is not None:
        sources = [side.names[i] for i in range(len(side.cards)) if side.cards[i][0] == COIN]
    if steward:
        who = holders[3] if len(holders) > 3 else None
        sources.append("the Steward's %d, %s" % (steward, "the King" if who is None else seat(who)))
    if sources and (len(sources) > 1 or steward):
        text += " (%s)" % " + ".join(sources)
    return text


def _pay(side, holders):
    w = side.w
    paid = _by_cost(side, w["paid"])
    if not w["coins"] and not paid:
        return ""
    money = _coins_words(side, holders)
    if paid:
        verb = "pays" if w["coins"] == 1 else "pay"
        return "%s %s %s" % (money, verb, _and([side.name(i) for i in paid]))
    if w["discarded"]:
        return "%s pay nothing" % money
    return "%s (nothing to pay)" % money


def _discarded(side):
    w = side.w
    if not w["discarded"]:
        return ""
    paid_names = [side.name(i) for i in w["paid"]] if side.cards is not None else []
    said = []
    for i in _by_cost(side, w["discarded"]):
        name = side.name(i)
        said.append(name + (" (the other one)" if name in paid_names else ""))
    return "%s %s discarded (cannot be paid)" % (_and(said), "is" if len(said) == 1 else "are")


def _grouped(names):
    """Equal names side by side as one: 'Spy 1 c0 (12 cards)'."""
    out = []
    for n in names:
        if out and out[-1][0] == n:
            out[-1][1] += 1
        else:
            out.append([n, 1])
    return [n if k == 1 else "%s (%d cards)" % (n, k) for n, k in out]


def _kept(side):
    if not side.w["kept"]:
        return ""
    return "%s kept (no cost)" % _and(_grouped([side.name(i) for i in side.w["kept"]]))


def _roles(side, holders):
    said = []
    for r in side.w["roles"]:
        name, amount = r[0], r[1]
        t = ROLES.index(name) if name in ROLES else COIN
        who = holders[t] if t < len(holders) else None
        head = "the %s (%s)" % (role_name(name), "the King" if who is None else seat(who))
        if not amount:
            said.append("%s adds nothing (no %s%s Holding)" % (
                head, "" if t == COIN and side.all_economic else "Undamaged ", KIND_NAMES[t] if t < 4 else "?"))
        elif t == COIN:
            continue  # the Steward's Coins are counted with the side's Coins (_coins_words)
        else:
            said.append("%s adds %s" % (head, plural(amount, TYPES[t], PLURALS[t])))
    return "; ".join(said)


def _why_double(t, other, where):
    """'a Spy remains on Oppose', or the Role that gives that type there."""
    d = (t + 1) % 3
    if d in other.card_types():
        return "%s %s" % (ARTICLE[d], where)
    for r in other.w["roles"]:
        if r[0] in ROLES and ROLES.index(r[0]) == d and r[1] > 0:
            return "the %s's %s %s" % (ROLE_NAMES[d], PLURALS[d], where.replace("remains", "remain")
                                       .replace("is played", "are played"))
    return "%s %s" % (ARTICLE[d], where)


def _doubling(side, other, where, lost):
    """The doubling clauses: each type that counts double, and why; and a bonus lost to a discard."""
    said = []
    w = side.w
    if side.cards is None:
        if w["doubled"]:
            said.append("%s count%s double" % (_and([side.name(i) for i in w["doubled"]]),
                                               "s" if len(w["doubled"]) == 1 else ""))
        for r in w["roles"]:
            if r[2]:
                said.append("the %s's %s count double" % (role_name(r[0]), PLURALS[ROLES.index(r[0])]))
        return said
    doubled_types = set([side.cards[i][0] for i in w["doubled"]])
    for r in w["roles"]:
        if r[2]:
            doubled_types.add(ROLES.index(r[0]))
    for t in sorted(doubled_types):
        said.append("%s count double (%s)" % (PLURALS[t], _why_double(t, other, where)))
    for t in sorted(side.types() - doubled_types):
        d = (t + 1) % 3
        if t < COIN and d in other.discarded_types():
            said.append("%s do not double: %s %s was discarded (%s)" % (PLURALS[t], ARTICLE[d], lost, "L18"))
    return said


def _sum(side):
    """': 1 + 2x2 + Marshal 2 = 7', or ': 5' (with the cards), or ': total 5' (indexes only)."""
    w = side.w
    if side.cards is None:
        return "total %d" % w["total"]
    terms = [side.term(i)[0] for i in side.remaining()]
    for r in w["roles"]:
        if r[0] != "steward" and r[1]:
            terms.append("%s %d%s" % (role_name(r[0]), r[1], "x2" if r[2] else ""))
    if not terms:
        return "0"
    if len(terms) == 1 and "x2" not in terms[0]:
        return str(w["total"])
    return "%s = %d" % (" + ".join(terms), w["total"])


def side_words(side, other, holders, where, lost):
    """'Support: 3 Coins pay Soldier 1 c2; ...; Soldiers count double (...): 2x2 + 1 = 5'."""
    clauses = [c for c in (_pay(side, holders), _discarded(side), _kept(side), _roles(side, holders)) if c]
    clauses += _doubling(side, other, where, lost)
    if not clauses and not side.w["total"] and side.cards is not None and not side.cards:
        return "%s: no cards: 0" % side.label
    if not clauses:
        return "%s: %s" % (side.label, _sum(side)) if side.cards is not None else "%s: total %d" % (
            side.label, side.w["total"])
    return "%s: %s: %s" % (side.label, "; ".join(clauses), _sum(side))
