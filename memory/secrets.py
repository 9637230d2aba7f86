"""Secrets in what people write: passwords and PINs in everyday wording and several
languages, keys and tokens, card numbers, national ids, bank accounts and Wi-Fi keys.

Text is read after normalisation (compatibility forms folded, Cyrillic and Greek letters
that look Latin read as Latin, invisible characters dropped), so ``pаssword`` with a
Cyrillic ``а`` or a zero-width space inside a password hides nothing. Redaction maps
what it finds back onto the original text and replaces the secret there, invisible
characters included. Pure functions of text; ``memory.screening`` re-exports them.
"""

import re
import unicodedata
from collections.abc import Iterator
from typing import NamedTuple

REDACTED = "[redacted]"

# -- normalisation ------------------------------------------------------------------

# Letters of other scripts that pass for Latin ones in a word like "password".
_CONFUSABLES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
        "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l",
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
        "С": "C", "Т": "T", "У": "Y", "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Ԁ": "D",
        "Һ": "H", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I",
        # Greek
        "α": "a", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
        "υ": "u", "χ": "x",
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    }
)  # fmt: skip


def _invisible(char: str) -> bool:
    # Format characters: zero-width spaces and joiners, soft hyphens, bidi marks.
    return unicodedata.category(char) == "Cf"


