"""The board's menus, generated from the action schemas; no game-specific code.

    m = Menu(legal, card_names)             # a game's (g.legal, g.card_names), or the table's
    screen = m.start(state, seat)           # seat None: the table
    screen, action = m.key(state, key)      # up down select back long_select long_up long_down

`legal(state, seat)` gives the actions and their narrowed domains; the menu
asks for the type, then each parameter in order, then confirms in words. A
screen is at most 8 lines of 16 characters (a 128x64 SSD1306, 8x8 font),
echoed as text to the host. The entry is only the list of choices made
(`picks`), everything else is rebuilt from it, so back is "drop the last
choice and rebuild": one parameter, one item of a per_seat, one toggle.
Optional parameters offer "(default)" first (or the parameter's own words for
it: a roll's "(board rolls)"); lists of distinct scalars are toggled and
finished with long_select; other lists take one pick per item. An action whose
parameters are all optional goes straight to its confirm screen with every
one left as it is (a roll: the board rolls), and back from there opens its
first parameter; unless one has a likelier value than its default (its
domain's "start": a bid of nothing is a pass, so a bid's first suit asks,
on one chip).
After confirming, the confirm screen stays (back corrects a refused action);
a key that comes with another state object restarts the menu and is
swallowed, since the screen it answered is stale. rest() drops what an idle
menu holds until its next key.
"""

from firmware import keymap
from shared_rules import canon, engine
from shared_rules.compat import const
from shared_rules.schema import find

_TYPE = const(0)
_PARAM = const(1)
_CONFIRM = const(2)
_W = const(16)  # characters per line: 128 px / 8 px
_ROWS = const(4)  # a pick screen: title, prompt, 4 choices, 2 lines of footer (firmware/keymap.py)
_BODY = const(5)  # the confirm screen: title, 5 lines, its footer
_OMIT = ["(default)"]  # sentinels, told apart from values by identity
_END = ["done"]
_NONE = ["(nothing)"]
_REASONS = tuple(["house rule", "fix a misentry"])  # a printed effect's reason, where a pad enters one


def _index(items, v):
    for i in range(len(items)):
        if type(items[i]) is type(v) and items[i] == v:  # True == 1, but not in an action
            return i
    return -1


def _words(d, v, omit=None):
    """A value in words; d is its domain (None for an action type); omit: the parameter's
    own words for leaving it out ("board rolls"), else "(default)"."""
    if isinstance(v, list):
        if v is _OMIT and omit:
            return "(%s)" % omit
        if v is _OMIT or v is _NONE:
            return v[0]
        if d is not None and d["kind"] == "per_seat":  # each seat's own: "S0: a, b; S1: -"
            return "; ".join(["S%d: %s" % (i, _words(d["of"], v[i])) for i in range(len(v))])
        return ", ".join([_words(d["of"], x) for x in v]) or "-"
    if v is None or v is True or v is False:
        return "nobody" if v is None else "yes" if v else "no"
    return "seat %d" % v if d and d["kind"] == "seat" else str(v)


def _nth(seq, skip, i):
    """Row i of a pick screen: the "(default)" row first when `skip` (1), then seq's values; past
    them, "(nothing)" (an empty list's one row)."""
    i -= skip
    return _OMIT if i < 0 else seq[i] if i < len(seq) else _NONE


def _deck():
    # Imported when a card is shown, not with the menu: a game without Decktet cards never
    # builds its table
    from shared_rules import decktet

    return decktet


def _card(d, v):
    return d["kind"] == "card" and d.get("deck") == "decktet" and v in _deck().NAMES


