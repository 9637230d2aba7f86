"""Small, pure text rules shared by the memory services and recall."""

import hashlib
import re
import unicodedata

# Function words that carry no topic. Recall drops them from queries on both
# databases so that PostgreSQL (which has its own stop list) and SQLite FTS5
# (which has none) rank the same content words.
STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your
    yours yourself yourselves user users
    """.split()
)

_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_SPACE_RE = re.compile(r"\s+")
# A subject is the conflict key '<kind>:<entity>', e.g. 'device:apple-watch'.
SUBJECT_PATTERN = r"^[a-z][a-z0-9]*:[a-z0-9]+(?:[-:][a-z0-9]+)*$"
_SUBJECT_RE = re.compile(SUBJECT_PATTERN)
SUBJECT_MAX_CHARS = 200
MAX_QUERY_TERMS = 16


def normalise_statement(statement: str) -> str:
    """Case-, width- and spacing-insensitive form of a statement, for equality."""
    text = unicodedata.normalize("NFKC", statement).casefold()
    text = _SPACE_RE.sub(" ", text).strip()
    return text.rstrip(" .!;")


_CLAIM_WORD_RE = re.compile(r"\w+", re.UNICODE)
_ARTICLES = frozenset({"a", "an", "the"})


def claim_words(statement: str) -> tuple[str, ...]:
    """The statement's words, in order, without case, punctuation or articles."""
    return tuple(
        word
        for word in _CLAIM_WORD_RE.findall(normalise_statement(statement))
        if word not in _ARTICLES
    )


def claim_key(subject: str, type: str, polarity: str, statement: str) -> str:
    """Stable hash of what a claim says, looser than its fingerprint: articles, case and
    punctuation aside, word order kept. Equal keys are candidates for being the same claim
    (reconsolidation finds them through an index); "" for a statement without words."""
    words = claim_words(statement)
    if not words:
        return ""
    material = "\x1f".join([subject, type, polarity, " ".join(words)]).encode()
    return hashlib.sha256(material).hexdigest()


def claim_fingerprint(subject: str, statement: str) -> str:
    """Stable hash of a claim: equal subject and normalised statement, equal hash."""
    material = f"{subject}\x1f{normalise_statement(statement)}".encode()
    return hashlib.sha256(material).hexdigest()


def is_valid_subject(subject: object) -> bool:
    return (
        isinstance(subject, str)
        and len(subject) <= SUBJECT_MAX_CHARS
        and bool(_SUBJECT_RE.match(subject))
    )


def words(text: str) -> list[str]:
    """Lower-cased words of ``text``, apostrophes kept inside words."""
    return [match.group(0).casefold() for match in _WORD_RE.finditer(text)]


def content_words(text: str) -> list[str]:
    """Words of ``text`` that are not stopwords, in order, without repeats."""
    seen: list[str] = []
    for word in words(text):
        word = word.replace("’", "'")
        if word not in STOPWORDS and word not in seen:
            seen.append(word)
    return seen


def query_terms(query: str | None) -> list[str]:
    """Search terms of a recall query: its content words, at most ``MAX_QUERY_TERMS``.

    Apostrophes split a word ("watch's" -> "watch", "s") as both full-text
    parsers do, and single letters are dropped with the rest of the noise.
    """
    terms: list[str] = []
    for word in content_words(query or ""):
        for piece in word.split("'"):
            if len(piece) > 1 and piece not in STOPWORDS and piece not in terms:
                terms.append(piece)
    return terms[:MAX_QUERY_TERMS]


def topic_subject(statement: str) -> str:
    """``topic:<key>`` from the first content words of a statement.

    Used when an explicit memory names no subject; the key is deterministic so
    that restating the same fact lands on the same subject.
    """
    ascii_words = (
        unicodedata.normalize("NFKD", w).encode("ascii", "ignore").decode()
        for w in content_words(statement)
    )
    key_words = [w for w in (re.sub(r"[^a-z0-9]", "", w) for w in ascii_words) if w][:3]
    slug = "-".join(key_words)
    return f"topic:{slug or 'general'}"
