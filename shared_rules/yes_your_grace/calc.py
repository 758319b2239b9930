"""The calculator: paying costs, discarding, doubling, Roles, totals (L15-L20, L25).

Pure functions of the entered cards; no state. A card is a tuple (type, value,
cost), type 0 Soldier, 1 Spy, 2 Diplomat, 3 Coin (actions.TYPES). Coin cards
only pay costs and add nothing to a side's total (G3).

Paying (L16-L17): the side's Coins go to its costly cards highest cost first;
the first card that cannot be paid in full is discarded with every card of a
lower (or equal, still unpaid) non-zero cost; zero-cost cards are never
discarded for lack of Coins. Which card of the tied group at the boundary is
paid is the tie-breaker's choice (Y5): `first` names card indexes paid first
among equal costs, in that order. When the choice is still open and changes a
total, the answer is ambiguous (G5): the table must give the order.

Bounded work on every legal input (issue 15): up to C(12, 6) = 924 choices a
side and five seats, the product of the choices is never listed. Whether any
choice changes a total is decided exactly from what a choice can change (the
types it leaves present, its sums); an ambiguous answer names the sides or
seats whose choice matters and lists a bounded sample of the outcomes (at
most LISTED, counted exactly up to _COUNT).
"""

from shared_rules.compat import const
from shared_rules.yes_your_grace.actions import TYPES

_COIN = const(3)
LISTED = const(12)  # outcomes an ambiguous refusal lists
_REPS = const(12)  # distinct choices per side or seat the listing combines, at most
_STEPS = const(4096)  # combinations the listing tries, at most
_COUNT = const(16)  # distinct outcomes counted exactly, at most (its list: 17 words)


def parse(name):
    """(type, value, cost) of a card name from actions.card_name."""
    parts = name.split(" ")
    return TYPES.index(parts[0]), int(parts[1]), int(parts[2][1:]) if len(parts) > 2 else 0


def _party(cards, coins, first, roles=()):
    """One side of an Event (or one seat of a Civil War) before its tie-breaker speaks: a list
    [cards, paid, rest, sizes, need, base, shifts, entry]: the cards paid whatever it says;
    the still unordered cards of the boundary group, alike cards (type, value) together in
    (type, value) order, each run in the order entered, and the runs' sizes; how many of them
    are paid; the summary (_summary) of what stays whatever it says (zero-cost and paid
    cards, Roles); per run its place in a packed choice; the cards as entered, packed.
    Small ints, in bytes where they can be: a board's heap is small."""
    costly = [i for i in range(len(cards)) if cards[i][2] > 0 and cards[i][0] != _COIN]
    costs = sorted(set([cards[i][2] for i in costly]), reverse=True)
    paid, rest, need = [], [], 0
    left = coins
    for c in costs:
        group = [i for i in costly if cards[i][2] == c]
        if left >= c * len(group):
            paid.extend(group)
            left -= c * len(group)
            continue
        k = left // c  # paid from this group; the next one fails, the rest below are discarded
        named = [i for i in first if i in group]
        if k <= len(named):
            paid.extend(named[:k])
        else:
            paid.extend(named)
            rest = [i for i in group if i not in named]
            need = k - len(named)
        break
    order, sizes, counts = [], [], []
    for key in sorted(set([(cards[i][0], cards[i][1]) for i in rest])):
        run = [i for i in rest if (cards[i][0], cards[i][1]) == key]
        order.extend(run)
        sizes.append(len(run))
        counts.append(len([i for i in run if i in rest[:need]]))  # the cards as entered paid first
    base = 0
    for i in _remaining(cards, paid):
        base = (base + (cards[i][1] << (16 - 8 * cards[i][0]))) | 1 << (24 + cards[i][0])
    for r in roles:
        if r[1] < _COIN:
            base = (base + (r[2] << (16 - 8 * r[1]))) | (1 << (24 + r[1]) if r[2] > 0 else 0)
    shifts, width = [0] * len(sizes), 0  # a choice packs into one small int, the first run highest
    for g in range(len(sizes) - 1, -1, -1):
        shifts[g] = width
        width += len(bin(sizes[g])) - 2  # at most 12 bits in all: a run of n needs at most n bits
    code = 0
    for g in range(len(counts)):
        code |= counts[g] << shifts[g]
    # card indexes, sizes and places are below 16: bytes, a quarter of a list's heap
    return [cards, paid, bytes(order), bytes(sizes), need, base, bytes(shifts), code]


