"""The Council's rules on CPython: the scenario files, the resolution's pieces, the
scoring, the settings, legal actions, texts, and random legal play.

The same scenario files are replayed under MicroPython by test_micropython_gate.py.
"""

import glob
import os
import re
import sys

import paths
import pytest
import scenario_checks
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules import canon, engine, games, texts
from shared_rules.errors import RuleError
from shared_rules.the_council import reveal
from shared_rules.the_council import texts as tc_texts

HERE = paths.TESTS
SCENARIOS = sorted(glob.glob(os.path.join(HERE, "scenarios", "the-council", "*.jsonl")))
GAME = "the_council"
D0 = ["Ace of Moons", "Author", "Journey", "Mountain", "Huntress"]
D1 = ["Ace of Suns", "Desert", "Painter", "Sailor", "Bard"]
D2 = ["Ace of Waves", "Origin", "Savage", "Battle", "Sea"]
Z = [0] * 6


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_scenario(path):
    assert scenario_checks.failures(path) == []


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_every_refusal_in_the_scenarios_reads_as_a_sentence(path):
    """The texts render each refusal from its facts (no fallback to the bare code)."""
    assert scenario_checks.bare_refusals(path) == []


def test_every_ruling_and_worked_example_has_its_file():
    names = [os.path.basename(p) for p in SCENARIOS]
    wanted = ["seed-l40-scoring-12", "seed-l40-scoring-15", "seed-l41-", "bad-input-changes-nothing"]
    wanted += ["t%02d-" % k for k in range(1, 14)]
    wanted += ["effects-chips-ranks-traitors-empire", "effects-refused-change-nothing"]  # C17-C19
    for prefix in wanted:
        assert any(n.startswith(prefix) for n in names), prefix


# ------------------------------------------------------------------ helpers

def new(s=None):
    return engine.new_match(GAME, s or {"players": 3}, 0)


def play(m, *acts):
    for a in acts:
        engine.apply(m, a)
    return m


def drafted(s=None):
    return play(new(s), *[{"type": "draft", "seat": k, "cards": d} for k, d in enumerate([D0, D1, D2])])


def to_reveal(m, card, bids):
    """The event, then one bid per seat (a dict of suit: chips, or None to pass)."""
    play(m, {"type": "event", "card": card})
    for b in bids:
        play(m, dict({"type": "bid"}, **b) if b else {"type": "pass"})
    return m


def resolve(m, revealed):
    """Resolve the event directly (as the ballot hook would) on a copy; returns (events, state)."""
    state = canon.copy(m["state"])
    events = []

    def emit(ev):
        engine.fold(engine.game_module(GAME), state, ev)
        events.append(ev)

    reveal.resolve(state, revealed, emit)
    return events, state


def view(state):
    return engine.game_module(GAME).view(state, None)


# ------------------------------------------------------------------ the draft (L17-L23)

def test_draft_gives_one_chip_per_suit_symbol_and_starts_the_events():
    m = drafted()
    v = view(m["state"])
    assert v["chips"] == [[5, 1, 1, 0, 0, 1], [0, 4, 1, 1, 1, 1], [0, 0, 3, 2, 2, 1]]
    assert v["step"] == "event" and v["deck"] == 36 - 18 and v["starter"] == 0


def test_pawns_and_courts_give_three_chips_the_excuse_none():
    m = new({"players": 3, "extended": True})
    play(m, {"type": "draft", "cards": ["Watchman", "Consul", "Excuse", "Huntress", "Ace of Knots"]})
    assert view(m["state"])["chips"][0] == [3, 0, 1, 0, 1, 3]


# ------------------------------------------------------------------ the revealed cards (L28-L32)

def test_an_ace_is_unlimited_and_makes_its_holder_highest():
    m = to_reveal(drafted(), "Pact", [{"Moons": 2}, {"Suns": 1}, None])  # 9: 3 chips would fail
    events, state = resolve(m, [[], ["Ace of Suns"], []])
    assert events[-1]["outcome"] == "success" and events[-1]["ace"] and events[-1]["total"] == 2
    assert view(state)["ranks"][:2] == [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]]


