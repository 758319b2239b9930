"""Typed commands to actions and back, driven by the game's action schemas.

A command is the action type (or an alias, or a unique prefix) followed by
its parameters, positionally in schema order or as `name=value` / `name value`
(a bool parameter's bare name sets it): `solve 2 Castle Mountain`,
`part 1 Ace of Moons aside 0`, `assign diplomatic=2 army=- navy=0`,
`pass abdicate`, `roll 3 4 1 1`. Values are read by their domain (see
shared_rules/schema.py), so a new parameter needs no new parsing code. The
rules, not this module, decide what is legal: parsing only turns words into
the shapes the schemas declare.
"""

import re

from chancery.words import cards
from shared_rules import schema as schemas
from shared_rules import texts

# Extra words for action types (the type names themselves always work).
ALIASES = {"part": "solve_part"}
# When a parameter is typed, another one follows from it: faces typed at the
# keyboard were read from physical dice, so the roll is not the board's own.
IMPLIED = {("roll", "values"): ("source", "manual")}
NONE_WORDS = ("-", "none", "nobody", "null", "nul")
TRUE_WORDS = ("true", "yes", "y", "on")
FALSE_WORDS = ("false", "no", "n", "off")


class ParseError(Exception):
    pass


class _Mismatch(Exception):
    pass


def word_for(type_):
    for alias, t in ALIASES.items():
        if t == type_:
            return alias
    return type_


def resolve_type(word, all_schemas):
    """The action type a command word stands for, or None if it is not one."""
    word = word.lower()
    types = [s["type"] for s in all_schemas]
    words = dict([(t, t) for t in types])
    for alias, t in ALIASES.items():
        if t in types:
            words[alias] = t
    if word in words:
        return words[word]
    found = sorted(set([t for w, t in words.items() if w.startswith(word)]))
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise ParseError("%r could be %s" % (word, ", ".join([word_for(t) for t in found])))
    return None


def tokenize(text):
    return re.findall(r"[^\s,=/]+|,|=|/", text)


# --- reading values by domain ---------------------------------------------

def _int(tok):
    if re.fullmatch(r"[+-]?\d+", tok):
        return int(tok)
    raise _Mismatch(tok)


def _one(domain, toks, ctx):
    """(value, tokens used) for one value of `domain` at the start of toks."""
    kind = domain["kind"]
    if not toks:
        raise _Mismatch("")
    tok = toks[0]
    low = tok.lower()
    if kind == "int":
        return _int(tok), 1
    if kind == "seat":
        if low in NONE_WORDS:
            return None, 1
        if low == "seat" and len(toks) > 1:
            return _int(toks[1]), 2
        return _int(tok), 1
    if kind == "bool":
        if low in TRUE_WORDS:
            return True, 1
        if low in FALSE_WORDS:
            return False, 1
        raise _Mismatch(tok)
    if kind == "enum":
        values = domain["values"]
        exact = [v for v in values if str(v).lower() == low]
        found = exact or [v for v in values if str(v).lower().startswith(low)]
        if not found:  # another form of the word: "moderator" for moderate, "gathering" for gather
            found = [v for v in values if len(str(v)) > 3 and low.startswith(str(v).lower()[:-1])
                     and len(low) - len(str(v)) <= 3]
        if len(found) == 1:
            return found[0], 1
        raise _Mismatch(tok)
    if kind == "card":
        end = toks.index(",") if "," in toks else len(toks)
        if end == 0:
            raise _Mismatch(tok)
        try:
            return cards.take(toks[:end], ctx["cards"])
        except cards.NotACard as e:
            ctx["why"] = str(e)
            raise _Mismatch(tok)
    if kind in ("list", "per_seat"):
        return _many(domain, toks, ctx)
    if kind == "text":  # a reason, a question: the rest of its words, quotes or not
        words = " ".join([t for t in toks if t != "="]).replace(" , ", ", ").strip("\"'")
        if words:
            return words, len(toks)
    raise _Mismatch(tok)


