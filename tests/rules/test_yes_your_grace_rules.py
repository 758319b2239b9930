"""Yes, Your Grace rules on CPython: the calculator, the views, the texts and the scenario files.

The same scenario files are replayed under MicroPython by test_micropython_gate.py.
"""

import glob
import os
import sys

import paths
import pytest
import scenario_checks
import yyg_calc
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules import canon, engine, games, schema, texts
from shared_rules.errors import RuleError
from shared_rules.yes_your_grace import calc
from shared_rules.yes_your_grace import texts as yyg_texts
from shared_rules.yes_your_grace.actions import Names, card_name

HERE = paths.TESTS
SCENARIOS = sorted(glob.glob(os.path.join(HERE, "scenarios", "yes-your-grace", "*.jsonl")))
GAME = "yes_your_grace"


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_scenario(path):
    assert scenario_checks.failures(path) == []


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_every_refusal_in_the_scenarios_reads_as_a_sentence(path):
    """The texts render each refusal from its facts (no fallback to the bare code)."""
    assert scenario_checks.bare_refusals(path) == []


def test_every_worked_example_has_its_file():
    names = [os.path.basename(p) for p in SCENARIOS]
    for example in ("seed-l17-", "doubling-soldiers-", "doubling-spies-", "doubling-diplomats-", "roles-",
                    "y1-", "y2-steward-undamaged", "y2-steward-all", "y3-", "y4-deposed", "y4-damage-", "y5-",
                    "succession-with-heir", "succession-without-heir", "civil-war-tie", "civil-war-chaos",
                    "victory-loyalist", "victory-usurper", "victory-chaos", "overthrow-", "bad-input-",
                    "effects-printed-", "effects-refused-"):
        assert any(n.startswith(example) for n in names), example


# ------------------------------------------------------------------ the calculator

def cards(*names):
    return [calc.parse(n) for n in names]


def one(sup, opp, firsts=([], []), roles=([], [])):
    results = yyg_calc.event([sup, opp], list(firsts), list(roles))
    assert len(results) == 1
    return results[0]


def test_l17_cost_payment_example():
    s, o = one(cards("Coin 3", "Soldier 1 c0", "Soldier 1 c1", "Soldier 1 c2", "Soldier 1 c2"), [])
    assert (s["paid"], s["discarded"], s["kept"], s["total"], s["spent"]) == ([3], [2, 4], [1], 2, 2)


def test_discard_below_even_when_affordable():
    # L17: the 1-cost card is discarded although a Coin is left for it
    s, _ = one(cards("Coin 5", "Spy 1 c3", "Spy 1 c3", "Spy 1 c1"), [])
    assert s["paid"] == [1] and s["discarded"] == [2, 3]


def test_each_doubling_rule_and_only_from_remaining_cards():
    s, o = one(cards("Soldier 2 c0"), cards("Spy 3 c0"))
    assert (s["total"], o["total"], s["doubled"]) == (4, 3, [0])
    s, o = one(cards("Spy 2 c0"), cards("Diplomat 3 c0"))
    assert (s["total"], o["total"]) == (4, 3)
    s, o = one(cards("Diplomat 2 c0"), cards("Soldier 3 c0"))
    assert (s["total"], o["total"]) == (4, 3)
    s, o = one(cards("Soldier 1 c0"), cards("Spy 1 c1"))  # L18's example: the Spy is discarded
    assert (s["total"], s["doubled"], o["discarded"]) == (1, [], [0])


def test_roles_count_and_double_like_cards():
    s, o = one([], [], roles=([["marshal", 0, 2]], [["spymaster", 1, 1]]))
    assert (s["total"], o["total"], s["roles"]) == (4, 1, [["marshal", 2, True]])
    s, o = one(cards("Soldier 3 c2"), [], roles=([["steward", 3, 2]], []))
    assert (s["coins"], s["paid"], s["total"]) == (2, [0], 3)  # Coins add nothing themselves (G3)


def test_tie_breaker_choice_and_ambiguity():
    sup = cards("Coin 2", "Soldier 3 c2", "Spy 1 c2")
    results = yyg_calc.event([sup, cards("Diplomat 1 c0")], [[], []], [[], []])
    assert [[w[0]["total"], w[1]["total"], w[0]["paid"]] for w in results] == [[3, 2, [1]], [2, 1, [2]]]
    assert one(sup, cards("Diplomat 1 c0"), firsts=([2], []))[0]["paid"] == [2]
    # alike cards, or a choice that changes no total: one outcome, the earliest entered paid (G5)
    assert one(cards("Coin 1", "Diplomat 2 c1", "Soldier 2 c1"), [])[0]["paid"] == [1]