def _clusters(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each character with the combining marks that follow it."""
    start = 0
    for index in range(1, len(text) + 1):
        if index == len(text) or not unicodedata.combining(text[index]):
            yield start, index
            start = index


def _normalised(text: str) -> tuple[str, list[tuple[int, int]] | None]:
    """The text secrets are read in, and for each of its characters the (start, end) of
    the original characters it came from; None when it is ``text`` itself, each character
    from its own place."""
    if text.isascii():
        # Every ASCII character is its own reading: visible, never combining, its own
        # compatibility form, and no confusable (tests hold each one to it). Most text
        # is ASCII, and reading it character by character cost more than the patterns.
        return text, None
    return _normalised_by_cluster(text)


def _normalised_by_cluster(text: str) -> tuple[str, list[tuple[int, int]]]:
    chars: list[str] = []
    origins: list[tuple[int, int]] = []
    for start, end in _clusters(text):
        cluster = text[start:end]
        # On its own, an ASCII character is its own reading (as above).
        reading = cluster if end - start == 1 and cluster.isascii() else _reading(cluster)
        chars.append(reading)
        origins += [(start, end)] * len(reading)
    return "".join(chars), origins


def _reading(cluster: str) -> str:
    """What a character with its combining marks reads as: compatibility forms folded,
    confusables read as Latin, invisible characters dropped."""
    visible = "".join(char for char in cluster if not _invisible(char))
    folded = unicodedata.normalize("NFKC", visible).translate(_CONFUSABLES)
    return "".join(char for char in folded if not _invisible(char))


def normalise(text: str) -> str:
    """``text`` as secrets are read in it."""
    return _normalised(text)[0]


# -- what a secret looks like ---------------------------------------------------------

# Words that say something about a secret without being one ("my password is too long").
_NOT_A_VALUE = (
    r"(?:a|an|the|my|your|his|her|our|their|its|this|that|these|those|it|which|what|"
    r"same|different|weak|strong|long|short|too|very|so|not|never|still|now|also|just|"
    r"already|required|needed|wrong|incorrect|correct|right|expired|saved|stored|written|"
    r"secure|insecure|safe|easy|hard|simple|impossible|changed|reset|new|old|case|"
    r"in|on|at|under|with|without|inside|somewhere|something|nothing|anything|"
    r"being|getting|going|here|there|below|above|attached|none|unknown|forgotten|lost|"
    r"sent|shared|broken|missing|blank|empty|fine|ok|okay|great|bad|good)"
)
# A value: a quoted phrase, or a token up to whitespace without trailing punctuation.
# ``[redacted]`` is one too: "the password is [redacted]" is still about a password, and
# redacting it again changes nothing.
_VALUE = (
    r"(?:\"[^\"\n]{1,64}\"|'[^'\n]{1,64}'|“[^”\n]{1,64}”|‘[^’\n]{1,64}’"
    r"|(?!" + _NOT_A_VALUE + r"(?=[\s.,;:!?)]|$))\S*?[^\s.,;:)\"'’”])"
    r"(?=[.,;:)\"'’”]*(?:\s|$))"
)
# A token that can only be a password or code: letters and digits mixed, six or more.
_SHAPED = r"(?=\S*\d)(?=\S*[^\W\d_])\S{5,}[^\s.,;:)\"'’”]"

_PASSWORD = (
    r"(?:pass(?:word|code|phrase)s?|passwd|pwd|pw|passwort|kennwort|mot de passe|mdp|"
    r"contrase(?:ñ|n)a|clave de acceso|senha|wachtwoord|lösenord|salasana|hasło|"
    r"api[ _-]?key|secret[ _-]?key|client[ _-]?secret|(?:access|auth|bearer)[ _-]?token|"
    r"security code|(?:wi-?fi|wlan|wpa2?|network|router)[ -]?(?:key|code|schlüssel))"
)
_PIN = r"(?:pin(?:[ -]?(?:code|number|nummer|no))?|code pin|geheimzahl|cvv2?|cvc2?)"
# What the secret belongs to, between the word and its value ("for my email",
# "für das Online-Banking", "del correo"): a short phrase after a preposition, never a
# noun of its own ("password manager is great" says nothing secret).
_FOR = (
    r"(?:\s+(?:for|to|of|on|at|in|für|von|zum|zur|pour|du|de|del|para|de la)\s+"
    r"(?:[\w.@'’-]+\s+){0,3}?[\w.@'’-]+)?"
)
_IS = r"(?:\s+(?:is|was|ist|lautet|est|es|é|är|=)\s+|\s*[:=]\s*|\s*[-–]\s+)"
_MINE = r"(?:my|our|the|his|her|their|mein|meine|mon|ma|mi|meu|minha|mijn)"


def _compile(pattern: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    return re.compile(pattern, flags)


# What a pattern cannot match without: a word for a password, a PIN or Wi-Fi, the literal
# a key's shape starts with, or a digit. Each is looked for once per text, and a pattern
# whose requirement is missing is not run at all: most text holds none of them, and run on
# every text, the patterns cost a recall more than its search. A requirement must hold of
# every match: the word or literal, with the same flags, stands in the pattern itself (a
# word after ``\b`` or whitespace), and a digit is a ``\d`` the pattern must match.
_PASSWORD_WORD = _compile(rf"\b{_PASSWORD}")
_PIN_WORD = _compile(rf"\b{_PIN}")
_DIGIT = re.compile(r"\d")
# Each provider key's first characters, in one pass for all seven shapes.
_KEY_PREFIX = re.compile(r"[spr]k[-_]|AKIA|gh[pousr]_|xox[abpr]-|AIza|eyJ|-----BEGIN ")
_PASS_WORD = _compile(r"\bpass")
_WIFI_WORD = _compile(r"\bwi-?fi\b")
_SLASH = re.compile("/")
# Every requirement at once, looked for in ASCII text in lower case, where case has no
# exceptions (outside ASCII a case-blind "i" matches "ı" too): most text holds none, and
# one search then clears it, where asking each requirement in turn cost a plain sentence
# most of its masking. Key prefixes in lower case match more than the prefixes do, never less.
_WORD_NEEDS = (_PASSWORD_WORD, _PIN_WORD, _PASS_WORD, _WIFI_WORD)
_ANY_WORD = re.compile("|".join(need.pattern for need in _WORD_NEEDS))
_ANY_NEED = re.compile(f"{_ANY_WORD.pattern}|{_DIGIT.pattern}|{_KEY_PREFIX.pattern.lower()}")


class Finder(NamedTuple):
    pattern: re.Pattern[str]
    # What the text must hold for the pattern to be run at all.
    needs: tuple[re.Pattern[str], ...]


def _finder(
    pattern: str, flags: int = re.IGNORECASE, *, needs: tuple[re.Pattern[str], ...] = ()
) -> Finder:
    return Finder(_compile(pattern, flags), needs)


# Each pattern marks the secret as its "secret" group; redaction replaces that group.
_PATTERNS = [
    # Provider keys and tokens with recognisable shapes.
    _finder(
        r"(?P<secret>\b(?:sk|pk|rk)[-_](?:live|test|proj)?[-_]?[A-Za-z0-9]{16,})",
        0,
        needs=(_KEY_PREFIX,),
    ),
    _finder(r"(?P<secret>\bAKIA[0-9A-Z]{16}\b)", 0, needs=(_KEY_PREFIX,)),
    _finder(r"(?P<secret>\bgh[pousr]_[A-Za-z0-9]{30,}\b)", 0, needs=(_KEY_PREFIX,)),
    _finder(r"(?P<secret>\bxox[abpr]-[A-Za-z0-9-]{10,})", 0, needs=(_KEY_PREFIX,)),
    _finder(r"(?P<secret>\bAIza[0-9A-Za-z_-]{35}\b)", 0, needs=(_KEY_PREFIX,)),
    _finder(
        r"(?P<secret>\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{5,})",
        0,
        needs=(_KEY_PREFIX,),
    ),
    _finder(r"(?P<secret>-----BEGIN [A-Z ]*PRIVATE KEY-----)", 0, needs=(_KEY_PREFIX,)),
    # A long opaque token: 32+ characters mixing letters and digits. Read from the start
    # of a run only, so that a long run costs one pass, not one per position in it.
    _finder(
        r"(?P<secret>(?<![A-Za-z0-9+/_-])(?=[A-Za-z0-9+/_-]*\d)(?=[A-Za-z0-9+/_-]*[A-Za-z])"
        r"[A-Za-z0-9+/_-]{32,}(?![A-Za-z0-9+/_-]))",
        0,
        needs=(_DIGIT,),
    ),
    # "password is hunter2", "pw: Tr0ub4dor&3", "Passwort ist ...", "the password to the
    # wifi is ...", "mot de passe : ...".
    _finder(rf"\b{_PASSWORD}\b{_FOR}{_IS}(?P<secret>{_VALUE})", needs=(_PASSWORD_WORD,)),
    # "password Winter2025", "pw Tr0ub4dor&3": nothing between, but a value of the shape.
    _finder(rf"\b{_PASSWORD}\s+(?P<secret>{_SHAPED})", needs=(_PASSWORD_WORD, _DIGIT)),
    # "pass: qwerty123": the short word only with a colon or an equals sign.
    _finder(rf"\bpass\s*[:=]\s*(?P<secret>{_VALUE})", needs=(_PASS_WORD,)),
    # "Sunshine2024 is my password", "Geheim123 ist mein Passwort".
    _finder(
        rf"(?<!\S)(?P<secret>{_VALUE})\s+(?:is|was|ist|est|es|é)\s+{_MINE}\s+(?:[\w-]+\s+){{0,2}}?"
        rf"{_PASSWORD}\b(?!\s+(?:manager|reset|policy|hint|generator)\b)",
        needs=(_PASSWORD_WORD,),
    ),
    # "the same password everywhere, it is Sunshine2024".
    _finder(
        rf"\b{_PASSWORD}\b[^.!?\n]{{0,60}}?\b(?:it|which|that)(?:'s|’s|\s+is|\s+was)\s+"
        rf"(?:(?:just|simply|still|always)\s+)?(?P<secret>{_SHAPED}|\"[^\"\n]{{1,64}}\")",
        needs=(_PASSWORD_WORD,),
    ),
    # "My PIN is 4821", "card pin 0712", "code PIN : 8841", "7391 is my PIN".
    _finder(
        rf"\b{_PIN}\b{_FOR}(?:{_IS}|\s+#?\s*)(?P<secret>\d{{3,12}})\b",
        needs=(_PIN_WORD, _DIGIT),
    ),
    _finder(
        rf"(?<![\d.,])(?P<secret>\d{{3,12}})\s+(?:is|was|ist|est|es)\s+{_MINE}\s+{_PIN}\b",
        needs=(_PIN_WORD, _DIGIT),
    ),
    # A Wi-Fi network's key named after the network ("Wi-Fi is HomeNet and the key: ...").
    _finder(
        rf"\bwi-?fi\b[^.!?\n]{{0,40}}?\b(?:key|code|pass\w*|pw)\s*(?:is|:|=)\s*(?P<secret>{_VALUE})",
        needs=(_WIFI_WORD,),
    ),
    # "alice99 / Sunshine2024!": a user name and a password.
    _finder(
        r"(?<![\w/])[A-Za-z][\w.@+-]{2,31}\s*/\s*"
        r"(?P<secret>(?=\S*\d)(?=\S*[A-Za-z])(?=\S*(?:[^\w\s]|[A-Z]))[^\s/]{8,64})"
        r"(?=[.,;)]*(?:\s|$))",
        0,
        needs=(_DIGIT, _SLASH),
    ),
    # National ids by their names ("social security number 219 09 9999", "passport
    # number is 533380006", "NI number AB 12 34 56 C").
    _finder(
        r"\b(?:ssn|social (?:security|insurance) (?:number|no)|national insurance (?:number|no)|"
        r"ni (?:number|no)|nino|passport (?:number|no)|(?:driver'?s|driving) licen[cs]e "
        r"(?:number|no)|tax (?:id|number)|steuer-?id|steuernummer|personalausweisnummer|dni|"
        r"nif|bsn|personnummer|numéro de sécurité sociale|codice fiscale|aadhaar|pesel|cpf)\b"
        rf"{_IS}?\s*#?\s*(?P<secret>(?:[A-Z]{{1,3}}[ -]?)?\d[\d -]{{3,18}}\d"
        r"(?:[ -]?[A-Z]{1,2})?)\b",
        needs=(_DIGIT,),
    ),
    # US social security numbers; area 000, 666 and 9xx are never issued.
    _finder(
        r"(?P<secret>\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b)", 0, needs=(_DIGIT,)
    ),
    # UK national insurance numbers.
    _finder(
        r"(?P<secret>\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
        r" ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b)",
        0,
        needs=(_DIGIT,),
    ),
    # Italian tax codes.
    _finder(r"(?P<secret>\b[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]\b)", 0, needs=(_DIGIT,)),
    # Bank accounts by their names: "account number 12345678", "sort code 12-34-56",
    # "routing number 021000021", "Kontonummer ist ...", "BSB 062-000".
    _finder(
        r"\b(?:(?:bank )?account(?: (?:number|no|#))?|acct(?: no)?|a/c|kontonummer|"
        r"numéro de compte|número de cuenta|rekeningnummer|routing(?: (?:number|no))?|"
        r"sort code|bsb)\b"
        rf"{_IS}?\s*#?\s*(?P<secret>\d[\d -]{{4,22}}\d)\b",
        needs=(_DIGIT,),
    ),
]
_NAMED_ID = re.compile(r"\b(?i:iban)\b\s*:?\s*(?P<secret>[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4}){3,8})")
_IBAN_RE = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b")
_CARD_RE = re.compile(r"(?<![\d.])\d(?:[ .-]?\d){12,18}(?![\d])")
_DNI_RE = re.compile(r"\b(\d{8})-?([A-Z])\b|\b([XYZ])-?(\d{7})-?([A-Z])\b")
_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def _luhn_valid(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _iban_valid(text: str) -> bool:
    compact = text.replace(" ", "").upper()
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(char, 36)) for char in moved)) % 97 == 1


def _grouped(
    finders: list[Finder],
) -> list[tuple[tuple[re.Pattern[str], ...], list[re.Pattern[str]]]]:
    """The patterns of ``finders`` by what they need, so that each need is asked about once
    for all the patterns that need it."""
    groups: dict[tuple[re.Pattern[str], ...], list[re.Pattern[str]]] = {}
    for pattern, needs in finders:
        groups.setdefault(needs, []).append(pattern)
    return list(groups.items())


_GROUPS = _grouped(_PATTERNS)


def _spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) in ``text`` (normalised) of every secret it holds."""
    held: dict[re.Pattern[str], bool] = {}
    if text.isascii():
        lowered = text.lower()
        if _ANY_NEED.search(lowered) is None:
            return
        if _ANY_WORD.search(lowered) is None:
            held = dict.fromkeys(_WORD_NEEDS, False)
    for needs, patterns in _GROUPS:
        for need in needs:
            if not _holds(need, text, held):
                break
        else:
            for pattern in patterns:
                for match in pattern.finditer(text):
                    yield match.span("secret")
    # Every pattern below needs a digit.
    if not _holds(_DIGIT, text, held):
        return
    for match in _NAMED_ID.finditer(text):
        yield match.span("secret")
    for match in _IBAN_RE.finditer(text):
        if _iban_valid(match.group(0)):
            yield match.span()
    for match in _CARD_RE.finditer(text):
        digits = re.sub(r"\D", "", match.group(0))
        if _luhn_valid(digits):
            yield match.span()
    for match in _DNI_RE.finditer(text):
        if match.group(1):
            number, letter = int(match.group(1)), match.group(2)
        else:
            number = int(str("XYZ".index(match.group(3))) + match.group(4))
            letter = match.group(5)
        if _DNI_LETTERS[number % 23] == letter:
            yield match.span()


def _holds(need: re.Pattern[str], text: str, held: dict[re.Pattern[str], bool]) -> bool:
    """Whether ``text`` holds what ``need`` looks for, looked for once per text (``held``)."""
    if need not in held:
        held[need] = need.search(text) is not None
    return held[need]


def contains_secret(text: str) -> bool:
    """Credentials, keys, card numbers and the like, which memory must never keep."""
    return next(_spans(normalise(text)), None) is not None


def redact_secrets(text: str) -> str:
    """``text`` with every secret in it replaced by ``[redacted]``."""
    normalised, origins = _normalised(text)
    found = [(start, end) for start, end in _spans(normalised) if end > start]
    spans = sorted(
        found
        if origins is None
        else [(origins[start][0], origins[end - 1][1]) for start, end in found]
    )
    if not spans:
        return text
    merged = [list(spans[0])]
    for start, end in spans[1:]:
        if start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    pieces, cursor = [], 0
    for start, end in merged:
        pieces += [text[cursor:start], REDACTED]
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)
