"""Yes, Your Grace in the host's words: the status panel, the full text and the narration
(shared_rules/yes_your_grace/show.py, narrate.py), and the ambiguous
refusal as the mirror and `chancery play` print it, from the scenario files."""

import json
import pathlib
import re

import paths
import pytest
import scenario_checks

from chancery import cli
from chancery.words import narrate, show
from shared_rules import canon, engine, games, jsonlines, scenario
from shared_rules.errors import RuleError
from shared_rules.yes_your_grace import narrate as game_narrate
from shared_rules.yes_your_grace import show as game_show

ROOT = pathlib.Path(paths.ROOT)
SCENARIOS = ROOT / "tests" / "scenarios" / "yes-your-grace"
FLOW = ROOT / "shared_rules" / "yes_your_grace" / "fold.py"
YYG = engine.game_module("yes_your_grace")
ALL = sorted(p.name for p in SCENARIOS.glob("*.jsonl"))


def items(name):
    with open(SCENARIOS / name) as f:
        sc, rest = jsonlines.read_lines(f)
        return sc, [scenario._item(raw) for raw in rest]


def play(name, stop=None):
    """The match a scenario file builds (its refused actions left out), after `stop` actions if given."""
    return scenario_checks.match_of(SCENARIOS / name, stop)


def refusals(name):
    """The RuleErrors of a scenario's refused actions, in order."""
    sc, acts = items(name)
    m = engine.new_match(sc["game"], sc.get("settings"), sc.get("seed", 0))
    out = []
    for act, _, _ in acts:
        try:
            engine.apply(m, act)
        except RuleError as e:
            out.append(e)
    return out


def live(m):
    """The narration as a board's entry reaches the mirror: the events only, no action."""
    state = YYG.initial(m["settings"], m["seed"])
    out = []
    for entry in m["entries"]:
        out += narrate.lines("yes_your_grace", state, entry["events"])
        for ev in entry["events"]:
            engine.fold(YYG, state, canon.copy(ev))
    return out


def status(m):
    return show.status(YYG.view(m["state"], None))


def fallback(line):
    return line.startswith(("(", "An event not narrated here")) or '"t":' in line


def states(m):
    """(state before, entry) for every entry of the match, folded from the start."""
    state = YYG.initial(m["settings"], m["seed"])
    for entry in m["entries"]:
        yield canon.copy(state), entry
        for ev in entry["events"]:
            engine.fold(YYG, state, canon.copy(ev))


def said(lines, *wants):
    """The one line holding every one of `wants`."""
    found = [line for line in lines if all(w in line for w in wants)]
    assert found, (wants, lines)
    return found[0]


# --- the calculator's working ---------------------------------------------------------

def test_the_l17_cost_example_reads_which_card_is_paid_discarded_and_kept():
    m = play("seed-l17-cost-payment.jsonl", 3)  # the Crisis resolved: 3 Coins, Soldiers costing 0, 1, 2, 2
    line = said(scenario_checks.story(m), "Crisis resolved.")
    assert line == (
        "Crisis resolved. Support: 3 Coins pay Soldier 1 c2; Soldier 1 c2 (the other one) and Soldier 1 c1 "
        "are discarded (cannot be paid); Soldier 1 c0 kept (no cost): 1 + 1 = 2. Oppose: Soldier 1 c0 kept (no "
        "cost): 1. The Crisis succeeds (2 > 1): a Notable Triumph is written (Record 1 of 12).")
    panel = status(m).splitlines()
    assert "Last Crisis: success, Support 2 > Oppose 1 | #0 is a side's first card entered, #1 its second..." in panel
    assert "  Support 2: 3 Coins, pay #3 (2 spent); discarded #2 #4; kept #1 (no cost)" in panel
    assert "  Oppose 1: kept #0 (no cost)" in panel
    # a board's entry carries no cards: the same working by index, never a wrong name
    assert said(live(m), "Crisis resolved.").startswith(
        "Crisis resolved. Support: 3 Coins pay card #3; card #2 and card #4 are discarded (cannot be paid); card #1 "
        "kept (no cost): total 2. Oppose: card #0 kept (no cost): total 1.")


