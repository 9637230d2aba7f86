"""Deterministic first-person chat messages for the formation benchmark.

A mix of what people say to an assistant: things they own, prefer, plan and
did, mixed with questions and small talk that should form nothing.
"""

import random
from collections.abc import Callable

DEVICES = [
    "an Apple Watch",
    "a Kindle",
    "a Pixel 8",
    "an iPad",
    "a MacBook Air",
    "a Steam Deck",
    "a Garmin watch",
    "a Sonos speaker",
    "a Nintendo Switch",
    "a ThinkPad",
]
VEHICLES = ["a BMW X3", "a Tesla Model 3", "a Toyota Corolla", "a Honda Civic", "a Vespa"]
PETS = ["a dog named Biscuit", "a cat named Miso", "a parrot named Kiwi", "a rabbit named Pip"]
PREFERENCES = [
    "short answers",
    "metric units",
    "the dark theme",
    "tabs over spaces",
    "green tea",
    "window seats",
    "morning meetings",
    "jazz while working",
]
PLACES = ["Lisbon", "Oslo", "Kyoto", "Toronto", "Porto", "Vienna", "Austin", "Seoul"]
JOBS = ["a nurse", "a teacher", "an architect", "a software engineer", "a chef", "a pilot"]

# Each draws its words from the generator it is given.
Message = Callable[[random.Random], str]

STATEMENTS: list[Message] = [
    lambda r: f"I just got {r.choice(DEVICES)}.",
    lambda r: f"I drive {r.choice(VEHICLES)}.",
    lambda r: f"I have {r.choice(PETS)}.",
    lambda r: f"I prefer {r.choice(PREFERENCES)}.",
    lambda r: f"I live in {r.choice(PLACES)}.",
    lambda r: f"I work as {r.choice(JOBS)}.",
    lambda r: f"I decided to visit {r.choice(PLACES)} next spring.",
    lambda r: f"My sister lives in {r.choice(PLACES)}.",
    lambda r: f"I just got {r.choice(DEVICES)} and I drive {r.choice(VEHICLES)}.",
]
SMALL_TALK: list[Message] = [
    lambda r: f"What is the weather like in {r.choice(PLACES)}?",
    lambda r: "Can you help me write an email to my landlord?",
    lambda r: "Thanks, that was helpful!",
    lambda r: f"If I had {r.choice(DEVICES)}, would it sync with my phone?",
    lambda r: "Hmm, let me think about it.",
    lambda r: f"How long is the flight to {r.choice(PLACES)}?",
]


def messages(seed: int, session: int, count: int) -> list[str]:
    """``count`` messages of one session; the same for the same seed and session."""
    rng = random.Random(f"reverie-formation-bench:{seed}:{session}")
    return [rng.choice(STATEMENTS if rng.random() < 0.5 else SMALL_TALK)(rng) for _ in range(count)]
