"""Presses per entry: how many keys a table presses to enter what it plays (reports figures;
asserts nothing).

    .venv/bin/python tools/bench_presses.py [--games N] [--write]

For each game, N random games at its most seats (tools/chip/make_log.py: actions drawn from
what the rules offer, as the tests' random games draw them). Each accepted action of the log
that a menu enters (the sealed ballot's casts, closes and reveals are the board's own keys, not
a menu's) is entered through the board's menu (firmware/menu.py) on the pad that would enter
it: the seat whose turn it is (the game's show.actor) for a seat's action, else the table's;
by a player that reads only the screens (tests/helpers/menu_player.py), pressing down to walk a list
and select to pick, entering it as a table would (as_a_table: no typed dice, no made-up notes). Reported per game: entries, presses per entry (median, p90, max) and the
median by action type; goal: a median of 4 presses or fewer (issue 45, part 3). --write puts
the table into docs/performance.md.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "host"), ROOT, os.path.join(ROOT, "tests", "helpers"), os.path.join(ROOT, "tools", "chip")):
    if p not in sys.path:
        sys.path.insert(0, p)

import make_log  # noqa: E402
from menu_player import LocalPlayer, MenuPlayer, cursor  # noqa: E402

from chancery.words import describe  # noqa: E402
from shared_rules import decktet, engine  # noqa: E402
from shared_rules import schema as schemas  # noqa: E402
from shared_rules.errors import RuleError  # noqa: E402
from shared_rules.games import GAMES  # noqa: E402
from shared_rules.jsonlines import read_lines  # noqa: E402

GOAL = 4
SCENARIOS = os.path.join(ROOT, "tests", "scenarios")
BOARDS_OWN = ("ballot_cast", "ballot_close", "ballot_reveal")  # the board's keys and its box, not a menu


class Player(LocalPlayer):
    def seek(self, text):
        """As a player walks: to a card's group (a Decktet rank, a Resource type) by holds of down,
        then up to a card before the cursor in its group, a number below the one under the cursor,
        or an item the screen shows above it; else down."""
        for _ in range(60):  # as a player crosses a deck: a hold of down jumps a group, wrapping (firmware/pads.py)
            if self._group(text) < 0 or self._group((cursor(self.screen) or "").lstrip("*")) in (-1, self._group(text)):
                break
            self.key("long_down")
        now = cursor(self.screen)
        rows = [line[2:] for line in self.screen[1:-2]]
        above = text in rows and now in rows and rows.index(text) < rows.index(now)
        if self._group(text) >= 0 and self._group((now or "").lstrip("*")) == self._group(text):
            above = self._order(text) < self._order(now.lstrip("*"))  # the deck's order, as its cards read
        if above or _number(now) is not None and _number(text) is not None and _number(text) < _number(now):
            for _ in range(300):
                if cursor(self.screen) == text:
                    return
                self.key("up")
        MenuPlayer.seek(self, text)

    def _order(self, text):
        seq = self.m._seq()
        for i in range(len(seq)):
            if seq[i] == text:
                return i
        return -1

    def _group(self, text):
        """A card's group, as the deck's order shows it (a Decktet rank; Yes, Your Grace's Resource
        type: the card_names' group); -1 for what is not a card of a deck that groups (no jump)."""
        if text in decktet.NAMES:
            return decktet.rank(text)
        group = getattr(self.m.cards, "group", None)
        return group(text) if group is not None and text in self.m.cards else -1


def _number(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def as_a_table(schema, act):
    """The action as a table enters it: an optional parameter at its default left out (a random log may
    spell it out), the dice the board rolls itself (a roll without values:
    the random log types them now and then, as a table with its own dice would), a note (a text
    parameter: the menu offers its set phrases, a random log has made-up words) left to its
    default, or the menu's first phrase where it has no default."""
    out = dict(act)
    if out["type"] == "roll":
        out.pop("values", None)
        out.pop("source", None)  # the board's own
    for p in schema["params"]:
        if p.get("optional") and p["name"] in out and out[p["name"]] == p.get("default"):
            del out[p["name"]]  # what the default gives: a table leaves it (a random log may spell it out)
            continue
        if p["domain"]["kind"] == "text" and p["name"] in out:
            if p.get("optional"):
                del out[p["name"]]
            else:
                out[p["name"]] = "house rule"
    return out


def presses(game, seed, cap=150):
    """[(action type, presses)] for each entry of one random game; None where the menu could not
    enter it."""
    header, entries = make_log.make(game, seed, make_log.most_players(game), cap)
    return entered(game, header["settings"], seed, [e["action"] for e in entries])


def entered(game, settings, seed, actions):
    """[(action type, presses)] for each action the rules accept, entered on the board's menus in
    turn (refused ones are skipped); None where the menu could not enter it."""
    g = engine.game_module(game)
    actor = describe.part(game, "show").actor
    state = engine.new_match(game, settings, seed)["state"]
    out = []
    for act in actions:
        try:
            after = engine.step(game, state, act)[2]
        except RuleError:
            continue
        if act["type"] not in BOARDS_OWN:
            who = schemas.find(g.SCHEMAS, act["type"])
            seat = actor(state) if who is not None and who["who"] == "seat" else None
            try:
                p = Player(g, state, seat)
                schema = schemas.find(p.m.schemas, act["type"])
                p.enter(schema, as_a_table(schema, act))
                out.append((act["type"], p.keys))
            except (AssertionError, TypeError, KeyError):
                out.append((act["type"], None))
        state = after
    return out


def worked_examples(game):
    """[(action type, presses)] over the scenario files of `game` (tests/scenarios/: the seeds'
    worked examples and the rulings, as tables play them)."""
    out = []
    for name in sorted(os.listdir(SCENARIOS)):
        folder = os.path.join(SCENARIOS, name)
        for f in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
            if f.endswith(".jsonl"):
                with open(os.path.join(folder, f), encoding="utf-8") as lines:
                    header, items = read_lines(lines)
                    if header.get("game") == game:
                        acts = [i["action"] if "action" in i and "type" not in i else i for i in items]
                        out += entered(game, header.get("settings"), header.get("seed", 0), acts)
    return out


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else 0


def _p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, len(xs) * 9 // 10)] if xs else 0


def _row(label, got):
    counts = [n for _, n in got if n is not None]
    by = {}
    for t, n in got:
        if n is not None:
            by.setdefault(t, []).append(n)
    kinds = ", ".join("%s %d" % (t, _median(v)) for t, v in sorted(by.items(), key=lambda kv: -len(kv[1]))[:6])
    return "| %s | %d | %d%s | %d | %d | %d | %s |" % (
        label, len(counts), _median(counts), "" if _median(counts) <= GOAL else " (over)", _p90(counts),
        max(counts) if counts else 0, len(got) - len(counts), kinds)


def run(games=3, say=print):
    say("| game, workload | entries | presses median | p90 | max | not entered | median by action |")
    say("|---|---|---|---|---|---|---|")
    for game in GAMES:
        say(_row(game + ", random games", [x for seed in range(1, games + 1) for x in presses(game, seed)]))
        say(_row(game + ", worked examples", worked_examples(game)))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    lines = []

    def say(text):
        lines.append(text)
        print(text)

    intro = ["Written by `tools/bench_presses.py --write` (the host, no chip: the board's menu code on CPython):",
             "each entry a menu enters, on the pad that would enter it, by a player reading only the screens.",
             "Two workloads a game: %d random games at its most seats (each action drawn among all the rules" % a.games,
             "offer, so a table's corrections come as often as its play, their values uniform), and the",
             "scenario files (tests/scenarios/: the seeds' worked examples and the rulings, as tables play",
             "them). Goal: a median of %d presses or fewer." % GOAL, ""]
    for line in intro:
        print(line)
    run(a.games, say)
    if a.write:
        sys.path.insert(0, os.path.join(ROOT, "tools", "chip"))
        import perfdoc

        perfdoc.write_section("## Presses per entry", intro + lines)
