"""The King's Dilemma rules on CPython: the pure helpers and the scenario files.

The same scenario files are replayed under MicroPython by test_micropython_gate.py
and through the CLI by test_cli.py. A scenario header may carry "private":
{"power": [...], "coins": [...]}, the pools behind the House screens at the
end, which the public view hides; each is checked through its own seat's view.
"""

import glob
import os

import paths
import pytest
import scenario_checks

from shared_rules import canon, engine, games, schema, texts
from shared_rules.errors import RuleError
from shared_rules.kings_dilemma import dilemma, scoring
from shared_rules.kings_dilemma import texts as kd_texts

HERE = paths.TESTS
SCENARIOS = sorted(glob.glob(os.path.join(HERE, "scenarios", "kings-dilemma", "*.jsonl")))
GAME = "kings_dilemma"


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_scenario(path):
    assert scenario_checks.failures(path) == []


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_every_refusal_in_the_scenarios_reads_as_a_sentence(path):
    """The texts render each refusal from its facts (no fallback to the bare code)."""
    assert scenario_checks.bare_refusals(path) == []


def test_every_worked_example_has_its_file():
    names = [os.path.basename(p) for p in SCENARIOS]
    for example in ("seed-l1944-five-player-vote", "seed-l2169-middle-pool-split", "seed-l2314-",
                    "seed-l2321-", "seed-l2366-", "zero-power-only-pass", "moderator-pass-once",
                    "staying-", "cleanup-order", "kings-death-fifth-card", "kings-death-icon",
                    "scoring-dense-ties", "bad-input-changes-nothing"):
        assert any(n.startswith(example) for n in names), example


# ------------------------------------------------------------------ Momentum (L2338-2374)

def test_momentum_same_way_adds_one_then_two():
    # L2321-2330: black, no marker, -1: 2 spaces and a black marker; then 3 spaces
    assert dilemma.momentum_step(4, -1, 0, -1, 9) == (2, -1, 1, 2)
    assert dilemma.momentum_step(6, -1, 1, -1, 9) == (3, -1, 1, 3)


def test_momentum_change_of_direction_flips_and_drops_the_marker():
    # L2314-2319: black with a marker, +1: 1 space, white, no marker
    assert dilemma.momentum_step(2, -1, 1, 1, 9) == (3, 1, 0, 1)


def test_momentum_at_the_track_end_clamps_but_counts_the_full_move():
    # R10: the marker stops at the end; the size (for Stability) is the full move
    assert dilemma.momentum_step(1, -1, 1, -2, 9) == (0, -1, 1, 4)
    assert dilemma.momentum_step(8, 1, 1, 1, 9) == (8, 1, 1, 3)
    # R10's option: already at that end, no extra and the Momentum kept
    assert dilemma.momentum_step(8, 1, 0, 1, 9, False) == (8, 1, 0, 1)
    assert dilemma.momentum_step(0, 1, 0, -1, 9, False) == (0, -1, 0, 1)


def test_stability_clamps_and_reports_the_end():
    assert dilemma.stability_step(4, -1, 4, 13) == (0, "bottom")
    assert dilemma.stability_step(10, 1, 5, 13) == (12, "top")
    assert dilemma.stability_step(6, 1, 2, 13) == (8, "")


# ------------------------------------------------------------------ ranking and scoring (L3513-3560)

def test_dense_and_competition_places():
    values = [9, 5, 7, 3, 7]
    assert [scoring.place(values, i) for i in range(5)] == [1, 3, 2, 4, 2]
    assert [scoring.place(values, i, dense=False) for i in range(5)] == [1, 4, 2, 5, 2]
    assert [scoring.place(values, i, True, False) for i in range(5)] == [4, 2, 3, 1, 3]


