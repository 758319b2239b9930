"""What people read about Yes, Your Grace's settings and actions (host side).

Kept apart from actions.py so the board never loads this prose. Keys:
"setting.NAME", "ACTION" and "ACTION.PARAM". Lnn: lines of
../shared/seeds/yes-your-grace.txt; Yn: rulings of ../shared/rules/yes-your-grace.md;
Gn: rulings in yes_your_grace/__init__.py.
"""

_CARDS = ("The %s side's Resource cards, as revealed: \"Soldier 3 c1\" is a Soldier of value 3 costing 1, "
          "\"Coin 2\" a Coin card worth 2 Coins. Indexes from 0 in this order name them in the working.")
_ROLES = "Role cards played to the %s side (marshal, spymaster, chancellor, steward); each adds from its " \
         "holder's Holdings at resolution (L19)."
_FIRST = ("The {} side's tie-breaker's choice: card indexes paid first among cards of equal cost, in "
          "order (Intrigue: {}; Crisis: the King). Needed only when the choice changes the result.")

_WHY = "The card or why: an Intrigue card's name, \"house rule\", \"fix a misentry\" (kept in the log)."

DOCS = {
    "title": "Yes, Your Grace",  # the game's name as people write it (a chart's title)
    "game": "Yes, Your Grace (fan rules v0.4), 3-5 seats: the companion keeps the Annals of History, the King, "
            "the Heir, Holdings and Roles, and resolves Events and Civil Wars showing its working.",
    "setting.players": "Seats at the table, 3-5; seat 0.. clockwise.",
    "setting.annals": "The Record that ends the game (12, L26; L4's older count is 9).",
    "setting.steward": "The Steward adds 2 Coins per undamaged (default) or per every (all) Economic Holding.",
    "setting.king": "The seat of the first King.",
    "setting.face": "The first face of the King card: loyalist or usurper.",
    "setting.heir": "The first Heir's seat, -1 for none.",
    "setting.roles": "The first holders of marshal, spymaster, chancellor, steward (a seat, -1 with the King); "
                     "empty: all with the King.",
    "setting.holdings": "Undamaged Holdings per seat at the start, four counts (military, espionage, diplomacy, "
                        "economic); empty: one of each.",
    "setting.damaged": "Damaged Holdings per seat at the start, four counts; empty: none.",
    "setting.max_value": "The highest value of a Resource card, for the card names (default 5).",
    "setting.max_cost": "The highest cost of a Resource card, for the card names (default 3).",
    "setting.overthrow_heir": "A ruling a table decides (G16; the seed does not say): the crown passed by an "
                              "Intrigue card to a seat other than the Heir (an Overthrow's controller: fall with "
                              "to, G9) while someone is Heir. passes (default, the reading the text favours: "
                              "whoever is crowned holds the Heir card and names an Heir later, L23; the Civil "
                              "War's winner is crowned the Heir's way and takes the Heir card, L25): "
                              "nobody is Heir; stays: the Heir keeps the Heir card and stays Heir (L23 moves it "
                              "only when the Heir is crowned).",
    "next": "The phase is done: Resource -> Intrigue -> Event; after the Event Phase the round ends and "
            "Violence (an Overthrow resolved or a Civil War) or Peace (no Crisis succeeded) is written (L21).",
    "event": "Resolve one Event card (L15-L20): the cards on each side, the Roles, the tie-breakers' choices; "
             "the board pays costs, discards, doubles, adds the Roles and compares, and shows the working. A "
             "Crisis that succeeds writes a Triumph; one that fails damages two of the King's Holdings or "
             "deposes a King with four Damaged.",
    "event.kind": "crisis, intrigue, or overthrow (an Intrigue card whose resolution means Violence, L21).",
    "event.support": _CARDS % "Support",
    "event.oppose": _CARDS % "Oppose",
    "event.support_roles": _ROLES % "Support",
    "event.oppose_roles": _ROLES % "Oppose",
    "event.support_first": _FIRST.format("Support", "the controller"),
    "event.oppose_first": _FIRST.format("Oppose", "the target"),
    "event.extra": "The card's additional requirement holds (true) or not (false): without it the Event fails.",
    "event.controller": "Intrigue: the seat that played the card (enacts its effect on success).",
    "event.target": "Intrigue: the seat the card was played on (the King for an Overthrow).",
    "damage": "After a failed Crisis the King names which Holdings are Damaged.",
    "damage.kinds": "The kinds damaged (military, espionage, diplomacy, economic), one per Holding; the same "
                    "kind twice for two of that kind.",
    "heir": "The King names the Heir (Resource Phase), or an Intrigue effect changes it.",
    "heir.seat": "The Heir's seat, or null for none; not the King.",
    "heir.reason": _WHY,
    "role": "A Role card given to a seat (the King in the Resource Phase, or an effect).",
    "role.role": "marshal, spymaster, chancellor or steward.",
    "role.seat": "The holder, or null: back with the King.",
    "role.reason": _WHY,
    "holding": "An Intrigue effect (or correction) on one Holding of a seat.",
    "holding.seat": "Whose Holding.",
    "holding.kind": "military, espionage, diplomacy or economic.",
    "holding.change": "gain (a new Undamaged one; at most 9 of a kind), lose (an Undamaged one if there is one, "
                      "else a Damaged one), damage (an Undamaged one), or repair (a Damaged one).",
    "holding.reason": _WHY,
    "fall": "The King is Deposed or Assassinated (an effect): the crown passes to `to`, else the Heir, else "
            "the realm goes into Civil War (L23-L25).",
    "fall.how": "deposed or assassinated.",
    "fall.to": "The seat that takes the crown instead of the Heir (an Overthrow's controller); whether the "
               "Heir stays Heir is the setting overthrow_heir.",
    "fall.reason": _WHY,
    "face": "The King card turns to its other face, as a printed effect or a correction says.",
    "face.face": "The face it turns to: loyalist or usurper (not the one it shows).",
    "face.reason": _WHY,
    "cards": "Resource cards (Coin cards among them) a printed effect moves between a seat's hand and another's or "
             "the decks, in the Resource or Intrigue Phase; a record: hands stay secret and the cards count when "
             "revealed on an Event.",
    "cards.giver": "Whose hand they leave, or null: drawn from the decks.",
    "cards.taker": "Whose hand they go to, or null: back to the decks.",
    "cards.count": "How many cards (1-9).",
    "cards.resource": "Their type (Soldier, Spy, Diplomat, Coin), only when the effect shows it; never a value "
                      "or a cost.",
    "cards.reason": _WHY,
    "accede": "The successor shows their Allegiance; the King card faces its side (L23). A Chaos Agent picks "
              "the face, or wins alone if crowned by a Civil War (L25).",
    "accede.side": "The Allegiance shown: loyalist, usurper or chaos.",
    "accede.face": "A Chaos Agent's pick of the face: loyalist or usurper.",
    "civil_war": "The Civil War's cards (L25): each seat's cards pay their own costs and count against all "
                 "other cards; the highest total takes the crown.",
    "civil_war.cards": "Per seat, the Resource cards played in its support (one per Undamaged Holding at most).",
    "civil_war.first": "Per seat: card indexes that seat pays first among equal costs.",
    "civil_war.winner": "On a tie for the highest total, the former King's choice among the tied seats.",
    "reveal": "At the end (L26) a seat shows its Allegiance card: side and Ambition.",
    "reveal.side": "loyalist, usurper or chaos.",
    "reveal.ambition": "The Role the card names (marshal, spymaster, chancellor, steward); none for the Usurper "
                       "King card or the Chaos Agent.",
}
