"""Chancellors rules on CPython: the pieces (control, card values) and the scenario files.

The same scenario files are replayed under MicroPython by test_micropython_gate.py.
"""

import glob
import json
import os

import paths
import pytest

from shared_rules import engine, games, matches, scenario
from shared_rules.chancellors import services, solving
from shared_rules.errors import RuleError

HERE = paths.TESTS
SCENARIOS = sorted(glob.glob(os.path.join(HERE, "scenarios", "chancellors", "*.jsonl")))
NOBODY = {"diplomatic": None, "army": None, "navy": None}


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_scenario(path):
    with open(path) as f:
        header, actions = scenario.read_lines(f)
        _, failures = scenario.run_stream(header, actions)
    assert failures == []


def test_the_seed_examples_are_all_encoded():
    names = [os.path.basename(p) for p in SCENARIOS]
    for example in ("seed-l37", "seed-l51", "seed-l90"):
        assert any(n.startswith(example) for n in names), example


def test_scenario_runner_reports_a_wrong_expectation():
    sc = {"game": "chancellors", "settings": {"players": 2}, "seed": 1,
          "actions": [{"type": "roll", "values": [1, 2, 3, 4, 5, 6], "source": "manual"}],
          "expect": {"problems": [[1, 2], [3, 4], [5, 5]]}}
    _, failures = scenario.run(sc)
    assert failures == ['at the end: problems is [[1,2],[3,4],[5,6]], expected [[1,2],[3,4],[5,5]]']


def control(cards, held=None, scores=None):
    held = dict(NOBODY, **(held or {}))
    out = services.adjudicate(cards, held, scores or [0] * len(cards))
    return {service: (seat, why) for service, seat, why in out}


def test_l37_selia_shar_henri():
    got = control(["Merchant", "Windfall", "Cave"])
    assert got == {"navy": (0, "highest"), "army": (1, "highest"), "diplomatic": (None, "unchanged")}


def test_l39_a_held_service_stays_when_nobody_contests_it():
    got = control(["Merchant", "Windfall", "Cave"], held={"diplomatic": 2})
    assert got["diplomatic"] == (2, "unchanged")


def test_l33_a_crown_of_suns_can_take_the_diplomatic_corps():
    assert control(["Bard", "Ace of Wyrms"])["diplomatic"] == (0, "only")


def test_l41_equal_rank_lower_score_takes_it_equal_scores_nobody():
    assert control(["Huntress", "Bard"], scores=[10, 4])["diplomatic"] == (1, "lower_score")
    assert control(["Huntress", "Bard"], held={"diplomatic": 0}, scores=[4, 4])["diplomatic"] == (None, "tie")


def test_three_way_rank_tie_two_lowest_equal_is_uncontrolled():
    got = control(["Huntress", "Bard", "Pact"], scores=[3, 3, 0])
    assert got["diplomatic"] == (None, "tie")  # two Crowns tie at 3; the 9 is lower
    got = control(["Mountain", "Pact", "Bard"], scores=[0, 0, 0])
    assert got["diplomatic"] == (2, "highest")


def test_l106_pawn_keeps_only_what_its_seat_holds():
    held = {"diplomatic": 0, "army": 0}
    got = control(["Watchman", "Pact"], held=held)
    assert got["diplomatic"] == (0, "highest")  # Pawn outranks a 9
    assert got["army"] == (0, "only")
    got = control(["Pact", "Watchman"], held=held)
    assert got["diplomatic"] == (0, "only")  # seat 1's Pawn cannot take it
    assert got["army"] == (0, "unchanged")
    assert control(["Watchman", "Windfall"], held=held)["army"] == (1, "highest")  # a Crown takes it away


def test_l108_court_contests_only_the_diplomatic_corps():
    got = control(["Consul", "Ace of Waves"], held={"navy": 0})
    assert got["diplomatic"] == (0, "only")
    assert got["navy"] == (1, "only")  # Consul has Waves but a Court never contests the Navy
    assert control(["Consul", "Huntress"])["diplomatic"] == (1, "highest")  # Crown beats Court


def test_card_values_l53_l106():
    assert solving.card_value("Ace of Moons", [3, 5]) == 1
    assert solving.card_value("Castle", [3, 5]) == 7
    for crown_like in ("Bard", "Watchman", "Consul"):
        assert solving.card_value(crown_like, [3, 5]) == 5
        assert solving.card_value(crown_like, [6, 2]) == 6


def test_two_crowns_solve_any_problem_l53():
    for a in range(1, 7):
        for b in range(1, 7):
            total = solving.card_value("Bard", [a, b]) + solving.card_value("Sea", [a, b])
            assert total >= solving.whole_need([a, b], "service")


