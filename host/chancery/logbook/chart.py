"""`chancery log chart ID -o FILE.svg|png`: a game's course as a picture, and the mirror's sparkline.

series() reads the game's states entry by entry (plays.states) through the game's
`progress(state)` hook: every seat's score, and the game's own table tracks (The
King's Dilemma's Resources and Stability, say). draw() puts the scores in one
panel and the tracks in a second, with matplotlib, imported only here: the rest
of the host, the mirror included, never loads it. Lines that run together stay
seen (each drawn narrower than the one before), the target score is a dashed
line and each winner has a star; a flat panel keeps whole-number ticks.
sparkline() is the mirror's small chart in text.
"""

import pathlib

from chancery.logbook import plays

FORMATS = ("svg", "png")
BARS = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"


class ChartError(Exception):
    """The chart cannot be made: the sentence says why; no file was written."""


def series(header, entries):
    """{"scores": {player: [score before any entry, after #1, ...]} ({} when the game keeps none; a
    player is a seat's name from the header's "names", else "seat N"),
    "tracks": {name: [value, ...]} (the game's own), "rounds": [(entry number, label), ...]
    (where each round, turn or hand began, when the game says), "target": the score that ends the
    game (or None: the game has none), "winners": [player, ...] (once the game is over, else [])}.
    Raises ChartError."""
    progress = plays.hooks(header["game"])[1]
    if progress is None:
        raise ChartError("%s draws no chart: its show module has no progress(state) hook" % header["game"])
    scores, tracks, rounds = {}, {}, []
    last_round = None
    now = state = None
    try:
        for n, state in enumerate(plays.states(header, entries)):
            now = progress(state)
            for seat, value in enumerate(now["scores"] or []):
                scores.setdefault(plays.player_name(seat, header.get("names")), []).append(value)
            for name, value in now["tracks"]:
                tracks.setdefault(name, []).append(value)
            if now.get("round") is not None and now["round"] != last_round:
                last_round = now["round"]
                if n:
                    rounds.append((n, "%s %d" % tuple(now["round"])))
    except plays.NoStory as e:
        raise ChartError(str(e))
    winners = [plays.player_name(seat, header.get("names")) for seat in (state or {}).get("winners") or []]
    return {"scores": scores, "tracks": tracks, "rounds": rounds, "target": (now or {}).get("target"),
            "winners": winners}


def title(game):
    """A game's name as people write it ("The King's Dilemma"): its docs' "title", else its id."""
    from chancery.words import describe

    docs = describe.words(game, "docs")
    return (getattr(docs, "DOCS", None) or {}).get("title") or game


def _widths(n):
    """Line widths for n lines on one panel, the first drawn widest: a line at the same values as
    one drawn before it lies on top of it, narrower, so both stay seen."""
    return [1.5 + 1.5 * (n - 1 - k) for k in range(n)]


def draw(data, title, path):
    """Write the chart of series() `data` to `path` (.svg or .png), atomically enough: matplotlib
    writes the file in one go. Each line's SVG id is "series-" and its name, so a reader (or a
    test) can find it; the SVG keeps its text as text."""
    path = pathlib.Path(path)
    kind = path.suffix.lower().lstrip(".")
    if kind not in FORMATS:
        raise ChartError("a chart is written as .svg or .png, not %r (name the file FILE.svg or FILE.png)"
                         % (path.suffix or path.name))
    import matplotlib

    matplotlib.use("Agg")  # no window: a file only
    from matplotlib import pyplot

    panels = [(k, data[k]) for k in ("scores", "tracks") if data[k]]
    if not panels:
        raise ChartError("the game has nothing to draw yet (no score and no track)")
    from matplotlib.ticker import MaxNLocator

    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "chancery"}):
        fig, axes = pyplot.subplots(len(panels), 1, figsize=(9, 3.2 * len(panels)), squeeze=False, sharex=True)
        try:
            for (kind_of, lines), ax in zip(panels, axes[:, 0]):
                widths = _widths(len(lines))
                lowest = min(min(v) for v in lines.values())
                highest = max(max(v) for v in lines.values())
                winners = [n for n in lines if kind_of == "scores" and n in data.get("winners", ())]
                for k, (name, values) in enumerate(lines.items()):
                    won = name in winners
                    line, = ax.plot(range(len(values)), values, label=name + (" (won)" if won else ""),
                                    drawstyle="steps-post", linewidth=widths[k], solid_capstyle="butt")
                    line.set_gid("series-" + name.replace(" ", "-"))
                    if won:  # the winner's mark: a star at its last score (a later one smaller, as the lines)
                        size = 11 + 9 * (len(winners) - 1 - winners.index(name))
                        star, = ax.plot([len(values) - 1], [values[-1]], marker="*", markersize=size,
                                        color=line.get_color(), markeredgecolor="black", markeredgewidth=0.6,
                                        linestyle="none")
                        star.set_gid("winner-" + name.replace(" ", "-"))
                if kind_of == "scores" and data.get("target") is not None:
                    target = data["target"]
                    mark = ax.axhline(target, color="0.3", linestyle="--", linewidth=1,
                                      label="target %d" % target)
                    mark.set_gid("target")
                    highest = max(highest, target)
                if highest - lowest < 2:  # a flat line: whole numbers around it, not ticks at +-0.045
                    ax.set_ylim(lowest - 0.5, lowest + 2.5)
                for at, label in data["rounds"]:
                    ax.axvline(at, color="0.85", linewidth=0.8, zorder=0)
                    if len(data["rounds"]) <= 20 and ax is axes[0, 0]:  # more would be a smudge
                        ax.text(at, 1.0, " " + label, transform=ax.get_xaxis_transform(), fontsize="x-small",
                                color="0.5", va="top")
                ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # scores and tracks are whole numbers
                ax.set_ylabel("score" if kind_of == "scores" else "position on its track")
                ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
                ax.grid(axis="y", color="0.92")
            axes[0, 0].set_title(title)
            axes[-1, 0].set_xlabel("entry (#0: the start)")
            fig.tight_layout()
            try:
                fig.savefig(str(path), format=kind)
            except OSError as e:
                raise ChartError("cannot write %s: %s" % (path, e.strerror or e))
        finally:
            pyplot.close(fig)


def sparkline(values, width=24, low=None, high=None):
    """A line of block characters for `values` (sampled evenly down to `width`, the last one kept), from
    `low` to `high` (default: their own lowest and highest; give both to put several lines on one scale)."""
    if not values:
        return ""
    if len(values) > width:
        step = len(values) / float(width)
        values = [values[min(len(values) - 1, int(round((k + 1) * step)) - 1)] for k in range(width)]
    low = min(values) if low is None else low
    high = max(values) if high is None else high
    if high == low:
        return BARS[0] * len(values)
    return "".join(BARS[int((v - low) * (len(BARS) - 1) / float(high - low) + 0.5)] for v in values)


def sparklines(header, entries, width=24):
    """The mirror's end-of-game chart: one line per player's score (or per track, for a game that
    keeps none) with its sparkline and its last value; [] for a game without the hook."""
    try:
        data = series(header, entries)
    except ChartError:
        return []
    lines = data["scores"] or data["tracks"]
    if not lines:
        return []
    wide = max(len(name) for name in lines)
    low = min(min(v) for v in lines.values())  # one scale for all: the lines compare
    high = max(max(v) for v in lines.values())
    return ["%s %s %s" % (name.ljust(wide), sparkline(v, width, low, high), v[-1]) for name, v in lines.items()]