def test_civil_war_counts_each_seat_against_all_others():
    work = yyg_calc.civil_war([[], cards("Soldier 2 c0", "Coin 1", "Spy 2 c1"), cards("Diplomat 2 c0")], [[], [], []])
    assert len(work) == 1 and [w["total"] for w in work[0]] == [0, 6, 4]


CARD = st.builds(lambda t, v, c: (t, v, 0 if t == 3 else c), st.integers(0, 3), st.integers(1, 5), st.integers(0, 3))
SIDE = st.lists(CARD, max_size=8)


def _totals(side, kept, other_present):
    total = 0
    for i in kept:
        t, v = side[i][0], side[i][1]
        total += 2 * v if other_present[(t + 1) % 3] else v
    return total


@settings(max_examples=300, deadline=None)
@given(sup=SIDE, opp=SIDE)
def test_calculator_invariants(sup, opp):
    for work in yyg_calc.event([sup, opp], [[], []], [[], []]):
        remaining = []
        for k, side in ((0, sup), (1, opp)):
            w = work[k]
            costly = [i for i in range(len(side)) if side[i][2] > 0 and side[i][0] != 3]
            assert sorted(w["paid"] + w["discarded"]) == costly  # every costly card paid or discarded
            assert w["spent"] == sum([side[i][2] for i in w["paid"]]) <= w["coins"]
            assert w["kept"] == [i for i in range(len(side)) if side[i][2] == 0 and side[i][0] != 3]
            for d in w["discarded"]:  # discarded never below a paid card (L17)
                assert all(side[p][2] >= side[d][2] for p in w["paid"])
            remaining.append(sorted(w["paid"] + w["kept"]))
        present = [[0, 0, 0], [0, 0, 0]]
        for k, side in ((0, sup), (1, opp)):
            for i in remaining[k]:
                present[k][side[i][0]] = 1
        for k, side in ((0, sup), (1, opp)):
            # a discarded card never counts, and only remaining cards double the other side
            assert work[k]["total"] == _totals(side, remaining[k], present[1 - k])
            assert work[k]["doubled"] == [i for i in remaining[k] if present[1 - k][(side[i][0] + 1) % 3]]


@settings(max_examples=300, deadline=None)
@given(side=SIDE, coins=st.integers(0, 12), more=st.integers(1, 6))
def test_adding_coins_never_discards_a_paid_card(side, coins, more):
    order = list(range(len(side)))  # a full tie-break order: one outcome
    before = yyg_calc.options(side, coins, order)
    after = yyg_calc.options(side, coins + more, order)
    assert len(before) == len(after) == 1
    assert set(before[0]) <= set(after[0])


@settings(max_examples=200, deadline=None)
@given(sup=SIDE, opp=SIDE)
def test_outcomes_are_distinct_and_a_full_order_settles_them(sup, opp):
    results = yyg_calc.event([sup, opp], [[], []], [[], []])
    keys = [[w[0]["total"], w[1]["total"]] for w in results]
    assert len(keys) == len(set(map(tuple, keys))) >= 1
    full = [list(range(len(sup))), list(range(len(opp)))]
    assert len(yyg_calc.event([sup, opp], full, [[], []])) == 1


def test_card_names_are_a_lazy_sequence():
    names = Names({"max_value": 5, "max_cost": 3})
    listed = list(names)
    assert len(listed) == len(names) == 65 and len(set(listed)) == 65
    assert all(n in names for n in listed) and [names[i] for i in range(3)] == listed[:3]
    for bad in ("Soldier 6 c0", "Coin 1 c0", "Spy 1 c4", "Spy 01 c1", "Coin 0", "Knight 1 c1", "Spy 1", 7):
        assert bad not in names
    assert calc.parse(card_name(2, 4, 1)) == (2, 4, 1) and calc.parse("Coin 3") == (3, 3, 0)


# ------------------------------------------------------------------ settings, views, legal, texts

def new(settings=None, seed=0):
    return engine.new_match(GAME, settings or {"players": 4}, seed)


def test_setup_defaults():
    s = new()["state"]
    assert s["king"] == 0 and s["face"] == "loyalist" and s["heir"] is None
    assert s["holdings"] == [[1, 1, 1, 1]] * 4 and s["roles"] == [None] * 4 and s["annals"] == []
    assert s["step"] == "resource" and s["settings"]["annals"] == 12
    g = engine.game_module(GAME)
    assert g.dice_wanted(s) == 0 and g.LOG_PUBLIC is True