def test_an_ace_of_another_suit_does_nothing_under_t4():
    m = to_reveal(drafted(), "Pact", [None, None, None])
    events, _state = resolve(m, [[], [], ["Ace of Waves"]])
    assert events[-1]["outcome"] == "failure" and not events[-1]["ace"]


def test_a_pawn_adds_a_chip_in_each_matching_suit():
    m = new({"players": 3, "extended": True})
    play(m, *[{"type": "draft", "cards": d} for d in (["Watchman"] + D0[1:], D1, D2)])
    to_reveal(m, "Betrayal", [{"Knots": 1}, {"Knots": 1}, None])  # 8 Wyrms/Knots
    events, _state = resolve(m, [["Watchman"], [], []])
    assert [e for e in events if e["t"] == "ranks"] == []  # 2 + 2 Pawn chips < 8
    assert events[-1]["total"] == 4
    m2 = to_reveal(drafted({"players": 3, "extended": True}), "Harvest", [{"Moons": 1}, {"Suns": 1}, None])
    assert m2["state"]["step"] == "reveal"


def test_a_pawn_breaks_a_bid_tie_by_adding_its_chip():
    m = new({"players": 3, "extended": True})
    play(m, *[{"type": "draft", "cards": d} for d in (["Watchman"] + D0[1:], D1, D2)])
    to_reveal(m, "Calamity", [{"Wyrms": 1}, {"Wyrms": 1}, None])  # seat 0 has the Watchman's Wyrms chip
    events, _state = resolve(m, [["Watchman"], [], []])
    assert [(e["seat"], e["suit"], e["why"]) for e in events if e["t"] == "ranks"] == [(0, 4, "bid")]


def test_a_court_gives_a_traitor_chip_only_on_failure():
    m = new({"players": 3, "extended": True})
    play(m, *[{"type": "draft", "cards": d} for d in (["Consul"] + D0[1:], D1, D2)])
    to_reveal(m, "Lunatic", [None, None, None])
    events, state = resolve(m, [["Consul"], [], []])
    assert events[-1]["outcome"] == "failure" and state["traitors"] == [1, 0, 0]
    play(m, {"type": "ballot_close"}, {"type": "ballot_reveal", "choices": [None, None, None]})
    to_reveal(m, "Windfall", [None, None, None])  # rank 0: success
    events, state = resolve(m, [["Consul"], [], []])
    assert events[-1]["outcome"] == "success" and state["traitors"] == [0, 0, 0]


def test_a_number_breaks_ties_lower_is_better():
    m = to_reveal(drafted(), "Windfall", [{"Knots": 1}, {"Knots": 1}, {"Knots": 1}])
    _events, state = resolve(m, [["Author"], ["Painter"], ["Battle"]])  # 2, 3, 4 of Knots
    assert view(state)["ranks"] == [[0, 0, 0, 0, 0, 1], Z, Z]
    _events, state = resolve(m, [[], ["Painter"], ["Battle"]])
    assert view(state)["ranks"] == [Z, [0, 0, 0, 0, 0, 1], Z]
    _events, state = resolve(m, [[], [], []])
    assert view(state)["ranks"] == [Z, Z, Z]


def test_a_crown_grants_its_rank_whatever_the_outcome():
    m = to_reveal(drafted(), "Diplomat", [None, None, None])  # 8 Moons/Suns: failure
    events, state = resolve(m, [["Huntress"], ["Bard"], ["Sea"]])
    assert events[-1]["outcome"] == "failure"
    # Sea, the Crown of Waves, shares no suit with the event: it grants its rank all the same at the
    # default effects = all (L32 names no suit but its own), not with effects = matching (T4)
    assert view(state)["ranks"] == [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]]
    m = to_reveal(drafted({"players": 3, "effects": "matching"}), "Diplomat", [None, None, None])
    events, state = resolve(m, [["Huntress"], ["Bard"], ["Sea"]])
    assert view(state)["ranks"] == [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], Z]