def test_open_agendas_follow_the_l3513_example():
    pos = [8, 2, 6, 2, 6]  # Influence top; Morale, Knowledge 2nd; Wealth, Welfare last
    got = scoring.open_agendas(pos, [0, -1, 1, -1, 2], [-1, 1, -1, 0, 2])
    assert got == {0: 3 - 3, 1: 1 - 3, 2: 1 - 1}
    # competition ranking: Knowledge is 4th lowest, not 2nd: no penalty
    assert scoring.open_agendas(pos, [], [-1, -1, -1, -1, 2], dense=False) == {2: 0}


def test_power_bonus_follows_the_l3544_example_and_none_left_earns_nothing():
    power = [9, 5, 7, 3, 7]  # Valentine, Martina, Armin, Charles, Theodore
    assert [scoring.bonus(power, i) for i in range(5)] == [2, 0, 1, 0, 1]
    assert [scoring.bonus([0, 0, 0], i) for i in range(3)] == [0, 0, 0]


# ------------------------------------------------------------------ settings, views, legal, texts

def new(settings=None, seed=1):
    return engine.new_match(GAME, settings or {"players": 3}, seed)


def test_setup_defaults():
    s = new({"players": 5})["state"]
    assert s["power"] == [8] * 5 and s["coins"] == [10] * 5 and s["middle"] == 3
    assert s["resources"] == [4] * 5 and s["stability"] == 6
    assert s["leader"] == 0 and s["moderator"] == 4
    assert engine.game_module(GAME).dice_wanted(s) == 5


@pytest.mark.parametrize("settings", [
    {"players": 3, "power": [8, 8]},
    {"players": 3, "prestige": [0, 0, 1]},
    {"players": 3, "prestige": [0, 1, 3]},
    {"players": 3, "resource_track": 8},
    {"players": 3, "resources": [4, 4, 4, 4, 9]},
    {"players": 3, "open_agendas": [0, 3, -1, -1, -1, -1, -1, -1, -1, -1]},
    {"players": 3, "open_agendas": [0, 1, -1, -1, -1]},
    {"players": 3, "time_counter": 4, "death_space": 5},
])
def test_settings_that_do_not_fit_together_are_refused(settings):
    with pytest.raises(RuleError) as e:
        new(settings)
    assert e.value.code == "bad_setting" and games.message(e.value)


@pytest.mark.parametrize("tokens, seat, sign", [
    ([0, 0, 0, -1, -1, -1, -1, -1, -1, -1], 0, "Positive"),
    ([-1, -1, -1, -1, -1, 2, 1, 2, -1, 2], 2, "Negative"),
])
def test_a_player_holds_at_most_two_open_agenda_tokens_of_each_sign(tokens, seat, sign):
    # L1449-1456: at most 2 Positive and 2 Negative tokens per player
    with pytest.raises(RuleError) as e:
        new({"players": 3, "open_agendas": tokens})
    assert e.value.code == "bad_setting" and e.value.detail["why"] == "too_many"
    said = games.message(e.value)
    assert "seat %d" % seat in said and sign in said and "at most 2" in said
    new({"players": 3, "open_agendas": [0, 0, 1, 1, 2, 0, 0, 1, 1, 2]})  # two of each sign is allowed


def test_views_hide_other_houses_pools_until_the_end():
    m = new()
    engine.apply(m, {"type": "roll", "values": [1, 1, 1, 1, 1], "source": "manual"})
    g = engine.game_module(GAME)
    assert g.view(m["state"], None)["power"] == [None, None, None]
    assert g.view(m["state"], 1)["coins"] == [None, 10, None]
    assert "rng" not in g.view(m["state"], None)


