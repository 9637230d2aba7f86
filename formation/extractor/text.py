"""Text preparation: a message part cut into sentences, and a sentence into clauses.

Code, quotations and block quotes are masked, contractions expanded, and a
lower-case "i" made "I", so that the grammars read one spelling. Sentences that
state no fact about the owner (conditions, fiction, reported speech) yield no
clause; a clause is one first-person statement, so that unrelated statements
never share one proposal or one conflict subject.
"""

import re
import unicodedata
from collections.abc import Iterator

# Parts longer than this are read only up to it: a memory worth keeping is
# stated in ordinary sentences, not deep inside a pasted document.
MAX_PART_CHARS = 65_536
MAX_SENTENCE_CHARS = 1000

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]")
_CODE_RE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.S)
_QUOTE_RE = re.compile(r"\"[^\"\n]{0,2000}\"")
_QUOTE_MARK = " \u27e6q\u27e7 "
_BLOCKQUOTE_RE = re.compile(r"^\s*>.*$", re.M)
# A short quotation in title case, every word capitalised but the small ones ("The Lean
# Startup", "Eternal Sunshine of the Spotless Mind"), not after a verb of saying.
_TITLE_WORD = r"(?:[A-Z0-9][\w'&-]*[!?]?|a|an|the|of|and|in|on|to|for|at|by|with|or|from)"
_TITLE_RE = re.compile(
    r"(?<!\w)(?P<lead>\b\w+\s+)?\"(?P<title>[A-Z0-9][\w'&-]*(?:[ ,:]\s?"
    + _TITLE_WORD
    + r"){0,7})\""
)
_SAYING_RE = re.compile(
    r"(?:said|says|say|told|tells|asked|asks|wrote|writes|texted|replied|shouted|yelled|"
    r"goes|went)\s+$",
    re.I,
)
_TITLE_PERSON_RE = re.compile(r"\b(?:I|Me|My|We|Us|Our|You|Your)\b")


def _title(match: re.Match[str]) -> str:
    lead, title = match.group("lead") or "", match.group("title")
    if _SAYING_RE.search(lead) or _TITLE_PERSON_RE.search(title):
        return match.group(0)
    return f"{lead}{title}"


_CONTRACTION_RE = re.compile(
    r"\b(?:(?P<pro>i|you|we|they|he|she|it|that|there|what|who)'(?P<tail>m|re|ve|ll|d|s)"
    r"|(?P<neg>ca|wo|sha|ai|[a-z]+)n't"
    r"|(?P<bare>im|ive|dont|doesnt|didnt|cant|isnt|wasnt|arent|havent|hasnt|wouldnt|"
    r"couldnt|shouldnt|wont))\b",
    re.I,
)
_TAILS = {"m": "am", "re": "are", "ve": "have", "ll": "will", "d": "would", "s": "is"}
_NEGATIONS = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}
_BARE = {
    "im": "I am",
    "ive": "I have",
    "dont": "do not",
    "doesnt": "does not",
    "didnt": "did not",
    "cant": "cannot",
    "isnt": "is not",
    "wasnt": "was not",
    "arent": "are not",
    "havent": "have not",
    "hasnt": "has not",
    "wouldnt": "would not",
    "couldnt": "could not",
    "shouldnt": "should not",
    "wont": "will not",
}
_LOWER_I_RE = re.compile(r"(?<![\w'.-])i(?![\w'.-])")


def _expand(match: re.Match[str]) -> str:
    if match.group("pro"):
        pronoun = match.group("pro")
        pronoun = "I" if pronoun.lower() == "i" else pronoun
        return f"{pronoun} {_TAILS[match.group('tail').lower()]}"
    if match.group("neg") is not None:
        stem = match.group("neg")
        if stem.lower() == "ca":
            return "cannot"
        return f"{_NEGATIONS.get(stem.lower(), stem)} not"
    return _BARE[match.group("bare").lower()]