# ------------------------------------------------------------------ ties and bounds (T6-T9)

SET = {"lowest": "all", "lowest_ties": "none"}


def test_pick_highest_and_lowest():
    bids = [[2, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]
    keys = [[99] * 6 for _ in range(3)]
    assert reveal._pick(SET, bids, keys, 0, False) == []  # tied, no number
    keys[1][0] = 8
    assert reveal._pick(SET, bids, keys, 0, False) == [1]
    assert reveal._pick(SET, bids, keys, 1, False) == []  # nobody bid (T6)
    assert reveal._pick(SET, bids, keys, 0, True) == [2]  # zero bids count (T7)
    assert reveal._pick(SET, bids, keys, 1, True) == []  # all tied at 0, no number
    keys[0][1] = 5
    assert reveal._pick(SET, bids, keys, 1, True) == []  # seat 0 escapes, 1 and 2 still tied
    assert reveal._pick({"lowest": "all", "lowest_ties": "all"}, bids, keys, 1, True) == [1, 2]
    assert reveal._pick({"lowest": "bidders", "lowest_ties": "none"}, bids, keys, 1, True) == []
    assert reveal._pick({"lowest": "bidders", "lowest_ties": "none"}, bids, keys, 0, True) == [0]  # 1 escapes


def test_ranks_and_the_empire_stay_within_bounds():
    m = drafted({"players": 3, "ranks": [[6, 0, 0, 0, 0, 0], Z, Z], "empire": [6, 6, 6, 6, 6, 0]})
    to_reveal(m, "Lunatic", [{"Moons": 5}, {"Waves": 1}, None])
    _events, state = resolve(m, [["Huntress"], [], []])
    assert view(state)["ranks"][0][0] == 6
    m = drafted({"players": 3, "empire": [0, 6, 6, 6, 6, 0]})
    to_reveal(m, "Castle", [None, None, None])
    events, state = resolve(m, [[], [], []])
    assert state["empire"] == [0, 5, 6, 6, 6, 0] and [e for e in events if e["t"] == "ranks"] == []


# ------------------------------------------------------------------ the collapse and the score (L37-L41)

def scored(ranks, empire, traitors, last=None):
    n = len(ranks)
    state = {"ranks": [x for r in ranks for x in r], "empire": empire, "traitors": traitors,
             "last": last or [0] * n}
    points = reveal.scores(state)
    return reveal.fallen(state), points, reveal.winners(state, points)


def test_the_seed_example_scores_12_and_15():
    assert scored([[5, 0, 3, 0, 0, 0], Z, Z], [4, 6, 4, 6, 6, 6], [2, 0, 0]) == ([0], [12, 0, 0], [0])
    assert scored([[5, 0, 3, 0, 0, 0], [0, 0, 5, 0, 0, 0], Z], [4, 6, 4, 6, 6, 6], [2, 0, 0]) == \
        ([0, 2], [15, 10, 0], [0])


def test_no_collapse_no_fallen_suit_and_ties_by_the_lowest_card():
    assert scored([[3, 0, 0, 0, 0, 0], Z, Z], [3, 6, 6, 6, 6, 6], [1, 0, 0])[0] == []
    tie = ([[3, 0, 0, 0, 0, 0], [0, 3, 0, 0, 0, 0], Z], [2, 2, 6, 6, 6, 6], [0, 0, 0])
    assert scored(*tie)[2] == [0, 1]  # T13
    assert scored(*tie, last=[4, 2, 1])[2] == [1]
    assert scored(*tie, last=[0, 9, 1])[2] == [1]  # only a tied seat that revealed (C5)
    assert scored(*tie, last=[12, 12, 0])[2] == [0, 1]  # equal ranks: shared (C5)


def test_the_next_hand_discards_the_drafted_cards_and_moves_the_dealer():
    m = drafted({"players": 3, "events": 1})
    to_reveal(m, "Windfall", [None, None, None])
    play(m, {"type": "ballot_close"}, {"type": "ballot_reveal", "choices": [None, None, None]})
    s = m["state"]
    assert (s["step"], s["hand"], s["dealer"], s["front"]) == ("draft", 2, 1, [[], [], []])
    assert s["deck"] == 36 and s["discard"] == []  # 17 left <= 18: reshuffled (T11, C4)


# ------------------------------------------------------------------ settings, views, legal, texts

@pytest.mark.parametrize("bad", [
    {"players": 3, "dealer": 3},
    {"players": 3, "ranks": [Z, Z]},
    {"players": 3, "traitors": [0, 0, 0, 0]},
    {"players": 3, "empire": [6, 6]},
    {"players": 3, "chips": [Z]},
    {"players": 6},
    {"players": 3, "effects": "some"},
])
def test_settings_that_do_not_fit_are_refused(bad):
    with pytest.raises(RuleError) as e:
        new(bad)
    assert e.value.code == "bad_setting" and games.message(e.value)


def test_the_view_hides_nothing_and_shows_each_seat_its_six():
    m = drafted()
    g = engine.game_module(GAME)
    v = g.view(m["state"], 1)
    assert v == g.view(m["state"], None)
    assert v["ranks"] == [Z, Z, Z] and v["front"] == [D0, D1, D2] and v["bids"] == [Z, Z, Z]
    assert set(v) == set(m["state"]) | {"suits"} and v["suits"] == []  # "suits": the event's, while bid
    engine.apply(m, {"type": "event", "card": "Mill"})
    assert g.view(m["state"], None)["suits"] == ["Waves", "Leaves"]


def test_legal_narrows_to_the_event_suits_and_the_chips_held():
    m = drafted()
    g = engine.game_module(GAME)
    event = g.legal(m["state"], None)[0]
    among = event["params"][0]["domain"]["among"]
    assert "Author" not in among and "Forest" in among and len(among) == 36 - 15
    to_reveal(m, "Lunatic", [])
    bid = g.legal(m["state"], 0)[0]
    assert [(p["name"], p["domain"]["max"]) for p in bid["params"]] == [("Moons", 5), ("Waves", 1)]
    assert g.legal(m["state"], 1) == []  # a seat's pad: only its own bid; the effects are the table's
    assert [a["type"] for a in g.legal(m["state"], None)] == ["bid", "pass", "chips", "ranks", "traitors", "empire"]


def test_a_bid_asks_its_first_suit_on_one_chip_and_a_seat_without_chips_only_passes():
    """A bid of nothing is a pass (C10's turn moves on either way): the bid's menu asks the first of
    the event's suits the bidder holds chips of, its cursor on one chip (not a confirm of a bid of
    nothing, whose back then opens the suit), so a bid of one chip is three presses: bid, one,
    send. A seat holding no chip of the event's suits is offered the pass alone. (Issue 45: fewer
    presses to a common entry.)"""
    from firmware.menu import Menu

    m = to_reveal(drafted(), "Lunatic", [])  # Moons and Waves: seat 0 holds 5 and 1
    g = engine.game_module(GAME)
    bid = g.legal(m["state"], 0)[0]
    assert [p["domain"].get("start") for p in bid["params"]] == [1, None]
    menu = Menu(g.legal, g.card_names)
    menu.start(m["state"], 0)
    for k in ("select", "select", "select"):
        screen, act = menu.key(m["state"], k)
    assert act == {"type": "bid", "seat": 0, "Moons": 1}, (screen, act)
    m = to_reveal(drafted(), "End", [])  # Leaves: seat 0 holds none
    assert [a["type"] for a in g.legal(m["state"], 0)] == ["pass"]


def test_every_error_code_has_a_text():
    codes = set()
    for path in glob.glob(os.path.join(HERE, "..", "shared_rules", "the_council", "*.py")):
        with open(path) as f:
            codes.update(re.findall(r'RuleError\("([a-z_]+)"', f.read()))
    assert codes
    for code in codes:
        assert code in tc_texts.TEXTS or code in texts.TEXTS, code


def test_prompts_read_for_each_step():
    g = engine.game_module(GAME)
    m = new()
    assert g.prompt(m["state"]).startswith("Hand 1, the draft")
    drafted_m = drafted()
    assert "reveal the next event" in g.prompt(drafted_m["state"])
    to_reveal(drafted_m, "Lunatic", [])
    assert "seat 0 bids chips of Moons/Waves" in g.prompt(drafted_m["state"])


def _docs():
    try:
        from chancery.words.describe import docs_of
    except ImportError:
        from shared_rules.games import docs as docs_of
    return docs_of(GAME)


def test_every_setting_action_and_parameter_has_its_doc():
    docs = _docs()
    g = engine.game_module(GAME)
    keys = ["game"] + ["setting." + s["name"] for s in g.SETTINGS]
    for a in g.SCHEMAS:
        keys.append(a["type"])
        keys.extend([a["type"] + "." + p["name"] for p in a["params"]])
    assert [k for k in keys if not docs.get(k)] == []


def test_a_reveal_position_beyond_the_cards_is_ignored():
    m = to_reveal(drafted(), "Windfall", [None, None, None])
    state = canon.copy(m["state"])
    state["front"][0] = state["front"][0][:2]
    state["ballot"]["result"] = {"choices": [["2", "5"], None, []], "counts": []}
    events = []
    reveal.from_ballot(state, events.append)
    assert events[-1]["cards"] == [["Author"], [], []]


# ------------------------------------------------------------------ the table's effects (effects.py, C17-C19)

EFFECTS = ["chips", "ranks", "traitors", "empire"]


def at_every_step():
    """A match at each step the table may enter an effect in: the draft, an event to reveal,
    a bid, an open reveal ballot (the match is copied at each)."""
    m = new({"players": 3, "events": 1})
    yield "draft", canon.copy(m)
    play(m, *[{"type": "draft", "seat": k, "cards": d} for k, d in enumerate([D0, D1, D2])])
    yield "event", canon.copy(m)
    to_reveal(m, "Lunatic", [{"Moons": 1}])
    yield "bid", canon.copy(m)
    play(m, {"type": "pass"}, {"type": "pass"})
    yield "reveal", canon.copy(m)


def test_the_effects_are_offered_to_the_table_at_every_step_until_the_end():
    g = engine.game_module(GAME)
    for step, m in at_every_step():
        state = m["state"]
        assert state["step"] == step
        assert [a["type"] for a in g.legal(state, None)][-4:] == EFFECTS, step
        for seat in range(3):  # a seat's pad offers its own actions only
            assert not [a for a in g.legal(state, seat) if a["type"] in EFFECTS]
    play(m, {"type": "ballot_close"}, {"type": "ballot_reveal", "choices": [None, None, None]})
    assert m["state"]["step"] == "draft"  # no collapse: the next hand
    play(m, {"type": "ranks", "seat": 0, "suit": "Waves", "amount": 6})
    play(m, *[{"type": "draft", "seat": k, "cards": d} for k, d in enumerate([D1, D2, D0])])
    to_reveal(m, "Windfall", [None, None, None])
    play(m, {"type": "ballot_close"}, {"type": "ballot_reveal", "choices": [None, None, None]})
    assert m["state"]["step"] == "over" and g.legal(m["state"], None) == []
    with pytest.raises(RuleError) as e:
        play(m, {"type": "traitors", "seat": 0, "amount": 1})
    assert e.value.code == "game_over"


def filled(schema, last):
    """The action with every parameter at its domain's first value, or at its last (seats 0 or 2)."""
    act = {"type": schema["type"]}
    for p in schema["params"]:
        d = p["domain"]
        if d["kind"] == "int":
            act[p["name"]] = d["max"] if last else d["min"]
        elif d["kind"] == "enum":
            act[p["name"]] = d["values"][-1 if last else 0]
        elif d["kind"] == "seat":
            act[p["name"]] = 2 if last else 0
    return act


def accepted(state, act):
    try:
        engine.step(GAME, state, act)
    except RuleError:
        return False
    return True


def test_every_offered_effect_takes_its_smallest_or_largest_amount():
    """No dead end on the table's menu: each effect, at each step, is accepted with the
    domain's first values or its last ones (a loss from nothing is refused, a gain is not)."""
    g = engine.game_module(GAME)
    for step, m in at_every_step():
        for a in [x for x in g.legal(m["state"], None) if x["type"] in EFFECTS]:
            tried = [filled(a, False), filled(a, True)]
            assert [act for act in tried if accepted(m["state"], act)], (step, tried)
    ranks = schemas_of(g.legal(m["state"], None))["ranks"]
    assert not accepted(m["state"], filled(ranks, False))  # seat 0 loses 6 Moons ranks it has not: refused
    assert accepted(m["state"], filled(ranks, True))  # seat 2 gains 6 in Knots


def schemas_of(offered):
    return dict([(a["type"], a) for a in offered])


def test_an_effect_changes_its_one_count_and_nothing_else():
    for step, m in at_every_step():
        before = m["state"]
        for act, key, index in (({"type": "chips", "seat": 2, "suit": "Wyrms", "amount": 3}, "chips", 2 * 6 + 4),
                                ({"type": "ranks", "seat": 1, "suit": "Suns", "amount": 2}, "ranks", 1 * 6 + 1),
                                ({"type": "traitors", "seat": 0, "amount": 4}, "traitors", 0),
                                ({"type": "empire", "suit": "Knots", "amount": -3}, "empire", 5)):
            after = engine.step(GAME, before, act)[2]
            changed = [k for k in before if canon.encode(before[k]) != canon.encode(after[k])]
            assert changed == [key], (step, act, changed)
            assert after[key][index] - before[key][index] == act["amount"]
            diff = [i for i in range(len(before[key])) if before[key][i] != after[key][i]]
            assert diff == [index]


def test_the_reason_is_kept_in_the_log_narrated_and_replayed():
    scenario = os.path.join(HERE, "scenarios", "the-council", "effects-chips-ranks-traitors-empire.jsonl")
    m = scenario_checks.match_of(scenario)
    effects = [e["events"][0] for e in m["entries"] if e["action"]["type"] in EFFECTS]
    assert [(ev["key"], ev.get("reason")) for ev in effects] == [
        ("traitors", "house rule"), ("chips", "fix a misentry"), ("chips", None), ("ranks", "Huntress"),
        ("empire", "fix a misentry")]
    said = scenario_checks.story(m)
    assert "Seat 2 gains 1 traitor chip (now 1; house rule)." in said
    assert "Seat 1 takes 2 Moons chips from the supply (now 2; fix a misentry)." in said
    assert "Seat 1 returns 1 Moons chip to the supply (now 1)." in said
    assert "Seat 0's rank in Moons moves up 1 (now 6; Huntress)." in said
    assert "The empire's rank in Moons moves down 1 (now 5; fix a misentry)." in said
    from shared_rules import matches

    again = matches.replay(canon.copy(matches.log_of(m)))
    assert canon.digest(again["state"]) == canon.digest(m["state"])


def test_an_effect_during_the_reveal_leaves_the_sealed_ballot_as_it_was():
    """The reveal's choices are the board's secret until the reveal: an effect neither needs
    nor touches them, and its event holds only public counts."""
    m = dict(at_every_step())["reveal"]
    play(m, {"type": "ballot_cast", "seat": 0})
    ballot = canon.encode(m["state"]["ballot"])
    entry = engine.apply(m, {"type": "ranks", "seat": 1, "suit": "Waves", "amount": 1, "reason": "fix a misentry"})
    assert canon.encode(m["state"]["ballot"]) == ballot and m["state"]["step"] == "reveal"
    assert [sorted(ev) for ev in entry["events"]] == [["amount", "key", "reason", "seat", "suit", "t"]]


def test_the_effects_module_is_loaded_only_when_an_effect_is_entered():
    """The board's heap: legal() and the game's other actions never import effects.py."""
    import subprocess

    code = ("import sys\n"
            "from shared_rules import engine\n"
            "m = engine.new_match('the_council', {'players': 3}, 0)\n"
            "g = engine.game_module('the_council')\n"
            "g.legal(m['state'], None); engine.apply(m, {'type': 'draft', 'cards': %r})\n"
            "print('shared_rules.the_council.effects' in sys.modules)\n"
            "engine.apply(m, {'type': 'traitors', 'seat': 1, 'amount': 1})\n"
            "print('shared_rules.the_council.effects' in sys.modules)\n") % D0
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=os.path.join(HERE, ".."), check=True).stdout
    assert out.split() == ["False", "True"]


