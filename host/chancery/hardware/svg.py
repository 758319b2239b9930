"""A tiny SVG writer: each helper returns one element as a string.

Output is byte-stable: attributes keep the order they are given in, numbers are
ints or fixed-precision decimals (never repr of a float, which differs in its
last digits between computations), and nothing depends on time or platform.
"""

_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"))
DECIMALS = 3


def esc(text):
    """Text safe inside an element or a double-quoted attribute."""
    text = str(text)
    for raw, escaped in _ESCAPES:
        text = text.replace(raw, escaped)
    return text


def num(value):
    """An int as itself; anything else with DECIMALS decimals (and no "-0.000")."""
    if isinstance(value, bool):
        raise TypeError("a number, not %r" % value)
    if isinstance(value, int):
        return str(value)
    out = "%.*f" % (DECIMALS, value)
    return out[1:] if out.strip("-0.") == "" and out.startswith("-") else out


def mm(um):
    """Whole micrometres written as millimetres with exactly three decimals.

    Integer arithmetic only, so 16667 um is "16.667" whatever the platform and
    a position n * pitch is exact, which the overlay's scale depends on."""
    if isinstance(um, bool) or not isinstance(um, int):
        raise TypeError("whole micrometres, not %r" % (um,))
    sign = "-" if um < 0 else ""
    um = abs(um)
    return "%s%d.%03d" % (sign, um // 1000, um % 1000)


def _name(key):
    # Python keywords can't be argument names (class_), nor can names with a dash
    # (font_size -> font-size, data_led -> data-led).
    return key.rstrip("_").replace("_", "-")


def attrs(**kw):
    """' name="value"' for each argument whose value is not None, in the order given."""
    out = []
    for key, value in kw.items():
        if value is None:
            continue
        text = esc(value) if isinstance(value, str) else num(value)
        out.append(' %s="%s"' % (_name(key), text))
    return "".join(out)


def element(tag, content=None, **kw):
    if content is None:
        return "<%s%s/>" % (tag, attrs(**kw))
    return "<%s%s>%s</%s>" % (tag, attrs(**kw), content, tag)


def rect(x, y, width, height, **kw):
    return element("rect", x=x, y=y, width=width, height=height, **kw)


def line(x1, y1, x2, y2, **kw):
    return element("line", x1=x1, y1=y1, x2=x2, y2=y2, **kw)


def circle(cx, cy, r, **kw):
    return element("circle", cx=cx, cy=cy, r=r, **kw)


def polygon(points, **kw):
    """A closed shape through [(x, y), ...]."""
    return element("polygon", points=" ".join("%s,%s" % (num(x), num(y)) for x, y in points), **kw)


def text(x, y, content, **kw):
    return element("text", esc(content), x=x, y=y, **kw)


def group(children, **kw):
    """A <g> around already-made elements, one per line."""
    return "<g%s>\n%s\n</g>" % (attrs(**kw), "\n".join(children))


def document(width, height, children, view_box=None, title=None, **kw):
    """The whole file: XML declaration, <svg> with its size, an optional <title>, the children."""
    head = '<svg xmlns="http://www.w3.org/2000/svg"%s>' % attrs(width=width, height=height, viewBox=view_box, **kw)
    body = ([element("title", esc(title))] if title else []) + list(children)
    return '<?xml version="1.0" encoding="UTF-8"?>\n%s\n%s\n</svg>\n' % (head, "\n".join(body))