def prepare(text: object) -> str | None:
    """Normalised working text, with code, quotes and block quotes masked; None if unusable."""
    if not isinstance(text, str) or not text.strip():
        return None
    text = text[:MAX_PART_CHARS]
    if len(_CONTROL_RE.findall(text)) > max(2, len(text) // 50):
        # Binary-looking input: nothing in it is a statement about a person.
        return None
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u02bc", "'")
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u201e", '"')
    text = _CONTROL_RE.sub(" ", text)
    text = _CODE_RE.sub(_QUOTE_MARK, text)
    text = _BLOCKQUOTE_RE.sub(_QUOTE_MARK, text)
    # A title in quotes ("The Lean Startup") is a name, not anyone's words; any other
    # quotation is someone's words, the owner's or not, and its sentence is skipped.
    text = _TITLE_RE.sub(_title, text)
    text = _QUOTE_RE.sub(_QUOTE_MARK, text)
    text = _CONTRACTION_RE.sub(_expand, text)
    return _LOWER_I_RE.sub("I", text)


_BOUNDARY_RE = re.compile(r"[.!?]+(?=[\s\"')\]]|$)|\n+|;|\s[\u2013\u2014-]{1,2}\s|[\u2022\u00b7]")
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr st prof jr sr vs etc e.g i.e approx inc ltd co no mt ft".split()
)


def sentences(text: str) -> Iterator[tuple[str, bool]]:
    """(sentence, is_question) pairs; abbreviations and initials do not end a sentence."""
    start = 0
    for match in _BOUNDARY_RE.finditer(text):
        mark = match.group(0)
        if mark[0] == ".":
            before = text[start : match.start()].rsplit(None, 1)
            word = before[-1].lower() if before else ""
            if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue
        sentence = text[start : match.start()].strip()
        if sentence:
            yield sentence, "?" in mark
        start = match.end()
    tail = text[start:].strip()
    if tail:
        yield tail, False


_QUESTION_START_RE = re.compile(
    r"^(?:do|does|did|should|can|could|would|will|is|are|was|were|what|which|how|why|where|"
    # "When I was younger, ..." tells a time, not a question.
    r"when(?!\s+(?:I|we)\s)|who|whom|whose|shall|may|might|am|have|has|had|any idea|wonder)\b",
    re.I,
)
# Whole sentences that state no fact about the owner: conditions, suppositions
# and doubts, fiction, and what someone else said or thinks.
_SKIP_SENTENCE_RE = re.compile(
    r"\b(?:if|unless|suppose|supposing|imagine|imagining|hypothetically|pretend|pretending|"
    r"assuming|in case|let us say|lets say|say I|what if|whether|as though|"
    r"not sure|unsure|wondering|undecided|"
    r"said|says|say|saying|told|tells|tell|telling|asked|asks|claimed|claims|mentioned|"
    r"mentions|wrote|writes|texted|announced|insisted|replied|explained|according to|"
    r"thinks|believes|heard|apparently|supposedly|allegedly|rumou?r|"
    r"my character|the character|in the story|in this story|in the game|in my dream|"
    r"dreamt|dreamed|role-?play)\b",
    re.I,
)
# Irony says the opposite of its words ("Oh great, I just love sitting in traffic").
_IRONY_RE = re.compile(
    r"^(?:oh|ah|wow|well),?\s+(?:great|joy|wonderful|fantastic|perfect|brilliant|lovely|"
    r"terrific|super)\b|\byeah,?\s+right\b|\bjust what I needed\b|\bsaid no one\b",
    re.I,
)
# Clause markers of wishes, possibilities, intentions and hedges. "would
# like/prefer/rather" are removed first: they state a present preference.
WISH_RE = re.compile(
    r"\b(?:would|could|might|(?-i:may)|maybe|perhaps|should|ought|wish|wished|hope|hoped|hoping|"
    r"want|wanted|wants|wanna|gonna|will|someday|one day|dream|dreaming|considering|"
    r"thinking about|thinking of|tempted|probably|possibly|likely|if)\b",
    re.I,
)
_PRESENT_PREFERENCE_RE = re.compile(r"\bwould\s+(?:like|prefer|rather)\b", re.I)
_CLAUSE_SPLIT_RE = re.compile(
    r"\s*,?\s*\b(?:and|but|so|while|whereas|although|though|because|since|plus|also|or|"
    r"then|yet)\s+(?=(?:I|we)\s)|,\s+(?=(?:I|we)\s)|"
    # "... and hoping it will help": a hope of its own, which leaves what came before it be.
    r",?\s+and\s+(?=(?:hoping|wishing|wondering|praying)\b)",
    re.I,
)
# "(I) just wanted to let you know I got the job": the owner's own preface to
# what they tell, dropped so that its wish ("wanted") does not hide the news.
_TELLING_LEAD_RE = re.compile(
    r"^(?:(?:just|so|hey|oh|also|and|but|I|wanted|want|to|really|had|have|needed|need|gotta|"
    r"got|quickly|finally|must|thought|would|like|love|am|was|so|excited|happy|glad|thrilled)"
    r"\s+)*(?:tell|told|let)\s+(?:you|ya|u)\s+(?:know\s+)?(?:that\s+)?(?=(?:I|we)\s)",
    re.I,
)
_FIRST_PERSON_RE = re.compile(
    r"\b(?:I|we|my|our|me|please|call|use|keep|answer|respond|reply|write)\b", re.I
)