@pytest.mark.parametrize("target", [
    {"type": "chips", "seat": 1, "suit": "Knots", "amount": -1},
    {"type": "chips", "seat": 2, "suit": "Moons", "amount": 9, "reason": "fix a misentry"},
    {"type": "ranks", "seat": 0, "suit": "Waves", "amount": 3},
    {"type": "traitors", "seat": 2, "amount": 2, "reason": "house rule"},
    {"type": "empire", "suit": "Leaves", "amount": -6},
])
def test_an_effect_is_entered_on_the_tables_menu_alone(target):
    """On the board's own menu (the table's controls), reading only its screens: each
    parameter is turned to and selected; a reason there is "house rule" or "fix a misentry"
    (a pad has no keyboard; the host types any text)."""
    import menu_walk  # tests/mp: on the path once this module is loaded (random_game below)
    from menu_player import MenuPlayer

    from firmware.menu import Menu
    from shared_rules import schema as schemas

    g = engine.game_module(GAME)
    state = dict(at_every_step())["bid"]["state"]
    menu = Menu(g.legal, g.card_names)

    class Table(MenuPlayer):
        def press(self, k):
            screen, act = menu.key(state, k)
            menu_walk.check_screen(screen)
            return screen, act

    p = Table(menu.start(state, None))
    act = p.enter(schemas.find(menu.schemas, target["type"]), target)
    assert act == target and p.keys < 60
    assert engine.step(GAME, state, act)[1][0]["amount"] == target["amount"]


