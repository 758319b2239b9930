"""A game's own page on the table's display (its back key at the top of the table's menu):
The Council's chips and traitor chips, Yes, Your Grace's last working; both within the
display's 16 x 8 characters."""


from clients import controls

from firmware.journal import Journal
from firmware.link import Link
from firmware.table import Table
from shared_rules import engine

TABLE = 5


def table(folder, game, settings):
    return Table(Journal(str(folder)), lambda n: b"\x07" * n, game, settings, "t").boot()


def fits(screen):
    return len(screen) <= 8 and all(len(line) <= 16 for line in screen)


def test_the_councils_chips_and_traitors_on_the_display(tmp_path):
    t = table(tmp_path, "the_council", {"players": 3})
    t.act({"type": "draft", "seat": 0, "cards": ["Ace of Moons", "Author", "Journey", "Mountain", "Huntress"]})
    t.act({"type": "draft", "seat": 1, "cards": ["Ace of Suns", "Desert", "Painter", "Sailor", "Bard"]})
    t.act({"type": "draft", "seat": 2, "cards": ["Ace of Waves", "Origin", "Savage", "Battle", "Sea"]})
    t.act({"type": "event", "card": "Mill"})
    t.act({"type": "bid", "seat": 0, "Waves": 1})
    screen = controls(t).key(TABLE, "back")[0]
    # seat 0: Ace (Moons), Author (Moons, Knots), Journey (Moons, Waves), Mountain (Moons, Suns),
    # Huntress (Moons): 5 Moons, 1 Suns, 1 Waves, 1 Knots; its Waves chip is bid (spent, T2)
    assert screen[0] == "S  M S W L Y K T" and screen[1] == "0  5 1 0 0 0 1 0", screen
    assert screen[4] == "Mill" and screen[5] == "bid 1 need 8" and fits(screen)
    assert controls(t).key(TABLE, "down")[0] != screen  # any other key: the menu again


def test_a_calculators_working_on_the_display(tmp_path):
    t = table(tmp_path, "yes_your_grace", {"players": 3})
    t.act({"type": "next"})
    t.act({"type": "next"})
    # 1 Coin pays the Soldier costing 1; the one costing 0 is kept; both double against a Spy (L18)
    t.act({"type": "event", "kind": "crisis", "support": ["Soldier 3 c1", "Soldier 2 c0", "Coin 1"],
           "oppose": ["Spy 2 c0"]})
    screen = controls(t).key(TABLE, "back")[0]
    assert screen[:4] == ["crisis ok", "S total 10 c1", "S pay 0", "S off - x2 0,1"], screen
    assert screen[4:7] == ["O total 2 c0", "O pay -", "O off - x2 -"]
    assert screen[-1] == "Annals 1/12 T" and fits(screen)


class TablePlayer:
    """Presses the table's keys, reading only the screens (tests/helpers/menu_player.py)."""

    def __init__(self, t):
        import menu_player

        class Player(menu_player.MenuPlayer):
            def press(self, k):
                return controls(t).key(TABLE, k)

        self.p = Player(None)
        self.p.key("down")  # the first press opens the table's menu


def test_a_calculators_event_entered_on_the_boards_menus_alone(tmp_path):

    from shared_rules import engine

    t = table(tmp_path, "yes_your_grace", {"players": 3})
    t.act({"type": "next"})
    t.act({"type": "next"})
    target = {"type": "event", "kind": "crisis", "support": ["Soldier 3 c1", "Soldier 2 c0", "Coin 1"],
              "oppose": ["Spy 2 c0"]}
    schema = [s for s in engine.game_module("yes_your_grace").legal(t.state, None) if s["type"] == "event"][0]
    player = TablePlayer(t).p
    index = player.enter(schema, target)
    assert index == 2 and t.state["last"]["support"]["total"] == 10 and t.state["annals"] == ["triumph"]
    assert player.keys < 200, player.keys
    assert controls(t).key(TABLE, "back")[0][:2] == ["crisis ok", "S total 10 c1"]


def test_the_board_shows_an_entry_once_it_is_on_flash_before_the_host_and_the_next_screen(tmp_path):
    """Table.on_entry (the rp2/esp32 board shows the strip there): called once per entry, with the
    entry on flash and in the state, before the host's ENTRY frame; the menu was let go before
    the step (the next key loads it again)."""
    sent = []
    t = Table(Journal(str(tmp_path)), lambda n: b"\x07" * n,
              "yes_your_grace", {"players": 3}, "t").boot()
    Link(t, lambda kind, body: sent.append(kind)).listening = True  # a host's link, as after its hello
    seen = []

    def shown():
        seen.append((t.count, len(list(t.journal.entries(0))), t.state["step"], list(sent), controls(t).menu))

    t.on_entry = shown
    TablePlayer(t)  # the table's menu is open
    for _ in range(4):  # the action under the cursor (heir): its seat, its reason left out, then the confirm
        if t.count == 0:
            controls(t).key(TABLE, "select")
    assert len(seen) == 1, seen
    count, on_flash, step, heard, menu = seen[0]
    assert count == 1 and on_flash == 1 and step != "setup"
    # the host comes after; the menu went before the step
    assert "entry" not in heard and menu is None
    assert "entry" in sent


