"""docs/performance.md: current figures only, one section per benchmark script, each written by its script.

    perfdoc.write_section("## The heap on the chip", lines)   # that section replaced, the others kept
"""

import pathlib

DOC = pathlib.Path(__file__).resolve().parent.parent.parent / "docs" / "performance.md"
TOP = "# Performance\n\nCurrent figures only: each section is written by the script it names, on the emulated chip.\n"


def write_section(head, lines, path=DOC):
    """Put `lines` (without the heading) under the heading `head` ("## ..."), replacing what was there."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        text = TOP
    body = "\n".join([head, ""] + list(lines)).rstrip("\n") + "\n"
    if head + "\n" in text:
        before, rest = text.split(head + "\n", 1)
        at = rest.find("\n## ")
        after = rest[at + 1:] if at >= 0 else ""
        text = before + body + ("\n" + after if after else "")
    else:
        text = text.rstrip("\n") + "\n\n" + body
    path.write_text(text)