def _many(domain, toks, ctx):
    """A list, or one value per seat. `-` (or none) is an empty list; a list of lists per seat has
    its seats apart by `/` (`Soldier 5, Spy 2 / - / Soldier 1`)."""
    most = ctx["seats"] if domain["kind"] == "per_seat" else domain["max"]
    item = domain["of"]
    if domain["kind"] == "list" and item["kind"] != "seat" and toks and toks[0].lower() in NONE_WORDS:
        return [], 1
    if item["kind"] == "list":  # per seat, each a list: the seats apart by "/"
        out, used = [], 0
        while used < len(toks) and len(out) < most:
            end = toks.index("/", used) if "/" in toks[used:] else len(toks)
            value, n = _one(item, toks[used:end], ctx)
            out.append(value)
            used += n
            if used < end:
                break  # words after this seat's list that are not of it
            used = end + 1 if end < len(toks) else end
        return out, used
    out, used = [], 0
    while used < len(toks) and len(out) < most:
        if toks[used] == ",":
            used += 1
            continue
        if item["kind"] == "int" and re.fullmatch(r"\d+(-\d+)+", toks[used]):  # "3-4": a pair of dice
            out.extend([int(x) for x in toks[used].split("-")])
            used += 1
            continue
        try:
            value, n = _one(item, toks[used:], ctx)
        except _Mismatch:
            break
        out.append(value)
        used += n
    if not out:
        raise _Mismatch(toks[0] if toks else "")
    return out, used


# --- a whole command -------------------------------------------------------

def _params(schema):
    params = list(schema["params"])
    if schema["who"] == "seat":
        params.append({"name": "seat", "domain": {"kind": "seat"}, "optional": True, "default": None,
                       "keyword_only": True})
    return params


def _segments(toks, params):
    """Positional tokens, and {param name: tokens} for the ones named in the command."""
    names = dict([(p["name"].lower(), p) for p in params])
    positional, keyed = [], []
    current = positional
    i = 0
    while i < len(toks):
        low = toks[i].lower()
        if low not in names and i + 1 < len(toks) and toks[i + 1] == "=":
            found = [n for n in names if n.startswith(low)]  # "dip=1"
            if len(found) == 1:
                low = found[0]
        if low in names:
            current = []
            keyed.append((names[low], current))
            if i + 1 < len(toks) and toks[i + 1] == "=":
                i += 1
        elif toks[i] != "=":
            current.append(toks[i])
        i += 1
    return positional, keyed


def _fail(schema, p, tok, ctx, seats):
    why = ctx.pop("why", None)
    got = "nothing" if tok == "" else repr(tok)
    text = "%s: %s should be %s, got %s" % (word_for(schema["type"]), p["name"],
                                           texts.describe(p["domain"], seats), got)
    if why:
        text += " (%s)" % why
    return ParseError(text)


def parse(line, all_schemas, seats, card_names):
    """The action dict a typed command stands for; raises ParseError."""
    toks = tokenize(line)
    if not toks:
        raise ParseError("nothing to do")
    type_ = resolve_type(toks[0], all_schemas)
    if type_ is None:
        raise ParseError("unknown command %r" % toks[0])
    schema = schemas.find(all_schemas, type_)
    params = _params(schema)
    ctx = {"cards": card_names, "seats": seats}
    positional, keyed = _segments(toks[1:], params)
    act = {"type": type_}
    for p, seg in keyed:
        if p["domain"]["kind"] == "bool" and (not seg or seg[0].lower() not in TRUE_WORDS + FALSE_WORDS):
            act[p["name"]] = True
            positional.extend(seg)
            continue
        try:
            value, n = _one(p["domain"], seg, ctx)
        except _Mismatch as e:
            raise _fail(schema, p, str(e), ctx, seats)
        act[p["name"]] = value
        positional.extend(seg[n:])
    at = 0
    for p in params:
        if p["name"] in act or p.get("keyword_only") or at >= len(positional):
            continue
        try:
            value, n = _one(p["domain"], positional[at:], ctx)
        except _Mismatch as e:
            if p.get("optional"):
                continue
            raise _fail(schema, p, str(e), ctx, seats)
        act[p["name"]] = value
        at += n
    rest = [t for t in positional[at:] if t != ","]
    if rest:
        why = ctx.pop("why", None)
        raise ParseError("did not understand %r%s" % (" ".join(rest), " (%s)" % why if why else ""))
    for (t, name), (other, value) in IMPLIED.items():
        if t == type_ and name in act and other not in act:
            act[other] = value
    return act