@pytest.mark.parametrize("name,want,panel", [
    ("doubling-soldiers-against-spies.jsonl", "Soldier 2 c0 kept (no cost); Soldiers count double (a Spy remains "
                                              "on Oppose): 2x2 = 4.", "  Support 4: kept #0 (no cost); doubled #0"),
    ("doubling-spies-against-diplomats.jsonl", "Spy 2 c0 kept (no cost); Spies count double (a Diplomat remains on "
                                               "Oppose): 2x2 = 4.", "  Oppose 2: kept #0 (no cost); doubled #0"),
    ("doubling-diplomats-against-soldiers.jsonl", "Support: 1 Coin pays Diplomat 2 c1; Diplomat 2 c0 kept "
                                                  "(no cost); Diplomats count double (a Soldier remains on Oppose): "
                                                  "2x2 + 2x2 = 8.",
     "  Support 8: 1 Coin, pay #2 (1 spent); kept #0 (no cost); doubled #0 #2"),
    ("roles-at-resolution.jsonl", "Support: the Marshal (seat 1) adds 2 Soldiers; Soldiers count double (the "
                                  "Spymaster's Spies remain on Oppose): Marshal 2x2 = 4.",
     "  Oppose 6: Chancellor +3 Diplomats x2 = 6"),
    ("succession-without-heir-civil-war.jsonl", "seat 2: Diplomat 2 c0 kept (no cost); Diplomats count double (a "
                                                "Soldier is played for another seat): 2x2 = 4.",
     "seat 2 4 = kept #0 (no cost); doubled #0"),
])
def test_each_doubling_is_named_with_its_reason(name, want, panel):
    m = play(name)
    assert said(scenario_checks.story(m), want)
    n = len(m["entries"])
    panels = [show.status(YYG.view(before, None)) for before, _ in states(m)] + [status(m)]
    assert [p for p in panels if panel in p], (panel, panels[:n])


def test_a_discarded_card_gives_the_other_side_no_doubling():
    line = scenario_checks.story(play("doubling-soldiers-against-spies.jsonl"))
    assert said(line, "Soldiers do not double: a Spy on Oppose was discarded (L18): 1.",
                "Oppose: Spy 1 c1 is discarded (cannot be paid): 0.")


def test_the_steward_coins_and_the_roles_at_resolution():
    all_eco = said(scenario_checks.story(play("y2-steward-all-economic.jsonl")), "Crisis resolved.")
    assert "Support: 4 Coins (the Steward's 4, seat 1) pay Soldier 3 c2 and Soldier 3 c2: 3 + 3 = 6." in all_eco
    undamaged = said(scenario_checks.story(play("y2-steward-undamaged-only.jsonl")), "Crisis resolved.")
    assert ("Support: 2 Coins (the Steward's 2, seat 1) pay Soldier 3 c2; Soldier 3 c2 (the other one) is "
            "discarded (cannot be paid): 3.") in undamaged
    assert "  Support 3: 2 Coins (Steward 2), pay #0 (2 spent); discarded #1" in status(
        play("y2-steward-undamaged-only.jsonl"))
    roles = scenario_checks.story(play("roles-at-resolution.jsonl"))
    assert said(roles, "Oppose: the Spymaster (seat 2) adds nothing (no Undamaged Espionage Holding): 0.")


def test_an_intrigue_and_its_requirement_and_an_equal_total():
    text = scenario_checks.story(play("intrigue-extra-requirement-and-ties.jsonl"))
    assert said(text, "Intrigue played by seat 2 on seat 3 resolved.", "The Intrigue succeeds (2 > 1): seat 2, who "
                "played it, enacts its effect.")
    assert said(text, "The Crisis fails (5 > 0, but the card's additional requirement does not hold)")
    assert said(text, "The Crisis fails (1 = 1: equal is failure)")
    assert "Seat 3's Military Holding is Damaged (Military now 0 Undamaged, 1 Damaged)." in text


# --- damage, deposition, succession, Civil War ------------------------------------------

def test_damage_named_by_the_king_or_forced_and_the_deposition():
    text = scenario_checks.story(play("y4-deposed-at-four-damaged.jsonl"))
    assert said(text, "two of the King's Holdings are Damaged; the King, seat 0, names them.")
    assert "Seat 0, the King, names 2 of their Undamaged Holdings to damage; they hold Military 1, Espionage 1, " \
           "Diplomacy 1, Economic 1." in text
    assert said(text, "Seat 0, the King, names Military and Espionage Holdings to damage; now Undamaged: Military 0,")
    assert said(text, "Seat 0, the King, has no choice: Diplomacy and Economic Holdings are Damaged",
                "With four Damaged Holdings, another failed Crisis deposes them.")
    assert said(text, "the King, seat 0, already has four Damaged Holdings and is Deposed.")
    assert "Seat 0, the King, is Deposed. The Heir, seat 2, takes the crown and shows their Allegiance (L23)." in text
    left = scenario_checks.story(play("y4-damage-what-is-left.jsonl"))
    assert said(left, "has a single Undamaged Holding left, so only it is Damaged: Economic")
    assert said(left, "has no Undamaged Holding left, so nothing more is Damaged.")