# ------------------------------------------------------------------ random legal play

sys.path.insert(0, os.path.join(HERE, "mp"))
import random_game


def _invariants(state):
    assert all(0 <= r <= 6 for r in state["ranks"]) and all(0 <= r <= 6 for r in state["empire"])
    assert all(c >= 0 for c in state["chips"]) and all(t >= 0 for t in state["traitors"])
    assert 0 <= state["deck"] <= 45 and all(len(f) <= 5 for f in state["front"])
    out = [c for f in state["front"] for c in f] + state["discard"]
    assert len(out) == len(set(out)), "a card in two places"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=1, max_value=2 ** 30), extended=st.booleans(),
       effects=st.sampled_from(["matching", "all"]), lowest=st.sampled_from(["all", "bidders"]),
       events=st.sampled_from([0, 2, 5]))
def test_random_legal_play_keeps_the_invariants(seed, extended, effects, lowest, events):
    """Actions drawn from legal() (and the board's part of each ballot): accepted with the
    invariants holding, or refused with the state unchanged; the game ends."""
    rnd = random_game.Draw(seed)
    g = engine.game_module(GAME)
    state = engine.new_match(GAME, {"players": 3 + seed % 3, "extended": extended, "effects": effects,
                                    "lowest": lowest, "events": events}, seed)["state"]
    cards = g.card_names(state)
    box = {}
    for _ in range(3000):
        if g.is_over(state):
            break
        b = state.get("ballot")
        act = random_game.board_ballot(rnd, state, box) if b is not None and b["result"] is None else None
        if act is None:
            act = random_game.action(rnd, rnd.pick(g.legal(state, None)), engine.seats(state), cards)
        before = canon.encode(state)
        try:
            state = engine.step(GAME, state, act)[2]
        except RuleError as e:
            assert canon.encode(state) == before and games.message(e)
            continue
        _invariants(state)
        assert g.prompt(state).endswith(".")
    assert g.is_over(state) and state["winners"]