def test_legal_actions_and_refusals_say_nothing_of_hidden_power_or_coins():
    """What a House may do, as the menus on the table's display and the host list it, is the
    same whatever Power and Coins are behind the screens; so is a refusal's detail (it goes
    over the link and to the mirror). The rules still refuse what a House cannot do (R6)."""
    g = engine.game_module(GAME)
    seen = []
    for power, coins in (([0, 8, 8], [10, 10, 10]), ([5, 8, 8], [0, 3, 10])):
        m = new({"players": 3, "power": power, "coins": coins})
        engine.apply(m, {"type": "roll", "values": [1, 1, 1, 1, 1], "source": "manual"})
        with pytest.raises(RuleError) as e:
            engine.apply(m, {"type": "vote", "side": "aye", "power": 6})
        seen.append((canon.encode([g.legal(m["state"], s) for s in (None, 0, 1)]), e.value.code,
                     canon.encode(e.value.detail)))
    assert seen[0] == seen[1] and seen[0][1] == "not_enough_power"
    m = new({"players": 3, "power": [0, 8, 8]})
    engine.apply(m, {"type": "roll", "values": [1, 1, 1, 1, 1], "source": "manual"})
    assert [a["type"] for a in g.legal(m["state"], 0)] == ["vote", "pass", "coins"]
    with pytest.raises(RuleError):  # R6: with no Power, House 0 may only pass
        engine.apply(m, {"type": "vote", "side": "aye", "power": 1})
    assert [a["type"] for a in g.legal(m["state"], 1)] == ["coins"]  # not House 1's turn
    engine.apply(m, {"type": "pass", "kind": "moderate"})
    assert schema.find(g.legal(m["state"], 1), "pass")["params"][0]["domain"]["values"] == ["gather"]


def test_every_legal_schema_accepts_some_action():
    """Each offered action type has a filling the rules accept: the first values of each domain,
    or its last ones (a signed effect's most negative amount returns more than a House has)."""
    m = new()
    g = engine.game_module(GAME)
    engine.apply(m, {"type": "roll", "values": [1, 1, 1, 1, 1], "source": "manual"})
    offered = g.legal(m["state"], None)
    assert len(offered) >= 5, offered  # the table's actions and the printed effects: never vacuous
    for a in offered:
        refused = []
        for last in (False, True):
            act = {"type": a["type"]}
            seats = [1, 0]  # two seats in one action (who gives, who takes) are two Houses
            for p in a["params"]:
                d = p["domain"]
                if d["kind"] == "int":
                    act[p["name"]] = d.get("among", [d["max"] if last else d["min"]])[0]
                elif d["kind"] == "enum":
                    act[p["name"]] = d["values"][-1 if last else 0]
                elif d["kind"] == "seat":
                    act[p["name"]] = seats.pop(0)
            try:
                engine.step(GAME, m["state"], act)
                break
            except RuleError as e:
                refused.append((act, e.code))
        else:
            raise AssertionError(refused)


def test_every_error_code_has_a_text():
    import re

    codes = set()
    for path in glob.glob(os.path.join(HERE, "..", "shared_rules", "kings_dilemma", "*.py")):
        with open(path) as f:
            codes.update(re.findall(r'RuleError\("([a-z_]+)"', f.read()))
    for code in codes:
        assert code in kd_texts.TEXTS or code in texts.TEXTS, code


def test_prompts_read_for_each_step():
    m = new()
    g = engine.game_module(GAME)
    assert "rolled" in g.prompt(m["state"])
    engine.apply(m, {"type": "roll", "values": [1, 1, 1, 1, 1], "source": "manual"})
    assert g.prompt(m["state"]).startswith("Round 1, House 0 votes")
    with pytest.raises(RuleError) as e:
        engine.apply(m, {"type": "add", "power": 1})
    assert "has not voted yet" in games.message(e.value)


def test_every_setting_action_and_parameter_has_its_doc():
    from chancery.words import describe

    docs = describe.docs_of(GAME)
    g = engine.game_module(GAME)
    keys = ["game"] + ["setting." + s["name"] for s in g.SETTINGS]
    for a in g.SCHEMAS:
        keys.append(a["type"])
        keys.extend([a["type"] + "." + p["name"] for p in a["params"]])
    assert [k for k in keys if not docs.get(k)] == []


