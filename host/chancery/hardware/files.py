"""The data files in hardware/: board pin maps (boards/NAME.json) and LED layouts (layouts/NAME.json).

One place that lists and reads them for the host: deploy, the drawings, the power
command and the mirror. The host runs from the checkout (an editable install), so
the files are read from the repository's hardware/ folder.
"""

import json
import os

from chancery import ROOT

KINDS = {"boards": "board", "layouts": "layout"}  # folder: what one file is called in a message


class UnknownName(ValueError):
    """A board or layout name with no file behind it; the message lists those that exist."""


def names(kind, root=ROOT):
    """The names in hardware/KIND/ (kind "boards" or "layouts"), sorted."""
    folder = os.path.join(root, "hardware", kind)
    return sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json"))


def load(kind, name, root=ROOT):
    """hardware/KIND/NAME.json as a dict; UnknownName says which names there are."""
    known = names(kind, root)
    if name not in known:
        raise UnknownName("unknown %s %r; the %s are: %s" % (KINDS[kind], name, kind, ", ".join(known)))
    with open(os.path.join(root, "hardware", kind, name + ".json"), encoding="utf-8") as f:
        return json.load(f)
