"""The board's words: a refusal on its own display, from firmware/refusals.txt.

The rules answer a refusal with a code and its facts (shared_rules/errors.py);
the host says it in words with shared_rules.texts and the game's texts module,
whose prose a board cannot keep in its RAM. The board's display says it in the
same words, shortened for 16 columns: a line of firmware/refusals.txt per error
code ("GAME CODE TEXT", GAME "*" for the core's codes; CODE.WHY for a case of a
code whose facts have a "why"), found by reading the file a line at a time when
a refusal happens, its {fact} places filled from the error's facts. No prose
stays in RAM: the file's lines are read into plain strings, one at a time, and
dropped after; the file sits beside the firmware's modules (lib/firmware/ on a board; with frozen
firmware, deploy puts it there all the same and it is found on sys.path). Without the file (a board deployed before it
existed) the display shows the code, as it did.
"""

_FILE = "firmware/refusals.txt"
_W = 16  # the display's columns (128 px, 8x8 font)
_ROWS = 8  # its lines (64 px)


class Refusal:
    """A refusal longer than the display, kept for its pad to scroll: the seat whose pad it is
    (None: the table's), all its lines, the first shown, and the footer below them."""

    def __init__(self, seat, lines, foot):
        self.seat, self.lines, self.top, self.foot = seat, lines, 0, foot


def lines(c, error, seat, key=None, foot=()):
    """For firmware/controls.py (Controls.why): the display's lines for `error` (a RuleError),
    the first screen of it, the whole kept in c.refusal for `seat`'s pad to scroll
    (it goes with the state, as a refusal's screen does); `foot`: the footer's lines below
    it, what the keys do now (firmware/keymap.py). With error None, a key of a
    pad while a long refusal is kept: up or down of its pad scroll it (the lines), any
    other key lets it go (None)."""
    if error is not None:
        out = screen(c.table.game, error)
        rows = _ROWS - len(foot)
        c.refusal = Refusal(seat, out, foot) if len(out) > rows else None
        return out[:rows] + list(foot)
    kept, c.refusal = c.refusal, None
    if kept is None or kept.seat != seat or (key != "up" and key != "down"):
        return None
    out, kept.top = scroll(kept.lines, kept.top, 1 if key == "down" else -1, len(kept.foot))
    c.refusal = kept
    return out + list(kept.foot)


def screen(game, error):
    """The display's lines for a RuleError of `game`: "Not allowed:", then its sentence
    wrapped at 16 columns (more lines than the display has: scroll() shows the rest)."""
    text = _find(game, error.code, error.detail.get("why") if isinstance(error.detail, dict) else None)
    if text is None:
        return ["Not allowed:", error.code[:_W]]
    return ["Not allowed:"] + _wrap(_fill(text, error.detail))


def scroll(lines, top, step, foot=0):
    """(the display's lines, the new top) of a refusal longer than the display: the first
    line stays, the sentence moves by `step` lines (a pad's up or down); `foot` lines are
    left for the footer below."""
    body = _ROWS - 1 - foot
    top = max(0, min(top + step, len(lines) - 1 - body))
    return [lines[0]] + lines[1 + top:1 + top + body], top


def _find(game, code, why):
    """The text of the best line for the code: the game's own before the core's ("*"),
    the case's own (CODE.WHY) before the code's."""
    keys = [code + "." + why] if isinstance(why, str) else []
    keys.append(code)
    f = _open()
    if f is None:
        return None
    best, rank = None, 99
    try:
        while True:
            line = f.readline()
            if not line:
                break
            if line[0] == "#":
                continue
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) < 3 or (parts[0] != game and parts[0] != "*"):
                continue
            for k in range(len(keys)):
                if parts[1] == keys[k]:
                    r = k * 2 + (1 if parts[0] == "*" else 0)
                    if r < rank:
                        best, rank = parts[2], r
    finally:
        f.close()
    return best


def _open():
    """The file beside this package's modules (a frozen package has none: then the first
    firmware/refusals.txt on sys.path, where deploy puts it), or None."""
    import sys

    import firmware

    here = getattr(firmware, "__file__", "")
    for name in [here[:here.rfind("/") + 1] + "refusals.txt"] + [
            (p + "/" if p else "") + _FILE for p in sys.path]:
        try:
            return open(name)
        except OSError:
            pass
    return None


def _fill(text, facts):
    """{name} (or {name.0}, {name.key}: into a list or dict) replaced by the fact in words;
    {#name}: how many items it has. A fact that is not there reads "?"."""
    out = []
    at = 0
    while True:
        i = text.find("{", at)
        j = text.find("}", i + 1) if i >= 0 else -1
        if j < 0:
            out.append(text[at:])
            return "".join(out)
        out.append(text[at:i])
        path = text[i + 1:j]
        count = path[:1] == "#"
        v = facts
        for part in (path[1:] if count else path).split("."):
            try:
                v = v[int(part)] if isinstance(v, list) else v[part]
            except (KeyError, IndexError, TypeError, ValueError):
                v = "?"
                count = False
                break
        out.append(str(len(v)) if count and isinstance(v, (list, str, dict)) else _word(v))
        at = j + 1


def _word(v):
    if isinstance(v, list):
        return ", ".join([_word(x) for x in v]) or "none"
    if v is None or v is True or v is False:
        return "nobody" if v is None else "yes" if v else "no"
    return str(v)


def _wrap(text):
    """Lines of at most 16 columns, broken at spaces (a longer word is cut)."""
    out = []
    cur = ""
    for w in text.split(" "):
        while len(w) > _W:
            if cur:
                out.append(cur)
                cur = ""
            out.append(w[:_W])
            w = w[_W:]
        if not w:
            continue
        if cur and len(cur) + 1 + len(w) > _W:
            out.append(cur)
            cur = w
        else:
            cur = cur + " " + w if cur else w
    if cur:
        out.append(cur)
    return out