_SUBJECT_START_RE = re.compile(r"^(?P<who>I|we)\s", re.I)
_LEAD_SUBJECT_RE = re.compile(r"^[^,]{0,40},\s+(?P<who>I|we)\s", re.I)
# "I sold my BMW and bought a Tesla": a second verb of the same first-person
# subject starts a clause of its own.
_SHARED_SUBJECT_RE = re.compile(
    r",?\s+(?:and|but)\s+(?:then\s+|also\s+|now\s+|just\s+|recently\s+|finally\s+)?"
    r"(?=(?:have|own|bought|purchased|got|adopted|sold|traded|gave|donated|live|work|moved|"
    r"speak|play|decided|chose|picked|passed|failed|won|finished|completed|graduated|started|"
    r"joined|attended|visited|went|ran|painted|wrote|am|use|plan|am planning|no longer|had|"
    r"made|took|met|found|tried|[a-z]{3,}ed)\b)"
    # "love", "like" and the like are nouns too often ("self-acceptance and love"):
    # only a contrast ("I love hiking but hate running") starts a clause with them.
    r"|,?\s+but\s+(?=(?:love|like|prefer|enjoy|hate|dislike|adore)\b)",
    re.I,
)
# "I gave away my bike and my dog loves the new park": a possessed thing or person with a
# verb of its own starts a clause of its own, so that what the first clause says (a
# retraction, an allergy) never reaches it.
_OWN_SUBJECT_SPLIT_RE = re.compile(
    r",?\s+(?:and|but|while|whereas)\s+(?=(?:my|our)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:(?:just|still|also|finally|recently|really|always|never|now)\s+)?"
    r"(?:is|are|was|were|has|have|had|does|did|can|will|loves|likes|hates|adores|needs|"
    r"looks|seems|feels|tracks|works|lives|keeps|gets|got|owns|drives|plays|teaches|runs|"
    r"studies|collects|goes|went|became|turned|bought|sold|adopted|inherited|started|"
    r"finished|moved|passed|died|broke|left)\b)",
    re.I,
)
# Another speaker or a wish in the first part of a clause owns its later verbs.
_EMBEDDED_SUBJECT_RE = re.compile(
    r"\b(?:you|he|she|they|it|people|someone|everyone|who|which|that|this)\b", re.I
)


# The owner telling the assistant something ("I wanted to tell you I joined a
# club", "I have to say") is not reporting someone else's words.
_OWN_TELLING_RE = re.compile(
    r"\bI\s+(?:[\w']+\s+){0,4}?(?:tell|told|telling)\s+(?:you|ya|u)\b"
    r"|\bI\s+(?:have|had|must|gotta|got)\s+to\s+say\b|\b(?:needless|safe)\s+to\s+say\b",
    re.I,
)


