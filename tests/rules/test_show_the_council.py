"""The Council in the host's words: the status panel, the full text and the narration
(shared_rules/the_council/show.py, narrate.py), from the public view and
the public events only."""

import pathlib
import re

import paths
import pytest
import scenario_checks

from chancery import cli
from chancery.words import narrate, show
from shared_rules import canon, engine, jsonlines, matches
from shared_rules.the_council import narrate as game_narrate
from shared_rules.the_council import show as game_show

ROOT = pathlib.Path(paths.ROOT)
SCENARIOS = ROOT / "tests" / "scenarios" / "the-council"
FLOW = ROOT / "shared_rules" / "the_council" / "fold.py"
TC = engine.game_module("the_council")
ALL = sorted(p.name for p in SCENARIOS.glob("*.jsonl"))


def header(name):
    with open(SCENARIOS / name) as f:
        return jsonlines.read_lines(f)[0]


def play(name, stop=None):
    """The match a scenario file builds (its refused actions left out), after `stop` actions if given."""
    return scenario_checks.match_of(SCENARIOS / name, stop)


def status(m):
    return show.status(TC.view(m["state"], None))


def fallback(line):
    return line.startswith(("(", "An event not narrated here")) or '"t":' in line


def states(m):
    """(state before, entry) for every entry of the match, folded from the start."""
    state = TC.initial(m["settings"], m["seed"])
    for entry in m["entries"]:
        yield canon.copy(state), entry
        for ev in entry["events"]:
            engine.fold(TC, state, canon.copy(ev))


# --- the seed's examples: scores and winners ------------------------------------

@pytest.mark.parametrize("name", ["seed-l40-scoring-12.jsonl", "seed-l40-scoring-15-waves-fallen.jsonl",
                                  "seed-l41-tie-lowest-revealed-card-wins.jsonl",
                                  "t13-tie-nobody-revealed-shared-win.jsonl"])
def test_the_end_shows_the_scenarios_scores_and_winners(name):
    want = header(name)["expect"]
    m = play(name)
    scores = ", ".join(["seat %d %d" % (s, v) for s, v in enumerate(want["scores"])])
    winners = ", ".join(["seat %d" % s for s in want["winners"]])
    text = status(m)
    assert "Scores " + scores in text
    assert "Winner%s: %s (%d points)." % ("s" if len(want["winners"]) > 1 else "", winners,
                                          want["scores"][want["winners"][0]]) in text
    last = scenario_checks.story(m)[-1]
    assert last.startswith("The empire has collapsed (fallen: ") and "Scores: %s." % scores in last


def test_the_scoring_example_reads_12_points_for_seat_0():
    m = play("seed-l40-scoring-12.jsonl")
    text = status(m)
    assert "The empire has collapsed (fallen: Moons). Winner: seat 0 (12 points)." in text
    assert "Scores seat 0 12, seat 1 0, seat 2 0" in text
    assert "Empire ranks  4  6  4  6  6  6" in text
    assert "seat 0 ranks  5  0  3  0  0  0 | chips  5  1  1  0  0  1 | traitors 2 | passed" in text
    assert scenario_checks.story(m)[-1] == ("The empire has collapsed (fallen: Moons): the game ends. Scores: seat 0 12, seat 1 0, "
                            "seat 2 0. Winner: seat 0 (12 points).")
    fifteen = scenario_checks.story(play("seed-l40-scoring-15-waves-fallen.jsonl"))[-1]
    assert "(fallen: Moons, Waves)" in fifteen and "Winner: seat 0 (15 points)." in fifteen


def test_ties_read_as_the_low_card_or_a_shared_win():
    low = scenario_checks.story(play("seed-l41-tie-lowest-revealed-card-wins.jsonl"))
    assert "Revealed at once: seat 0 reveals 4 Mountain (Moons/Suns); seat 1 reveals 2 Desert (Suns/Wyrms); " \
           "seat 2 reveals Ace of Waves." in low
    assert low[-1].endswith("Seat 0, seat 1 tie at 6 points: seat 1 wins, having revealed the lowest card in the "
                            "last event.")
    shared = scenario_checks.story(play("t13-tie-nobody-revealed-shared-win.jsonl"))
    assert shared[-1].endswith("none of them revealed a card in the last event, so they share the win (T13).")


