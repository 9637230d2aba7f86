"""A deterministic synthetic corpus of beliefs about people's lives, and a query mix.

Statements come from templates (devices, vehicles, pets, food, places, hobbies,
people, jobs, preferences, plans, outcomes) whose slots are filled from the word
lists in ``benchmarks.vocabulary``. Every slot is drawn with Zipf-like weights
(1 / rank), and each principal has a persona (home city, partner, pet, car,
devices, employer...) that a share of their beliefs keeps returning to, so a
bank's vocabulary has a realistic long-tailed frequency distribution.

Everything is a pure function of the seed: belief ``i`` of principal ``p`` is
the same on every run and does not depend on how many beliefs were generated
before it (rows are generated in fixed chunks, each with its own generator), so
a bank can be grown from 10,000 to 100,000 rows and equal a fresh one.
"""

import bisect
import itertools
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, Literal, TypedDict, TypeVar, overload

from memory.text import claim_fingerprint, claim_key, query_terms

from . import vocabulary as v

CHUNK = 5000

# (type, subject pattern, statement template). ``{slot}`` is a value, ``{a:slot}``
# the value with its indefinite article, and a trailing digit (``{city2}``) asks
# for a second, different value of the same slot.
TEMPLATES = (
    # Ownership: devices, vehicles, pets, instruments.
    ("ownership", "device:{device}", "Owns {a:device} bought from {store} in {month} {year}."),
    ("ownership", "device:{device}", "Uses {a:device} every day for {activity}."),
    (
        "ownership",
        "device:{device}",
        "Has {a:color} {device} and keeps it on the desk at the {venue}.",
    ),
    ("ownership", "device:{device}", "Recently upgraded from {a:device2} to {a:device}."),
    ("ownership", "device:{device}", "Has an old {device} that no longer charges properly."),
    ("ownership", "device:{device}", "Got {a:device} as a birthday present from {person}."),
    ("ownership", "vehicle:{vehicle}", "Drives {a:color} {vehicle} to the {venue} most days."),
    ("ownership", "vehicle:{vehicle}", "Owns {a:year} {vehicle} that {person} helped them choose."),
    ("ownership", "vehicle:{bike}", "Rides {a:bike} to the {venue} on {weekday}s."),
    ("ownership", "pet:{pet_name}", "Has {a:pet_species} named {pet_name}, {a:pet_breed}."),
    ("ownership", "pet:{pet_name}", "Their {pet_breed} {pet_name} is {number} years old."),
    (
        "ownership",
        "instrument:{instrument}",
        "Owns {a:instrument} and practises on {weekday} evenings.",
    ),
    # Preferences: food, drink, media, habits.
    (
        "preference",
        "pref:food:{food}",
        "{Likes} {food}, especially from {cuisine} places in {city}.",
    ),
    ("preference", "pref:food:{food}", "Dislikes {food} and avoids it when eating out."),
    ("preference", "pref:drink", "Prefers {drink} over {drink2} in the morning."),
    ("preference", "pref:cuisine", "Favourite cuisine is {cuisine}, {food} in particular."),
    ("preference", "pref:{preference}", "Prefers {preference}."),
    (
        "preference",
        "pref:{preference}",
        "Asked the assistant to remember they prefer {preference}.",
    ),
    (
        "preference",
        "pref:music",
        "Listens to {music_genre} while working and {music_genre2} when {hobby}.",
    ),
    ("preference", "pref:books", "Enjoys reading {book_genre} before bed, lately on the {device}."),
    ("preference", "pref:travel", "Prefers to travel by train when visiting {city}."),
    ("preference", "pref:hobby:{hobby}", "{Likes} {hobby} on {weekday} mornings with {person}."),
    ("preference", "pref:colour", "Prefers {color} for clothes and {color2} for the kitchen."),
    ("preference", "pref:weekend", "Would rather go {hobby} than stay home on a {season} weekend."),
    # Attributes: home, work, languages, diet, health.
    ("attribute", "attr:home", "Lives in {city}, {country}, near the {venue}."),
    ("attribute", "attr:job", "Works as {a:job} at {company} in {city}."),
    ("attribute", "attr:job", "Has worked as {a:job} for {number} years, mostly with {person}."),
    ("attribute", "attr:language:{language}", "Speaks {language} and is learning {language2}."),
    ("attribute", "attr:diet", "Follows {a:diet} diet since {year}."),
    ("attribute", "attr:allergy:{allergen}", "Is allergic to {allergen}."),
    ("attribute", "attr:birthplace", "Was born in {city} in {month} {year}."),
    ("attribute", "attr:education", "Studied {studied} at university in {city}."),
    ("attribute", "attr:health", "Has {condition} and keeps an eye on it with the {device}."),
    ("attribute", "attr:routine", "Wakes up at {hour} on weekdays and goes {hobby} before work."),
    ("attribute", "attr:hobby:{hobby}", "Has been into {hobby} for {number} years."),
    # Relationships.
    ("relationship", "rel:{person}", "{person} is their {relation} and lives in {city}."),
    ("relationship", "rel:{person}", "Is close friends with {person} from the {venue}."),
    ("relationship", "rel:{person}", "{person}'s birthday is on {month} {day}."),
    ("relationship", "rel:{person}", "Their {relation} {person} works as {a:job} in {city}."),
    ("relationship", "rel:{person}", "Goes {hobby} with {person} every {weekday}."),
    ("relationship", "rel:{person}", "Met {person} in {city} in {year}; they are now {relation}s."),
    ("relationship", "rel:{person}", "{person} recommended the {device} and the {food} place."),
    (
        "relationship",
        "rel:{person}",
        "Their {relation} {person} has {a:pet_species} called {pet_name}.",
    ),
    # Decisions and plans.
    ("decision", "decision:vehicle", "Decided to buy {a:vehicle} instead of {a:vehicle2}."),
    ("decision", "decision:job", "Chose {company} over {company2} for the new job."),
    ("decision", "decision:food:{food}", "Decided to stop eating {food} during the week."),
    ("decision", "decision:device", "Will switch from the {device2} to {a:device} next {season}."),
    ("decision", "plan:trip:{city}", "Plans to visit {city} in {month} with {person}."),
    (
        "decision",
        "plan:trip:{country}",
        "Is planning a {season} trip to {country} and wants to try {food}.",
    ),
    ("decision", "plan:saving", "Is saving up for {a:device} before {month}."),
    (
        "decision",
        "plan:language:{language}",
        "Wants to learn {language} before the trip to {country}.",
    ),
    ("decision", "plan:race:{city}", "Plans to run the {city} {race} in {year}."),
    ("decision", "plan:home:{room}", "Intends to renovate the {room} this {season}."),
    ("decision", "plan:pet", "Is thinking about adopting {a:pet_breed}."),
    (
        "decision",
        "plan:dinner",
        "Booked a table at a {cuisine} restaurant in {city} for {person}'s birthday.",
    ),
    # Outcomes.
    ("outcome", "outcome:race:{city}", "Finished the {city} {race} in {number} minutes."),
    ("outcome", "outcome:job", "Got promoted to {job} at {company} in {month}."),
    ("outcome", "outcome:vehicle:{vehicle}", "Sold the {vehicle} in {year} and bought {a:bike}."),
    ("outcome", "outcome:device:{device}", "Lost their {device} on a trip to {city}."),
    ("outcome", "outcome:device:{device}", "Returned the {device} because the battery {problem}."),
    ("outcome", "outcome:exam", "Passed the {exam} exam on the first try in {month}."),
    ("outcome", "outcome:move", "Moved from {city2} to {city} in {year}."),
    (
        "outcome",
        "outcome:pet:{pet_name}",
        "Adopted {pet_name}, {a:pet_breed}, from a shelter in {city}.",
    ),
    ("outcome", "outcome:recipe:{food}", "The {food} recipe from {person} turned out great."),
    (
        "outcome",
        "outcome:trip:{country}",
        "The trip to {country} was cancelled because of {reason}.",
    ),
    # Facts.
    ("fact", "fact:appointment:{appointment}", "Sees the {appointment} in {city} every {month}."),
    ("fact", "fact:vehicle:{vehicle}", "Their {vehicle} needs {service} every {number} months."),
    ("fact", "fact:keys", "Keeps spare keys at {person}'s place near the {venue}."),
    ("fact", "fact:subscription:{subscription}", "Pays for {subscription} every month."),
    ("fact", "fact:pet:{pet_name}", "{pet_name} the {pet_species} goes to the vet in {city}."),
    ("fact", "fact:flight:{city}", "Their flight to {city} leaves on {weekday} at {hour}."),
    ("fact", "fact:contact:{person}", "{person} {surname} is the {job} they call about {topic}."),
)