@pytest.mark.parametrize("settings", [
    {"players": 3, "king": 3},
    {"players": 4, "heir": 0},
    {"players": 4, "roles": [1, 2]},
    {"players": 4, "roles": [0, -1, -1, -1]},
    {"players": 3, "holdings": [[1, 1, 1, 1]] * 4},
    {"players": 4, "steward": "some"},
])
def test_settings_that_do_not_fit_together_are_refused(settings):
    with pytest.raises(RuleError) as e:
        new(settings)
    assert e.value.code == "bad_setting" and games.message(e.value)


def test_view_hides_nothing_because_nothing_secret_is_held():
    m = new()
    g = engine.game_module(GAME)
    assert g.view(m["state"], None) == g.view(m["state"], 2) == m["state"]


def _step(m, *acts):
    for a in acts:
        engine.apply(m, a)


def test_legal_narrows_to_what_is_possible():
    m = new({"players": 4, "roles": [1, -1, -1, -1]})
    g = engine.game_module(GAME)
    heir = schema.find(g.legal(m["state"], None), "heir")
    assert heir["params"][0]["domain"]["among"] == [1, 2, 3]
    assert schema.find(g.legal(m["state"], None), "event") is None
    _step(m, {"type": "next"}, {"type": "next"})
    event = schema.find(g.legal(m["state"], None), "event")
    roles = [p for p in event["params"] if p["name"] == "support_roles"][0]
    assert roles["domain"]["of"]["values"] == ["marshal"]
    _step(m, {"type": "event", "kind": "crisis", "support": [], "oppose": ["Soldier 1 c0"]})
    assert m["state"]["step"] == "damage"
    _step(m, {"type": "damage", "kinds": ["military", "espionage"]})
    _step(m, {"type": "holding", "seat": 0, "kind": "military", "change": "repair"})
    _step(m, {"type": "event", "kind": "crisis", "support": [], "oppose": ["Soldier 1 c0"]})
    offered = g.legal(m["state"], None)
    assert [a["type"] for a in offered] == ["damage"]
    dom = offered[0]["params"][0]["domain"]
    assert dom["of"]["values"] == ["military", "diplomacy", "economic"] and dom["min"] == dom["max"] == 2


def test_reveal_is_offered_only_to_the_seats_that_show():
    m = new({"players": 4, "annals": 1, "heir": 2})
    g = engine.game_module(GAME)
    _step(m, {"type": "next"}, {"type": "next"}, {"type": "next"})
    assert m["state"]["step"] == "reveal"
    assert [a["type"] for a in g.legal(m["state"], 1)] == ["reveal"]
    assert g.legal(m["state"], 2) == [] and g.legal(m["state"], 0) == []


def test_every_error_code_has_a_text():
    import re

    codes = set()
    for path in glob.glob(os.path.join(HERE, "..", "shared_rules", "yes_your_grace", "*.py")):
        with open(path) as f:
            codes.update(re.findall(r'RuleError\("([a-z_]+)"', f.read()))
    assert codes
    for code in codes:
        assert code in yyg_texts.TEXTS or code in texts.TEXTS, code


def test_prompts_read_for_each_step():
    m = new({"players": 3, "annals": 2})
    g = engine.game_module(GAME)
    seen = []
    for act in ({"type": "next"}, {"type": "next"}, {"type": "fall", "how": "deposed"},
                {"type": "civil_war", "cards": [[], ["Soldier 1 c0"], []]}, {"type": "accede", "side": "usurper"},
                {"type": "next"}, {"type": "next"}, {"type": "next"}, {"type": "next"},
                {"type": "reveal", "side": "loyalist"}, {"type": "reveal", "side": "chaos"}):
        text = g.prompt(m["state"])
        assert text.endswith(".") and text[0].isupper(), text
        seen.append(m["state"]["step"])
        _step(m, act)
    assert g.prompt(m["state"]).startswith("The game is over")
    assert set(seen) == {"resource", "intrigue", "event", "civil_war", "accede", "reveal"}
    assert m["state"]["winners"] == [1]  # the Chaos Agent has one Violence Record only


def test_every_setting_action_and_parameter_has_its_doc():
    from chancery.words import describe

    docs = describe.docs_of(GAME)
    g = engine.game_module(GAME)
    keys = ["game"] + ["setting." + s["name"] for s in g.SETTINGS]
    for a in g.SCHEMAS:
        keys.append(a["type"])
        keys.extend([a["type"] + "." + p["name"] for p in a["params"]])
    assert [k for k in keys if not docs.get(k)] == []


