"""Checks every game's scenario files share (tests/rules/test_*_rules.py): the file replays to
what it expects, the Houses' or seats' private expectations included, and every refusal
in it reads as a sentence rendered from its facts (not the bare code)."""

from shared_rules import engine, games, scenario
from shared_rules.errors import RuleError


def failures(path):
    """What does not hold in the scenario file at `path` (empty: all of it holds). Its
    "private" expectations are checked against each seat's own view."""
    with open(path) as f:
        header, actions = scenario.read_lines(f)
        state, failed = scenario.run_stream(header, actions)
    g = engine.game_module(header["game"])
    for key, want in sorted(header.get("private", {}).items()):
        got = [g.view(state, s)[key][s] for s in range(len(want))]
        if got != want:
            failed.append("private %s is %s, expected %s" % (key, got, want))
    return failed


def bare_refusals(path):
    """The messages of the file's refusals that are only their code (no text renders them)."""
    out = []
    with open(path) as f:
        header, actions = scenario.read_lines(f)
        game = header["game"]
        state = engine.new_match(game, header.get("settings"), header.get("seed", 0))["state"]
        for item in actions:
            act = item["action"] if "action" in item and "type" not in item else item
            try:
                state = engine.step(game, state, act)[2]
            except RuleError as e:
                if games.message(e).startswith(e.code):
                    out.append(games.message(e))
    return out


def match_of(path, stop=None):
    """The match a scenario file builds, its refused actions left out (after its first
    `stop` actions if given): what the host-side tests show, narrate and render."""
    with open(str(path)) as f:
        header, items = scenario.read_lines(f)
        items = list(items)
    m = engine.new_match(header["game"], header.get("settings"), header.get("seed", 0))
    for raw in items[:stop]:
        try:
            engine.apply(m, scenario._item(raw)[0])
        except RuleError:
            pass
    return m


def story(m):
    """Every sentence the host narrates for the match, entry by entry."""
    from chancery.words import narrate

    return [line for _, _, sentences in narrate.history(m) for line in sentences]
