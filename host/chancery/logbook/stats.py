"""`chancery log stats`: plays, wins, scores and durations, per game and per player, and each
game's own facts, from the plays of plays.py.

A play is a game whose end event is stored; a game still open, or left for a new
one, is counted apart as unfinished and adds nothing else. A player is a seat's
name, whatever seat it had in each play, or the seat where it has none
(plays.player_name): "seat 0" of one evening and "seat 0" of the next are one
player here.
"""

from chancery.logbook import plays as plays_mod


def _seat_row():
    return {"plays": 0, "wins": 0, "scores": []}


def summary(chosen, player=None):
    """{game: {"plays", "unfinished", "durations" (seconds of the plays that have one), "players":
    {player: {"plays", "wins", "scores"}}, "facts": {fact: [times, plays with it]}}}, and "all games"
    per player under the key None when more than one game is there. `player` (as plays.players
    spells it) keeps that player's rows alone."""
    out = {}
    for p in chosen:
        g = out.setdefault(p["game"], {"plays": 0, "unfinished": 0, "durations": [], "players": {}, "facts": {}})
        if not p["over"]:
            g["unfinished"] += 1
            continue
        g["plays"] += 1
        if p["duration"] is not None:
            g["durations"].append(p["duration"])
        for fact, times in sorted(p["facts"].items()):
            have = g["facts"].setdefault(fact, [0, 0])
            have[0] += times
            have[1] += 1
        for s in range(p["seats"] or 0):
            who = plays_mod.player_name(s, p["names"])
            if player is not None and who.lower() != player.lower():
                continue
            row = g["players"].setdefault(who, _seat_row())
            row["plays"] += 1
            row["wins"] += s in p["winners"]
            if p["scores"] is not None and s < len(p["scores"]):
                row["scores"].append(p["scores"][s])
    if len([g for g in out.values() if g["plays"]]) > 1:
        every = {}
        for g in out.values():
            for who, row in g["players"].items():
                total = every.setdefault(who, _seat_row())
                total["plays"] += row["plays"]
                total["wins"] += row["wins"]
        out[None] = {"players": every}
    return out


def minutes(seconds):
    """A duration in words: "under a minute", "42 min", "1 h 05 min"."""
    m = int(round(seconds / 60.0))
    if m < 1:
        return "under a minute"
    return "%d min" % m if m < 60 else "%d h %02d min" % (m // 60, m % 60)


def _table(head, rows):
    widths = [max(len(r[k]) for r in rows + [head]) for k in range(len(head))]
    return ["  " + "  ".join(r[k].ljust(widths[k]) if k == 0 else r[k].rjust(widths[k]) for k in range(len(head)))
            for r in [head] + rows]


def text(stats):
    """The summary in lines for a person."""
    lines = []
    for game in sorted([k for k in stats if k is not None]):
        g = stats[game]
        more = ", %d more unfinished (not counted)" % g["unfinished"] if g["unfinished"] else ""
        if not g["plays"]:
            lines += ["%s: no finished play yet (%d unfinished)" % (game, g["unfinished"]), ""]
            continue
        lines.append("%s: %d play%s%s" % (game, g["plays"], "" if g["plays"] == 1 else "s", more))
        d = g["durations"]
        if d:
            lines.append("  duration (first entry to last): %s on average, shortest %s, longest %s" % (
                minutes(sum(d) / len(d)), minutes(min(d)), minutes(max(d))))
        rows = []
        for who in sorted(g["players"], key=plays_mod.order):
            r = g["players"][who]
            sc = r["scores"]
            rows.append((who, str(r["plays"]), str(r["wins"]),
                         "%d%%" % round(100.0 * r["wins"] / r["plays"]),
                         "%.1f" % (sum(sc) / float(len(sc))) if sc else "-", str(max(sc)) if sc else "-"))
        lines += _table(("player", "plays", "wins", "win rate", "average score", "best score"), rows)
        for fact in sorted(g["facts"]):
            times, plays_with = g["facts"][fact]
            lines.append("  %s: %d (in %d of %d play%s)" % (fact, times, plays_with, g["plays"],
                                                            "" if g["plays"] == 1 else "s"))
        lines.append("")
    if None in stats:
        every = stats[None]["players"]
        rows = [(who, str(every[who]["plays"]), str(every[who]["wins"]),
                 "%d%%" % round(100.0 * every[who]["wins"] / every[who]["plays"]))
                for who in sorted(every, key=plays_mod.order)]
        lines.append("all games:")
        lines += _table(("player", "plays", "wins", "win rate"), rows)
        lines.append("")
    return lines