SLOT_RE = re.compile(r"\{(a:)?([A-Za-z_]+?)(\d)?\}")

# A (principal index, query) pair of the query mix.
Query = tuple[int, str]
# A slot's value: a word, or a pet's (species, breed).
Slot = str | tuple[str, str]
# What one principal's beliefs keep coming back to, per slot.
Persona = dict[str, Sequence[Slot]]
Item = TypeVar("Item")

STATUS_WEIGHTS = (("active", 0.80), ("provisional", 0.12), ("superseded", 0.05), ("deleted", 0.03))


class BeliefRow(TypedDict):
    """The field values of one synthetic belief, as ``Belief(**row)`` takes them."""

    type: str
    subject: str
    statement: str
    fingerprint: str
    claim_key: str
    authority: str
    status: str
    needs_review: bool
    confidence: float


class Zipf(Generic[Item]):
    """Draw from ``items`` with weight 1 / rank**exponent (rank 1 = first item)."""

    def __init__(self, items: Iterable[Item], exponent: float = 1.0) -> None:
        self.items = tuple(items)
        self.cum = list(
            itertools.accumulate(1.0 / (rank**exponent) for rank in range(1, len(self.items) + 1))
        )

    def __call__(self, rng: random.Random) -> Item:
        return self.items[bisect.bisect(self.cum, rng.random() * self.cum[-1])]

    def sample(self, rng: random.Random, k: int) -> list[Item]:
        """``k`` distinct items, each drawn with the Zipf weights."""
        picked: list[Item] = []
        while len(picked) < min(k, len(self.items)):
            item = self(rng)
            if item not in picked:
                picked.append(item)
        return picked