# --- the narration ------------------------------------------------------------------

def test_a_failed_event_tells_the_reveal_the_trades_the_court_and_the_empire():
    text = scenario_checks.story(play("effects-of-revealed-cards.jsonl"))
    i = text.index("Revealed at once: seat 0 reveals Pawn Watchman (Moons/Wyrms/Knots); seat 1 reveals Pawn Light "
                   "Keeper (Suns/Waves/Knots); seat 2 reveals Court Island (Suns/Waves/Wyrms).")
    assert text[i + 1:i + 7] == [
        "Seat 2, the lowest bidder in Waves, trades a rank for a traitor chip (Waves now 0; 1 traitor chip).",
        "Seat 1, the lowest bidder in Wyrms, trades a rank for a traitor chip (Wyrms now 0; 1 traitor chip).",
        "Seat 2's revealed Court, Island, gives it a traitor chip on the failure (now 2).",
        "The empire loses a rank in Waves (now 5).",
        "The empire loses a rank in Wyrms (now 5).",
        "The event fails: a total of 6, 7 needed. Seat 0 starts the next bidding (the lowest revealed card, "
        "Pawn Watchman).",
    ]
    for want in [
        "Seat 0 drafts Ace of Moons, 2 Author (Moons/Knots), 3 Journey (Moons/Waves), Pawn Watchman "
        "(Moons/Wyrms/Knots), Court Consul (Moons/Waves/Knots) and takes chips: 5 Moons, 2 Waves, 1 Wyrms, 3 Knots.",
        "Event: 7 Cave (Waves/Wyrms): the chips bid in Waves/Wyrms must total 7; seat 0 bids first.",
        "Seat 2 bids 2 Wyrms (total 4 of 7).",
        "Seat 1 passes (total 1 of 5).",
        "Bidding is over (total 4 of 7): every seat marks on its pad the positions (1-5) of the drafted cards it "
        "reveals.",
        "Seat 0 has marked its cards.",
        "Seat 1, the highest bidder in Suns with its Ace of Suns, gains a rank (now 2).",
        "The event succeeds: a revealed Ace makes the bid unlimited (2 chips besides, 5 needed). Seat 1 starts the "
        "next bidding (the lowest revealed card, Ace of Suns).",
        "The reveal ballot is closed: a seat that has not marked reveals nothing.",
        "Revealed at once: seat 0 reveals nothing (not marked); seat 1 reveals nothing (not marked); seat 2 reveals "
        "nothing (not marked).",
        "The event fails: a total of 0, 1 needed. Seat 2 starts the next bidding (nobody revealed a card: the next "
        "seat, T10).",
        "Event: Pawn Harvest (Moons/Suns/Leaves): it cannot fail (it needs 0); bids in Moons/Suns/Leaves; seat 2 "
        "bids first.",
    ]:
        assert want in text, want


def test_the_reveal_reads_each_seats_positions_against_its_own_cards():
    text = [line for line in scenario_checks.story(play("reveal-positions-and-no-cards-left.jsonl")) if line.startswith("Revealed")]
    # seat 1 marked "5", "1": its first and fifth cards, in the order they lie
    assert text[0] == ("Revealed at once: seat 0 reveals Ace of Moons, 2 Author (Moons/Knots), 3 Journey (Moons/Waves), "
                       "4 Mountain (Moons/Suns), Crown Huntress (Moons); seat 1 reveals Ace of Suns, Crown Bard (Suns); "
                       "seat 2 reveals nothing.")
    # positions count in the cards still in front (seat 1 has three left); past them nothing (C8)
    assert text[1] == ("Revealed at once: seat 0 reveals nothing; seat 1 reveals 2 Desert (Suns/Wyrms), 3 Painter "
                       "(Suns/Knots), 4 Sailor (Waves/Leaves); seat 2 reveals Ace of Waves, 2 Origin (Waves/Leaves), "
                       "3 Savage (Leaves/Wyrms), 4 Battle (Wyrms/Knots), Crown Sea (Waves).")


