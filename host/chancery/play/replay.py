"""`chancery replay FILE`: verify a saved game (or run a scenario) and show where it ended."""

import sys

from chancery.logbook import logfile
from chancery.words import show
from shared_rules import canon, engine, games, matches, scenario
from shared_rules.errors import RuleError
from shared_rules.matches import LogError

ODD_INPUT = logfile.ODD_INPUT


def _error(text):
    print("error: " + text, file=sys.stderr)
    return 2


def _print_state(view, prompt_line, as_json, summary):
    if as_json:
        print(canon.encode(view))
    else:
        print(summary)
        print(show.full(view, prompt_line))


def _log(path, doc, rows, as_json):
    try:
        match = logfile.replay(doc, rows)
    except logfile.FileProblem as e:
        return _error(str(e))
    view = matches.view(match, None)
    _print_state(view, matches.prompt(match), as_json,
                 "%s: %d entries replayed, every event and digest verified." % (path, len(match["entries"])))
    return 0


def _check_scenario(doc):
    if not isinstance(doc.get("game"), str):
        raise LogError(None, "a scenario names its game")
    if not isinstance(doc["actions"], list):
        raise LogError(None, "a scenario's 'actions' is a list")
    if "expect" in doc and not isinstance(doc["expect"], dict):
        raise LogError(None, "a scenario's 'expect' is an object of view fields")
    for i, item in enumerate(doc["actions"]):
        if isinstance(item, dict) and "action" in item and "type" not in item:
            if "expect" in item and not isinstance(item["expect"], dict):
                raise LogError(i, "'expect' is an object of view fields")


def _scenario(path, doc, rows, as_json):
    try:
        _check_scenario(doc)
        engine.new_match(doc["game"], doc.get("settings"), doc.get("seed", 0))  # the header alone first
    except LogError as e:
        return _error(rows.say(e.entry, e.reason))
    except RuleError as e:
        return _error(rows.say(None, games.message(e)))
    except ODD_INPUT as e:
        return _error(rows.say(None, "the scenario cannot be run (%s: %s)" % (type(e).__name__, e)))
    done = [-1]  # the last action run: an odd one raises before it is reported

    def ran(i, *rest):
        done[0] = i

    try:
        state, failures = scenario.run(doc, ran)
    except ODD_INPUT as e:
        at = done[0] + 1
        return _error(rows.say(at if at < len(doc["actions"]) else None,
                               "the scenario cannot be run (%s: %s)" % (type(e).__name__, e)))
    g = engine.game_module(doc["game"])
    view = g.view(state, None)
    name = doc.get("name") or path
    verdict = "every expectation holds" if not failures else "%d failure%s" % (
        len(failures), "" if len(failures) == 1 else "s")
    _print_state(view, g.prompt(state), as_json,
                 "Scenario %s: %d actions, %s." % (name, len(doc["actions"]), verdict))
    for text in failures:
        print("failure: " + text, file=sys.stderr)
    return 1 if failures else 0


def run(path, as_json=False):
    try:
        doc, rows = logfile.parse_lines(logfile.read_text(path))
    except logfile.FileProblem as e:
        return _error(str(e))
    if logfile.is_scenario(doc):
        return _scenario(path, doc, rows, as_json)
    return _log(path, doc, rows, as_json)