class Pets:
    """A (species, breed) pair: a Zipf-drawn species, then a Zipf-drawn breed of it."""

    def __init__(self) -> None:
        self.species = Zipf(range(len(v.PET_SPECIES_BREEDS)))
        self.breeds = [Zipf(breeds) for _, breeds in v.PET_SPECIES_BREEDS]

    def __call__(self, rng: random.Random) -> tuple[str, str]:
        index = self.species(rng)
        return v.PET_SPECIES_BREEDS[index][0], self.breeds[index](rng)


def slug(value: str) -> str:
    text = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "x"


def article(word: str) -> str:
    vowel = word[:1].lower() in "aeiou" or word.startswith("8") or word[:2] in ("11", "18")
    return "an" if vowel else "a"


def _companies() -> tuple[str, ...]:
    return tuple(f"{head} {tail}" for head in v.COMPANY_HEADS for tail in v.COMPANY_TAILS)


class Corpus:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        templates = list(TEMPLATES)
        # Interleave the categories before ranking, so that no one category leads.
        random.Random(f"reverie-bench:templates:{seed}").shuffle(templates)
        # The pet's and the template's draws are of their own kinds: a pair, a template.
        self.pets = Pets()
        self.templates = Zipf(templates, exponent=0.5)
        self.samplers: dict[str, Zipf[str]] = {
            "person": Zipf(v.FIRST_NAMES),
            "surname": Zipf(v.SURNAMES),
            "relation": Zipf(v.RELATIONS),
            "city": Zipf(v.CITIES),
            "country": Zipf(v.COUNTRIES),
            "venue": Zipf(v.VENUES),
            "device": Zipf(v.DEVICE_BRANDS_MODELS),
            "store": Zipf(v.STORES),
            "vehicle": Zipf(v.VEHICLES),
            "bike": Zipf(v.BIKES),
            "color": Zipf(v.COLORS),
            "pet_name": Zipf(v.PET_NAMES),
            "food": Zipf(v.FOODS),
            "cuisine": Zipf(v.CUISINES),
            "drink": Zipf(v.DRINKS),
            "allergen": Zipf(v.ALLERGENS),
            "diet": Zipf(v.DIETS),
            "hobby": Zipf(v.HOBBIES),
            "instrument": Zipf(v.INSTRUMENTS),
            "language": Zipf(v.LANGUAGES),
            "music_genre": Zipf(v.MUSIC_GENRES),
            "book_genre": Zipf(v.BOOK_GENRES),
            "job": Zipf(v.JOBS),
            "company": Zipf(_companies(), exponent=0.7),
            "month": Zipf(v.MONTHS, exponent=0.3),
            "weekday": Zipf(v.WEEKDAYS, exponent=0.3),
            "season": Zipf(v.SEASONS, exponent=0.3),
            "room": Zipf(v.ROOMS),
            "race": Zipf(v.RACES),
            "exam": Zipf(v.EXAMS),
            "preference": Zipf(v.PREFERENCE_OPTIONS),
            "activity": Zipf(v.ACTIVITIES),
            "problem": Zipf(v.PROBLEMS),
            "reason": Zipf(v.REASONS),
            "subscription": Zipf(v.SUBSCRIPTIONS),
            "appointment": Zipf(v.APPOINTMENTS),
            "service": Zipf(v.SERVICES),
            "studied": Zipf(v.SUBJECTS_STUDIED),
            "condition": Zipf(v.CONDITIONS),
            "likes": Zipf(v.LIKES),
            "qualifier": Zipf(v.QUALIFIERS),
        }
        self.samplers["topic"] = Zipf(
            v.HOBBIES[:40] + v.ROOMS + tuple(f"the {x}" for x in v.VEHICLES[:10]), exponent=0.8
        )
        self._personas: dict[int, Persona] = {}
        self._vocabularies: dict[tuple[int, int], list[tuple[str, int]]] = {}

    # -- personas ------------------------------------------------------------

    def persona(self, principal_index: int) -> Persona:
        """The entities one principal's beliefs keep coming back to."""
        if principal_index not in self._personas:
            rng = random.Random(f"reverie-bench:persona:{self.seed}:{principal_index}")
            s = self.samplers
            pet = self.pets(rng)
            self._personas[principal_index] = {
                "person": s["person"].sample(rng, 6),
                "city": s["city"].sample(rng, 2),
                "country": s["country"].sample(rng, 2),
                "device": s["device"].sample(rng, 4),
                "vehicle": s["vehicle"].sample(rng, 1),
                "bike": s["bike"].sample(rng, 1),
                "pet": [pet],
                "pet_name": s["pet_name"].sample(rng, 2),
                "job": s["job"].sample(rng, 1),
                "company": s["company"].sample(rng, 1),
                "hobby": s["hobby"].sample(rng, 3),
                "food": s["food"].sample(rng, 4),
                "language": s["language"].sample(rng, 2),
            }
        return self._personas[principal_index]

    # -- statements ----------------------------------------------------------

    @overload
    def _value(  # type: ignore[overload-overlap]  # "pet" is a str too: this one wins for it
        self, rng: random.Random, name: Literal["pet"], persona: Persona, taken: set[Slot]
    ) -> tuple[str, str]: ...

    @overload
    def _value(self, rng: random.Random, name: str, persona: Persona, taken: set[Slot]) -> str: ...

    def _value(self, rng: random.Random, name: str, persona: Persona, taken: set[Slot]) -> Slot:
        s = self.samplers
        value: Slot
        for _ in range(8):
            if name in persona and rng.random() < 0.35:
                value = rng.choice(persona[name])
            elif name == "year":
                value = str(rng.randint(2005, 2025))
            elif name == "number":
                value = str(min(int(rng.paretovariate(1.2) * 2) + 1, 40))
            elif name == "day":
                value = str(rng.randint(1, 28))
            elif name == "hour":
                value = f"{rng.randint(5, 22)}:{rng.choice(('00', '15', '30', '45'))}"
            elif name == "pet":
                value = self.pets(rng)
            else:
                value = s[name](rng)
            if value not in taken:
                return value
        return value

    def statement(self, rng: random.Random, persona: Persona) -> tuple[str, str, str]:
        """One (type, subject, statement)."""
        kind, subject_pattern, template = self.templates(rng)
        if rng.random() < 0.35:
            # The qualifier's slots are its own (``{city}`` -> ``{city9}``).
            qualifier = SLOT_RE.sub(r"{\g<2>9}", self.samplers["qualifier"](rng))
            template = f"{template[:-1]} {qualifier}."
        values: dict[str, str] = {}
        taken: set[Slot] = set()
        pets: list[tuple[str, str]] = []

        def fill(name: str, digit: str | None) -> str:
            key = name + (digit or "")
            if key not in values:
                if name in ("pet_species", "pet_breed"):
                    if not pets:
                        pets.append(self._value(rng, "pet", persona, taken))
                    species, breed = pets[0]
                    values[key] = species if name == "pet_species" else breed
                elif name == "Likes":
                    values[key] = self.samplers["likes"](rng).capitalize()
                else:
                    values[key] = self._value(rng, name, persona, taken)
                taken.add(values[key])
            return values[key]

        def replace(match: re.Match[str]) -> str:
            with_article, name, digit = match.groups()
            value = fill(name, digit)
            return f"{article(value)} {value}" if with_article else value

        # Qualifiers carry slots of their own: fill until none is left.
        text = template
        while "{" in text:
            text = SLOT_RE.sub(replace, text)
        text = text[0].upper() + text[1:]
        subject = SLOT_RE.sub(lambda m: slug(fill(m.group(2), m.group(3))), subject_pattern)
        return kind, subject, text

    def beliefs(self, principal_index: int, start: int, stop: int) -> Iterator[BeliefRow]:
        """Field values of beliefs ``start`` to ``stop - 1`` of one principal."""
        persona = self.persona(principal_index)
        for chunk in range(start // CHUNK, (stop + CHUNK - 1) // CHUNK):
            rng = random.Random(f"reverie-bench:beliefs:{self.seed}:{principal_index}:{chunk}")
            for index in range(chunk * CHUNK, (chunk + 1) * CHUNK):
                row = self._belief(rng, persona)
                if start <= index < stop:
                    yield row

    def _belief(self, rng: random.Random, persona: Persona) -> BeliefRow:
        kind, subject, statement = self.statement(rng, persona)
        roll, status = rng.random(), "active"
        for name, weight in STATUS_WEIGHTS:
            if roll < weight:
                status = name
                break
            roll -= weight
        explicit = status != "provisional" and rng.random() < 0.7
        row: BeliefRow = {
            "type": kind,
            "subject": subject,
            "statement": statement,
            "fingerprint": claim_fingerprint(subject, statement),
            "claim_key": claim_key(subject, kind, "positive", statement),
            "authority": "explicit" if explicit else "inferred",
            "status": status,
            "needs_review": status == "provisional" and rng.random() < 0.3,
            "confidence": 0.95 if explicit else round(rng.uniform(0.4, 0.9), 2),
        }
        if status == "deleted":
            row["statement"] = row["subject"] = row["fingerprint"] = row["claim_key"] = ""
        return row

    # -- vocabulary and queries ----------------------------------------------

    def vocabulary(self, principals: int, per_principal: int = CHUNK) -> list[tuple[str, int]]:
        """Content words of the corpus, most frequent first, with their counts.

        Counted over the first ``per_principal`` beliefs of each principal,
        with the query-term rules recall applies (``memory.text.query_terms``).
        """
        key = (principals, per_principal)
        if key not in self._vocabularies:
            counts: Counter[str] = Counter()
            for principal_index in range(principals):
                for row in self.beliefs(principal_index, 0, per_principal):
                    counts.update(query_terms(row["statement"]))
            self._vocabularies[key] = sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))
        return self._vocabularies[key]

    def queries(
        self,
        count: int,
        principals: int,
        *,
        stream: str = "timed",
        min_words: int = 2,
        max_words: int = 4,
    ) -> list[Query]:
        """``count`` (principal index, query) pairs.

        Each query has 2-4 distinct content words drawn from the corpus
        vocabulary with weight 1 / frequency rank.
        """
        words = Zipf([word for word, _ in self.vocabulary(principals)])
        rng = random.Random(f"reverie-bench:queries:{self.seed}:{stream}")
        queries: list[Query] = []
        for _ in range(count):
            principal_index = rng.randrange(principals)
            query = " ".join(words.sample(rng, rng.randint(min_words, max_words)))
            queries.append((principal_index, query))
        return queries