def clauses(sentence: str) -> list[str]:
    """The clauses of a sentence that may state something; none for skipped sentences."""
    if "\u27e6q\u27e7" in sentence or '"' in sentence:
        return []
    sentence = _TELLING_LEAD_RE.sub("", sentence)
    if _SKIP_SENTENCE_RE.search(_OWN_TELLING_RE.sub(" ", sentence)) or _IRONY_RE.search(sentence):
        return []
    found: list[str] = []
    lead = ""
    for clause in _CLAUSE_SPLIT_RE.split(sentence):
        clause = clause.strip() if clause else ""
        if not clause:
            continue
        if not _FIRST_PERSON_RE.search(clause):
            # A lead-in without a speaker ("Starting next Monday, I ...") belongs
            # to the clause it introduces.
            lead = f"{lead}{clause}, "
            continue
        clause, lead = lead + clause, ""
        for own in _OWN_SUBJECT_SPLIT_RE.split(clause):
            for piece in _shared_subject_clauses(own.strip()):
                found.extend(_attribute_list(piece))
    return found


# "I am 52, divorced and a nurse": a list of what the owner is, each item short.
_I_AM_LIST_RE = re.compile(r"^(?P<lead>I\s+am|we\s+are)\s+(?P<items>[^,]+(?:,\s*[^,]+)+)$", re.I)
_LIST_ITEM_SPLIT_RE = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.I)


def _attribute_list(clause: str) -> list[str]:
    """``clause``, or "I am" with each item of its list ("I am 52", "I am divorced")."""
    listed = _I_AM_LIST_RE.match(clause)
    if listed is None:
        return [clause]
    items = [item for item in _LIST_ITEM_SPLIT_RE.split(listed.group("items")) if item]
    if len(items) < 2 or any(len(item.split()) > 3 for item in items):
        return [clause]
    return [f"{listed.group('lead')} {item}" for item in items]


def _shared_subject_clauses(clause: str) -> list[str]:
    """``clause`` cut where its first-person subject takes a second verb ("I sold my BMW and
    bought a Tesla")."""
    subject = _SUBJECT_START_RE.match(clause) or _LEAD_SUBJECT_RE.search(clause)
    if subject is None:
        return [clause]
    pieces = _SHARED_SUBJECT_RE.split(clause)
    found = [pieces[0]]
    for before, piece in zip(pieces, pieces[1:], strict=False):
        if _EMBEDDED_SUBJECT_RE.search(before) or WISH_RE.search(before):
            found[-1] = f"{found[-1]} and {piece.strip()}"
        else:
            found.append(f"{subject.group('who')} {piece.strip()}")
    return found


# Chat drops the subject ("Just finished my first marathon!"); a sentence that
# opens with one of these past-tense verbs is the speaker's own report.
_SUBJECT_DROP_RE = re.compile(
    r"^(?:(?:just|finally|recently|also|then|so|and)\s+)*(?:bought|got|joined|finished|"
    r"started|went|visited|attended|adopted|passed|won|completed|picked up|ran|painted|wrote|"
    r"made|tried|took|launched|published|decided|moved|graduated|quit|sold|volunteered|"
    r"signed up|lost my job|got laid off|got fired|applied|watched|read|raised|came back|"
    r"got back|had a)\b",
    re.I,
)


def statements(part: object) -> Iterator[str]:
    """The sentences of one message part that may state something about the owner.

    Questions, overlong sentences and sentences without a first-person word
    are left out; a sentence that drops its subject ("Just finished my first
    marathon!") is read with "I".
    """
    text = prepare(part)
    if text is None:
        return
    for sentence, is_question in sentences(text):
        if _SUBJECT_DROP_RE.match(sentence):
            sentence = f"I {sentence[0].lower()}{sentence[1:]}"
        if (
            is_question
            or len(sentence) > MAX_SENTENCE_CHARS
            or _QUESTION_START_RE.match(sentence)
            or not _FIRST_PERSON_RE.search(sentence)
        ):
            continue
        yield sentence


# The plain future, not its negation ("will not" says nothing is coming).
_FUTURE_RE = re.compile(r"\bwill\b(?!\s+not\b)", re.I)


def wishful(clause: str, *, future: bool = False) -> bool:
    """Whether a clause wishes, hedges or intends rather than states.

    With ``future``, the plain future is no wish: "I will be in Lisbon until
    the 14th" states what is arranged, "I might be" or "I hope to be" does not.
    """
    clause = _PRESENT_PREFERENCE_RE.sub(" ", clause)
    if future:
        clause = _FUTURE_RE.sub(" ", clause)
    return bool(WISH_RE.search(clause))