def test_succession_with_an_heir_and_a_chaos_agent_picking_the_face():
    text = scenario_checks.story(play("succession-with-heir.jsonl"))
    assert "Seat 2 is named the Heir." in text
    assert "Seat 3 takes the Chancellor (from the King)." in text
    assert "Seat 0, the King, is Assassinated. The Heir, seat 2, takes the crown and shows their Allegiance (L23)." \
        in text
    assert ("Seat 2 shows the Chaos Agent and takes the crown; the King card faces Usurper (their pick, L23). The "
            "Marshal they held goes back to the King (L24). The old King, seat 0, draws a new random Allegiance; the "
            "new King has no Heir yet.") in text
    panel = status(play("succession-with-heir.jsonl", 7))  # the fall: seat 2 to accede
    assert "To enter: seat 2 (the Heir) shows their Allegiance (accede); a Chaos Agent picks the face" in panel


def test_succession_without_an_heir_is_a_civil_war_with_its_tally():
    m = play("succession-without-heir-civil-war.jsonl")
    text = scenario_checks.story(m)
    assert said(text, "Seat 0, the King, is Deposed. There is no Heir: Civil War (L25).")
    war = said(text, "Civil War, each seat's cards against all the others:")
    for want in ["seat 0: no cards: 0.",
                 "seat 1: 1 Coin pays Spy 2 c1; Soldier 2 c0 kept (no cost); Spies count double (a Diplomat "
                 "is played for another seat): 2 + 2x2 = 6.",
                 "Tally: seat 0 0, seat 1 6, seat 2 4. Seat 1 has the highest total, 6, and takes the crown"]:
        assert want in war, want
    waiting = status(play("succession-without-heir-civil-war.jsonl", 3))
    assert "To enter: Civil War (no Heir): the Resource cards played for each seat (civil_war)" in waiting
    assert "one per Undamaged Holding: Soldiers 3, Spies 3, Diplomats 3, Coins 3" in waiting
    after = status(play("succession-without-heir-civil-war.jsonl", 5))
    assert "seat 1 6 = 1 Coin, pay #2 (1 spent); kept #0 (no cost); doubled #2" in after
    assert "To enter: seat 1 (won the Civil War) shows their Allegiance (accede)" in after


def test_a_civil_war_tie_is_the_former_kings_pick():
    m = play("civil-war-tie-former-king-decides.jsonl")
    assert said(scenario_checks.story(m), "Seat 1 and seat 2 tie at 2: the former King, seat 0, picks seat 2, who takes the crown")
    tie = [e for e in refusals("civil-war-tie-former-king-decides.jsonl") if e.code == "tie_for_crown"]
    assert tie and "the former King, seat 0, names the winner" in games.message(tie[0])
    assert "tied seat 1, seat 2: the former King picked seat 2" in status(m)


# --- the round, the Annals, the end -------------------------------------------------------

def test_the_end_of_a_round_reads_violence_peace_or_nothing_more():
    violence = scenario_checks.story(play("overthrow-violence.jsonl"))
    assert said(violence, "An Overthrow was resolved: the round will end in Notable Violence (L21).")
    assert said(violence, "A Notable Violence is written in the Annals of History, Record 1 of 12: the round ends: an "
                "Overthrow was resolved or a Civil War fought in it (L21). 11 Records left.")
    assert said(violence, "Seat 0, the King, is Deposed. The crown passes to seat 1 (an Intrigue effect)")
    peace = scenario_checks.story(play("y3-a-triumph-per-crisis-then-peace.jsonl"))
    assert said(peace, "--- Round 1 is over (2 Crises succeeded and there was no Violence, so nothing more is "
                "written, L21). Round 2:")
    assert said(peace, "A Notable Peace is written in the Annals of History, Record 3 of 4: the round ends: no Crisis "
                "succeeded")
    assert said(peace, "--- Round 2 is over (it ended in Peace). Round 3: the Resource Phase")


