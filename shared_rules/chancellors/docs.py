"""What people read about Chancellors' settings and actions (host side).

Kept apart from actions.py so the board never loads this prose. Keys:
"setting.NAME", "ACTION" and "ACTION.PARAM". Line numbers are in
../shared/seeds/chancellors.txt.
"""

DOCS = {
    "title": "Chancellors",  # the game's name as people write it (a chart's title)
    "game": "Chancellors (P.D. Magnus), 2-4 players: solve the kingdom's problems (pairs of dice) with "
            "Decktet cards; control of the royal services decides who acts first.",
    "setting.players": "Seats at the table, 2-4; the problems are players + 1 pairs of dice (L15-L19).",
    "setting.target": "The score that ends the game at the end of the turn (L84; adjustable, L88).",
    "setting.extended": "Play with the extended deck: Pawns, Courts and the Excuse (L100-L108).",
    "roll": "Roll the dice waiting to be rolled: the board rolls them, or enter the faces read from "
            "physical or smart dice (ruling X1).",
    "roll.values": "The faces, in the order asked. Omitted with source board, the rules core rolls them "
                   "from the match seed (the terminal game, tests); a board gives the faces of its own roll.",
    "roll.source": "Where the values come from: board, manual (a physical die) or smart (a smart die).",
    "roll.dice": "With source smart: the die that gave each value (its id, in the values' order), for the log; "
                 "the state keeps only the values.",
    "reveal": "Step A: the cards the seats revealed for control, one per seat (L31-L43).",
    "reveal.cards": "The card each seat revealed, in seat order.",
    "assign": "Step A, entered as its outcome: who now controls each service (ruling X2).",
    "assign.diplomatic": "The Diplomatic corps (Diplomat): a seat, or null for nobody.",
    "assign.army": "The Army (Soldier): a seat, or null for nobody.",
    "assign.navy": "The Navy (Sailor): a seat, or null for nobody.",
    "solve": "Solve a whole problem: cards adding up to at least the dice sum, or twice it without help "
             "(L53, L65).",
    "solve.problem": "The problem, numbered from 0.",
    "solve.cards": "The cards discarded.",
    "solve.excuse": "Use the Excuse (step C, its holder only; L104).",
    "solve_part": "Solve part of a problem: one card worth at most the lower die; set one die aside (L57-L59).",
    "solve_part.problem": "The problem, numbered from 0.",
    "solve_part.card": "The one card discarded.",
    "solve_part.aside": "Which die (0 or 1) to set aside; it is rerolled at the end of the turn (ruling D2).",
    "solve_part.excuse": "Use the Excuse (step C, its holder only; L104).",
    "pass": "Pass this chance; in step B, optionally abdicate the service (L61).",
    "pass.abdicate": "Give up the service whose chance this is; it goes back to the middle.",
    "excuse": "Record who holds the Excuse (extended deck: drawn or dealt, L104).",
    "excuse.holder": "The seat now holding it, or null.",
    "score": "A correction or house rule: points added to (+) or taken from (-) a seat's cumulative score. Never "
             "below 0; it counts for step A's tie-break (L41) and for the target at the end of the turn (L84) "
             "(ruling X3).",
    "score.seat": "The seat.",
    "score.amount": "Points, -20 to 20 (a whole solve scores at most 12, L55); 0 changes nothing.",
    "score.reason": "Why, in a few words (\"fix a misentry\", \"house rule\").",
    "die": "A correction: a problem's die set to the value it shows (L21). Only a die in play: not one waiting "
           "to be rolled, nor one set aside to be rerolled (L55, L59) (ruling X4).",
    "die.problem": "The problem, numbered from 0.",
    "die.die": "Which of its two dice, 0 or 1.",
    "die.value": "The value it should show, 1-6.",
    "die.reason": "Why, in a few words (\"misread\", \"knocked over\").",
    "service": "A correction or house rule: a royal service's card moved to a seat, or to the middle of the table "
               "(L23). In step B a chance the service has not yet taken this turn goes with it (L47), and a "
               "service nobody held when step B began has none; in step C the order of chances stays as it "
               "began (L63) (ruling X5).",
    "service.service": "diplomatic, army or navy.",
    "service.holder": "The seat that now holds it, or null for nobody.",
    "service.reason": "Why, in a few words (\"fix a misentry\", \"house rule\").",
}
