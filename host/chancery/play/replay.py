"""`chancery replay FILE`: verify a saved game (or run a scenario) and show where it ended."""

import sys

from chancery.logbook import logfile
from chancery.words import show
from shared_rules import canon, engine, games, matches, scenario
from shared_rules.errors import RuleError
from shared_rules.matches import LogError

# What a log or scenario with well-formed JSON but odd contents can make the
# core raise besides its own errors; reported as a bad file, never a traceback.
ODD_INPUT = (TypeError, ValueError, KeyError, IndexError, AttributeError)


def _error(text):
    print("error: " + text, file=sys.stderr)
    return 2


def _print_state(view, prompt_line, as_json, summary):
    if as_json:
        print(canon.encode(view))
    else:
        print(summary)
        print(show.full(view, prompt_line))


def _log(path, doc, as_json):
    try:
        logfile.check_log(doc)
        match = matches.replay(doc)
    except LogError as e:
        return _error(str(e))
    except ODD_INPUT as e:
        return _error("the log cannot be replayed (%s: %s)" % (type(e).__name__, e))
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
                raise LogError(None, "action %d: 'expect' is an object of view fields" % i)


def _scenario(path, doc, as_json):
    try:
        _check_scenario(doc)
        state, failures = scenario.run(doc)
    except LogError as e:
        return _error(str(e))
    except RuleError as e:
        return _error("header: " + games.message(e))
    except ODD_INPUT as e:
        return _error("the scenario cannot be run (%s: %s)" % (type(e).__name__, e))
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
        doc = logfile.parse(logfile.read_text(path))
    except logfile.FileProblem as e:
        return _error(str(e))
    if logfile.is_scenario(doc):
        return _scenario(path, doc, as_json)
    return _log(path, doc, as_json)