@pytest.mark.parametrize("name,stop,slots", [
    ("y1-the-twelfth-record-ends-the-game.jsonl", None,
     "Annals [P P P P P P P P P P P T] 12 of 12 written, 0 Records left"),
    ("y3-a-triumph-per-crisis-then-peace.jsonl", None, "Annals [T T P T] 4 of 4 written, 0 Records left"),
    ("overthrow-violence.jsonl", None, "Annals [V . . . . . . . . . . .] 1 of 12 written, 11 Records left"),
    ("victory-chaos-agent-two-violence.jsonl", 5, "Annals [V . .] 1 of 3 written, 2 Records left"),
    ("seed-l17-cost-payment.jsonl", 0, "Annals [. . . . . . . . . . . .] 0 of 12 written, 12 Records left"),
])
def test_the_panel_shows_the_annals_slot_by_slot(name, stop, slots):
    assert slots in status(play(name, stop))


def test_the_twelfth_record_ends_the_game_and_asks_the_allegiances():
    m = play("y1-the-twelfth-record-ends-the-game.jsonl")
    text = scenario_checks.story(m)
    assert said(text, "Record 12 of 12: a Crisis succeeded. The Annals are full: the game ends (L26).")
    assert text[-1] == ("The game ends (L26): the King, seat 0, is a victor (there is no Heir); seat 1, seat 2 show "
                        "their Allegiance to see who else wins.")
    assert "To enter: seat 1, seat 2 show their Allegiance (reveal: side and Ambition)" in status(m)


@pytest.mark.parametrize("name,won,lost,panel", [
    ("victory-loyalist-king.jsonl",
     "Victors: seat 0 (the Loyalist King); seat 1 (the Heir); seat 2 (a Loyalist whose Ambition, the Marshal, they "
     "hold).",
     "Not victors: seat 3 (a Usurper, while the King card faces Loyalist); seat 4 (a Loyalist whose Ambition, the "
     "Steward, is held by the King).",
     "Victors: seat 0 King, seat 1 Heir, seat 2 Loyalist with Marshal"),
    ("victory-usurper-king.jsonl",
     "Victors: seat 0 (the Usurper King); seat 1 (the Heir); seat 3 (a Usurper whose Ambition, the Spymaster, they "
     "hold).",
     "Not victors: seat 2 (a Loyalist, while the King card faces Usurper); seat 4 (a Usurper with no Ambition).",
     "not: seat 2 Loyalist, wrong side, seat 4 Usurper, no Ambition"),
    ("victory-chaos-agent-two-violence.jsonl",
     "Victors: seat 0 (the Loyalist King); seat 1 (the Chaos Agent, with 2 Records of Notable Violence).",
     "Not victors: seat 2 (a Loyalist whose Ambition, the Chancellor, is held by the King)",
     "Victors: seat 0 King, seat 1 Chaos Agent, 2 Violence"),
])
def test_each_victory_condition_is_narrated_and_shown(name, won, lost, panel):
    m = play(name)
    assert m["state"]["step"] == "over"
    last = scenario_checks.story(m)[-1]
    assert last.startswith("The game is over with ") and won in last and lost in last
    text = status(m)
    assert panel in text and "Game over: the Annals are full" in text
    assert said(scenario_checks.story(m), "Seat 2 shows a Loyalist Allegiance, Ambition ")


def test_a_chaos_agent_crowned_by_a_civil_war_wins_alone():
    m = play("civil-war-chaos-agent-wins.jsonl")
    text = scenario_checks.story(m)
    assert "Seat 2 shows the Chaos Agent: crowned by a Civil War, they win alone at once (L25)." in text
    assert text[-1] == "The game is over: seat 2, a Chaos Agent crowned by a Civil War, wins alone (L25)."
    assert "Game over: a Chaos Agent won a Civil War | Victors: seat 2 Chaos Agent crowned by a Civil War, alone" \
        in status(m)


# --- every event, the panel's size, the full text ---------------------------------------------

