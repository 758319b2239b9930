"""The rulings a table decides (issue 43 part 5): where the seed is silent and tables are known to
read it differently, the reading is a setting whose help gives the seed's lines, defaulting to the
reading the text favours, and `chancery rules GAME` lists it.

  The Council      effects (T4): off-suit Courts and Crowns act (all, default) or not (matching)
  King's Dilemma   zero_power (K3): 0 Power left earns no Power bonus (no_bonus, default) or ranks (ranked)
                   bargain (K7): Coins change hands while a vote is on (vote, default) or at any time (any)
  Yes, Your Grace  overthrow_heir (G16): a crown passed by a card leaves nobody Heir (passes, default)
                   or the Heir stays (stays)

Compatibility: a match's start digest is the digest of its first state, which holds its settings.
A ruling setting added after games were logged (zero_power, bargain, overthrow_heir) has an "absent"
value, the reading the core followed before it; the settings hold it only at another value, and a
recorded header without it means that value (engine.settings_for). So the logs recorded before
(tests/old_logs/, recorded with the core of main at a3f171f) replay unchanged, and a new match at
those readings has the start digest it had then. The tests here play each ruling to its situation
under both readings; the scenario files (tests/scenarios/*/t04-off-suit-*, k03-*, k07-*, g16-*) do
too, under CPython and MicroPython.
"""

import json
import os
import re

import paths
import pytest

from chancery import cli
from shared_rules import canon, engine, matches
from shared_rules.errors import RuleError
from shared_rules.matches import LogError

HERE = paths.TESTS
OLD_LOGS = os.path.join(HERE, "old_logs")

# Start digests of matches made by main's core before the ruling settings (a3f171f), seed 0: each at
# the reading main followed. A new ruling setting stored at its absent value, or the settings'
# order or content changed otherwise, would change them, and every log recorded before would fail
# to replay with "the start digest ... does not match".
MAIN_STARTS = [
    ("chancellors", {"players": 3}, "3701621b"),
    ("chancellors", {}, "5a5a35d1"),
    ("kings_dilemma", {"players": 3, "bargain": "any"}, "48c91f6d"),
    ("kings_dilemma", {"bargain": "any"}, "8d88f83d"),  # main's default match
    ("kings_dilemma", {"players": 5, "bargain": "any", "zero_power": "no_bonus"}, "e91f7506"),
    ("the_council", {"players": 3, "effects": "matching"}, "85e547dc"),
    ("the_council", {"effects": "matching"}, "1ac3b576"),  # main's default match
    ("the_council", {"players": 5, "effects": "matching"}, "bed8f74c"),
    ("yes_your_grace", {"players": 3}, "e65228dc"),
    ("yes_your_grace", {}, "82af4802"),  # the default: overthrow_heir passes, main's reading
    ("yes_your_grace", {"players": 5, "overthrow_heir": "passes"}, "976a5ae0"),
]


@pytest.mark.parametrize("game, settings, start", MAIN_STARTS)
def test_a_match_at_mains_readings_has_mains_start_digest(game, settings, start):
    assert engine.new_match(game, settings, 0)["start"] == start


def test_the_new_defaults_where_the_text_favours_another_reading_than_main():
    """Yes, Your Grace's default is main's reading, so its default match is main's; The King's
    Dilemma's bargain and The Council's effects default to the reading the text favours, not
    main's, and a header states it (their default digests differ from main's: the rules do)."""
    assert "overthrow_heir" not in engine.new_match("yes_your_grace", None, 0)["settings"]
    kd = engine.new_match("kings_dilemma", None, 0)
    assert kd["settings"]["bargain"] == "vote" and "zero_power" not in kd["settings"]
    assert kd["start"] != "8d88f83d"
    council = engine.new_match("the_council", None, 0)
    assert council["settings"]["effects"] == "all" and council["start"] != "1ac3b576"