def test_refused_ambiguous_event_lists_the_outcomes():
    m = new()
    _step(m, {"type": "next"}, {"type": "next"})
    before = dict(m["state"])
    with pytest.raises(RuleError) as e:
        engine.apply(m, {"type": "event", "kind": "crisis", "support": ["Coin 2", "Soldier 3 c2", "Spy 1 c2"],
                         "oppose": ["Diplomat 1 c0"]})
    assert e.value.code == "ambiguous" and "Support 3 vs Oppose 2" in games.message(e.value)
    assert "Support 2 vs Oppose 1" in games.message(e.value) and m["state"] == before


@pytest.mark.parametrize("seed", range(1, 31))
def test_random_games_from_legal_end(seed):
    sys.path[:0] = [os.path.join(HERE, "mp")]
    try:
        import random_game
    finally:
        del sys.path[0]
    line = random_game.play(GAME, seed, {})
    assert " over " in line, line


# ------------------------------------------------------------------ printed effects (effects.py)

EFFECTS = ("heir", "role", "holding", "fall", "face", "cards")


def _scenario_match(name):
    return scenario_checks.match_of(os.path.join(HERE, "scenarios", "yes-your-grace", name))


def test_an_effects_reason_is_kept_in_its_event_the_log_and_the_narration():
    from shared_rules import matches

    m = _scenario_match("effects-printed-intrigue.jsonl")
    reasons = [(e["action"]["type"], ev.get("reason")) for e in m["entries"] for ev in e["events"]
               if e["action"]["type"] in EFFECTS]
    assert reasons == [("heir", "named at the table"), ("holding", "Sabotage"), ("holding", "Royal Grant"),
                       ("cards", "Pickpocket"), ("cards", "Crisis: Tax Levy"), ("holding", "Restoration"),
                       ("role", "fix a misentry"), ("holding", "Sabotage"), ("face", "fix a misentry"),
                       ("fall", "Assassination")]
    again = matches.replay(matches.log_of(m))  # the log replays to the same events, reasons and all
    assert [e["events"] for e in again["entries"]] == [e["events"] for e in m["entries"]]
    story = scenario_checks.story(m)
    for line in ("Named at the table: seat 2 is named the Heir.",
                 "Sabotage: seat 1's Military Holding is Damaged (Military now 0 Undamaged, 1 Damaged).",
                 "Royal Grant: seat 3 gains an Undamaged Economic Holding (Economic now 2 Undamaged, 0 Damaged).",
                 "Fix a misentry: seat 1 takes the Marshal (from the King).",
                 "Fix a misentry: the King card, seat 0's, turns to its Usurper face.",
                 "Assassination: seat 0, the King, is Assassinated. The Heir, seat 2, takes the crown"):
        assert [s for s in story if s.startswith(line)], line
    assert [s for s in story if s.startswith("Pickpocket: seat 1 takes 2 Resource cards from seat 3's hand")]
    assert [s for s in story if s.startswith("Crisis: Tax Levy: seat 0 draws 1 Coin card from the decks")]


def test_an_effect_without_a_reason_reads_as_before():
    m = new()
    _step(m, {"type": "holding", "seat": 3, "kind": "military", "change": "damage"})
    assert "reason" not in m["entries"][0]["events"][0]
    assert scenario_checks.story(m) == [
        "Seat 3's Military Holding is Damaged (Military now 0 Undamaged, 1 Damaged)."]


def test_cards_record_counts_only_and_change_nothing_the_companion_counts():
    """G14: no hand is held; the event names how many cards, whose hand or the decks, the type
    only when given, never a value or a cost, and the state after it is the state before."""
    m = new()
    before = canon.encode(m["state"])
    _step(m, {"type": "cards", "giver": 2, "taker": 1, "count": 3},
          {"type": "cards", "giver": None, "taker": 0, "count": 1, "resource": "Coin", "reason": "Tax Levy"},
          {"type": "next"},
          {"type": "cards", "giver": 3, "taker": None, "count": 2})
    events = [e["events"][0] for e in m["entries"] if e["action"]["type"] == "cards"]
    assert events == [{"t": "cards", "giver": 2, "taker": 1, "count": 3},
                      {"t": "cards", "giver": None, "taker": 0, "count": 1, "resource": 3, "reason": "Tax Levy"},
                      {"t": "cards", "giver": 3, "taker": None, "count": 2}]
    after = dict(m["state"], step="resource")
    assert canon.encode(after) == before
    assert scenario_checks.story(m)[-1] == "Seat 3 returns 2 Resource cards to the decks."