def test_partial_rules_l57():
    assert solving.part_ok("Ace of Knots", [1, 6])
    assert not solving.part_ok("Author", [1, 6])  # a die showing 1 needs an Ace
    assert solving.part_ok("Bard", [4, 4])  # a Crown only on a double
    assert not solving.part_ok("Bard", [4, 5])
    assert solving.part_ok("Mountain", [4, 6]) and not solving.part_ok("Forest", [4, 6])
    assert solving.part_points([6, 5]) == 6 and solving.part_points([2, 2]) == 2


def test_whole_without_help_needs_twice_the_sum_l65():
    assert solving.whole_need([2, 3], "none") == 10
    assert solving.whole_need([2, 3], "excuse") == 5
    assert solving.whole_points([2, 3]) == 5


def test_refused_action_leaves_the_match_untouched():
    m = engine.new_match("chancellors", {"players": 2}, 3)
    engine.apply(m, {"type": "roll"})
    before = json.dumps(m, sort_keys=True)
    with pytest.raises(RuleError) as e:
        engine.apply(m, {"type": "reveal", "cards": ["Pact", "Diplomat"]})
    assert e.value.code == "illegal_card"
    assert "service card" in games.message(e.value)
    assert json.dumps(m, sort_keys=True) == before


def test_error_names_what_is_allowed():
    m = engine.new_match("chancellors", {"players": 2}, 3)
    with pytest.raises(RuleError) as e:
        engine.apply(m, {"type": "solve", "problem": 0, "cards": ["Pact"]})
    assert e.value.code == "wrong_step"
    assert "6 dice are waiting to be rolled" in games.message(e.value)
    with pytest.raises(RuleError) as e:
        engine.apply(m, {"type": "roll", "source": "dice-tower"})
    assert "board, manual, smart" in games.message(e.value)


def test_settings_defaults_and_validation():
    m = engine.new_match("chancellors", None, 0)
    assert m["settings"] == {"players": 4, "target": 100, "extended": False}
    assert len(m["state"]["problems"]) == 5
    for bad in ({"players": 5}, {"target": "high"}, {"colour": "red"}):
        with pytest.raises(RuleError) as e:
            engine.new_match("chancellors", bad, 0)
        assert e.value.code == "bad_setting"


def test_legal_lists_what_the_acting_seat_may_do():
    """The table (seat None) is also offered the effects (effects.py): a score and a service at any
    time before the end, a die once there is one in play to set; a seat never is."""
    m = engine.new_match("chancellors", {"players": 2}, 3)
    assert [a["type"] for a in matches.legal(m)] == ["roll", "score", "service"]  # every die waits for the roll
    engine.apply(m, {"type": "roll", "values": [1, 2, 3, 4, 5, 5], "source": "manual"})
    assert [a["type"] for a in matches.legal(m)] == ["reveal", "assign", "score", "die", "service"]
    engine.apply(m, {"type": "assign", "diplomatic": None, "army": 1, "navy": None})
    assert matches.legal(m, 0) == []
    assert [a["type"] for a in matches.legal(m)] == ["solve", "solve_part", "pass", "score", "die", "service"]
    acts = {a["type"]: a for a in matches.legal(m, 1)}
    assert sorted(acts) == ["pass", "solve", "solve_part"]
    cards = acts["solve"]["params"][1]["domain"]["of"]["among"]
    assert "Castle" in cards and "Chance Meeting" not in cards  # L51: army suits only
    assert "Soldier" not in cards  # service cards are not in play


def test_replay_and_undo():
    m = engine.new_match("chancellors", {"players": 3}, 9)
    engine.apply(m, {"type": "roll"})
    engine.apply(m, {"type": "reveal", "cards": ["Merchant", "Windfall", "Cave"]})
    engine.apply(m, {"type": "pass"})
    log = json.loads(json.dumps(matches.log_of(m)))
    again = matches.replay(log)
    assert again["state"] == m["state"]
    back = matches.undo(m, 1)
    assert len(back["entries"]) == 2 and back["state"]["queue"] == [[1, "army"], [0, "navy"]]
    assert len(m["entries"]) == 3  # undo gives a new match; the old one is untouched