def _count(p, code, g):
    """How many cards of run g a packed choice pays."""
    return (code >> p[6][g]) & ((1 << (len(bin(p[3][g])) - 2)) - 1)


def _paid(p, code):
    """The sorted indexes paid by a packed choice: those paid whatever the choice, and of each
    run of alike cards the first entered, as many as the choice pays of it."""
    out, at = list(p[1]), 0
    for g in range(len(p[3])):
        out.extend(p[2][at:at + _count(p, code, g)])
        at += p[3][g]
    return sorted(out)


def _remaining(cards, paid):
    return [i for i in range(len(cards)) if cards[i][0] != _COIN and (cards[i][2] == 0 or i in paid)]


def _present(cards, kept, roles):
    """The types present on a side after paying: for the other side's doubling (L18-L19)."""
    out = [0, 0, 0]
    for i in kept:
        out[cards[i][0]] = 1
    for r in roles:
        if r[1] < _COIN and r[2] > 0:
            out[r[1]] = 1
    return out


def _doubles(t, other):
    """Soldiers double against Spies, Spies against Diplomats, Diplomats against Soldiers (L18)."""
    return other[(t + 1) % 3] == 1


def coins_of(cards, roles):
    return sum([c[1] for c in cards if c[0] == _COIN]) + sum([r[2] for r in roles if r[1] == _COIN])


def _side(cards, paid, kept, roles, other):
    """One side's working: what was paid, discarded, kept, doubled, the Roles, the total."""
    total = 0
    doubled = []
    for i in kept:
        if _doubles(cards[i][0], other):
            doubled.append(i)
            total += 2 * cards[i][1]
        else:
            total += cards[i][1]
    out_roles = []
    for r in roles:
        d = r[1] < _COIN and _doubles(r[1], other)
        if r[1] < _COIN:
            total += r[2] * (2 if d else 1)
        out_roles.append([r[0], r[2], d])
    return {"coins": coins_of(cards, roles), "spent": sum([cards[i][2] for i in paid]), "paid": paid,
            "discarded": [i for i in range(len(cards)) if cards[i][2] > 0 and cards[i][0] != _COIN and i not in paid],
            "kept": [i for i in kept if cards[i][2] == 0], "doubled": doubled, "roles": out_roles, "total": total}


# --- the tie-breakers' choices, without listing their product (Y5, G5) ---------------------
# What a choice changes is only (a) the types present on its side after paying (the other
# side's doubling, L18) and (b) its side's sums per type. A side's total against the other's
# present types is linear in its sums, so whether a choice can change any total is decided per
# mask of present types (at most 8), never by taking the product of the sides' or seats' choices.
# Card values are 1 or more (actions.Names): a type is present exactly when its sum is positive.

def _total(x, o):
    """A side's total from its summary `x`, against the other side's present types `o` (bit t:
    type t): Soldiers double against Spies, Spies against Diplomats, Diplomats against
    Soldiers (L18)."""
    return (x >> 16 & 255) * (1 + (o >> 1 & 1)) + (x >> 8 & 255) * (1 + (o >> 2 & 1)) + (x & 255) * (1 + (o & 1))


def _summary(p, counts):
    """A choice's summary and packed choice, two small ints: the present types (bits 24-26)
    and the sums of Soldiers, Spies and Diplomats (8 bits each: at most 12 x 9 and a Role's
    9); the count paid of each run at its place (_party)."""
    x, code, at = p[5], 0, 0
    for g in range(len(counts)):
        if counts[g]:
            t = p[0][p[2][at]][0]
            x = (x + ((counts[g] * p[0][p[2][at]][1]) << (16 - 8 * t))) | 1 << (24 + t)
            code |= counts[g] << p[6][g]
        at += p[3][g]
    return x, code