def test_the_table_is_offered_the_effects_in_each_phase_narrowed():
    g = engine.game_module(GAME)
    m = new({"players": 4, "king": 1})
    offered = g.legal(m["state"], None)
    assert [a["type"] for a in offered] == ["next", "heir", "role", "holding", "fall", "face", "cards"]
    by = dict([(a["type"], a) for a in offered])
    assert by["face"]["params"][0]["domain"]["values"] == ["usurper"]  # G15: the face it does not show
    to = [p for p in by["fall"]["params"] if p["name"] == "to"][0]["domain"]
    assert to["among"] == [0, 2, 3] and to["none"] is True  # the crown passes to another seat
    assert [p["name"] for p in by["cards"]["params"]] == ["giver", "taker", "count", "resource", "reason"]
    for a in offered:
        if a["type"] in EFFECTS:
            assert a["params"][-1]["name"] == "reason" and a["params"][-1]["optional"]
    _step(m, {"type": "face", "face": "usurper"}, {"type": "next"}, {"type": "next"})
    by = dict([(a["type"], a) for a in g.legal(m["state"], None)])
    assert "cards" not in by and by["face"]["params"][0]["domain"]["values"] == ["loyalist"]  # G14: no hands
    _step(m, {"type": "fall", "how": "deposed"})
    assert [a["type"] for a in g.legal(m["state"], None)] == ["civil_war"]  # no effect mid-succession


def _filled(schema, last):
    """The action of `schema` with its required parameters at the first (last=False) or the last values
    of their narrowed domains; seats that may be nobody (the decks) are nobody and seat 1, or seats 1 and 2."""
    act = {"type": schema["type"]}
    free = [1, 2] if last else [None, 1]
    for p in schema["params"]:
        d = p["domain"]
        if p.get("optional"):
            continue
        if d["kind"] == "enum":
            act[p["name"]] = d["values"][-1 if last else 0]
        elif d.get("among") is not None:
            act[p["name"]] = d["among"][-1 if last else 0]
        elif d["kind"] == "int":
            act[p["name"]] = d["max"] if last else d["min"]
        else:
            act[p["name"]] = free.pop(0) if d.get("none") else 2
    return act


def _refusal(state, act):
    """The code `act` is refused with in `state`, or None when the rules accept it."""
    try:
        engine.step(GAME, state, act)
    except RuleError as e:
        return e.code
    return None


def test_every_offered_effect_has_a_filling_the_rules_accept():
    """Each effect legal() offers in a phase is accepted for some filling of its narrowed domains
    (a menu never leads to a dead end): the first values, or the last."""
    g = engine.game_module(GAME)
    m = new({"players": 3, "damaged": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]})
    for phase in range(3):
        for a in g.legal(m["state"], None):
            if a["type"] in EFFECTS:
                fillings = [_filled(a, False), _filled(a, True)]
                assert None in [_refusal(m["state"], act) for act in fillings], fillings
        _step(m, {"type": "next"})


def test_the_terminal_games_examples_are_accepted_effects():
    """The help's examples (show.EXAMPLES) read as actions the rules accept in the Resource
    Phase, the reason being the rest of the words."""
    from chancery.words import commands
    from shared_rules.yes_your_grace.show import EXAMPLES

    g = engine.game_module(GAME)
    state = new()["state"]
    parsed = {}
    for typed in [line for kind in sorted(EXAMPLES) for line in EXAMPLES[kind]]:
        parsed[typed] = commands.parse(typed, g.SCHEMAS, 4, g.card_names(state))
        engine.step(GAME, state, parsed[typed])
    assert parsed["cards - 0 1 Coin Tax Levy"] == {"type": "cards", "giver": None, "taker": 0, "count": 1,
                                                    "resource": "Coin", "reason": "Tax Levy"}
    assert parsed["fall deposed to=3 Overthrow"] == {"type": "fall", "how": "deposed", "to": 3, "reason": "Overthrow"}
    assert parsed["holding seat=3 economic gain reason=Royal Grant"] == {
        "type": "holding", "seat": 3, "kind": "economic", "change": "gain", "reason": "Royal Grant"}
    assert parsed["heir - fix a misentry"] == {"type": "heir", "seat": None, "reason": "fix a misentry"}


def test_naming_the_heir_who_is_the_heir_already_says_so():
    """Issue 45: `heir seat=1` when seat 1 was the Heir said "Bob is named the Heir (in place of Bob)"."""
    from shared_rules.yes_your_grace import narrate

    before = {"heir": 1}
    assert narrate._heir(before, before, {"seat": 1}) == "Seat 1 stays the Heir."
    assert narrate._heir(before, before, {"seat": 2}) == "Seat 2 is named the Heir (in place of seat 1)."
