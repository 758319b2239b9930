"""The Council, for 3-5 seats and a Decktet: ../shared/seeds/the-council.txt (Lnn).

The digest ../shared/rules/the-council.md gives rulings T1-T13; T1, T4 and T7
are settings (events, effects, lowest and lowest_ties). T4 is a reading tables are
known to differ on (off-suit Courts and Crowns); its default is the one the seed's
text favours, effects = all (C14), not the digest's matching (L30-L32). Modules: actions
(settings, schemas), flow (draft, events, bids; fold), reveal (the sealed reveal,
the event's resolution, the end of a phase, the collapse, the score), effects (the
table's effects on chips, ranks, traitor chips and the empire's ranks, loaded when
one is entered), views (legal), texts, docs (the last three host side or on
demand). Every name the board loads is a string it interns for good
(../shared/micropython-notes.md): few modules, reused names.

State: step (draft, event, bid, reveal, over), hand, dealer, starter (who bids first
on the next or current event), turn (the bidder), event (the current or last event
card), deck (cards left in the draw deck), events (resolved this hand), front (each
seat's drafted cards still in front of it, in entry order: ballot positions 1-5),
discard (cards known discarded since the last reshuffle), ranks, chips and bids
(flat, seat * 6 + suit; the view gives a list of six per seat), empire (six),
traitors, last (the lowest rank each seat revealed in the last event, 0 none),
outcome (success, failure), scores, winners.

Where neither the seed nor T1-T13 decide, this package chooses (C1-C16):
  C1  At the end of an events phase without a collapse, the drafted cards still in
      front of the seats are discarded face up; each hand drafts five afresh (L18-L23).
  C2  Ranks, unspent chips and traitor chips carry over from hand to hand.
  C3  Setting chips = entered: the draft entry also gives the seat's chips (0-15 per
      suit), taken as counted; the cards are still entered, the reveal needs them.
  C4  T11 applies at the start of a hand whose deck holds no more than six cards per
      seat (the deal and at least one event): every discard, the face-down ones of the
      draft included (known to the board by count only), goes back into the deck.
  C5  A tie for the win (L41) is broken among the tied seats that revealed a card in
      the last event; equal lowest ranks share the win; none revealed: T13.
  C6  "The low card" (L33, L41): any revealed card counts, with or without effect (T4),
      ranked Ace < 2-9 < Pawn < Court < Crown; the Excuse has no rank and never counts.
      Equal lowest: the first from this event's starting bidder clockwise.
  C7  A revealed Ace of a matching suit makes the event succeed and its holder the
      highest bidder in that suit.
  C8  A ballot position beyond the seat's drafted cards reveals nothing; a position
      named twice reveals its card once.
  C9  When no seat has a drafted card left, no ballot is held: the event resolves at once.
  C10 Bidding is one turn per seat from the starting bidder clockwise; pass = a bid of
      nothing ("once all players have passed", L27, is after every seat's turn).
  C11 Order of effects: Crown ranks (T5), then on success the rank gains, on failure the
      trades, the Courts' traitor chips and the empire's losses, in suit order. A Pawn's
      chips count in the total and in its owner's bid in each of those suits.
  C12 The dealer moves one seat clockwise each hand; a hand's first event is bid from
      its dealer (L24); later ones as L33 and T10 say.
  C13 The Excuse as an event (T12) does not count toward the setting events (T1).
  C14 Effects = all (the default: L31-L32 give a Court's traitor chip and a Crown's rank
      with no word of the event's suits, where L30 narrows a Pawn to its valid suits; T4's
      matching is the other setting): every revealed Court and Crown takes effect whatever
      its suits; Aces, numbers and Pawns still act only in the event's suits.
  C15 Lowest bidder (T7): among tied lowest, those with the worst tie-break (no number
      card in that suit, else the highest number) remain; lowest_ties says whether
      nobody (T7) or all of them still tied trade.
  C16 The reveal's ballot is this game's own: while it is open the table cannot open
      another (ballot.py refuses), and a ballot the table opened during the bidding
      makes the last bid wait (refused, ballot_open) until that ballot is revealed.
  C17 The table's effects (effects.py: chips, ranks, traitors, empire) may be entered at
      any step until the game is over; each is public, moves one count by a non-zero
      amount and keeps its reason.
  C18 A count an effect would take out of its range is refused, not clamped: ranks and
      the empire's 0-6 (T9), chips of a suit and traitor chips 0-99.
  C19 An effect never ends the game: the collapse is checked at the end of an events
      phase (L16, L38), where a rank an effect moved counts as any other.

Nothing is hidden in the core: ranks, chips, bids and the drafted cards are public
(they lie face up, L23); the secret choice of cards to reveal is a sealed ballot,
whose choices never enter the state before the reveal (so the table's effects, on
public counts only, cannot tell them).
"""

from shared_rules import canon, decktet, game
from shared_rules.the_council.actions import SCHEMAS, SETTINGS  # noqa: F401
from shared_rules.the_council.flow import decide  # noqa: F401
from shared_rules.the_council.fold import fold  # noqa: F401

NAME = "the_council"


def initial(settings, seed):
    """The state of the first draft (setup.py, read for a new game only)."""
    from shared_rules.the_council import setup

    return setup.initial(settings, seed)


# Every action is one the whole table sees made (drafted cards face up, events, public bids);
# the reveal's choices enter the log only with ballot_reveal, when they are shown anyway.
LOG_PUBLIC = True


def card_names(state):
    """Every card name an action may mention (the rules then say which are still out)."""
    return decktet.names(state["settings"]["extended"])


def view(state, seat=None, share=False):
    """What `seat` (or the public, for None) may see: everything (nothing is hidden).
    The state keeps ranks, chips and bids flat (index seat * 6 + suit: one list each,
    not one per seat, is less for a board to copy at every action); the view gives
    each seat its own list of six, in suit order, and "suits", the suits of the event
    being bid on or revealed (none otherwise). share=True: the view holds the state's
    own lists (for a caller that only reads it at once, as the board's render does)."""
    out = dict(state) if share else canon.copy(state)
    for key in ("ranks", "chips", "bids"):
        flat = state[key]
        out[key] = [flat[k:k + 6] for k in range(0, len(flat), 6)]
    # the suits bid in now (the LEDs' event suits): the event's, while it is bid and revealed
    live = state["event"] and state["step"] in ("bid", "reveal")
    out["suits"] = list(decktet.suits(state["event"])) if live else []
    return out


def legal(state, seat=None):
    from shared_rules.the_council import views as v

    return v.legal(state, seat)


def lines(state):
    """The table's display when it shows the game (its back key): chips and traitors."""
    from shared_rules.the_council import views as v

    return v.lines(state)


def words():
    """The game's words (texts.py: error messages, prompts), loaded when first asked for
    (a host's, or a board's that shows a prompt)."""
    from shared_rules.the_council import texts as words

    return words




def ballot(state, act, emit):
    """After each sealed-ballot action (engine): this event's reveal, once revealed, is
    resolved (reveal.from_ballot)."""
    if act["type"] == "ballot_reveal" and state["step"] == "reveal":  # the table's own ballots wait (C16)
        from shared_rules.the_council import reveal  # loaded already (flow.py)

        reveal.from_ballot(state, emit)


game.declare(globals())  # no dice, prompt, is_over and the hooks this game does without (None)
