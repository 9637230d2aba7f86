"""Seed a ``reverie_load*`` PostgreSQL database for the API load benchmark.

Creates principals ``load-0``, ``load-1``... each with one session of
synthetic messages, a bank of synthetic beliefs (some sourced from those
messages) and a fresh API token, and writes what the load generator needs
(tokens, session ids, query vocabulary, message texts) to a JSON file.
See docs/benchmarks.md ("API load").
"""

import itertools
import json
import os
import random
import time
from collections.abc import Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandParser
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from accounts.models import ApiToken, User
from accounts.services import api_token_create
from benchmarks.arguments import positive_int
from benchmarks.command import BenchmarkCommand
from benchmarks.corpus import BeliefRow, Corpus
from benchmarks.load_api import Fixture, FixturePrincipal
from benchmarks.vectors import vector_pool, vectors_seed
from common.principal import principal_context
from memory.embeddings import local_embedder
from memory.enums import MESSAGE_AUTHOR_KIND, SCOPE_PRINCIPAL, BeliefStatus, EventType
from memory.models import Belief, BeliefSource, Event, MemoryVector, Session
from memory.screening import classify_sensitivity

USERNAME_PREFIX = "load-"
SESSION_EXTERNAL_ID = "load-benchmark"
TOKEN_NAME = "load benchmark"
BATCH_SIZE = 5000
# Statements per principal kept for the load generator's appended messages;
# they come from past the seeded beliefs, so appends say something new.
APPEND_STATEMENTS = 64
# Memories per principal that the load generator's GET /memories/{id} reads.
MEMORY_IDS = 64

# A principal ready for the load: its index, itself, its session and its events' count.
Seeded = tuple[int, User, Session, int]

USER_TEMPLATES = (
    "Quick thing to remember: {s}",
    "By the way, an update on my side. {s}",
    "{s} Can you keep that in mind for next time?",
    "Just so you know for later: {s} {t}",
    "I mentioned this before but it changed. {s}",
    "{s} Also, {t}",
    "Note for the future - {s}",
)
ASSISTANT_TEMPLATES = (
    "Got it, I'll keep that in mind: {s}",
    "Thanks for telling me. Noted that {s}",
    "Understood. Do you want me to remind you about this later? ({s})",
    "Noted. Is there anything else I should know about that?",
)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def user_message(rng: random.Random, statement: str, other: str) -> str:
    return rng.choice(USER_TEMPLATES).format(s=statement, t=_lower_first(other))


def assistant_message(rng: random.Random, statement: str) -> str:
    return rng.choice(ASSISTANT_TEMPLATES).format(s=_lower_first(statement))


