"""What people read about The King's Dilemma's settings and actions (host side).

Kept apart from actions.py so the board never loads this prose. Keys:
"setting.NAME", "ACTION" and "ACTION.PARAM". Lnnn: lines of
../shared/seeds/kings-dilemma-rulebook.txt; Rn: rulings in
../shared/rules/kings-dilemma.md section 8.
"""

DOCS = {
    "title": "The King's Dilemma",  # the game's name as people write it (a chart's title)
    "game": "The King's Dilemma (one game of the campaign), 3-5 Houses: vote on the Dilemmas with Power, "
            "steer the Resources and Stability, score your Agendas when the King dies or abdicates.",
    "setting.players": "Houses at the table, 3-5; seat 0.. clockwise (R2).",
    "setting.power": "Power behind each House's screen at the start, one per seat; empty: 8 each (L835). "
                     "Enter the Power Legacy and abilities here (L1290-1296).",
    "setting.coins": "Coins behind each House's screen at the start, one per seat; empty: 10 each (L835).",
    "setting.middle": "Power on the Balance's middle space at the start: 3 (L773-776).",
    "setting.prestige": "Seats from highest to lowest Prestige (ties broken by the higher House number, "
                        "L597-602); the first takes the Leader token (L992-996), the last the Moderator "
                        "(L998-1001). Empty: seat 0 highest, the last seat lowest.",
    "setting.resource_track": "Spaces on the Resource Track, odd; markers start on the centre (R1: 9).",
    "setting.resources": "Start spaces of the five markers (0 = bottom), in the order influence, wealth, "
                         "morale, welfare, knowledge, after the Resource Legacy (L1312-1320); empty: centre.",
    "setting.stability_track": "Spaces on the Stability Track, odd; the marker starts in the middle (R1: 13).",
    "setting.time_counter": "Spaces on the Time Counter (not in the rulebook extract; default 8).",
    "setting.death_space": "Which space (1-based) holds the King's-Death icon: the final one (L1696), default 8.",
    "setting.edge_momentum": "R10: a marker pushed past the track's end still gets its Momentum extra and "
                             "update, and Stability moves the full distance (true); false: a marker already "
                             "at that end gets no extra and keeps its Momentum.",
    "setting.ranking": "Ties in the Power bonus and the Money Ranking: dense (R13) or competition. Open "
                       "Agendas always rank by distinct positions, as the rulebook's example does (L3513-3542).",
    "setting.coin_bonus": "R14: false, no Coin bonus; true: most Coins +2, second +1 (a reading of L1700-1701).",
    "setting.voting": "open: the rulebook's turn-by-turn Vote of the Council (L1737-1930); sealed: every House "
                      "commits its side and Power at once on its pad, hidden until the board reveals them all "
                      "(a sealed ballot; rulings S1-S3 in voting.py). S4: an Event or Trigger card drawn "
                      "for the round (L393-398, L3054-3057: placed in the Event area, not voted on) sets "
                      "the round's sealed ballot aside, casts and all, unrevealed; the next round's opens.",
    "setting.zero_power": "A ruling a table decides (K3; the rulebook does not say): what a House with no Power "
                          "left earns in the Power bonus, +2 for the most Power left behind the screen and +1 for "
                          "the second most (L3551-3555, L1700-1701). no_bonus (default, the reading the text "
                          "favours: a House with none left has no Power remaining to rank): nothing; ranked: 0 "
                          "ranks like any other count (every House at 0: all tied first). The Coin bonus "
                          "(coin_bonus) follows the same ruling.",
    "setting.bargain": "A ruling a table decides (K7; the rulebook does not say whether Coins may be paid after "
                       "the vote): when Coins change hands (coins). vote (default, the reading the text favours: "
                       "bargaining is during the Voting Phase, L1932-1942, and the Moderator's over a tie and the "
                       "Leader token, L2080-2083, L2118-2130): from the vote's first turn to the end of Vote "
                       "Resolution; any: at any time before the game ends, a deal paid after the vote too.",
    "setting.open_agendas": "Holders of the Open Agenda tokens (L1431-1456), seat or -1 for none: the five "
                            "Positive tokens in Resource order, then the five Negative ones; empty: none.",
    "setting.agenda_money": "Per House, its Secret Agenda's AP for 1st/2nd/3rd in Coins (L3369-3378; "
                            "Moderate is 5/3/1, L3408-3416); empty: not scored (R15).",
    "setting.agenda_area": "Per House, the Resource Track spaces (0 = bottom) of its Secret Agenda's area "
                           "(L3350-3358; the diagrams are lost, R15).",
    "setting.agenda_goal": "Per House, AP by how many markers sit in its area: item k is the AP for k markers.",
    "roll": "The random side of each Resource marker at setup (L781-783): the board rolls five dice, or "
            "enter five coin tosses or dice; odd = white (Positive, up), even = black (Negative, down).",
    "roll.values": "Five values, in Resource order; 1 = white, 2 = black for a coin.",
    "roll.source": "board (the board's roll, or the core's from the seed when values are omitted), manual, or "
                   "smart (smart dice).",
    "roll.dice": "With source smart: the die that gave each value (its id), for the log; the state keeps only "
                 "the values.",
    "vote": "First turn: put at least 1 Power on your AYE or NAY card (L1743-1755).",
    "vote.side": "aye or nay.",
    "vote.power": "The Power committed now.",
    "pass": "First turn: pass and gather Power, or pass and become Moderator (once per vote; at once), "
            "taking 1 Coin from the general pool (L1843-1901).",
    "pass.kind": "gather or moderate.",
    "add": "A later turn: add at least 1 Power to your card (L1926-1930, R5).",
    "add.power": "The Power added.",
    "stay": "A later turn: add nothing and stay in the vote (R5). Passers' turns are skipped.",
    "decide": "The Moderator names the winning side of a tie, or when everyone passed (then also takes the "
              "Leader token) (L2075-2078).",
    "decide.side": "aye or nay.",
    "appoint": "The Moderator picks the Leader among the winning side's tied top investors (L2081-2083, R9).",
    "appoint.leader": "The new Leader's seat.",
    "coins": "Bargaining: Coins change hands while a vote is on (the setting bargain: or at any time); a deal "
             "is binding once paid (L1932-1942, R16).",
    "coins.giver": "The House that pays.",
    "coins.taker": "The House that is paid.",
    "coins.amount": "How many Coins.",
    "outcome": "The winning outcome's Resource changes, left to right as on the card (L2332-2337); Momentum "
               "and Stability follow (L2338-2374).",
    "outcome.resources": "The Resource of each effect, in card order.",
    "outcome.amounts": "The signed change of each effect (+ up, - down), same order.",
    "record": "Record what the outcome unlocked: a Chronicle sticker, signed by the Leader (L2376-2391), a "
              "Story card, signed by the Leader (L2478), or an Envelope to open (a reminder, L2441-2482).",
    "record.kind": "sticker, story or envelope.",
    "record.resource": "A sticker's Resource row.",
    "record.sign": "A sticker's sign: positive or negative.",
    "record.number": "A Story card's or Envelope's number (0 if none).",
    "place": "Place the card and end the round: Time Counter or Event area (L3054-3070), then abdication "
             "or the King's death ends the game (L3208-3238).",
    "place.where": "time_counter, or event_area for Event and Trigger cards.",
    "place.death_icon": "The card's back shows the King's-Death icon on its central space (L3215-3216).",
    "pool": "A printed card's effect: Coins, Power or Agenda Points from (+) or to (-) the general pool for a "
            "House: a Story card's Signer, a Majority Signer Bonus, an achievement (L1605-1651, L2551-2555).",
    "pool.seat": "The House.",
    "pool.pool": "coins, power or agenda (Agenda Points, added to the House's final total: ruling K9).",
    "pool.amount": "Taken from the general pool (+) or returned to it (-).",
    "pool.reason": "The card or why (a Story card's name, \"house rule\", \"fix a misentry\").",
    "stability": "A printed card's effect on the Stability marker (+ up, - down); at either end the King "
                 "abdicates (L2244, L3211-3213).",
    "stability.amount": "Spaces moved: + towards the top, - towards the bottom.",
    "stability.reason": "The card or why.",
    "momentum": "A printed card's effect on a Resource's Momentum marker: add one (on the marker's side), "
                "remove it, or flip the Resource marker's side, which removes its Momentum marker "
                "(L2362-2365: the only rule for turning the marker over removes any Momentum marker attached "
                "to it; a Momentum marker is of its side's colour, L2357-2358).",
    "momentum.resource": "The Resource.",
    "momentum.change": "add, remove or flip.",
    "momentum.reason": "The card or why.",
    "agenda_value": "An active Story card changes what an Open Agenda token is worth when it scores, e.g. "
                    "\"+1 additional\" for one Resource's Positive token (L1659-1663).",
    "agenda_value.resource": "The token's Resource.",
    "agenda_value.sign": "positive or negative token.",
    "agenda_value.amount": "Points added to the token's score when it scores (-1 makes a penalty heavier).",
    "agenda_value.reason": "The card or why.",
    "drawn": "The round's card is an Event or Trigger card: no Vote; it goes to the Event area and the round "
             "ends (L393-398, L3054-3057). Its printed instructions are entered as effects.",
    "drawn.card": "event or trigger.",
    "drawn.reason": "The card or why.",
}