def _fill(sizes, counts, at, n):
    """The first choice (in the listing's order) paying n cards from runs at..: the last runs fullest."""
    for g in range(len(sizes) - 1, at - 1, -1):
        counts[g] = min(sizes[g], n)
        n -= counts[g]


def _reps(p, cap):
    """The first `cap` choices with distinct summaries, the cards as entered first, as
    ([packed choice], [summary], how many), and whether that is all of them. The choices come
    one at a time in the order the listing has always used (the first run's count slowest,
    each rising; at most C(12, 6)), in one list of counts; only small ints are kept, in lists
    allocated once (the board's heap is small and soon cut up)."""
    sizes = p[3]
    counts = [_count(p, p[7], g) for g in range(len(sizes))]
    codes, summs = [-1] * cap, [-1] * cap
    summs[0], codes[0] = _summary(p, counts)
    n = 1
    _fill(sizes, counts, 0, p[4])
    while True:
        x, code = _summary(p, counts)
        if x not in summs:
            if n == cap:
                return (codes, summs, n), False
            codes[n], summs[n] = code, x
            n += 1
        after, g = 0, len(sizes) - 1  # the next choice: the last run that can take one more
        while g >= 0 and not (after and counts[g] < sizes[g]):
            after += counts[g]
            g -= 1
        if g < 0:
            return (codes, summs, n), True
        counts[g] += 1
        _fill(sizes, counts, g + 1, after - 1)


def _masks(p):
    """Every set of types a choice can leave present (bit t: type t): the fixed ones and any
    set T of the open cards' types with a card of each, |T| <= need <= the cards of T."""
    have = [0, 0, 0]
    for i in p[2]:
        have[p[0][i][0]] += 1
    out = []
    for t in range(8):
        ts = [k for k in range(3) if t >> k & 1]
        if len(ts) <= p[4] <= sum([have[k] for k in ts]) and 0 not in [have[k] for k in ts]:
            if (t | p[5] >> 24) not in out:
                out.append(t | p[5] >> 24)
    return out


def _ors(sets):
    """Every OR of one mask from each set: the types the other sides or seats can show."""
    out = [0]
    for ms in sets:
        nxt = []
        for a in out:
            for m in ms:
                if a | m not in nxt:
                    nxt.append(a | m)
        out = nxt
    return out


def _matter(ps):
    """Per side or seat: whether its choice can change any total, for some choice of the others
    (exact): (a) its own total against some mask the others can show: the paid cards are any
    `need` of the open ones, so only if their weighted values differ (swapping a paid card for
    an unpaid one changes the sum); (b) another's total, through a type it may or may not leave
    present that doubles the other's cards."""
    n = len(ps)
    masks = [_masks(p) for p in ps]
    out = []
    for s in range(n):
        p, hit = ps[s], False
        others = [o for o in range(n) if o != s]
        for o in (_ors([masks[q] for q in others]) if p[4] else ()):
            ws = [p[0][i][1] * (1 + (o >> ((p[0][i][0] + 1) % 3) & 1)) for i in p[2]]
            hit = hit or min(ws) != max(ws)
        d = 0  # the types s may or may not leave present
        for m in masks[s]:
            d |= m ^ masks[s][0]
        for o in others:
            for x in (_ors([masks[q] for q in others if q != o]) if d else ()):
                for md in masks[o]:  # md's types double against the next type (L18)
                    hit = hit or (d & ~x & ((md << 1 | md >> 2) & 7)) != 0
        out.append(hit)
    return out


def _walk(lists):
    """Combinations of the kept choices ((codes, summaries, how many) per side or seat), the
    first side or seat slowest (the order of the full listing): the first LISTED with
    distinct totals, as (choices packed 12 bits a side, totals packed 9 bits each), how many
    distinct totals were seen, and whether every combination was tried. At most _STEPS
    combinations and _COUNT + 1 distinct totals."""
    n = len(lists)
    at, first, steps, count = [0] * n, [], 0, 0
    seen = [-1] * (_COUNT + 1)  # allocated once: a board's heap is cut up already
    while True:
        key, code = 0, 0  # a total is at most 2 x (12 x 9 + 9)
        for s in range(n):
            o = 0
            for q in range(n):
                if q != s:
                    o |= lists[q][1][at[q]] >> 24
            key = key << 9 | _total(lists[s][1][at[s]], o)
            code = code << 12 | lists[s][0][at[s]]
        if key not in seen:
            seen[count] = key
            count += 1
            if len(first) < LISTED:
                first.append((code, key))
            if count > _COUNT:
                return first, count, False
        steps += 1
        s = n - 1
        while s >= 0:
            at[s] += 1
            if at[s] < lists[s][2]:
                break
            at[s] = 0
            s -= 1
        if s < 0 or steps >= _STEPS:
            return first, count, s < 0


