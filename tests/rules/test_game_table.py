"""One table names the games (shared_rules/games.py GAMES); everything else that lists them is
checked against it here (docs/adding-a-game.md, "Every place a new game touches"), and every
game's __init__ keeps the contract through shared_rules/game.py's declare()."""

import json
import os

import paths
import pytest
from manifest_reader import read_manifest

from shared_rules import game, games

ROOT = paths.ROOT
CORE = list(games.GAMES)  # the core's games, before any test registers its own
CONTRACT = ("NAME", "LOG_PUBLIC", "SETTINGS", "SCHEMAS", "decide", "fold", "initial", "legal", "words",
            "view", "prompt", "is_over", "dice_wanted", "card_names", "ballot", "pad", "lines", "view_entry")


def test_the_table_is_every_game_folder_of_the_core_and_each_loads_as_itself():
    folders = sorted(d for d in os.listdir(os.path.join(ROOT, "shared_rules"))
                     if os.path.isfile(os.path.join(ROOT, "shared_rules", d, "__init__.py")))
    assert sorted(CORE) == folders
    for name in CORE:
        g = games.load(name)
        assert g.NAME == name and g.__name__ == "shared_rules." + name


@pytest.mark.parametrize("name", CORE)
def test_every_game_has_the_whole_contract(name):
    g = games.load(name)
    missing = [n for n in CONTRACT if not hasattr(g, n)]
    assert missing == []
    for hook in game.HOOKS:
        assert getattr(g, hook) is None or callable(getattr(g, hook))


def test_declare_names_what_a_game_lacks_and_fills_the_usual_rest():
    with pytest.raises(ValueError, match="game nim: its __init__ lacks words"):
        game.declare({"NAME": "nim", "LOG_PUBLIC": True, "SETTINGS": (), "SCHEMAS": (), "decide": None,
                      "fold": None, "initial": None, "legal": None})

    class Words:
        @staticmethod
        def prompt(state):
            return "take 1 to 3"

    names = {"NAME": "x", "LOG_PUBLIC": True, "SETTINGS": (), "SCHEMAS": (), "decide": None, "fold": None,
             "initial": None, "legal": None, "words": lambda: Words, "pad": len}
    game.declare(names)
    state = {"step": "over", "rng": [1, 2], "pile": 0}
    assert names["prompt"](state) == "take 1 to 3" and names["is_over"](state)
    assert names["view"](state) == {"step": "over", "pile": 0} and state["rng"] == [1, 2]
    assert names["dice_wanted"](state) == 0 and names["card_names"](state) == ()
    assert names["pad"] is len and names["ballot"] is None and names["lines"] is None


def test_the_manifest_freezes_each_game_of_the_table():
    calls = read_manifest(os.path.join(ROOT, "manifest.py"), backend="rp2")
    files = [f for name, a, k in calls if name == "package" and a[0] == "shared_rules" for f in k["files"]]
    frozen = sorted({f.split("/")[0] for f in files if "/" in f})
    assert frozen == sorted(CORE)


def test_each_game_has_its_layout_and_overlay_and_no_other_game_does():
    layouts = os.path.join(ROOT, "hardware", "layouts")
    names = sorted(f[:-5] for f in os.listdir(layouts) if f.endswith(".json"))
    assert names == sorted(CORE)
    for name in names:
        with open(os.path.join(layouts, name + ".json")) as f:
            assert json.load(f)["game"] == name
    overlays = sorted(f[:-4] for f in os.listdir(os.path.join(ROOT, "hardware", "overlays")) if f.endswith(".svg"))
    assert overlays == sorted(CORE)


def test_the_boards_refusal_words_name_only_games_of_the_table_and_each_of_them():
    with open(os.path.join(ROOT, "firmware", "refusals.txt"), encoding="utf-8") as f:
        named = {line.split()[0] for line in f if line.strip() and not line.startswith("#")}
    assert named == set(CORE) | {"*"}


@pytest.mark.parametrize("name", CORE)
def test_each_game_has_its_worked_examples_as_scenarios_and_its_title_in_the_readme(name):
    folder = os.path.join(ROOT, "tests", "scenarios", name.replace("_", "-"))
    assert [f for f in os.listdir(folder) if f.endswith(".jsonl") or f.endswith(".json")], folder
    docs = __import__("shared_rules.%s.docs" % name, None, None, ["DOCS"]).DOCS
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        assert docs["title"] in f.read()