def test_crowns_hands_the_excuse_and_the_reshuffle():
    crown = scenario_checks.story(play("t05-crown-rank-capped-before-the-collapse.jsonl"))
    assert "Seat 1's revealed Crown, Bard, gives it a rank in Suns (now 5)." in crown
    assert "The event is the Excuse: nothing happens, it is discarded and the next card is revealed (T12)." in \
        scenario_checks.story(play("t12-excuse-as-event.jsonl"))
    shuffle = scenario_checks.story(play("t11-reshuffle-the-discards.jsonl"))
    assert "--- Hand 2: seat 1 deals and bids first; every discard is reshuffled into the deck (36 cards, T11) ---" \
        in shuffle
    hands = [line for name in ALL for line in scenario_checks.story(play(name)) if line.startswith("--- Hand ")]
    assert [line for line in hands if "drafted cards left in front of the seats are discarded" in line]
    entered = scenario_checks.story(play("draft-chips-entered.jsonl"))
    assert [line for line in entered if "takes chips as counted at the table: " in line]


def test_every_event_tag_the_fold_knows_has_its_own_sentence():
    src = FLOW.read_text()
    tags = set(re.findall(r't == "(\w+)"', src[src.index("def fold"):]))
    assert len(tags) >= 10
    assert tags <= set(game_narrate.TELL)
    told = {}
    for name in ALL:
        m = play(name)
        for before, entry in states(m):
            said = narrate.lines("the_council", before, entry["events"])
            assert len(said) == len(entry["events"])
            assert not [line for line in said if fallback(line)], (name, said)
            state = canon.copy(before)
            for ev, line in zip(entry["events"], said):
                prev = canon.copy(state)
                engine.fold(TC, state, canon.copy(ev))
                if ev["t"] in tags:
                    assert game_narrate.one(prev, state, ev) == line
                told.setdefault(ev["t"], line)
    assert sorted(tags - set(told)) == []  # a new event needs a scenario and a sentence
    assert {"ballot_opened", "ballot_voted", "ballot_closed", "ballot_revealed"} <= set(told)


def test_an_unknown_event_reads_as_a_generic_sentence_and_the_rest_goes_on():
    m = play("effects-of-revealed-cards.jsonl", 4)  # Cave revealed, seat 0 to bid
    out = narrate.lines("the_council", m["state"], [{"t": "omen", "x": 1},
                                                   {"t": "bid", "seat": 0, "chips": [0, 0, 1, 0, 0, 0]}])
    assert out[0] == 'An event not narrated here: {"t":"omen","x":1}.'
    assert out[1] == "Seat 0 bids 1 Waves (total 1 of 7)."
    bad = narrate.lines("the_council", m["state"], [{"t": "ranks", "seat": 9}])
    assert bad == ['An event not narrated here: {"seat":9,"t":"ranks"}.']


def test_a_ballot_the_table_opens_while_bidding_reads_as_any_ballot():
    m = play("effects-of-revealed-cards.jsonl", 4)
    engine.apply(m, {"type": "ballot_open", "question": "Snacks", "options": ["tea", "beer"]})
    text = status(m)
    assert "Ballot 1 (Snacks): 0 of 3 voted" in text
    engine.apply(m, {"type": "ballot_cast", "seat": 0})
    assert "Ballot 1 (Snacks): 1 of 3 voted" in status(m)
    lines = scenario_checks.story(m)
    assert lines[-2:] == ["Ballot 1: Snacks (tea / beer); voting: seat 0, seat 1, seat 2.", "Seat 0 has voted."]


# --- the panel and the full text ------------------------------------------------

def test_the_panel_while_bidding():
    m = play("effects-of-revealed-cards.jsonl", 5)  # Cave (7): seat 0 bid 1 Waves
    lines = status(m).splitlines()
    assert lines == [
        "Hand 1, bidding | dealer seat 0 | deck 26 cards | 0 events resolved this hand",
        "Event 7 Cave (Waves/Wyrms) | bid 1, needs 7 | seat 1 to bid Waves/Wyrms",
        "Empire ranks  6  6  6  6  6  6  (Moons Suns Waves Leaves Wyrms Knots)",
        "seat 0 ranks  1  1  1  1  1  1 | chips  5  0  1  0  1  3 | traitors 0 | bid Waves 1",
        "  cards 1 Ace of Moons  2 Author  3 Journey  4 Watchman  5 Consul",
        "seat 1 ranks  1  1  1  1  1  1 | chips  0  5  1  1  1  3 | traitors 0 | to bid",
        "  cards 1 Ace of Suns  2 Desert  3 Painter  4 Light Keeper  5 Window",
        "seat 2 ranks  1  1  1  1  1  1 | chips  0  1  4  3  3  0 | traitors 0 | not bid yet",
        "  cards 1 Ace of Waves  2 Origin  3 Savage  4 Borderland  5 Island",
    ]