def test_every_event_tag_the_fold_knows_has_its_own_sentence():
    src = FLOW.read_text()
    tags = set(re.findall(r't == "(\w+)"', src[src.index("def fold"):]))
    assert len(tags) >= 12
    assert tags <= set(game_narrate.TELL)
    told = {}
    for name in ALL:
        m = play(name)
        for before, entry in states(m):
            lines = narrate.lines("yes_your_grace", before, entry["events"], entry["action"])
            assert len(lines) == len(entry["events"])
            assert not [line for line in lines if fallback(line)], (name, lines)
            state = canon.copy(before)
            for ev, line in zip(entry["events"], lines):
                prev = canon.copy(state)
                engine.fold(YYG, state, canon.copy(ev))
                assert game_narrate.one(prev, state, ev, entry["action"]) == line
                told.setdefault(ev["t"], line)
        assert not [line for line in live(m) if fallback(line)], name
    assert sorted(tags - set(told)) == []  # a new event needs a scenario and a sentence
    assert len(set(told.values())) == len(told)


def test_an_unknown_event_reads_as_a_generic_sentence_and_the_rest_goes_on():
    m = play("seed-l17-cost-payment.jsonl", 2)
    out = narrate.lines("yes_your_grace", m["state"], [{"t": "omen", "x": 1}, {"t": "heir", "seat": 2}])
    assert out == ['An event not narrated here: {"t":"omen","x":1}.', "Seat 2 is named the Heir."]
    bad = narrate.lines("yes_your_grace", m["state"], [{"t": "damage", "seat": 9}])
    assert bad == ['An event not narrated here: {"seat":9,"t":"damage"}.']
    # an action that does not match the working is never read as the cards
    before = play("seed-l17-cost-payment.jsonl", 2)["state"]
    entry = play("seed-l17-cost-payment.jsonl", 3)["entries"][-1]
    wrong = dict(entry["action"], support=["Spy 5 c0"])
    assert said(narrate.lines("yes_your_grace", before, entry["events"], wrong), "3 Coins pay card #3")


@pytest.mark.parametrize("name", ALL)
def test_the_panel_stays_small_at_every_entry(name):
    m = play(name)
    for before, _ in states(m):
        view = YYG.view(before, None)
        lines = show.status(view).splitlines()
        assert 3 <= len(lines) <= 12 and max(len(line) for line in lines) <= 100, lines
        assert show.status(view) == game_show.status(view)
        full = show.full(view, "now")
        assert full == game_show.full(view, "now")
        assert "{" not in full and '"' not in full and "[" not in full and "None" not in full


def test_a_side_of_twelve_cards_wraps_within_100_columns():
    m = engine.new_match("yes_your_grace", {"players": 5, "max_value": 9, "max_cost": 9}, 0)
    engine.apply(m, {"type": "next"})
    engine.apply(m, {"type": "next"})
    engine.apply(m, {"type": "event", "kind": "crisis", "support": ["Coin 9"] + ["Soldier 9 c%d" % c for c in
                                                                                 range(1, 10)] + ["Diplomat 9 c0"] * 2,
                     "oppose": ["Spy 1 c0"] * 12})
    lines = status(m).splitlines()
    assert max(len(line) for line in lines) <= 100, lines
    assert len(lines) <= 12 and "  Oppose 24: kept #0-#11 (no cost); doubled #0-#11" in lines


def test_the_full_text_in_replay(capsys):
    assert cli.main(["replay", str(SCENARIOS / "succession-without-heir-civil-war.jsonl")]) == 0
    out = capsys.readouterr().out
    for want in ["Yes, Your Grace: 3 seats, the game ends at Record 12, the Steward counts Undamaged Economic",
                 "Annals of History (1 of 12 written, 11 Records remain): 1 Notable Violence, 2 -, 3 -",
                 "King: seat 1, the King card faces Loyalist; Heir: nobody",
                 "Former King: seat 0",
                 "Roles: Marshal the King, Spymaster the King, Chancellor the King, Steward the King",
                 "Last Civil War (each seat's cards against every other card; #0 is a seat's first card entered, "
                 "#1 its second...):",
                 "  seat 1: 1 Coin; paid #2 (1 Coin spent); discarded (cannot be paid) none; kept at no cost #0; "
                 "doubled #2; Roles none; total 6",
                 "  Result: highest 6, seat 1 crowned",
                 "Now: Round 2, the Resource Phase"]:
        assert want in out, want
    assert cli.main(["replay", str(SCENARIOS / "seed-l17-cost-payment.jsonl")]) == 0
    l17 = capsys.readouterr().out
    assert "  Support: 3 Coins; paid #3 (2 Coins spent); discarded (cannot be paid) #2 #4; kept at no cost #1; " \
           "doubled none; Roles none; total 2" in l17
    assert "  Result: success, Support 2 > Oppose 1" in l17
    assert cli.main(["replay", str(SCENARIOS / "victory-usurper-king.jsonl")]) == 0
    end = capsys.readouterr().out
    assert "  seat 4: a Usurper with no Ambition (not a victor)" in end
    assert "Game over (the Annals hold 1 Record). Victors: seat 0, seat 1, seat 3." in end