class Menu:
    def __init__(self, legal, card_names):
        """legal(state, seat): the action schemas offered now; card_names(state): the cards
        an action may name. A game's own, or the table's (its game's, and new_game)."""
        self.legal = legal
        self.card_names = card_names
        self.state = None

    def start(self, state, seat=None, schemas=None):
        """schemas: legal(state, seat), when the caller has them already."""
        self.state = state
        self.seat = seat
        self.schemas = self.legal(state, seat) if schemas is None else schemas
        self.types = [x["type"] for x in self.schemas]
        self.seats = engine.seats(state)
        self.cards = self.card_names(state)
        self.picks = []
        self.auto = 0  # how many of the last picks were defaults filled in (_skip_defaults)
        self.note = ""
        self._rebuild()
        self._move(self._first())
        return self.screen()

    def resume(self, picks, auto=0):
        """Back to an entry begun earlier on this state (the choices made, in order: picks,
        or kept()'s, with its auto)."""
        self.picks = list(picks)
        self.auto = auto
        self._rebuild()
        self._move(self._first())
        return self.screen()

    def kept(self):
        """(picks, auto): the choices made, for resume() (a pad's parked entry, or one sent and refused)."""
        return list(self.picks), self.auto

    def rest(self):
        """Let go of the entry and what it was built from (the board's RAM); the next
        key comes with another state, so it starts the menu afresh and is swallowed."""
        self.state = self.schemas = self.types = self.cards = self.s = None
        self.picks = self.vals = self.stack = None

    def _rebuild(self):
        self.stage = _TYPE
        self.vals = []  # a value per parameter done (_OMIT: left to its default)
        self.stack = []  # (domain, items) of the containers being filled, innermost last
        for p in self.picks:
            self._apply(p)

    def _apply(self, p):
        st = self.stack
        if self.stage == _TYPE:
            self.s = find(self.schemas, p)
            self._next()
        elif p is _OMIT:
            self.stack = []
            self.vals.append(p)
            self._next()
        elif p is _END:
            self._emit(st.pop()[1])
        elif self._toggling():
            i = _index(st[-1][1], p)
            if i < 0:
                st[-1][1].append(p)
            else:
                st[-1][1].pop(i)
        else:
            self._emit(p)

    def _emit(self, v):
        """A value is complete: it fills the innermost container, or the parameter."""
        st = self.stack
        if not st:
            self.vals.append(v)
            return self._next()
        d, items = st[-1]
        if not (d.get("distinct") and _index(items, v) >= 0):
            items.append(v)
        if len(items) >= (self.seats if d["kind"] == "per_seat" else d["max"]):
            self._emit(st.pop()[1])
        else:
            self._open()

    def _next(self):
        self.stage = _CONFIRM if len(self.vals) == len(self.s["params"]) else _PARAM
        if self.stage == _PARAM:
            self._open()

    def _open(self):
        """Open containers down to the scalar domain picked from next."""
        d = self._leaf()
        while d["kind"] in ("list", "per_seat"):
            self.stack.append((d, []))
            d = d["of"]

    def _param(self):
        return self.s["params"][len(self.vals)]

    def _leaf(self):
        return self.stack[-1][0]["of"] if self.stack else self._param()["domain"]

    def _toggling(self):
        st = self.stack
        return st and st[-1][0]["kind"] == "list" and st[-1][0].get("distinct")

    def _default(self):
        if self.stage != _PARAM or not self._param().get("optional"):
            return 0
        for f in self.stack:
            if f[1]:
                return 0
        return 1

    def _seq(self):
        """The values to pick from now: a list, a tuple or a range (never materialised)."""
        if self.stage == _TYPE:
            return self.types
        d = self._leaf()
        k = d["kind"]
        if d.get("among") is not None:
            return d["among"]
        if k == "int":
            return range(d["min"], d["max"] + 1)
        if k == "enum":
            return d["values"]
        if k == "bool":
            return (False, True)
        if k == "seat":
            return list(range(self.seats)) + [None] if d.get("none") else range(self.seats)
        if k == "text":  # typed on the host; a pad picks among the reasons a table gives most
            return _REASONS if d["max"] >= 14 else ()
        return self.cards

    def _count(self):
        n = len(self._body()) if self.stage == _CONFIRM else len(self._seq()) + self._default()
        return n if n > 0 else 1

    def _item(self, i):
        return _nth(self._seq(), self._default(), i)

    def _find(self, v):
        for i in range(self._count()):
            if _index([self._item(i)], v) == 0:
                return i
        return 0

    def _group(self, i):
        """Long presses jump between groups: a card's rank, an int's tens, else pages."""
        v = self._item(i)
        if self.stage == _PARAM and not isinstance(v, list):
            d = self._leaf()
            if _card(d, v):
                return _deck().rank(v)
            if d["kind"] == "card":  # a deck that groups its cards (Yes, Your Grace's: by type)
                group = getattr(self.cards, "group", None)
                if group is not None:
                    return group(v)
            if d["kind"] == "int":
                return v // 10
        return i // _ROWS

    def _move(self, cur):
        n = self._count()
        if self.stage == _CONFIRM:  # a text, not choices: the cursor is its top line
            self.cur = self.top = max(0, min(cur, n - _BODY))
            return
        self.cur = cur % n
        if cur == 0 or self.cur < self.top:
            self.top = self.cur
        elif self.cur >= self.top + _ROWS:
            self.top = self.cur - _ROWS + 1

    def _jump(self, step):
        n = self._count()
        i = self.cur
        for _ in range(n):
            i = (i + step) % n
            if self._group(i) != self._group(self.cur):
                break
        while step < 0 and i > 0 and self._group(i - 1) == self._group(i):
            i -= 1  # back: to the first item of the group reached
        self._move(i)

    def key(self, state, k, confirmed_screen=True):
        """(screen, action or None) after key k. confirmed_screen=False: no screen (None)
        with an action (the board's table draws the next one: this one costs time before
        the entry's frame)."""
        if state is not self.state:
            return self.start(state, self.seat), None
        self.note = ""
        act = None
        st = self.stack
        if k == "up" or k == "down":
            self._move(self.cur + (1 if k == "down" else -1))
        elif k == "long_up" or k == "long_down":
            if self.stage == _CONFIRM:
                self._move(self.cur + (_BODY if k == "long_down" else -_BODY))
            else:
                self._jump(1 if k == "long_down" else -1)
        elif k == "back":
            if self.picks:
                p = self.picks.pop()
                while self.auto > 1:  # back from a confirm that skipped defaults: to the first it skipped
                    p = self.picks.pop()
                    self.auto -= 1
                self.auto = 0
                self._rebuild()
                self._move(0 if isinstance(p, list) else self._find(p))
        elif self.stage == _CONFIRM:
            if k == "select" or k == "long_select":
                act = self._action()
                self.note = "sent"
        elif k == "long_select" and st and st[-1][0]["kind"] == "list":
            if len(st[-1][1]) >= st[-1][0]["min"]:
                self._pick(_END)
                self._skip_defaults()
            else:  # the hold finishes a list: say how far this one is from its least
                self.note = "pick %d more" % (st[-1][0]["min"] - len(st[-1][1]))
        elif k == "select" or k == "long_select":
            v = self._item(self.cur)
            if v is _NONE:
                self.note = "nothing to pick"
            elif v is not _OMIT and self._toggling():
                if _index(st[-1][1], v) < 0 and len(st[-1][1]) >= st[-1][0]["max"]:
                    self.note = "at most %d" % st[-1][0]["max"]
                else:
                    self._pick(v)
                    self._move(self._find(v))  # the cursor stays on a toggled item
            else:
                self._pick(v)
                self._skip_defaults()
        return (self.screen() if act is None or confirmed_screen else None), act

    def _skip_defaults(self):
        """When every parameter left is optional, none begun, and none likelier at another value
        than its default (a domain's "start"): each at its default, straight to the confirm (its
        "back: change" goes to the first of them, where a table sets one)."""
        if self.stage != _PARAM or not self._default():
            return
        ps = self.s["params"]
        for i in range(len(self.vals), len(ps)):
            if not ps[i].get("optional") or "start" in ps[i]["domain"]:
                return  # one to set, or one whose likeliest value is not its default: asked
        while self.stage == _PARAM:
            self._pick(_OMIT)
            self.auto += 1

    def _pick(self, p):
        self.picks.append(p)
        self._apply(p)
        self._move(self._first())

    def _first(self):
        """Where a new screen's cursor starts: on the likeliest value. The domain's "start"
        where the game's legal() sets one; else a parameter's default where it has one; 0 for an
        amount whose range holds it (a correction is small either way: up for -1, down for
        +1); on a seat's pad, that seat; the next card of a list (one not toggled) on the card
        picked last (a hand's cards come in runs: a Civil War's cards are one type per Holding,
        a side's are sorted as they are read); else the first item."""
        if self.stage != _PARAM:
            return 0
        d = self._leaf()
        if "start" in d:  # the likeliest value, as the game's rules imply it now (shared_rules/schema.py)
            return self._find(d["start"])
        if self._default():
            return 0
        if d["kind"] == "card" and self.stack and not self._toggling():
            for i in range(len(self.picks) - 1, 0, -1):  # picks[0] is the action's type
                if isinstance(self.picks[i], str):
                    return self._find(self.picks[i])
        if d.get("among") is None:
            if d["kind"] == "int" and d["min"] < 0 <= d["max"]:
                return -d["min"]
            if d["kind"] == "seat" and self.seat is not None and self.seat < self.seats:
                return self.seat
        return 0

    def confirming(self):
        """The action this menu's confirm screen would send (its select), or None when it is not
        on one: firmware/ahead.py computes that entry while the press is awaited."""
        return self._action() if self.stage == _CONFIRM else None

    def _action(self):
        s = self.s
        act = {"type": s["type"]}
        if s["who"] == "seat" and self.seat is not None:
            act["seat"] = self.seat
        for i in range(len(self.vals)):
            if self.vals[i] is not _OMIT:
                act[s["params"][i]["name"]] = self.vals[i]
        return canon.copy(act)

    def screen(self):
        title = "table" if self.seat is None else "S%d" % self.seat
        who = "t" if self.seat is None else "s"
        if self.stage == _TYPE:
            return self._lines(title + " action?", None, keymap.foot("type", who, 2))
        title += " " + self.s["type"]
        if self.stage == _CONFIRM:
            out = [(title + "?")[:_W]] + self._body()[self.top:self.top + _BODY]
            foot = keymap.foot("send", who, 2)
            if self.note:
                foot[0] = self.note
            return out + foot
        name = self._param()["name"]
        kind = "pick"
        if self.stack:
            d, items = self.stack[-1]
            if d["kind"] == "per_seat":
                name += " seat %d" % len(items)
            elif self._toggling():
                name += " %d (%d-%d)" % (len(items), d["min"], d["max"])
            else:
                name += " %d/%d" % (len(items), d["max"])
            if d["kind"] == "list" and len(items) >= d["min"]:
                kind = "list"  # the hold finishes it (before its least, the hold says how far)
        v = self._item(self.cur)
        if _card(self._leaf(), v):  # the rank and suits of the card under the cursor, then the keys
            deck = _deck()
            foot = [" ".join([deck.rank_name(deck.rank(v))] + [s[:2] for s in deck.suits(v)])]
            return self._lines(title, name, foot + keymap.foot("card", who, 1))
        return self._lines(title, name, keymap.foot(kind, who, 2))

    def _lines(self, title, prompt, foot):
        out = [title[:_W]] if prompt is None else [title[:_W], prompt[:_W]]
        marked = self.stack[-1][1] if self._toggling() else ()
        d = None if self.stage == _TYPE else self._leaf()
        seq, skip = self._seq(), self._default()  # found once for the screen's rows (_item's)
        omit = self._param().get("omit") if skip else None  # the row of a default left as it is
        for i in range(self.top, min(self._count(), self.top + _ROWS + (1 if prompt is None else 0))):
            v = _nth(seq, skip, i)
            mark = "*" if marked and _index(marked, v) >= 0 else " "
            out.append((">" if i == self.cur else " ") + mark + _words(d, v, omit if v is _OMIT else None)[:_W - 2])
        if self.note:  # what the key did not do, in place of the footer's first line
            foot = [self.note] + foot[1:]
        return out + [x[:_W] for x in foot]

    def _body(self):
        """The confirm screen's text: each parameter in words, wrapped at 16 characters."""
        out = []  # parameters the menu left at their defaults: the footer's back sets one
        ps = self.s["params"]
        for i in range(len(ps)):
            v = self.vals[i]
            if v is _OMIT and ps[i]["default"] is not None:
                v = ps[i]["default"]
            omit = ps[i].get("omit") if v is _OMIT else None
            text = "%s: %s" % (ps[i]["name"], omit or _words(ps[i]["domain"], v))
            while len(text) > _W:
                cut = text.rfind(" ", 0, _W + 1)
                cut = cut if cut > 0 else _W
                out.append(text[:cut])
                text = "  " + text[cut:].lstrip()
            out.append(text)
        return out
