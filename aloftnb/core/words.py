"""Words every game's texts share: "a" or "an" before a name, and text that fits a width.

Menus, logs and drawings name things from a game's catalogue, so the article and the room a name
takes are only known when the text is made: a designer may rename "Slagling" to "Ashling".
Widths are estimates for the sans-serif fonts browsers use (DejaVu Sans, about the widest of
them, on Linux): a drawing shrinks or wraps a text to fit rather than slicing it.
"""

from __future__ import annotations

# Words that start with a vowel letter but a consonant sound, and the reverse.
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "eu", "ewe", "one", "once", "ur")
_VOWEL_SOUND = ("hour", "honest", "honour", "honor", "heir")


def article(name: str) -> str:
    """ "an" before a vowel sound, else "a" (by spelling, with the common exceptions)."""
    word = name.strip().lower()
    if not word:
        return "a"
    if word.startswith(_VOWEL_SOUND) or word[0] in "8" or word.startswith(("11", "18")):
        return "an"
    if word[0] in "aeiou" and not word.startswith(_CONSONANT_SOUND):
        return "an"
    return "a"


def with_article(name: str) -> str:
    """The name with its indefinite article: with_article("Ember Kite") is "an Ember Kite"."""
    return f"{article(name)} {name}"


# Advance widths in em of DejaVu Sans (regular; bold is about 13% wider), by character; others
# count as the widest lowercase letter, so an estimate errs on the wide side.
_NARROW = dict.fromkeys("il.,:;'|!", 0.30) | dict.fromkeys("jfrt()[]", 0.40) | {" ": 0.32}
_WIDE = dict.fromkeys("mwMW", 0.95) | dict.fromkeys("ABCDGHKNOQRUVXY&%", 0.75)
_DEFAULT_LOWER, _DEFAULT_OTHER = 0.62, 0.70


def text_width(text: str, size: float, bold: bool = False) -> float:
    """An estimate (slightly generous) of the width in px of `text` at font size `size`."""
    em = 0.0
    for ch in text:
        if ch in _NARROW:
            em += _NARROW[ch]
        elif ch in _WIDE:
            em += _WIDE[ch]
        elif ch.isdigit():
            em += 0.64
        elif ch.islower():
            em += _DEFAULT_LOWER
        else:
            em += _DEFAULT_OTHER
    return em * size * (1.14 if bold else 1.0)


def fit_size(text: str, width: float, size: float, smallest: float = 6.0,
             bold: bool = False) -> float:
    """The font size, at most `size` and at least `smallest`, at which `text` fits `width`."""
    needed = text_width(text, size, bold)
    if needed <= width:
        return size
    return max(smallest, size * width / needed)


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """`text` broken between words into lines that fit `width` at `size` (a single word wider
    than the width keeps a line of its own: it is never cut)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    lines.append(line)
    return lines


def possessive(name: str) -> str:
    """ "Mistveil's", but "Emberwrights'": a name ending in s takes the apostrophe alone."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"