def _unpack(x, n, bits):
    return [(x >> (bits * (n - 1 - s))) & ((1 << bits) - 1) for s in range(n)]


def _open(p):
    """The cards whose payment the tie-breaker decides: of each run of alike cards, those paid
    by some choice and not by every one (the first entered of alike cards go first)."""
    out, at = [], 0
    for size in p[3]:
        lo = max(0, p[4] - (len(p[2]) - size))
        out.extend(p[2][at + lo:at + min(size, p[4])])
        at += size
    return sorted(out)


def _work(per, ps, codes, roles):
    """Each side's (or seat's) working for one choice per side: what was paid, discarded,
    kept, doubled against every other side's remaining types, the Roles, the total."""
    n = len(per)
    paid = [_paid(ps[s], codes[s]) for s in range(n)]
    kept = [_remaining(per[s], paid[s]) for s in range(n)]
    present = [_present(per[s], kept[s], roles[s]) for s in range(n)]
    out = []
    for s in range(n):
        others = [0, 0, 0]
        for o in range(n):
            if o != s:
                others = [max(others[t], present[o][t]) for t in range(3)]
        out.append(_side(per[s], paid[s], kept[s], roles[s], others))
    return out


def settle(per, firsts, roles):
    """(sides, what the tie-breakers' open choices do): {"listed": per listed outcome (the
    choices and the totals, packed as _walk), the first with the cards as entered; "count":
    distinct outcomes (a lower bound unless "exact"); "exact"; "open": per side or seat the
    tied cards in question (none where its choice changes nothing)}. One outcome exactly when
    no choice can change a total: then the cards as entered give it (G5)."""
    ps = [_party(per[s], coins_of(per[s], roles[s]), firsts[s], roles[s]) for s in range(len(per))]
    matter = _matter(ps)
    lists, whole = [], True
    for s in range(len(ps)):
        reps, full = _reps(ps[s], _REPS if matter[s] else 1)
        lists.append(reps)
        whole = whole and (full or not matter[s])
    listed, count, done = _walk(lists)
    lists = None  # the heap it held goes to what follows
    if True in matter and count < 2:
        if whole and done:  # every combination walked gave one total: no choice changes it after all
            matter = [False] * len(ps)  # (_matter's doubling test (b) can only say it might)
        else:  # the walk's bound came first: still more than one
            count, done = 2, False
    return ps, {"listed": listed, "count": count, "exact": whole and done,
                "open": [_open(ps[s]) if matter[s] else [] for s in range(len(ps))]}


def outcomes(per, firsts, roles, paid=True):
    """The answer for the sides of an Event (support, oppose) or the seats of a Civil War (L25:
    each seat's cards pay their own costs, ties broken by that seat, and count as one side
    against every other card still remaining): settle's count, exact and open; "outcomes",
    per listed outcome the totals then (if `paid`) the cards paid, per side or seat; "result",
    when count is 1, the working per side or seat (else None: only one working is ever built,
    a board's heap is small). per: the card lists; firsts: the tie-break lists; roles: per
    side a list of [role name, type, amount] (the Steward's amount is Coins, type 3), empty
    in a Civil War."""
    ps, out = settle(per, firsts, roles)
    n, listed = len(ps), out.pop("listed")
    outs = []
    for c, k in listed:
        outs.append(_unpack(k, n, 9))
        if paid:
            outs[-1] += [_paid(ps[s], _unpack(c, n, 12)[s]) for s in range(n)]
    out["outcomes"] = outs
    out["result"] = _work(per, ps, _unpack(listed[0][0], n, 12), roles) if out["count"] == 1 else None
    return out