def test_the_display_is_never_left_over_from_before(tmp_path):
    """After an entry from anywhere, an undo or a new game, the display shows the status
    derived from the present state, not a menu or a refusal from before (issue 16)."""
    t = Table(Journal(str(tmp_path)), lambda n: b"\x07" * n,
              "chancellors", {"players": 3}, "t").boot()
    # the status, a roll's one press while dice are due, and what each button does
    assert controls(t).status() == ["#0", "a pad: its menu", "hold push: roll"] and fits(controls(t).status())
    screen, index = controls(t).pressed(1, "select")  # seat 1 opens its menu: nothing to do yet
    assert index is None and not controls(t).screen_due
    t.act({"type": "roll"})  # the host rolls: seat 1's menu is stale now
    assert controls(t).screen_due and controls(t).status() == ["#1 roll", "a pad: its menu"]
    controls(t).screen_due = False
    screen, index = controls(t).pressed(TABLE, "down")  # a key's own screen when it makes no entry
    assert screen[0] == "table action?" and index is None
    t.act({"type": "ballot_open", "question": "Exile?", "options": ["Aye", "Nay"]})
    # a voter's keys, each an option of the ballot, and the table's close
    assert controls(t).status() == ["#2 ballot_open", "vote: 0 of 3", "up: Aye", "sel: Nay", "hold push: close"]
    screen, index = controls(t).pressed(0, "up")  # seat 0 votes on its pad: the status, not "voted"
    assert index == 2 and screen[:2] == ["#3 ballot_cast", "vote: 1 of 3"]
    t.undo()
    assert controls(t).screen_due and controls(t).status()[:2] == ["#2", "vote: 0 of 3"]
    t.start({"type": "new_game", "game": "the_council", "settings": {"players": 3}})
    assert controls(t).screen_due and controls(t).status() == ["#0", "a pad: its menu", "back: game page"] and fits(controls(t).status())


def test_back_after_a_refused_entry_corrects_it_and_the_menu_is_let_go_for_the_step(tmp_path):
    """The menu's code and entry go before the step (the step's heap on a Pico); a refusal
    brings them back on the confirm screen, so back drops the last choice, as before."""
    t = table(tmp_path, "chancellors", {"players": 3})
    t.act({"type": "roll"})
    player = TablePlayer(t).p
    schema = [s for s in engine.game_module("chancellors").legal(t.state, None) if s["type"] == "score"][0]
    index = player.enter(schema, {"type": "score", "seat": 0, "amount": -20})  # seat 0 has no points
    assert index is None and player.screen[0] == "Not allowed:", player.screen
    assert t.count == 1 and controls(t).menu is not None and controls(t).menu.picks[:3] == ["score", 0, -20]
    screen = controls(t).key(TABLE, "back")[0]  # from the confirm screen to the reason, the last choice
    assert screen[:2] == ["table score", "reason"] and controls(t).menu.picks == ["score", 0, -20], screen
    controls(t).key(TABLE, "back")  # the amount: -20 dropped
    assert controls(t).menu.picks == ["score", 0]
    player.screen = controls(t).menu.screen()
    player.value(schema["params"][1]["domain"], 3)  # the reason, optional, left at its default
    assert player.confirming()
    assert player.key("select") == 1 and t.state["scores"][0] == 3 and controls(t).menu is None


def test_the_pad_of_a_seat_the_game_does_not_have_opens_no_menu(tmp_path):
    """Issue 45: in a 4-seat game seat 4's pad opened "S4 action? > reveal" (Chancellors: the table's
    actions, offered to a seat that is not in the game), and in The Council it raised IndexError."""
    for game, first in (("chancellors", {"type": "roll"}), ("the_council", None), ("kings_dilemma", {"type": "roll"}),
                        ("yes_your_grace", None)):
        t = table(tmp_path / game, game, {"players": 4})
        if first is not None:
            t.act(first)
        for key in ("select", "down", "select", "long_select"):
            screen, index = controls(t).key(4, key)
            assert index is None and screen == ["S4", "no seat 4 here:", "4 seats, S0-S3"], (game, screen)
            assert fits(screen)
        assert controls(t).key(3, "select")[0][0].startswith("S3")  # a seat of the game: its menu as ever
    assert controls(t).key(4, "select")[0][0] == "S4"