def test_replay_catches_tampering():
    from shared_rules.matches import LogError

    m = engine.new_match("chancellors", {"players": 2}, 9)
    engine.apply(m, {"type": "roll"})
    engine.apply(m, {"type": "assign", "diplomatic": 0, "army": None, "navy": None})
    log = json.loads(json.dumps(matches.log_of(m)))
    log["entries"][0]["events"][0]["value"] = 7 - log["entries"][0]["events"][0]["value"]
    with pytest.raises(LogError) as e:
        matches.replay(log)
    assert e.value.entry == 0 and "events differ" in e.value.reason
    log = json.loads(json.dumps(matches.log_of(m)))
    log["entries"][1]["digest"] = "00000000"
    with pytest.raises(LogError) as e:
        matches.replay(log)
    assert e.value.entry == 1 and "digest" in e.value.reason
    log = json.loads(json.dumps(matches.log_of(m)))
    log["seed"] = 10
    with pytest.raises(LogError) as e:
        matches.replay(log)
    assert e.value.entry is None


def test_views_hide_the_prng_state():
    m = engine.new_match("chancellors", {"players": 2}, 9)
    assert "rng" in m["state"]
    for seat in (None, 0, 1):
        assert "rng" not in matches.view(m, seat)


# ------------------------------------------------------------------ the effects (effects.py)

def _turn_one(players=3, seed=1):
    m = engine.new_match("chancellors", {"players": players}, seed)
    engine.apply(m, {"type": "roll", "values": [2, 3, 4, 4, 1, 6, 5, 5][:2 * (players + 1)], "source": "manual"})
    return m


def test_effects_keep_their_reason_in_the_log_the_narration_and_a_replay():
    from shared_rules.chancellors import narrate

    m = _turn_one()
    said = []
    for act, words in (
            ({"type": "score", "seat": 2, "amount": 6, "reason": "handicap"},
             "Seat 2 gains 6 points (handicap): now 6."),
            ({"type": "die", "problem": 0, "die": 1, "value": 5, "reason": "misread"},
             "Problem 0 die 1 is set to 5 (misread): 2-3 -> 2-5."),
            ({"type": "service", "service": "navy", "holder": 1, "reason": "house rule"},
             "Seat 1 now controls the Navy, from the middle (house rule)."),
            ({"type": "score", "seat": 2, "amount": -1}, "Seat 2 loses 1 point: now 5.")):
        before = m["state"]
        entry = engine.apply(m, act)
        assert [ev.get("reason") for ev in entry["events"]] == [act.get("reason")]
        said.extend(narrate.lines(before, entry["events"], act))
        assert said[-1] == words
    log = json.loads(json.dumps(matches.log_of(m)))
    assert [e["action"].get("reason") for e in log["entries"][1:]] == ["handicap", "misread", "house rule", None]
    assert matches.replay(log)["state"] == m["state"]
    assert m["state"]["scores"] == [0, 0, 5] and m["state"]["problems"][0] == [2, 5]


def test_a_service_moved_in_step_b_takes_its_chance_not_yet_taken_with_it():
    """Ruling X5: the chance follows the card, lapses with nobody, and the last one lapsing ends step B."""
    from shared_rules.chancellors import narrate

    m = _turn_one()
    engine.apply(m, {"type": "reveal", "cards": ["Merchant", "Windfall", "Cave"]})  # L37: navy 0, army 1
    assert m["state"]["queue"] == [[1, "army"], [0, "navy"]]
    before = m["state"]
    entry = engine.apply(m, {"type": "service", "service": "navy", "holder": 2})
    assert m["state"]["queue"] == [[1, "army"], [2, "navy"]]
    assert narrate.lines(before, entry["events"])[-1].endswith("Its chance this turn goes to seat 2.")
    engine.apply(m, {"type": "service", "service": "diplomatic", "holder": 0})  # had no chance this turn
    assert m["state"]["queue"] == [[1, "army"], [2, "navy"]]
    engine.apply(m, {"type": "pass"})
    before = m["state"]
    entry = engine.apply(m, {"type": "service", "service": "navy", "holder": None})
    assert [ev["t"] for ev in entry["events"]] == ["service", "step"]
    assert m["state"]["step"] == "C" and m["state"]["queue"] == [[2, ""]]  # seats 0, 1 hold the Diplomat, the Army
    assert narrate.lines(before, entry["events"])[0].endswith("Its chance this turn lapses.")
    engine.apply(m, {"type": "service", "service": "army", "holder": 2})  # step C: its order stays (X5)
    assert m["state"]["queue"] == [[2, ""]] and m["state"]["control"]["army"] == 2
    assert "queue" not in matches.log_of(m)["entries"][-1]["events"][0]


