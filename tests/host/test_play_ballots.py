"""Sealed ballots at the terminal (issue 43, part 3): `chancery play` plays The Council (its sealed
reveal of drafted cards) and The King's Dilemma with voting=sealed to their ends, a seat casting with
`cast SEAT` and its choice typed on a line the terminal does not show (a piped line shows `*`),
the box revealing once every seat has voted or the table has closed the ballot. The script is
drawn at random from legal() (tests/mp/random_game.py) and followed in-process with the same rules,
so each line is one the terminal must take. Before, the list offered `ballot_close` (a word the
parser did not know) and no seat could cast."""

import json
import os
import subprocess
import sys

import paths
import pytest

ROOT = paths.ROOT
sys.path.insert(0, paths.MP)

from random_game import Draw, action  # noqa: E402

from chancery.play import box as ballot_box  # noqa: E402
from chancery.words import commands  # noqa: E402
from shared_rules import engine  # noqa: E402
from shared_rules.errors import RuleError  # noqa: E402

CASES = [("the_council", {"players": 3}), ("kings_dilemma", {"players": 3, "voting": "sealed"})]


def script(game, settings, seed, most=900):
    """(the lines to type, the match they make, the secret choices typed)."""
    rnd = Draw(seed)
    m = engine.new_match(game, settings, 1)
    g = engine.game_module(game)
    seats, lines, secrets = settings["players"], [], []
    while not g.is_over(m["state"]) and len(m["entries"]) < most:
        s = m["state"]
        b = s.get("ballot")
        if b is not None and b["result"] is None and b["open"]:
            waiting = [x for x in b["voters"] if x not in b["voted"]]
            if rnd.below(12) == 0:
                lines.append("close")
                engine.apply(m, {"type": "ballot_close"})
            else:
                seat = rnd.pick(waiting)
                if b.get("multi"):
                    picked = [o for o in b["options"] if rnd.below(3) == 0]
                    text = " ".join(picked) or "-"
                else:
                    c = rnd.pick(b["options"])
                    text = c + (" %d" % (1 + rnd.below(5)) if c in (b.get("counted") or []) else "")
                choice = ballot_box.read_choice(b, text)
                lines += ["cast %d" % seat, text]
                secrets.append(text)
                m.setdefault("box", {})[str(seat)] = choice
                engine.apply(m, {"type": "ballot_cast", "seat": seat})
            b = m["state"]["ballot"]
            if not b["open"]:  # the terminal's box reveals now: the same here
                kept = m.pop("box", {})
                cast = [kept.get(str(x)) if x in b["voted"] else None for x in b["voters"]]
                act = {"type": "ballot_reveal", "choices": [c[0] if c else None for c in cast]}
                if b.get("counted"):
                    act["amounts"] = [c[1] if c else None for c in cast]
                engine.apply(m, act)
            continue
        offered = [a for a in g.legal(s, None) if a["type"][:7] != "ballot_"]
        act = action(rnd, rnd.pick(offered), seats, g.card_names(s))
        try:
            engine.step(game, s, act)
        except RuleError:
            continue
        line = commands.command_text(act, g.SCHEMAS)
        if commands.parse(line, g.SCHEMAS, seats, g.card_names(s)) != act:
            continue  # a form the terminal words otherwise (tests/host/test_hints.py checks the hints)
        lines.append(line)
        engine.apply(m, act)
    return lines, m, secrets


@pytest.mark.parametrize("game,settings", CASES, ids=[c[0] for c in CASES])
def test_a_sealed_ballot_game_plays_to_its_end_at_the_terminal(game, settings, tmp_path):
    lines, m, secrets = script(game, settings, 3)
    assert engine.game_module(game).is_over(m["state"]), "the script did not reach the end"
    assert [e for e in m["entries"] if e["action"]["type"] == "ballot_reveal"]
    args = [sys.executable, "-m", "chancery", "play", game, "--seed", "1", "--log", str(tmp_path / "g.jsonl"),
            "--no-logbook"] + sum([["--set", "%s=%s" % kv] for kv in settings.items()], [])
    proc = subprocess.run(args, input="\n".join(lines + ["quit"]) + "\n", capture_output=True, text=True,
                          timeout=300, cwd=str(tmp_path), env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host")
                                                                   + os.pathsep + ROOT))
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr
    refused = [x for x in out.splitlines() if x.startswith("? ") or "Not allowed" in x or "Cannot reveal" in x]
    assert not refused, refused[:5]
    with open(tmp_path / "g.jsonl") as f:
        actions = [x["action"] for x in json.load(f)["entries"]]
    assert actions == [e["action"] for e in m["entries"]]
    # a choice never shows before its reveal: each typed secret line is echoed as "*"
    for secret in secrets:
        assert "\n%s\n" % secret not in out
    assert out.count("(not shown): *") == len(secrets)