def _fill(rnd, domain, seats):
    kind = domain["kind"]
    if kind == "int":
        among = domain.get("among")
        return rnd.choice(among) if among else rnd.randint(domain["min"], min(domain["max"], domain["min"] + 9))
    if kind == "enum":
        return rnd.choice(domain["values"])
    if kind == "bool":
        return rnd.random() < 0.3
    if kind == "seat":
        return rnd.randrange(seats)
    if kind == "list":
        k = rnd.randint(domain["min"], max(domain["min"], min(domain["max"], 3)))
        return [_fill(rnd, domain["of"], seats) for _ in range(k)]
    if kind == "text":
        return "card %d" % rnd.randrange(100)
    raise AssertionError(kind)


ANY_TIME = ("coins", "pool", "stability", "momentum", "agenda_value", "drawn")  # bargaining, printed effects


@pytest.mark.parametrize("seed", range(1, 41))
def test_random_playouts_from_legal_end_or_refuse_cleanly(seed):
    """Random games built only from legal(): every action is accepted or refused
    with a rule error (never a crash), outcomes keep the state on its tracks, and
    the game ends (the King dies by the fifth card on the death space at the latest)."""
    import random

    from shared_rules import canon

    rnd = random.Random(seed)
    players = 3 + seed % 3
    m = new({"players": players, "time_counter": 4, "death_space": 4}, seed)
    g = engine.game_module(GAME)
    for _ in range(3000):
        state = m["state"]
        if g.is_over(state):
            break
        offered = g.legal(state, None)
        assert offered, state["step"]
        assert g.prompt(state).endswith(".")
        # bargaining and the printed effects are always on offer: take them now and then, not forever
        pick = [a for a in offered if a["type"] not in ANY_TIME] or offered
        a = rnd.choice(offered if rnd.random() < 0.05 else pick)
        act = {"type": a["type"]}
        for p in a["params"]:
            if not p.get("optional") or rnd.random() < 0.5:
                act[p["name"]] = _fill(rnd, p["domain"], players)
        if act["type"] == "outcome":
            act["amounts"] = [rnd.choice([-2, -1, 1, 2]) for _ in act["resources"]]
        before = canon.digest(state)
        try:
            engine.apply(m, act)
        except RuleError as e:
            assert canon.digest(m["state"]) == before and games.message(e), act
            continue
        s = m["state"]
        assert all(0 <= x < 9 for x in s["resources"]) and 0 <= s["stability"] < 13
        assert min(s["power"]) >= 0 and min(s["coins"]) >= 0 and s["middle"] >= 0
    assert g.is_over(m["state"]), m["state"]["step"]
    assert len(m["state"]["scores"]) == players and m["state"]["winners"]


