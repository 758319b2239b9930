"""Each value of a smart roll carries its die's id in the log; the state and old logs are unchanged (issue 20)."""

import copy

import pytest

from shared_rules import canon, engine, matches
from shared_rules.errors import RuleError
from shared_rules.games import message

ROLL = {"type": "roll", "values": [1, 2, 3, 4, 5, 5], "source": "smart"}
IDS = ["d4ee0712a3f0", "d4ee0712a3f0", "c1c2c3c4c5c6", "c1c2c3c4c5c6", "d4ee0712a3f0", "c1c2c3c4c5c6"]


def match():
    return engine.new_match("chancellors", {"players": 2}, 11)


def test_the_log_keeps_each_values_die_and_the_state_does_not():
    with_ids, without = match(), match()
    entry = engine.apply(with_ids, dict(ROLL, dice=IDS))
    engine.apply(without, dict(ROLL))
    assert entry["action"]["dice"] == IDS
    assert canon.digest(with_ids["state"]) == canon.digest(without["state"])
    assert entry["events"] == without["entries"][0]["events"]


def test_a_log_with_dice_ids_replays_and_verifies():
    m = match()
    engine.apply(m, dict(ROLL, dice=IDS))
    log = copy.deepcopy(matches.log_of(m))
    again = matches.replay(log)
    assert again["entries"][0]["action"]["dice"] == IDS
    assert again["entries"][0]["digest"] == m["entries"][0]["digest"]


def test_a_log_from_before_dice_ids_replays_to_the_same_digests():
    # the digests a smart roll's entry had before the roll took dice ids (main at ffc9d91)
    m = match()
    assert m["start"] == "359c347b"
    entry = engine.apply(m, dict(ROLL))
    assert "dice" not in entry["action"]
    assert (entry["digest"], canon.digest(m["state"])) == ("10fbc559", "1f23d5c9")


@pytest.mark.parametrize("act", [dict(ROLL, source="manual", dice=IDS), dict(ROLL, dice=IDS[:2]),
                                 {"type": "roll", "dice": IDS}])
def test_ids_come_only_with_a_smart_rolls_values_one_each(act):
    m = match()
    with pytest.raises(RuleError) as e:
        engine.apply(m, act)
    assert e.value.code == "bad_roll"
    assert "one per value" in message(e.value)
    assert m["entries"] == []


def test_the_menus_never_ask_for_dice_ids():
    m = match()
    roll = [s for s in matches.legal(m) if s["type"] == "roll"][0]
    assert [p["name"] for p in roll["params"]] == ["values", "source"]