def test_a_ruling_is_stored_only_when_it_is_not_its_absent_reading():
    g = engine.game_module("kings_dilemma")
    s = engine.settings_for(g, {"players": 3, "zero_power": "ranked", "bargain": "any"})
    assert s["zero_power"] == "ranked" and "bargain" not in s
    s = engine.settings_for(g, {"players": 3, "zero_power": "no_bonus"})
    assert "zero_power" not in s and s["bargain"] == "vote"  # left out, the default: vote
    # a recorded header that leaves bargain out was played at bargain = any (a log from before it)
    assert "bargain" not in engine.settings_for(g, {"players": 3}, recorded=True)
    g = engine.game_module("yes_your_grace")
    assert engine.settings_for(g, {"overthrow_heir": "stays"})["overthrow_heir"] == "stays"
    with pytest.raises(RuleError) as e:
        engine.settings_for(g, {"overthrow_heir": "maybe"})
    assert e.value.code == "bad_setting"


def _old_log(name):
    with open(os.path.join(OLD_LOGS, name), encoding="utf-8") as f:
        return json.loads(f.read())


@pytest.mark.parametrize("name", sorted(os.listdir(OLD_LOGS)))
def test_a_log_recorded_before_the_ruling_settings_replays_unchanged(name):
    """Each log was recorded by main's core (a3f171f): its header has every setting of then and none
    of the new ones. It replays to the same start digest, and every entry's events and digest come
    out as recorded: The King's Dilemma's has Coins paid after the vote (main: any time) and a
    House with no Power left at the scoring, Yes, Your Grace's an Overthrow past the Heir (main:
    nobody Heir after), The Council's an off-suit Crown (its header says effects = matching)."""
    log = _old_log(name)
    assert not {"zero_power", "bargain", "overthrow_heir"} & set(log["settings"])
    match = matches.replay(log)
    assert match["start"] == log["start"] and match["entries"][-1]["digest"] == log["entries"][-1]["digest"]
    assert canon.encode(match["settings"]) == canon.encode(log["settings"])


def test_an_old_header_read_as_a_new_match_would_not_replay():
    """Why a recorded header is read with recorded=True: as a new match's settings, the left-out
    bargain would be the new default, vote, and neither the start nor the Coins paid after the
    vote would be the log's."""
    log = _old_log("kings_dilemma-k3-k7.json")
    fresh = engine.new_match(log["game"], log["settings"], log["seed"])
    assert fresh["start"] != log["start"]
    with pytest.raises(RuleError) as e:
        for entry in log["entries"]:
            engine.apply(fresh, entry["action"])
    assert e.value.code == "no_bargain"


