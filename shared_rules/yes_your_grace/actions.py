"""Yes, Your Grace's settings and action schemas, as data (see shared_rules/schema.py).

Prose for people is in docs.py (host only). Lnn: lines of
../shared/seeds/yes-your-grace.txt; Yn: rulings of ../shared/rules/yes-your-grace.md;
Gn: this package's own rulings (__init__.py).

SETTINGS and SCHEMAS are re-iterables that build their dicts when iterated
(schema.Built): a board keeps only the bytecode. The four Holding kinds, the
four Roles and the four Resource types share one index: a Marshal counts
Military Holdings and adds Soldiers, and so on (L19); a Civil War card of type k
comes from an Undamaged Holding of kind k (L25).
"""

from shared_rules.schema import Built, action, by_type, enum, ints, param, reason

KINDS = tuple(["military", "espionage", "diplomacy", "economic"])
ROLES = tuple(["marshal", "spymaster", "chancellor", "steward"])
TYPES = tuple(["Soldier", "Spy", "Diplomat", "Coin"])
SIDES = tuple(["loyalist", "usurper", "chaos"])
MAX_CARDS = 12  # Resource cards on one side of an Event, or behind one seat in a Civil War


def card_name(t, value, cost):
    """"Soldier 3 c1": type, value, cost; a Coin card has no cost ("Coin 2")."""
    if t == 3:
        return "Coin %d" % value
    return "%s %d c%d" % (TYPES[t], value, cost)


class Names:
    """Every Resource card name an action may mention, in type, value, cost order: a sequence
    computed on demand (a list of every name would cost a board RAM at every action)."""

    def __init__(self, settings):
        self.values, self.costs = settings["max_value"], settings["max_cost"] + 1

    def __len__(self):
        return self.values * (3 * self.costs + 1)

    def __getitem__(self, i):
        if i < 0 or i >= len(self):
            raise IndexError(i)
        per = self.values * self.costs
        if i >= 3 * per:
            return card_name(3, i - 3 * per + 1, 0)
        return card_name(i // per, (i % per) // self.costs + 1, i % self.costs)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def group(self, name):
        """A card's group for a menu's jump (a hold of down, firmware/menu.py): its type, in the
        order the names run (Soldier, Spy, Diplomat, Coin)."""
        return TYPES.index(name.split(" ")[0])

    def __contains__(self, name):
        parts = name.split(" ") if isinstance(name, str) else ()
        if len(parts) not in (2, 3) or parts[0] not in TYPES or (len(parts) == 3) == (parts[0] == TYPES[3]):
            return False
        try:
            v = int(parts[1])
            c = int(parts[2][1:]) if len(parts) == 3 and parts[2][:1] == "c" else 0
        except ValueError:
            return False
        if len(parts) == 3 and parts[2] != "c%d" % c:
            return False
        return parts[1] == "%d" % v and 1 <= v <= self.values and 0 <= c < self.costs


def _settings():
    from shared_rules.yes_your_grace import setup  # not at the top: setup reads the package's NAME

    return setup.settings()


# The action types in the order menus offer them (_schema builds each)
_TYPES = tuple(["next", "event", "damage", "heir", "role", "holding", "fall", "face", "cards", "accede", "civil_war",
                "reveal"])


def _schema(t):
    """The schema of action type t alone (None if the game has none)."""
    if t == "next":
        return action("next", "table", [])
    seat = {"kind": "seat"}
    if t == "event" or t == "civil_war":
        # the tie-breaker's order among equally costly cards (Y5): card indexes, paid first
        first = {"kind": "list", "of": ints(0, MAX_CARDS - 1), "min": 0, "max": MAX_CARDS, "distinct": True}
        cards = {"kind": "list", "of": {"kind": "card", "deck": "yes_your_grace"}, "min": 0, "max": MAX_CARDS}
        if t == "civil_war":
            return action("civil_war", "table", [
                param("cards", {"kind": "per_seat", "of": cards}),
                param("first", {"kind": "per_seat", "of": first}, optional=True),
                param("winner", seat, optional=True),
            ])
        roles = {"kind": "list", "of": enum(ROLES), "min": 0, "max": 4, "distinct": True}
        return action("event", "table", [
            param("kind", enum(["crisis", "intrigue", "overthrow"])),
            param("support", cards),
            param("oppose", cards),
            param("support_roles", roles, optional=True, default=[]),
            param("oppose_roles", roles, optional=True, default=[]),
            param("support_first", first, optional=True, default=[]),
            param("oppose_first", first, optional=True, default=[]),
            param("extra", {"kind": "bool"}, optional=True, default=True),
            param("controller", seat, optional=True),
            param("target", seat, optional=True),
        ])
    if t == "damage":
        return action("damage", "table", [param("kinds", {"kind": "list", "of": enum(KINDS), "min": 1, "max": 2})])
    if t == "reveal":
        return action("reveal", "seat", [param("side", enum(SIDES)), param("ambition", enum(ROLES), optional=True)])
    if t == "accede":
        return action("accede", "table", [param("side", enum(SIDES)),
                                          param("face", enum(["loyalist", "usurper"]), optional=True)])
    # the table's entries for what Intrigue cards and other printed effects do (effects.py), each with
    # an optional reason: the card's name, "house rule", "fix a misentry"
    why = reason()
    nobody = {"kind": "seat", "none": True}
    if t == "heir":
        return action("heir", "table", [param("seat", nobody), why])
    if t == "role":
        return action("role", "table", [param("role", enum(ROLES)), param("seat", nobody), why])
    if t == "holding":
        return action("holding", "table", [param("seat", seat), param("kind", enum(KINDS)),
                                           param("change", enum(["gain", "lose", "damage", "repair"])), why])
    if t == "fall":
        return action("fall", "table", [param("how", enum(["deposed", "assassinated"])),
                                        param("to", nobody, optional=True), why])
    if t == "face":
        return action("face", "table", [param("face", enum(["loyalist", "usurper"])), why])
    if t == "cards":
        # Resource cards (Coin cards among them) a printed effect moves: nobody is the decks (G14)
        return action("cards", "table", [param("giver", nobody), param("taker", nobody), param("count", ints(1, 9)),
                                         param("resource", enum(TYPES), optional=True), why])
    return None


SETTINGS = Built(_settings)
SCHEMAS = by_type(_TYPES, _schema)
