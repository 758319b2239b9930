"""`chancery rules GAME`: a game's settings and action schemas, with their documentation."""

import sys

from chancery.words import commands, describe
from shared_rules import canon, games, texts


def default_seats(description):
    for s in description["settings"]:
        if s["name"] == "players":
            return s["default"]
    return 2


def rulings(description):
    """The lines of the rulings a table decides: settings marked "ruling" (the seed is silent
    and tables read it two ways), each with its default (the reading the seed's text favours,
    argued with the seed's lines in its help above) and the other readings."""
    marked = [s for s in description["settings"] if s.get("ruling")]
    if not marked:
        return []
    lines = ["", "Rulings a table decides (the seed is silent and tables read it differently: each is a setting "
                 "above, with the seed's lines in its help, and defaults to the reading the text favours):"]
    for s in marked:
        others = [canon.encode(v) for v in s["domain"].get("values", [True, False]) if v != s["default"]]
        line = "  %s (%s): %s by default; or %s" % (s["name"], s["ruling"], canon.encode(s["default"]),
                                                   ", ".join(others))
        if "absent" in s and s["absent"] != s["default"]:
            line += " (a log recorded before this setting plays as %s)" % canon.encode(s["absent"])
        lines.append(line)
    return lines


def text(description):
    seats = default_seats(description)
    lines = [description["game"], description["doc"], "", "Settings (a range that follows the seat count is shown "
                                                          "for the default %d seats):" % seats]
    for s in description["settings"]:
        lines.append("  %s (default %s): %s" % (s["name"], canon.encode(s["default"]),
                                                 texts.describe(s["domain"], seats)))
        if s["doc"]:
            lines.append("      " + s["doc"])
    lines += rulings(description)
    lines += ["", "Actions (typed as in `chancery play`; %d seats shown):" % seats]
    for a in description["actions"]:
        who = "the seat whose chance it is" if a["who"] == "seat" else "the table"
        lines.append("  %s  (by %s)" % (a["type"], who))
        if a["doc"]:
            lines.append("      " + a["doc"])
        lines.append("      usage: " + commands.usage(a, seats))
        for p in a["params"]:
            opt = ""
            if p.get("optional"):
                opt = ", optional" + ("" if p.get("default") is None else ", default %s" % canon.encode(p["default"]))
            lines.append("      - %s%s: %s" % (p["name"], opt, texts.describe(p["domain"], seats)))
            if p["doc"]:
                lines.append("          " + p["doc"])
    return "\n".join(lines)


def run(game, as_json=False):
    game = game.lower()
    if game not in games.GAMES:
        print("error: no game %r; known games: %s" % (game, ", ".join(games.GAMES)), file=sys.stderr)
        return 2
    description = describe.describe_game(game)
    print(canon.encode(description) if as_json else text(description))
    return 0