def test_a_log_of_a_new_match_at_an_absent_reading_replays():
    """A new match at bargain = any leaves it out of its header; the header replays as any."""
    m = engine.new_match("kings_dilemma", {"players": 3, "bargain": "any"}, 4)
    engine.apply(m, {"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
    engine.apply(m, {"type": "vote", "side": "aye", "power": 1})
    engine.apply(m, {"type": "pass"})
    engine.apply(m, {"type": "pass"})
    engine.apply(m, {"type": "coins", "giver": 0, "taker": 1, "amount": 2})  # after the vote: any
    log = json.loads(canon.encode(matches.log_of(m)))
    assert "bargain" not in log["settings"]
    assert matches.replay(log)["entries"][-1]["digest"] == m["entries"][-1]["digest"]
    assert matches.undo(m)["state"]["settings"] == m["state"]["settings"]


def test_a_tampered_start_is_still_caught():
    log = _old_log("yes_your_grace-g16.json")
    log["settings"]["overthrow_heir"] = "stays"  # the log was not played so: its start says
    with pytest.raises(LogError) as e:
        matches.replay(log)
    assert "start digest" in str(e.value)


# ------------------------------------------------------------------ each ruling, both readings

def _play(game, settings, seed, actions):
    m = engine.new_match(game, settings, seed)
    for a in actions:
        engine.apply(m, a)
    return m


def _refused(m, action):
    with pytest.raises(RuleError) as e:
        engine.apply(m, action)
    return e.value.code


COUNCIL_DRAFTS = [
    {"type": "draft", "seat": 0, "cards": ["Ace of Moons", "Author", "Journey", "Huntress", "Rite"]},
    {"type": "draft", "seat": 1, "cards": ["Ace of Suns", "Desert", "Painter", "Bard", "Window"]},
    {"type": "draft", "seat": 2, "cards": ["Ace of Waves", "Origin", "Savage", "Sea", "Island"]},
]


@pytest.mark.parametrize("effects, ranks0, traitors", [
    (None, 1, [1, 1, 0]),  # the default: all
    ("all", 1, [1, 1, 0]),
    ("matching", 0, [0, 1, 0]),
])
def test_the_council_off_suit_court_and_crown(effects, ranks0, traitors):
    """T4: Discovery (Suns/Waves) fails with no bids. Seat 0 reveals Huntress (Crown of Moons) and
    Rite (Court: Moons/Leaves/Wyrms), neither of the event's suits; seat 1 Window (Court: Suns/...).
    A Court gives a traitor chip on a failure (L31), a Crown a rank in its suit (L32): all, the
    reading the text favours (no suit named, where L30 narrows the Pawn), gives seat 0 both; matching
    (the digest's T4) only the Court that shares a suit acts. The empire loses Suns and Waves (L36)."""
    settings = {"players": 3, "extended": True}
    if effects:
        settings["effects"] = effects
    m = _play("the_council", settings, 0, COUNCIL_DRAFTS + [
        {"type": "event", "card": "Discovery"}, {"type": "pass"}, {"type": "pass"}, {"type": "pass"},
        {"type": "ballot_cast", "seat": 0}, {"type": "ballot_cast", "seat": 1}, {"type": "ballot_cast", "seat": 2},
        {"type": "ballot_reveal", "choices": [["4", "5"], ["5"], []]}])
    v = engine.game_module("the_council").view(m["state"])
    assert v["outcome"] == "failure" and v["empire"] == [6, 5, 5, 6, 6, 6]
    assert v["ranks"][0] == [ranks0, 0, 0, 0, 0, 0] and v["traitors"] == traitors
    assert v["ranks"][1] == [0] * 6  # Bard stayed in front of seat 1: only revealed cards act (L27)


KD_SHORT = {"players": 3, "power": [0, 5, 0], "middle": 0, "time_counter": 1, "death_space": 1}


def _kd_to_the_end(settings):
    """Houses 0 and 2 hold no Power (L1296): they may only pass (R6); House 1 votes AYE 2 and wins; the
    card on the one-space Time Counter with the death icon: the King dies and the game is scored."""
    return _play("kings_dilemma", settings, 3, [
        {"type": "roll", "values": [1, 1, 1, 1, 1], "source": "manual"},
        {"type": "pass"}, {"type": "vote", "side": "aye", "power": 2}, {"type": "pass", "kind": "moderate"},
        {"type": "outcome", "resources": [], "amounts": []}, {"type": "place", "death_icon": True}])


@pytest.mark.parametrize("zero, bonus", [(None, [0, 2, 0]), ("no_bonus", [0, 2, 0]), ("ranked", [1, 2, 1])])
def test_kings_dilemma_zero_power_in_the_power_ranking(zero, bonus):
    """K3: the most Power left behind the screen +2, the second most +1 (L3551-3555). Power left: 0, 3, 0.
    no_bonus (default): a House with none left ranks nowhere; ranked: 0 is second, +1 each (dense, R13)."""
    settings = dict(KD_SHORT)
    if zero:
        settings["zero_power"] = zero
    m = _kd_to_the_end(settings)
    state = m["state"]
    assert state["step"] == "over" and state["power"] == [0, 3, 0]
    assert [row[1] for row in state["scores"]] == bonus


def test_kings_dilemma_every_house_at_zero_power():
    """Nobody has Power left: no_bonus gives nobody the bonus, ranked ties everyone first (+2 each)."""
    from shared_rules.kings_dilemma import scoring

    state = _kd_to_the_end(KD_SHORT)["state"]
    state["power"] = [0, 0, 0]
    assert [row[1] for row in scoring.scores(state)] == [0, 0, 0]
    state["settings"]["zero_power"] = "ranked"
    assert [row[1] for row in scoring.scores(state)] == [2, 2, 2]
    state["settings"]["coin_bonus"], state["coins"] = True, [0, 0, 4]  # the Coin bonus follows it
    assert [row[2] for row in scoring.scores(state)] == [1, 1, 2]


@pytest.mark.parametrize("bargain", [None, "vote", "any"])
def test_kings_dilemma_coins_paid_after_the_vote(bargain):
    """K7: Coins change hands while the vote is on, the voting turns (L1932-1942) and Vote Resolution
    (a tie the Moderator breaks for Coins, L2118-2130); with vote (default) not before the vote nor
    after it (the outcome, the card placed), and legal() offers them only then; with any, always."""
    settings = {"players": 3}
    if bargain:
        settings["bargain"] = bargain
    anytime = bargain == "any"
    g = engine.game_module("kings_dilemma")
    m = engine.new_match("kings_dilemma", settings, 5)
    pay = {"type": "coins", "giver": 0, "taker": 1, "amount": 1}

    def offered():
        return "coins" in [a["type"] for a in g.legal(m["state"], None)]

    def paid_now():
        if not anytime:
            assert _refused(m, pay) == "no_bargain" and not offered()
            return 0
        assert offered()
        engine.apply(m, pay)
        return 1

    n = paid_now()  # before the roll
    engine.apply(m, {"type": "roll", "values": [1, 1, 1, 1, 1], "source": "manual"})
    assert offered()
    engine.apply(m, pay)  # during the vote
    engine.apply(m, {"type": "vote", "side": "aye", "power": 1})
    engine.apply(m, {"type": "vote", "side": "nay", "power": 1})
    engine.apply(m, {"type": "pass", "kind": "moderate"})
    assert m["state"]["step"] == "side" and offered()
    engine.apply(m, pay)  # the Moderator breaks the tie (Vote Resolution)
    engine.apply(m, {"type": "decide", "side": "aye"})
    assert m["state"]["step"] == "outcome"
    n += paid_now()  # after the vote
    engine.apply(m, {"type": "outcome", "resources": ["wealth"], "amounts": [1]})
    assert m["state"]["step"] == "after"
    n += paid_now()
    assert m["state"]["coins"] == [8 - n, 12 + n, 11]  # 10 each, House 2's PASS card Coin at cleanup


@pytest.mark.parametrize("rule, heir", [(None, None), ("passes", None), ("stays", 2)])
def test_yes_your_grace_heir_after_an_overthrow(rule, heir):
    """G16: seat 0 King, seat 2 Heir. Seat 1's Overthrow on the King (L11, L14) succeeds and passes the
    crown to seat 1 (fall to 1, G9). passes (default): the new King holds the Heir card and nobody is Heir,
    as every crowning of the seed leaves it (L23, L25); stays: seat 2 stays Heir, and when the new King
    falls the crown passes to it (L23) where passes leaves the realm to a Civil War (L24-L25)."""
    settings = {"players": 4, "heir": 2}
    if rule:
        settings["overthrow_heir"] = rule
    m = _play("yes_your_grace", settings, 0, [
        {"type": "next"}, {"type": "next"},
        {"type": "event", "kind": "overthrow", "support": ["Soldier 2 c0"], "oppose": [], "controller": 1,
         "target": 0},
        {"type": "fall", "how": "deposed", "to": 1}, {"type": "accede", "side": "usurper"}])
    state = m["state"]
    assert state["king"] == 1 and state["heir"] == heir
    engine.apply(m, {"type": "fall", "how": "assassinated"})
    assert m["state"]["step"] == ("accede" if heir is not None else "civil_war")
    if heir is not None:
        assert m["state"]["successor"] == 2
        engine.apply(m, {"type": "accede", "side": "loyalist"})
        assert m["state"]["king"] == 2 and m["state"]["heir"] is None  # crowned, the Heir is no Heir (L23)


@pytest.mark.parametrize("rule", ["passes", "stays"])
def test_yes_your_grace_the_heir_crowned_or_a_civil_war_leaves_no_heir_either_way(rule):
    """The ruling is only the crown passed by a card past the Heir: the Heir crowned (L23) or a Civil
    War's winner (L25) leaves nobody Heir under both readings."""
    m = _play("yes_your_grace", {"players": 4, "heir": 2, "overthrow_heir": rule}, 0, [
        {"type": "fall", "how": "deposed", "to": 2}, {"type": "accede", "side": "loyalist"}])
    assert m["state"]["king"] == 2 and m["state"]["heir"] is None
    m = _play("yes_your_grace", {"players": 4, "overthrow_heir": rule}, 0, [
        {"type": "fall", "how": "assassinated"}])
    assert m["state"]["step"] == "civil_war" and m["state"]["heir"] is None


# ------------------------------------------------------------------ the words: help and `chancery rules`

RULINGS = {"the_council": ["effects"], "kings_dilemma": ["zero_power", "bargain"],
           "yes_your_grace": ["overthrow_heir"]}


@pytest.mark.parametrize("game", sorted(RULINGS))
def test_each_ruling_is_a_marked_setting_whose_help_gives_the_seeds_lines(game):
    from chancery.words import describe

    d = describe.describe_game(game)
    marked = [s["name"] for s in d["settings"] if s.get("ruling")]
    assert marked == RULINGS[game]
    for s in d["settings"]:
        if s.get("ruling"):
            assert s["domain"]["kind"] == "enum" and s["default"] in s["domain"]["values"]
            assert s["doc"].startswith("A ruling a table decides (%s;" % s["ruling"]), s["doc"]
            assert re.search(r"\bL\d+", s["doc"]), s["doc"]  # the seed's lines
            for v in s["domain"]["values"]:
                assert v in s["doc"], (s["name"], v)  # every reading said
            assert "default" in s["doc"] and "the text favours" in s["doc"]


@pytest.mark.parametrize("game", sorted(RULINGS))
def test_chancery_rules_lists_the_rulings_a_table_decides(game, capsys):
    assert cli.main(["rules", game]) == 0
    out = capsys.readouterr().out
    section = out.split("\nRulings a table decides", 1)[1].split("\n\nActions", 1)[0]
    for name in RULINGS[game]:
        assert re.search(r"\n  %s \([TKG]\d+\): \"\w+\" by default; or \"\w+\"" % name, section), section
    if game == "kings_dilemma":
        assert "bargain (K7): \"vote\" by default; or \"any\" (a log recorded before this setting plays as \"any\")" \
               in section


def test_chancery_rules_of_a_game_without_such_rulings_has_no_section(capsys):
    assert cli.main(["rules", "chancellors"]) == 0
    assert "Rulings a table decides" not in capsys.readouterr().out


def test_the_boards_new_game_menu_offers_each_ruling_with_its_default():
    """The table's new_game menu asks every setting, "(default)" first (firmware/menus.py)."""
    from firmware import menus

    class Controls:  # what menus.legal reads of firmware/controls.py's Controls while a new game is set up
        setup = table = None

    for game, names in RULINGS.items():
        Controls.setup = game
        (new_game,) = menus.legal(Controls, None, None)
        params = {p["name"]: p for p in new_game["params"]}
        for name in names:
            assert params[name]["optional"] and params[name]["domain"]["kind"] == "enum"
            setting = [s for s in engine.game_module(game).SETTINGS if s["name"] == name][0]
            assert params[name]["default"] == setting["default"]