class Command(BenchmarkCommand):
    database_prefix = "reverie_load"
    help = (
        "Seed a reverie_load* PostgreSQL database with principals, sessions, messages, beliefs "
        "and API tokens for benchmarks/load_api.py, and write the load fixture file."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--principals", type=positive_int, default=32)
        parser.add_argument(
            "--beliefs", type=positive_int, default=3000, help="Beliefs per principal."
        )
        parser.add_argument(
            "--messages", type=positive_int, default=300, help="Seeded messages per principal."
        )
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--out",
            default=str(settings.VAR_DIR / "load_fixture.json"),
            help="Where to write tokens, session ids and the query vocabulary "
            "(default: var/load_fixture.json).",
        )
        parser.add_argument(
            "--fresh",
            action="store_true",
            help="Delete the load principals' sessions and beliefs and seed them again "
            "(default: keep a principal already seeded with the same sizes).",
        )

    def run(self, connection: BaseDatabaseWrapper, options: dict[str, Any]) -> None:
        name = connection.settings_dict["NAME"]
        corpus = Corpus(options["seed"])
        started = time.perf_counter()
        User = get_user_model()
        principals: list[Seeded] = []
        seeded = 0
        for index in range(options["principals"]):
            username = f"{USERNAME_PREFIX}{index}"
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(username=username, password=None)
            session = self._seed(corpus, index, user, options)
            seeded += session is None
            with principal_context(user):
                session = Session.objects.get(owner=user, external_id=SESSION_EXTERNAL_ID)
                events = Event.objects.filter(owner=user).count()
            principals.append((index, user, session, events))
        # Vectors for recall by meaning, of the embedder the servers run (none with
        # embeddings off): copies of real embeddings (benchmarks/vectors.py).
        embedder = local_embedder()
        if embedder is not None:
            pool = vector_pool(embedder, corpus)
            stored = sum(
                vectors_seed(user, embedder=embedder, pool=pool, seed=options["seed"])
                for _, user, _, _ in principals
            )
            if stored:
                self.progress(f"{stored:,} vectors of {embedder.key}")
                with connection.cursor() as cursor:
                    cursor.execute("VACUUM (ANALYZE) memory_memoryvector")
        if seeded:
            self.progress(f"seeded {seeded} principals; VACUUM ANALYZE")
            with connection.cursor() as cursor:
                for table in ("memory_belief", "memory_event", "memory_beliefsource"):
                    cursor.execute(f"VACUUM (ANALYZE) {table}")
        # The search statistics too, on every run: a server without autovacuum (as a test
        # cluster may be) would otherwise never have analysed them, and recall's plans
        # would be made for empty tables, not the deployment's.
        with connection.cursor() as cursor:
            for table in ("memory_searchterm", "memory_searchstatistics"):
                cursor.execute(f"VACUUM (ANALYZE) {table}")

        # A fresh token per principal on every run; the secrets exist only in the file.
        # Each in its owner's context: a token takes its access records with it, and
        # row security shows them to their owner only.
        for _, user, _, _ in principals:
            with principal_context(user):
                ApiToken.objects.filter(principal=user, name=TOKEN_NAME).delete()
        # Those records are dead rows now. A deployment's autovacuum would clear them; a
        # server that runs without it (as a test cluster may) would otherwise carry every
        # earlier run's records in the table and its indexes, and each run would find
        # writing a record dearer than the one before.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM (ANALYZE) memory_accessrecord")
        entries: list[FixturePrincipal] = []
        for index, user, session, events in principals:
            _, secret = api_token_create(principal=user, name=TOKEN_NAME)
            statements = [
                row["statement"]
                for row in corpus.beliefs(
                    index, options["beliefs"], options["beliefs"] + APPEND_STATEMENTS
                )
                if row["statement"]
            ]
            with principal_context(user):
                memory_ids = [
                    str(public_id)
                    for public_id in Belief.objects.filter(owner=user, status=BeliefStatus.ACTIVE)
                    .order_by("?")
                    .values_list("public_id", flat=True)[:MEMORY_IDS]
                ]
            entries.append(
                {
                    "username": user.username,
                    "token": secret,
                    "session_id": str(session.public_id),
                    "memory_ids": memory_ids,
                    "events": events,
                    "statements": statements,
                }
            )
        vocabulary = corpus.vocabulary(
            options["principals"], per_principal=min(options["beliefs"], 5000)
        )
        version, leakproof = self.server_version(connection), self.leakproof(connection)
        fixture: Fixture = {
            "database": name,
            "postgresql": version,
            "leakproof": leakproof,
            "seed": options["seed"],
            "beliefs_per_principal": options["beliefs"],
            "messages_per_principal": options["messages"],
            "principals": entries,
            "vocabulary": [word for word, _ in vocabulary],
        }
        out = Path(options["out"])
        out.parent.mkdir(parents=True, exist_ok=True)
        # The file holds live secrets: readable by its owner only.
        descriptor = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            json.dump(fixture, handle)
        self.progress(
            f"{len(entries)} principals ready ({seeded} seeded now) in "
            f"{time.perf_counter() - started:.0f} s; fixture {out}"
        )

    def _seed(
        self, corpus: Corpus, index: int, user: User, options: Mapping[str, Any]
    ) -> Session | None:
        """Seed one principal unless it already has this seed's data; return its session."""
        wanted_beliefs, wanted_messages = options["beliefs"], options["messages"]
        with principal_context(user):
            session = Session.objects.filter(owner=user, external_id=SESSION_EXTERNAL_ID).first()
            belief_count = Belief.objects.filter(owner=user).count()
            seeded_messages = (
                Event.objects.filter(owner=user, session=session, payload__load_seed=True).count()
                if session is not None
                else 0
            )
        if (
            not options["fresh"]
            and session is not None
            and belief_count == wanted_beliefs
            and seeded_messages == wanted_messages
        ):
            return session
        started = time.perf_counter()
        # One transaction per principal: a principal is seeded whole or not at all.
        with principal_context(user), transaction.atomic():
            BeliefSource.objects.filter(owner=user).delete()
            MemoryVector.objects.filter(owner=user).delete()
            Belief.objects.filter(owner=user).delete()
            Session.objects.filter(owner=user).delete()
            rows = list(corpus.beliefs(index, 0, wanted_beliefs))
            session, events = self._conversation(index, user, rows, wanted_messages, options)
            now = timezone.now()
            beliefs: list[Belief] = []
            batches = iter(rows)
            while batch := list(itertools.islice(batches, BATCH_SIZE)):
                beliefs += Belief.objects.bulk_create(
                    [
                        Belief(
                            owner=user,
                            scope=SCOPE_PRINCIPAL,
                            deleted_at=now if row["status"] == "deleted" else None,
                            **row,
                        )
                        for row in batch
                    ],
                    batch_size=BATCH_SIZE,
                )
            # Each user message states the belief it was built from: that
            # message is the belief's source, with the statement as excerpt.
            BeliefSource.objects.bulk_create(
                [
                    BeliefSource(
                        owner=user,
                        belief=beliefs[row_index],
                        event=event,
                        excerpt=beliefs[row_index].statement,
                    )
                    for event, row_index in events
                ],
                batch_size=BATCH_SIZE,
            )
        self.progress(
            f"{user.username}: {wanted_beliefs:,} beliefs, {wanted_messages:,} messages, "
            f"{len(events):,} sourced, in {time.perf_counter() - started:.1f} s"
        )
        return None

    def _conversation(
        self,
        index: int,
        user: User,
        rows: Sequence[BeliefRow],
        count: int,
        options: Mapping[str, Any],
    ) -> tuple[Session, list[tuple[Event, int]]]:
        """The session and its messages; returns it and (user message, belief index) pairs."""
        rng = random.Random(f"reverie-load:messages:{options['seed']}:{index}")
        live = [i for i, row in enumerate(rows) if row["status"] in ("active", "provisional")]
        start = timezone.now() - timedelta(days=30)
        step = timedelta(days=30) / max(count, 1)
        session = Session.objects.create(
            owner=user,
            scope=SCOPE_PRINCIPAL,
            external_id=SESSION_EXTERNAL_ID,
            last_activity_at=start + step * count,
            last_sequence=count,
        )
        events: list[Event] = []
        sourced: list[tuple[int, int]] = []
        for sequence in range(1, count + 1):
            row_index = rng.choice(live)
            statement = rows[row_index]["statement"]
            if sequence % 2:
                event_type = EventType.USER_MESSAGE
                other = rows[rng.choice(live)]["statement"]
                text = user_message(rng, statement, other)
                sourced.append((len(events), row_index))
            else:
                event_type = EventType.ASSISTANT_MESSAGE
                text = assistant_message(rng, statement)
            events.append(
                Event(
                    owner=user,
                    session=session,
                    sequence=sequence,
                    event_type=event_type,
                    author_kind=MESSAGE_AUTHOR_KIND[event_type],
                    author_name=user.username if sequence % 2 else "assistant",
                    parts=[{"type": "text", "text": text}],
                    text=text,
                    sensitivity=classify_sensitivity(text),
                    payload={"load_seed": True},
                    occurred_at=start + step * sequence,
                )
            )
        events = Event.objects.bulk_create(events, batch_size=BATCH_SIZE)
        return session, [(events[position], row_index) for position, row_index in sourced]