# --- describing ------------------------------------------------------------

def _placeholder(domain, seats):
    kind = domain["kind"]
    if kind == "int":
        among = domain.get("among")
        if among is not None and 0 < len(among) <= 6:
            return "|".join([str(x) for x in among])
        return "%d-%d" % (domain["min"], schemas.int_max(domain, seats))  # a range that follows the seats
    if kind == "seat":
        return "SEAT|-" if domain.get("none") else "SEAT"
    if kind == "enum":
        return "|".join([texts.word(v) for v in domain["values"]])
    if kind == "card":
        return "CARD"
    if kind == "bool":
        return "yes|no"
    if kind == "per_seat":
        return (" / " if domain["of"]["kind"] == "list" else ", ").join([_placeholder(domain["of"], seats)] * seats)
    if kind == "list":
        item = _placeholder(domain["of"], seats)
        if domain["min"] == domain["max"]:
            return "%s x%d" % (item, domain["min"])
        return item + "..."
    return kind.upper()


def _keyword(schema, p, index):
    """Whether a parameter is typed with its name: past the second, any optional one (which
    value it would take is not clear from its place), and seats."""
    if len(schema["params"]) == 1:
        return False
    return index >= 2 or p.get("optional") or p["domain"]["kind"] == "seat"


def _typed_by_name(full, p, shown):
    """Whether parameter `p` of a narrowed schema must be typed with its name: the parser reads
    positional values against the game's whole schema (`full`), so a value goes to the first
    parameter there that takes it. Positional only where the whole schema would read it so:
    `p` not a keyword there, and every parameter before it there shown too (The Council's bid
    narrowed to one suit is `bid Knots=0-1`, not `bid 0-1`, which is the first suit's)."""
    names = [q["name"] for q in full["params"]]
    if p["name"] not in names:
        return True
    i = names.index(p["name"])
    if _keyword(full, full["params"][i], i):
        return True
    return [n for n in names[:i] if n not in shown] != []


def usage(schema, seats, full=None):
    """'solve 0|1|3 CARD... [excuse]' for a (possibly narrowed) schema; `full`: the game's whole
    schema of that type, which the parser reads a command against (default: `schema` itself)."""
    out = [word_for(schema["type"])]
    shown = [p["name"] for p in schema["params"]]
    for i, p in enumerate(schema["params"]):
        d = p["domain"]
        if d["kind"] == "bool" or (d["kind"] == "enum" and d["values"] in ([True], [False])):
            if d.get("values") == [False]:
                continue  # not available now
            text = p["name"]
        elif _keyword(schema, p, i) if full is None else _typed_by_name(full, p, shown):
            text = "%s=%s" % (p["name"], _placeholder(d, seats))
        else:
            text = _placeholder(d, seats)
        out.append("[%s]" % text if p.get("optional") else text)
    return " ".join(out)


def value_text(domain, value):
    kind = domain["kind"]
    if kind == "list" and not value:
        return "-"
    if kind in ("list", "per_seat"):
        sep = ", " if domain["of"]["kind"] == "card" else " / " if domain["of"]["kind"] == "list" else " "
        return sep.join([value_text(domain["of"], v) for v in value])
    return texts.word(value)


def command_text(act, all_schemas):
    """The command that would produce `act` (for history and messages)."""
    schema = schemas.find(all_schemas, act.get("type"))
    if schema is None and str(act.get("type"))[:7] == "ballot_":  # any game's table may hold a sealed ballot
        from shared_rules import ballot

        schema = schemas.find(ballot.SCHEMAS, act.get("type"))
    if schema is None:
        return str(act)
    out = [word_for(schema["type"])]
    for i, p in enumerate(schema["params"]):
        if p["name"] not in act:
            continue
        value = act[p["name"]]
        if p.get("optional") and value == p.get("default"):
            continue
        if p["domain"]["kind"] == "bool":
            if value:
                out.append(p["name"])
            continue
        text = value_text(p["domain"], value)
        out.append("%s=%s" % (p["name"], text) if _keyword(schema, p, i) else text)
    if act.get("seat") is not None and "seat" not in [p["name"] for p in schema["params"]]:
        out.append("seat=%d" % act["seat"])  # the seat acting (an action with a seat of its own said it above)
    return " ".join(out)
