"""Reading Decktet card names as people type them.

Accepted, case-insensitively: the name ("Castle"), a unique prefix ("Cas"),
the label form with its rank and suits ("7 Castle", "7 Castle (Suns/Knots)"),
"<rank> of <suit>" for one-suited cards ("Crown of Knots", "Ace of Moons"),
and "<rank> <suits>" ("9 Leaves/Knots", "7 waves wyrms").
"""

import re

from shared_rules import decktet


class NotACard(Exception):
    pass


class Specific(NotACard):
    """Words that nearly name a card: ambiguous, or a name with the wrong rank."""


class Ambiguous(Specific):
    pass


_RANK_WORDS = {"ace": 1, "pawn": 10, "court": 11, "crown": 12}


def _rank_word(word):
    if word.isdigit():
        return int(word)
    return _RANK_WORDS.get(word)


def _clean(text):
    text = re.sub(r"\([^)]*\)", " ", text)  # the label's "(Suns/Knots)" adds nothing
    return " ".join(text.replace("/", " ").lower().split())


def _by_name(text, names):
    """Exact name or unique prefix; raises NotACard with the candidates if ambiguous."""
    for n in names:
        if n.lower() == text:
            return n
    found = [n for n in names if n.lower().startswith(text)]
    if len(found) == 1:
        return found[0]
    if found:
        raise Ambiguous("%r could be %s" % (text, ", ".join(found)))
    return None


def _by_rank_and_suits(r, words, names):
    """'of knots' or 'leaves knots': the card of rank r with exactly those suits."""
    if words and words[0] == "of":
        words = words[1:]
    suits = []
    for w in words:
        match = [s for s in decktet.SUITS if s.lower().startswith(w)] if w else []
        if len(match) != 1:
            return None
        suits.append(match[0])
    if not suits:
        return None
    found = [n for n in names if decktet.rank(n) == r and sorted(decktet.suits(n)) == sorted(suits)]
    return found[0] if len(found) == 1 else None


def resolve(text, names):
    """The card name `text` stands for among `names`; raises NotACard."""
    clean = _clean(text)
    if not clean:
        raise NotACard("no card given")
    found = _by_name(clean, names)
    if found:
        return found
    words = clean.split(" ")
    r = _rank_word(words[0])
    if r is not None and len(words) > 1:
        rest = " ".join(words[1:])
        try:
            found = _by_name(rest, names)
        except NotACard:
            found = None
            ambiguous = [n for n in names if n.lower().startswith(rest) and decktet.rank(n) == r]
            if len(ambiguous) == 1:
                found = ambiguous[0]
        if found:
            if decktet.rank(found) != r:
                raise Specific("%s is a %s, not a %s" % (found, decktet.rank_name(decktet.rank(found)),
                                                         decktet.rank_name(r)))
            return found
        found = _by_rank_and_suits(r, words[1:], names)
        if found:
            return found
    raise NotACard("no card %r" % text.strip())


def take(words, names, limit=6):
    """Read one card from the start of `words`: (name, how many words it used).

    Tries the longest run of words first, so "Ace of Moons" and "9 Merchant"
    are one card. Raises NotACard when no run of words is a card.
    """
    ambiguous = last = None
    for n in range(min(limit, len(words)), 0, -1):
        try:
            return resolve(" ".join(words[:n]), names), n
        except Specific as e:
            ambiguous = ambiguous or e
        except NotACard as e:
            last = e
    raise ambiguous or last or NotACard("no card given")
