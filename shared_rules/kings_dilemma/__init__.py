"""The King's Dilemma, one game of the campaign, for 3-5 Houses.

Rules: ../shared/seeds/kings-dilemma-rulebook.txt (Lnnn) and its digest with
the companion rulings R1-R16, ../shared/rules/kings-dilemma.md. The legacy
steps between games (stickers, Power and Resource Legacy, Open Agendas,
Secret Agenda tables) are settings; this package plays the game itself.

Modules: actions (settings, schemas), voting (the
Vote of the Council and its resolution), dilemma (Momentum, Stability, the
Time Counter), scoring, flow (decide), fold, views (legal, prompt).

Rulings R1-R16 are followed as the digest states them. Where neither the
rulebook nor the rulings decide, this module chooses (K1-K10); K3 and K7 are
readings tables are known to differ on, so each is a setting (rulings.RULINGS,
read with schema.ruling), its default the reading the text favours:
  K1 A passer's later voting turns are skipped automatically, and the end of
     the phase (R4) is tested at each seat skipped (L1926-1927).
  K2 The Leader token moves at Vote Resolution only when its holder voted for
     the losing side (L2080-2083, read literally): a Leader who passed keeps it.
  K3 A House with no Power left earns no Power bonus (L3551-3555 say "most
     Power remaining"); the Money Ranking ranks every House, 0 Coins included.
     A table's ruling: the setting zero_power (ranked: 0 ranks like any count).
  K4 Time Counter: 8 spaces with the King's-Death icon on the last (L1696 "the
     final space"); the length is not in the extract, so both are settings.
  K5 Abdication when Stability lands on (or is clamped to) either end space.
  K6 A Secret Agenda's area is a set of Resource Track spaces and its goal a
     table of AP by the number of markers in the area (R15: entered as settings).
  K7 Coins change hands (R16) while a vote is on, from its first turn to the end
     of Vote Resolution (L1932-1942; the Moderator bargains there, L2080-2083,
     L2118-2130). A table's ruling: the setting bargain (any: at any time before
     the end, the core's reading before the setting, and what a log without it
     means). The Coin on a PASS card is the House's only from cleanup on (L2162-2163).
  K8 The starting Momentum sides are a roll of five values, odd = white (up),
     even = black (down): a board's d6 or coins entered as 1 / 2 (L781-783).
  K9 Agenda Points that a printed effect gives (a House achievement, a Story card:
     effects.py) add to the House's final total beside the scored columns (the
     texts do not say where they are kept).
  K10 Open Agendas rank by distinct positions whatever the ranking setting: the
     rulebook's example fixes it (L3513-3542); the setting rules the Power bonus
     and the Money Ranking (R13).
"""

from shared_rules import canon, game
from shared_rules.kings_dilemma.actions import SCHEMAS, SETTINGS  # noqa: F401
from shared_rules.kings_dilemma.flow import decide  # noqa: F401
from shared_rules.kings_dilemma.fold import fold  # noqa: F401

NAME = "kings_dilemma"

# Every entry of the log may be exported as it is (host/chancery/logbook/store.py): each
# action is one the whole table sees made (votes and Power on the Balance, passes,
# Coins changing hands, outcomes), so the log holds nothing a House hides. What
# stays behind a screen is the running total, which the views leave out; a hidden
# vote would be a sealed ballot, whose choices never enter the log before the reveal.
LOG_PUBLIC = True

def initial(settings, seed):
    """The state before the Momentum roll (setup.py, read for a new game only)."""
    from shared_rules.kings_dilemma import setup

    return setup.initial(settings, seed)


def dice_wanted(state):
    """Five dice at setup, one per Resource marker's random side (L781-783)."""
    return state["pending"] if state["step"] == "roll" else 0


def card_names(state):
    """No action names a card: the Dilemma cards stay physical."""
    return ()


def view(state, seat=None, share=False):
    """What `seat` (or the public, for None) may see. Power and Coins behind a
    House screen are private (L835): other Houses' pools show as None, until the
    game is over and the screens are scored in the open (L3648-3653). Power
    committed on the Balance and the middle pool are public; the PRNG is hidden.
    share=True: the view holds the state's own lists (for a caller that only reads
    it at once, as the board's render does)."""
    out = dict(state) if share else canon.copy(state)  # dict(): in C, not a loop over the keys in Python
    out.pop("rng", None)
    if state["step"] != "over":
        for key in ("power", "coins"):  # behind the screens
            pools = state.get(key)
            if pools is not None:
                out[key] = [pools[s] if s == seat else None for s in range(len(pools))]
    return out


# views.py (legal actions, prompts) loads on first use: replay needs only decide and fold.

def legal(state, seat=None):
    from shared_rules.kings_dilemma import views as v

    return v.legal(state, seat)


def words():
    """The game's words (texts.py: error messages, prompts), loaded when first asked for
    (a host's, or a board's that shows a prompt)."""
    from shared_rules.kings_dilemma import texts as words

    return words




def ballot(state, act, emit):
    """After each sealed-ballot action (engine): the sealed vote revealed is played
    as the Vote of the Council (voting.sealed). Any other ballot the table holds (one
    it opened during the open vote) is its own business."""
    if act["type"] == "ballot_reveal" and state["step"] == "vote" and state["settings"]["voting"] == "sealed":
        from shared_rules.kings_dilemma import voting

        voting.sealed(state, emit)


def pad(state, seat, key, held):
    """A House's AYE/PASS/NAY buttons on its voting turn (pads.py); None: the menus."""
    from shared_rules.kings_dilemma import pads

    return pads.pad(state, seat, key, held)


game.declare(globals())  # prompt, is_over and the hooks this game does without (None)