def test_the_panel_after_an_event_and_during_the_draft():
    m = play("effects-of-revealed-cards.jsonl", 11)  # Cave resolved: a failure
    text = status(m)
    assert "Last event 7 Cave (Waves/Wyrms) | bid 4, needs 7 | failure | next bidding from seat 0" in text
    assert "Empire ranks  6  6  5  6  5  6" in text
    assert "seat 2 ranks  1  1  0  1  1  1 | chips  0  1  4  3  1  0 | traitors 2 | bid Wyrms 2" in text
    assert text.endswith("  cards 1 Ace of Waves  2 Origin  3 Savage  4 Borderland")  # Island spent (T3)
    draft = status(play("t11-reshuffle-the-discards.jsonl"))
    assert draft.splitlines()[:2] == ["Hand 2, the draft | dealer seat 1 | deck 36 cards",
                                      "Draft: waiting for seat 0, seat 2 (five cards each, chips from their suits)"]


def test_the_full_text_in_replay(capsys):
    assert cli.main(["replay", str(SCENARIOS / "effects-of-revealed-cards.jsonl")]) == 0
    out = capsys.readouterr().out
    for want in ["The Council: 3 seats, extended deck, events until the deck is empty, effects all",
                 "Empire: Moons 6, Suns 6, Waves 5, Leaves 6, Wyrms 5, Knots 5",
                 "  ranks:  Moons 1, Suns 2, Waves 1, Leaves 1, Wyrms 0, Knots 1",
                 "  traitor chips: 2",
                 "  drafted cards (ballot positions): 1: 2 Desert (Suns/Wyrms); 2: 3 Painter (Suns/Knots); "
                 "3: Court Window (Suns/Leaves/Knots)",
                 "Now: Hand 1, reveal the next event"]:
        assert want in out, want
    assert "[" not in out.split("\n", 1)[1] and "null" not in out
    assert cli.main(["replay", str(SCENARIOS / "seed-l40-scoring-12.jsonl")]) == 0
    end = capsys.readouterr().out
    assert "Scores: seat 0 12, seat 1 0, seat 2 0" in end and "Winner: seat 0 (12 points)" in end


@pytest.mark.parametrize("name", ALL)
def test_the_panel_stays_small_at_every_entry(name):
    m = play(name)
    n = m["settings"]["players"]
    for before, _ in states(m):
        view = TC.view(before, None)
        lines = show.status(view).splitlines()
        assert 4 <= len(lines) <= 5 + 2 * n and max(len(line) for line in lines) <= 100, lines
        assert show.status(view) == game_show.status(view)
        assert show.status(TC.view(before, 1)) == show.status(view)  # a seat's view: the same panel
        full = show.full(view, "now")
        assert "{" not in full and '"' not in full


def test_five_seats_with_long_names_and_big_bids_fit_in_100_columns():
    cards = [["Chance Meeting", "Light Keeper", "Ace of Leaves", "Borderland", "Discovery"],
             ["Ace of Knots", "Ace of Moons", "Watchman", "Penitent", "Lunatic"],
             ["Consul", "Island", "Window", "Rite", "Author"],
             ["Desert", "Origin", "Journey", "Painter", "Savage"],
             ["Mountain", "Sailor", "Battle", "Forest", "Soldier"]]
    m = engine.new_match("the_council", {"players": 5, "extended": True, "draft": "chips",
                                         "chips": [[50] * 6] * 5}, 0)
    for s in range(5):
        engine.apply(m, {"type": "draft", "seat": s, "cards": cards[s], "chips": [15] * 6})
    engine.apply(m, {"type": "event", "card": "Harvest"})  # Pawn: Moons/Suns/Leaves
    for _ in range(4):
        engine.apply(m, {"type": "bid", "Moons": 64, "Suns": 64, "Leaves": 64})
    lines = status(m).splitlines()
    assert max(len(line) for line in lines) <= 100, lines
    assert "  bid Moons 64, Suns 64, Leaves 64" in lines
    assert lines[1:3] == ["Event Pawn Harvest (Moons/Suns/Leaves) | bid 768, needs 0 (cannot fail)",
                          "  seat 4 to bid Moons/Suns/Leaves"]
    assert len(lines) <= 5 + 2 * 5 + 4  # four bid lines wrapped


