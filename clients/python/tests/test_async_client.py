"""The asynchronous client, route by route, on dana's account: her conversations and
memories are written through the client here, and reconsolidated by the service."""

import uuid

import httpx
import pytest
from reverie_client import (
    AsyncReverieClient,
    ConflictError,
    NotFoundError,
    ReverieClient,
    ServiceUnavailableError,
)
from support import FAST, challenge_of, sold, unique

pytestmark = pytest.mark.anyio


# What the demo tells reconsolidation, told again by a runtime: a preference said twice
# (a merge), three claims about Ana (a summary), the watch on runs (a tentative
# connection) and units both ways (a possible contradiction).
TOLD = [
    # (what the person said, the memory's type, subject and statement)
    ("I just got an Apple Watch.", "ownership", "device:apple-watch", "User owns an Apple Watch."),
    ("Keep your answers short.", "preference", "pref:answer-style", "User prefers short answers."),
    (
        "My sister Ana lives in Lisbon.",
        "relationship",
        "person:ana",
        "User's sister Ana lives in Lisbon.",
    ),
    ("Please use metric units.", "preference", "pref:units", "User prefers metric units."),
    ("I run with my Apple Watch.", "fact", "topic:running", "User runs with the Apple Watch."),
    (
        "Short answers, please.",
        "preference",
        "pref:answer-style",
        "User prefers the short answers.",
    ),
    ("Ana works as a nurse now.", "fact", "person:ana", "Ana works as a nurse."),
    ("Ana has two kids.", "fact", "person:ana", "Ana has two kids."),
    ("I think in miles.", "preference", "pref:units", "User prefers imperial units."),
]


@pytest.fixture(scope="module")
def dana(service):
    """Dana's memories, each citing the message it comes from, reconsolidated once."""
    with ReverieClient(service.url, token=service.tokens["dana"]) as reverie:
        # Two conversations, as in the demo: a connection needs independent evidence.
        for number, (message, memory_type, subject, statement) in enumerate(TOLD):
            conversation = reverie.conversation("dana-first" if number < 4 else "dana-later")
            with conversation.turn(message) as turn:
                pass
            reverie.remember(
                statement,
                type=memory_type,
                subject=subject,
                source_event_ids=[turn.message.id],
            )
    service.manage("demo_reconsolidation", "--owner", "dana", "--out", str(service.workdir))
    return service.tokens["dana"]


@pytest.fixture
async def reverie(service, dana):
    async with AsyncReverieClient(service.url, token=dana, retries=FAST) as client:
        yield client


async def test_sessions_events_and_runs(reverie):
    session = await reverie.session_create(external_id=unique("async"))
    assert (await reverie.session_get(session.id)).id == session.id
    assert session.id in {s.id for s in await reverie.session_list(limit=200)}
    assert session.id in {s.id async for s in reverie.iter_sessions(page_size=2)}

    said = await reverie.event_append(session.id, "I fly kites on weekends.")
    await reverie.event_append(session.id, "Fun!", type="assistant.message.created")
    assert [e.id for e in await reverie.event_list(session.id, limit=1)] == [said.id]
    # The two messages and the formation flag the first raised.
    assert len([e async for e in reverie.iter_events(session.id, page_size=1)]) == 3
    assert (await reverie.event_erase(said.id)).redacted_at is not None

    run = await reverie.run_create(session.id)
    assert (await reverie.run_get(run.id)).id == run.id
    assert (await reverie.run_wait(run.id)).status == "waiting"
    assert (await reverie.run_complete(run.id)).status == "completed"
    failing = await reverie.run_create(session.id)
    assert (await reverie.run_fail(failing.id, error_code="x")).status == "failed"

    assert (await reverie.session_close(session.id)).closed_at is not None
    assert (await reverie.session_erase(session.id)).erased_at is not None


async def test_memories_recall_and_export(reverie, service):
    memory = await reverie.remember("User grows tomatoes.", subject=f"topic:{unique('garden')}")
    assert (await reverie.memory_get(memory.id)).statement == "User grows tomatoes."
    listed = await reverie.memory_list(status="active", limit=200)
    assert memory.id in {m.id for m in listed.results}
    assert memory.id in {m.id async for m in reverie.iter_memories(status="active")}
    feed = reverie.memory_changes(None, page_size=5)
    assert memory.id in {m.id async for m in feed}
    assert feed.cursor

    found = await reverie.recall("tomatoes", limit=5)
    assert memory.id in {item.id for item in found.items}
    corrected = await reverie.memory_correct(
        memory.id, expected_revision=memory.revision, statement="User grows cherry tomatoes."
    )
    assert (await reverie.memory_history(memory.id)).versions
    with pytest.raises(ConflictError):
        await reverie.memory_delete(corrected.id, expected_revision=corrected.revision + 1)
    deleted = await reverie.memory_delete(corrected.id, expected_revision=corrected.revision)
    assert deleted.status == "deleted"
    assert memory.id in str(await reverie.export())


async def test_the_owner_confirms_and_rejects_formed_memories(reverie, service):
    conversation = await reverie.conversation(unique("formation"))
    await conversation.record("I just bought a Vespa scooter.")
    await conversation.record("My brother is called Teodor.")
    await conversation.close()
    service.run_maintenance()
    formed = [
        m
        async for m in reverie.iter_memories(status="provisional")
        if m.sources and m.sources[0].session_id == conversation.session.id
    ]
    assert len(formed) >= 2
    confirmed = await reverie.memory_confirm(formed[0].id, expected_revision=formed[0].revision)
    rejected = await reverie.memory_reject(formed[1].id, expected_revision=formed[1].revision)
    assert (confirmed.status, rejected.status) == ("active", "rejected")


