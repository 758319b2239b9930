"""Yes, Your Grace, for 3-5 seats: ../shared/seeds/yes-your-grace.txt (Lnn).

The digest ../shared/rules/yes-your-grace.md gives rulings Y1-Y5; Y1 (annals) and
Y2 (steward) are settings. The companion keeps the Annals of History (L4), the
King and the face of the King card, the Heir, each seat's Holdings, the Roles,
the round's phases, and resolves Events and Civil Wars (the calculator, calc.py)
with its working. The cards stay physical: their contents are entered.
Modules: actions (settings, schemas, names), calc (the calculator, pure),
resolve (events, damage, succession, Civil War), flow (decide, fold), effects
(what printed effects do, as the table enters them: loaded when one is), views
(legal), texts, docs (the last three host side or on demand).

State: step (resource, intrigue, event, damage, accede, civil_war, reveal, over),
round, king, face (loyalist, usurper), heir (seat or None), holdings and damaged
(per seat, four counts: military, espionage, diplomacy, economic), roles (holder
of marshal, spymaster, chancellor, steward, or None: with the King), annals (the
Records in order: triumph, violence, peace), violence (an Overthrow resolved or a
Civil War this round), triumphs and events (this round), pending (Holdings the King
names to damage), former (the last King who fell), successor (who is to show their
Allegiance and take the crown), war (the successor won a Civil War), resume (the
phase to go back to), shown (per seat: [side, ambition] shown at the end, else
None), last (the working of the last Event or Civil War, as emitted), ending, winners.

Hidden information (G1): Allegiance cards are secret (L6), so the core never holds
one before the rules have it shown: the successor shows theirs when crowned (L23,
L25, `accede`), every other seat but the King and the Heir at the end (L26,
`reveal`). So nothing in the state is secret, the view hides nothing and every
entry of the log is one the table saw made: LOG_PUBLIC = True. A seat's secret is
never typed in early, so no board, log or view can leak it.

Where neither the seed nor Y1-Y5 decide, this package chooses (G1-G16; G14, G15 in effects.py):
  G1  Allegiances enter only when shown (above).
  G2  The first King, the face of the King card, the Heir, the Roles and the
      Holdings are settings (the set-up list is lost); default: seat 0 is a
      Loyalist King, no Heir, every Role with the King, one Undamaged Holding of
      each kind per seat.
  G3  Coin cards (and the Steward's Coins) only pay costs: they add nothing to a
      side's total and are never doubled; a Coin card has no cost.
  G4  A Role's contribution of at least one Resource counts as that type on its
      side for the other side's doubling (L19: "exactly like Resource cards").
  G5  Y5's outcomes are distinct when a side's total differs; when every choice gives
      the same totals the event resolves, its working naming the earliest tied cards
      as paid. Otherwise the event is refused (ambiguous) listing the outcomes.
  G6  A failed Crisis damages Holdings the King names (`damage`) unless there is no
      choice (two or fewer Undamaged, or all of one kind): then at once (Y4).
  G7  A Role is played only by a seat that holds it (one held by nobody is with the
      King, who is too busy to play it, L24); the King holds no Role; a seat may hold
      several Roles.
  G8  Civil War cards: no more of a type than the Undamaged Holdings of its kind
      at the table; the former King's pick on a tie is `winner` (ignored without a tie).
  G9  Intrigue effects are entered by the table (effects.py: `holding`, `role`, `heir`,
      `fall`, `face`, `cards`, each with an optional reason); a successful Overthrow's
      crown passes with `fall` and `to`, the controller.
  G10 `lose` removes an Undamaged Holding of that kind if there is one, else a Damaged one.
  G11 A Chaos Agent crowned by Heir or effect picks the face (`face`); a
      Chaos Agent crowned by a Civil War wins alone at once (L25).
  G12 An Intrigue card names its controller and target (distinct); an Overthrow's
      target is the King (L14). A Crisis's tie-breaker is the King (entered `first`).
  G13 An Overthrow whose target was King when it was played (a King of this round) but has
      lost the crown before it resolves is still resolved, and still makes the round
      Violence (L21: "regardless of result"). Its success crowns nobody: the crown is not
      the target's to lose (the table enters no `fall` for it). Played on a seat that was
      never King this round, it is refused (L14).
  G14 Coins and Resource cards: no hand is held; `cards` records a printed effect's move
      of them, public counts only (effects.py).
  G15 The King card's face is public; `face` turns it (effects.py).
  G16 A crown that passes by a card (`fall` with `to`, an Overthrow's controller: G9) to a
      seat other than the Heir leaves nobody Heir: the new King holds the Heir card, as every
      crowning of the seed does (L23; a Civil War's winner is crowned the Heir's way and
      takes the Heir card, L25).
      Tables read it differently, so it is a setting (rulings.RULINGS, read with
      schema.ruling): overthrow_heir = stays keeps the Heir, who is then named in `accede`'s
      event (L23 moves the Heir card only when the Heir is crowned).
"""

from shared_rules import game
from shared_rules.yes_your_grace.actions import SCHEMAS, SETTINGS, Names  # noqa: F401
from shared_rules.yes_your_grace.flow import decide  # noqa: F401
from shared_rules.yes_your_grace.fold import fold  # noqa: F401

NAME = "yes_your_grace"

LOG_PUBLIC = True  # G1: no Allegiance is entered before it is shown to the table


def initial(settings, seed):
    """The state at the start of round 1 (setup.py, read for a new game only)."""
    from shared_rules.yes_your_grace import setup

    return setup.initial(settings, seed)


def card_names(state):
    """Every Resource card name an action may mention: "Soldier 3 c1" (type, value, cost), "Coin 2"."""
    return Names(state["settings"])


def legal(state, seat=None):
    from shared_rules.yes_your_grace import views as v

    return v.legal(state, seat)


def lines(state):
    """The table's display when it shows the game (its back key): the last working."""
    from shared_rules.yes_your_grace import texts

    return texts.lines(state)


def words():
    """The game's words (texts.py: error messages, prompts), loaded when first asked for
    (a host's, or a board's that shows a prompt)."""
    from shared_rules.yes_your_grace import texts as words

    return words


game.declare(globals())  # its view (G1: no secret is held), no dice, prompt, is_over, the hooks it does without