# --- the sealed reveal: who, never what -----------------------------------------------

def test_an_open_reveal_shows_who_has_marked_never_what():
    m = play("effects-of-revealed-cards.jsonl", 8)  # seat 0 has marked
    view = TC.view(m["state"], None)
    text = status(m)
    assert "Reveal ballot: 1 of 3 marked (seat 0) | waiting for seat 1, seat 2" in text
    full = show.full(view, matches.prompt(m))
    assert "Reveal ballot: 1 of 3 marked (seat 0) | waiting for seat 1, seat 2" in full
    for raw in ("voters", "voted", "options", "choices", "result", "[", "{", "Reveal drafted cards"):
        assert raw not in text and raw not in full, raw
    closed = status(play("effects-of-revealed-cards.jsonl", 10))
    assert "Reveal ballot closed: 3 of 3 marked (seat 0, seat 1, seat 2) | to be revealed" in closed


@pytest.mark.parametrize("picked", [[["4"], ["4"], ["5"]], [["1", "2"], [], ["3"]]])
def test_two_states_differing_only_in_a_hidden_choice_read_the_same(picked):
    """The choices are not in the state before the reveal; were they smuggled in, the panel would not print them."""
    m = play("effects-of-revealed-cards.jsonl", 9)
    state = m["state"]
    other = canon.copy(state)
    other["ballot"]["choices"] = picked  # a hidden choice nobody may read
    other["ballot"]["secret"] = {"seat": 0, "choice": picked[0]}
    for seat in (None, 0, 1):
        assert show.status(TC.view(other, seat)) == show.status(TC.view(state, seat))
        assert show.full(TC.view(other, seat), "now") == show.full(TC.view(state, seat), "now")
    said = narrate.lines("the_council", state, [{"t": "ballot_voted", "seat": 2}])
    assert narrate.lines("the_council", other, [{"t": "ballot_voted", "seat": 2}]) == said == [
        "Seat 2 has marked its cards."]


def test_the_casts_of_one_ballot_give_the_same_text_whatever_is_later_revealed():
    a = play("effects-of-revealed-cards.jsonl", 10)
    b = play("effects-of-revealed-cards.jsonl", 10)
    engine.apply(a, {"type": "ballot_reveal", "choices": [["4"], ["4"], ["5"]]})
    engine.apply(b, {"type": "ballot_reveal", "choices": [[], ["1"], []]})
    before = [e for e in narrate.history(a)][:-1]
    assert before == [e for e in narrate.history(b)][:-1]
    assert scenario_checks.story(a)[-1] != scenario_checks.story(b)[-1]


# --- the table's effects at the terminal (the terminal game and the mirror's command line) ---

def test_the_effects_typed_as_the_help_shows_them_are_accepted_and_read_back():
    """Each example line of the help (show.EXAMPLES) parses to its effect, the rules take it,
    and the command the log shows for it reads back as the same action, reason included."""
    from chancery.words import commands

    m = play("effects-chips-ranks-traitors-empire.jsonl", 7)  # seat 0 has bid on Lunatic
    assert m["state"]["step"] == "bid"
    typed = [line for kind in ("chips", "ranks", "traitors", "empire") for line in game_show.EXAMPLES[kind]]
    assert len(typed) >= 4
    for line in typed:
        act = commands.parse(line, TC.SCHEMAS, 3, TC.card_names(m["state"]))
        assert act["type"] == line.split()[0] and act["amount"]
        assert commands.parse(commands.command_text(act, TC.SCHEMAS), TC.SCHEMAS, 3, ()) == act
        entry = engine.apply(canon.copy(m), act)
        said = narrate.lines("the_council", m["state"], entry["events"])
        assert len(said) == 1 and (act.get("reason") or "now") in said[0], said
    assert commands.parse("ranks 0 Moons -1 house rule", TC.SCHEMAS, 3, ()) == {
        "type": "ranks", "seat": 0, "suit": "Moons", "amount": -1, "reason": "house rule"}