def test_the_sealed_votes_ballot_says_nothing_of_the_houses_power():
    """The ballot a sealed vote opens is in the log: nothing in it may depend on the Power
    behind the Houses' screens (its count's bound is fixed, not the largest Power)."""
    events = []
    for power in ([8, 8, 8], [8, 13, 2]):
        m = engine.new_match(GAME, {"players": 3, "voting": "sealed", "power": power}, 2)
        entry = engine.apply(m, {"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
        events.append([e for e in entry["events"] if e["t"] == "ballot_opened"])
    assert events[0] == events[1] and events[0][0]["max"] == 99


def test_a_ballot_the_table_holds_during_the_open_vote_is_not_the_vote():
    """A table may hold a sealed ballot of its own at any time: revealed during the rulebook's
    open vote, it is a ballot's result, not the Council's vote."""
    m = engine.new_match(GAME, {"players": 3}, 2)
    for act in ({"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"},
                {"type": "ballot_open", "question": "Break for tea?", "options": ["yes", "no"]},
                {"type": "ballot_cast", "seat": 0}, {"type": "ballot_cast", "seat": 1},
                {"type": "ballot_cast", "seat": 2}):
        engine.apply(m, act)
    entry = engine.apply(m, {"type": "ballot_reveal", "choices": ["yes", "no", "yes"]})
    assert [e["t"] for e in entry["events"]] == ["ballot_revealed"]
    s = m["state"]
    assert s["step"] == "vote" and s["ballot"]["result"]["counts"] == [2, 1]
    engine.apply(m, {"type": "vote", "side": "aye", "power": 1})  # the open vote goes on


@pytest.mark.parametrize("when", ["before any cast", "with casts in", "after the close"])
def test_a_card_drawn_during_a_sealed_vote_sets_its_ballot_aside(when):
    """kings-dilemma-rulebook.txt L393-398, L3054-3057: an Event or Trigger card drawn as the
    round's card is placed in the Event area, not voted on. Under sealed voting the round's
    ballot is open when the table records it (`drawn`), with or without casts in, closed or not:
    that ballot is set aside (no reveal, its casts count for nothing, no choice in the log), and
    the next round's sealed vote opens, as the open vote's next round begins. It was refused
    with ballot_open, always: a sealed game could not record the card."""
    m = engine.new_match(GAME, {"players": 3, "voting": "sealed"}, 2)
    engine.apply(m, {"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
    before = canon.copy(m["state"])
    if when != "before any cast":
        engine.apply(m, {"type": "ballot_cast", "seat": 1})
    if when == "after the close":
        engine.apply(m, {"type": "ballot_close"})
    s = m["state"]
    offered = [a["type"] for a in engine.game_module(GAME).legal(s, None)]
    assert "drawn" in offered
    entry = engine.apply(m, {"type": "drawn", "card": "event"})
    kinds = [e["t"] for e in entry["events"]]
    assert kinds.index("ballot_set_aside") < kinds.index("ballot_opened"), kinds
    assert not [e for e in entry["events"] if "choices" in e or "choice" in e]  # nothing of a cast
    s = m["state"]
    assert s["ballot"]["n"] == 2 and s["ballot"]["open"] and s["ballot"]["voted"] == []
    assert s["round"] == before["round"] + 1 and s["leader"] == before["leader"]
    for key in ("power", "coins", "middle", "resources", "stability"):
        assert s[key] == before[key], key  # the pools as they were: no vote took place
    engine.apply(m, {"type": "ballot_cast", "seat": 0})  # the new round's vote takes casts
    assert m["state"]["ballot"]["voted"] == [0]


def test_a_card_drawn_after_a_sealed_votes_reveal_is_refused_as_after_the_vote():
    """Once the reveal has played the Houses' choices, the round's card was voted on: it is no
    Event or Trigger card to record now (not_before_vote), as in the open vote."""
    m = engine.new_match(GAME, {"players": 3, "voting": "sealed"}, 2)
    engine.apply(m, {"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
    for seat in range(3):
        engine.apply(m, {"type": "ballot_cast", "seat": seat})
    engine.apply(m, {"type": "ballot_reveal", "choices": ["gather", "gather", "gather"],
                     "amounts": [None, None, None]})
    with pytest.raises(RuleError) as e:
        engine.step(GAME, m["state"], {"type": "drawn", "card": "event"})
    assert e.value.code in ("not_before_vote", "wrong_step")


def test_a_printed_flip_turns_the_marker_over_and_removes_its_momentum_marker():
    """kings-dilemma-rulebook.txt L2362-2365: turning a Resource marker over removes any Momentum
    marker attached to it (a Momentum marker is of its side's colour, L2357-2358). Kept, the next
    move the new way was one space longer than the rules give."""
    m = engine.new_match(GAME, {"players": 3}, 2)
    engine.apply(m, {"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
    engine.apply(m, {"type": "momentum", "resource": "wealth", "change": "add"})
    r = 1  # wealth
    assert m["state"]["marker"][r] == 1
    engine.apply(m, {"type": "momentum", "resource": "wealth", "change": "flip"})
    assert m["state"]["marker"][r] == 0