def test_other_games_keep_their_own_text():
    kd = engine.new_match("the_council", {"players": 3}, 0)
    view = engine.game_module("the_council").view(kd["state"], None)
    assert "Annals" not in show.status(view) and show.status(view).startswith("Hand 1, the draft")
    assert narrate.lines("chancellors", {}, [{"t": "draw_cards"}]) == [
        "Step E: every seat draws three cards (hand limit six)."]


# --- the ambiguous refusal (Y5, G5) -------------------------------------------------------------

def test_the_ambiguous_refusal_lists_each_outcome_its_totals_and_the_cards_paid():
    e = [x for x in refusals("y5-tie-breaker-choice.jsonl") if x.code == "ambiguous"][0]
    text = games.message(e)
    assert text.startswith("the payment of tied costs changes the result, 2 outcomes: ")
    assert "(1) Support 3 vs Oppose 2, Support ahead; paid: Support #1, Oppose none" in text
    assert "(2) Support 2 vs Oppose 1, Support ahead; paid: Support #2, Oppose none" in text
    assert "the tied cards in question: Support #1, #2" in text and "support_first" in text
    # as the mirror renders a board's error frame (code and facts only) and as `chancery play` prints it
    wire = RuleError("ambiguous", json.loads(canon.encode(e.detail)))
    wire.game = "yes_your_grace"
    assert games.message(wire) == text
    assert not [w for w in ("[", "]", "{", "None") if w in text]


def test_an_ambiguous_event_on_both_sides_and_a_civil_war():
    m = play("seed-l17-cost-payment.jsonl", 2)
    with pytest.raises(RuleError) as e:
        engine.apply(m, {"type": "event", "kind": "intrigue", "controller": 1, "target": 2,
                         "support": ["Coin 2", "Soldier 3 c2", "Spy 1 c2", "Diplomat 4 c2"],
                         "oppose": ["Coin 1", "Diplomat 1 c1", "Spy 2 c1"]})
    text = games.message(e.value)
    assert "6 outcomes" in text and "(4) Support 4 vs Oppose 4, a failure; paid: Support #3, Oppose #2" in text
    assert "the tied cards in question: Support #1, #2, #3; Oppose #1, #2" in text
    engine.apply(m, {"type": "fall", "how": "deposed"})
    with pytest.raises(RuleError) as war:
        engine.apply(m, {"type": "civil_war", "cards": [["Coin 1", "Soldier 2 c1", "Spy 2 c1"], ["Spy 1 c0"], [], []]})
    text = games.message(war.value)
    assert "(1) seat 0 4, seat 1 1, seat 2 0, seat 3 0: seat 0 is crowned" in text
    assert "(2) seat 0 2, seat 1 1, seat 2 0, seat 3 0: seat 0 is crowned" in text
    assert "each supported seat says which of its tied cards it pays first" in text


@pytest.mark.parametrize("name", ALL)
def test_the_words_say_no_ruling_by_its_code_nor_a_card_as_hash_n(name):
    """Issue 45: "(Y3)" (a ruling of a digest the table has not got) and the legend "#N: card N as
    entered, from #0" were cryptic. Every sentence, panel, full text and refusal of every scenario says
    what it means in words: no ruling's code (Y1-Y5, G1-G15), and the legend says which card is #0."""
    m = play(name)
    view = YYG.view(m["state"], None)
    words = scenario_checks.story(m) + live(m) + status(m).splitlines() + show.full(view, "now").splitlines()
    words += [games.message(e) for e in refusals(name)]
    coded = [w for w in words if re.search(r"\b[YG]\d{1,2}\b", w) or "#N" in w]
    assert coded == [], coded
    legend = [w for w in words if "#0" in w and "first card" in w]
    assert not [w for w in words if "#0" in w and "as entered" in w]
    if view.get("last"):
        assert legend, status(m)