async def test_a_turn_completes_its_run_or_fails_it(reverie):
    conversation = await reverie.conversation(unique("chat"))
    async with conversation.turn("Any plans for the weekend?") as turn:
        assert (await turn.recall()).items is not None
        await turn.reply("Maybe hiking.")
    assert turn.run.status == "completed"
    with pytest.raises(ValueError):
        async with conversation.turn("And the weather?") as failing:
            raise ValueError("no forecast")
    assert failing.run.status == "failed"
    again = await reverie.conversation(session_id=conversation.session.id)
    assert again.session.id == conversation.session.id


async def test_reconsolidation_and_the_owners_controls(reverie):
    page = await reverie.operation_list(limit=50)
    kinds = {operation.kind: operation for operation in page.results}
    assert set(kinds) >= {"merge", "summary", "hypothesis", "uncertainty_notice"}
    assert {o.id async for o in reverie.iter_operations(page_size=2)} == {
        o.id for o in page.results
    }
    assert {o.id async for o in reverie.operation_changes(None)} == {o.id for o in page.results}

    derived = {(await reverie.operation_get(kinds[kind].id)).outputs[0].id: kind for kind in kinds}
    by_kind = {kind: await reverie.derived_get(i) for i, kind in derived.items()}

    summary = by_kind["summary"]
    assert (await reverie.summary_get(summary.id)).claims
    reviewed = await reverie.derived_review(summary.id, expected_revision=summary.revision)
    restricted = await reverie.derived_restrict(
        summary.id, expected_revision=reviewed.derived.revision
    )
    lifted = await reverie.derived_unrestrict(
        summary.id, expected_revision=restricted.derived.revision
    )
    deleted = await reverie.derived_delete(summary.id, expected_revision=lifted.derived.revision)
    assert deleted.derived.status == "deleted"

    notice = by_kind["uncertainty_notice"]
    rejected = await reverie.derived_reject(notice.id, expected_revision=notice.revision)
    assert rejected.derived.status == "rejected"

    hypothesis = by_kind["hypothesis"]
    promoted = await reverie.derived_promote(hypothesis.id, expected_revision=hypothesis.revision)
    assert promoted.memory is not None

    preview = await reverie.operation_undo_preview(kinds["merge"].id)
    undone = await reverie.operation_undo(
        kinds["merge"].id, expected_revision=preview.expected_revision
    )
    assert not undone.replayed
    with pytest.raises(NotFoundError):
        await reverie.derived_get(str(uuid.uuid4()))


async def test_the_owner_keeps_or_replaces_what_may_have_changed(reverie, service, dana):
    with ReverieClient(service.url, token=dana) as setup:
        challenged = sold(setup, service, ("Honda Civic", "Volvo V70"))
    (civic, _), (volvo, _) = challenged["Honda Civic"], challenged["Volvo V70"]
    page = await reverie.challenge_list(state="open", limit=50)
    keep, replace = challenge_of(page.results, civic), challenge_of(page.results, volvo)
    assert (await reverie.challenge_get(keep.id)) == keep
    assert {keep.id, replace.id} <= {c.id async for c in reverie.iter_challenges(page_size=1)}

    kept = await reverie.challenge_keep(keep.id)
    replaced = await reverie.challenge_replace(replace.id)

    assert (kept.state, replaced.state) == ("kept", "replaced")
    assert (await reverie.memory_get(civic.id)).status == "active"
    assert (await reverie.memory_get(volvo.id)).status == "retracted"
    assert replaced.replacement is not None
    with pytest.raises(ConflictError):
        await reverie.challenge_replace(keep.id)


async def test_the_account_is_erased_in_two_steps(service):
    async with AsyncReverieClient(service.url, token=service.tokens["erin"]) as client:
        request = await client.account_erasure_request()
        erased = await client.account_erasure_confirm(request.token)
    assert erased.erased


async def test_the_owner_lists_the_reads_of_their_tokens(service):
    async with AsyncReverieClient(service.url, token=service.token) as owner:
        memory = await owner.remember("User keeps a sourdough starter.")
        async with AsyncReverieClient(service.url, token=service.tokens["alice-read-only"]) as ro:
            await ro.memory_get(memory.id)
        # Newest first: the read, then the owner's own write, whose answer carried the memory.
        read, written = await owner.access_list(memory=memory.id)
    assert [(r.token_id, r.route, r.memory_ids) for r in (read, written)] == [
        (service.token_ids["alice-read-only"], "api:memory", [memory.id]),
        (service.token_ids["alice"], "api:memories", [memory.id]),
    ]


async def test_the_owner_pauses_and_resumes_a_token(service):
    spare_id = service.token_ids["alice-spare"]
    async with AsyncReverieClient(service.url, token=service.token) as owner:
        assert (await owner.token_pause(spare_id)).paused_at is not None
        assert (await owner.token_resume(spare_id)).paused_at is None


async def test_it_retries_and_raises_like_the_synchronous_client():
    answers = [httpx.Response(503, text="restarting")] * FAST.attempts
    body = {"error": {"code": "conflict", "message": "No.", "details": {}, "request_id": "r"}}
    answers.append(httpx.Response(409, json=body))
    sent = []

    def answer(request):
        sent.append(request)
        return answers[len(sent) - 1]

    transport = httpx.MockTransport(answer)
    async with AsyncReverieClient(
        "http://reverie.test", token="t", transport=transport, retries=FAST
    ) as client:
        with pytest.raises(ServiceUnavailableError):
            await client.remember("User likes tea.")
        assert len({request.headers["Idempotency-Key"] for request in sent}) == 1
        with pytest.raises(ConflictError) as raised:
            await client.request("POST", "/anything", json={})
    assert raised.value.request_id == "r"