def test_the_table_is_offered_only_the_dice_it_may_set():
    """Ruling X4: no die before the first roll, none of a wholly solved problem, not the one set aside."""
    m = engine.new_match("chancellors", {"players": 2}, 3)
    assert "die" not in [a["type"] for a in matches.legal(m)]
    engine.apply(m, {"type": "roll", "values": [1, 2, 3, 4, 5, 5], "source": "manual"})
    engine.apply(m, {"type": "assign", "diplomatic": 0, "army": 0, "navy": None})
    engine.apply(m, {"type": "solve", "problem": 1, "cards": ["Pact"]})
    engine.apply(m, {"type": "solve_part", "problem": 2, "card": "Mountain", "aside": 1})
    offered = {a["type"]: a for a in matches.legal(m)}
    assert offered["die"]["params"][0]["domain"]["among"] == [0, 2]
    for problem, die, words in ((1, 0, "problem 1 was wholly solved this turn"),
                                (2, 1, "problem 2 die 1 was set aside")):
        before = json.dumps(m, sort_keys=True)
        with pytest.raises(RuleError) as e:
            engine.apply(m, {"type": "die", "problem": problem, "die": die, "value": 3})
        said = games.message(e.value)
        assert e.value.code == "die_not_in_play" and words in said
        assert said.endswith("dice that can be set now: problem 0 die 0, problem 0 die 1, problem 2 die 0")
        assert json.dumps(m, sort_keys=True) == before


def test_refused_effects_say_what_was_wrong_and_what_is_allowed():
    m = _turn_one(players=2)
    engine.apply(m, {"type": "score", "seat": 0, "amount": 4})
    cases = (
        ({"type": "score", "seat": 0, "amount": 0}, "zero_effect", "of 0 changes nothing"),
        ({"type": "score", "seat": 0, "amount": -5}, "score_below_zero", "seat 0 has 4 points: taking 5 would leave "
                                                                         "it below 0 (ruling X3); take at most 4"),
        ({"type": "score", "seat": 1, "amount": -5}, "score_below_zero", "it has no points to take"),
        ({"type": "die", "problem": 1, "die": 0, "value": 4}, "die_unchanged", "problem 1 die 0 already shows 4"),
        ({"type": "die", "problem": 4, "die": 0, "value": 4}, "bad_param", "an integer from 0 to 2"),
        ({"type": "service", "service": "army", "holder": None}, "service_unchanged",
         "the Army is already uncontrolled (its card in the middle of the table): enter the seat that should hold "
         "the Soldier, or nobody"),
    )
    for act, code, words in cases:
        before = json.dumps(m, sort_keys=True)
        with pytest.raises(RuleError) as e:
            engine.apply(m, act)
        assert e.value.code == code and words in games.message(e.value), games.message(e.value)
        assert json.dumps(m, sort_keys=True) == before
    engine.apply(m, {"type": "service", "service": "army", "holder": 1})
    with pytest.raises(RuleError) as e:
        engine.apply(m, {"type": "service", "service": "army", "holder": 1})
    assert games.message(e.value).startswith("seat 1 already controls the Army")


def test_every_error_code_has_a_text():
    import re

    from shared_rules import texts
    from shared_rules.chancellors import texts as own

    codes = set()
    for path in glob.glob(os.path.join(HERE, "..", "shared_rules", "chancellors", "*.py")):
        with open(path) as f:
            codes.update(re.findall(r'RuleError\("([a-z_]+)"', f.read()))
    assert {"zero_effect", "score_below_zero", "die_not_in_play", "die_unchanged", "service_unchanged"} <= codes
    for code in codes:
        assert code in own.TEXTS or code in texts.TEXTS, code


def test_the_terminal_games_examples_of_the_effects_read_as_actions():
    """The help's example lines (show.EXAMPLES) parse to the effect they show, reason and all, and the
    command the log shows for each reads back as the same action."""
    from chancery.words import commands
    from shared_rules.chancellors import SCHEMAS, show

    want = {
        "score 1 -5 fix a misentry": {"type": "score", "seat": 1, "amount": -5, "reason": "fix a misentry"},
        'score seat=0 amount=3 reason="house rule"': {"type": "score", "seat": 0, "amount": 3, "reason": "house rule"},
        "die 2 1 5 misread": {"type": "die", "problem": 2, "die": 1, "value": 5, "reason": "misread"},
        "service army 2 fix a misentry": {"type": "service", "service": "army", "holder": 2,
                                          "reason": "fix a misentry"},
        "service navy - house rule": {"type": "service", "service": "navy", "holder": None, "reason": "house rule"},
    }
    lines = show.EXAMPLES["score"] + show.EXAMPLES["die"] + show.EXAMPLES["service"]
    assert sorted(lines) == sorted(want)
    for line in lines:
        got = commands.parse(line, SCHEMAS, 3, ())
        assert got == want[line], line
        assert commands.parse(commands.command_text(got, SCHEMAS), SCHEMAS, 3, ()) == got
