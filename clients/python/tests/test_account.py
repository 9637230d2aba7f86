"""The owner's export and the erasure of the whole account, on an account of its own."""

import pytest
from reverie_client import (
    AccessRecord,
    Erasure,
    ErasureRequest,
    ForbiddenError,
    ReverieClient,
    Token,
    UnauthenticatedError,
)


def test_the_owner_erases_the_whole_account_in_two_steps(service):
    with ReverieClient(service.url, token=service.tokens["carol"]) as reverie:
        memory = reverie.remember("User plays the cello.")
        assert memory.id in str(reverie.export())
        request = reverie.account_erasure_request()
        assert isinstance(request, ErasureRequest)
        erased = reverie.account_erasure_confirm(request.token)
        assert isinstance(erased, Erasure)
        assert erased.erased and all(isinstance(n, int) for n in erased.erased.values())
        with pytest.raises(UnauthenticatedError):
            reverie.memory_get(memory.id)


def test_the_owner_pauses_and_resumes_one_of_their_tokens(service):
    spare_id = service.token_ids["alice-spare"]
    with (
        ReverieClient(service.url, token=service.token) as owner,
        ReverieClient(service.url, token=service.tokens["alice-spare"]) as spare,
    ):
        paused = owner.token_pause(spare_id)
        assert isinstance(paused, Token) and paused.id == spare_id
        assert paused.paused_at is not None
        with pytest.raises(ForbiddenError, match="paused"):
            spare.memory_list()

        resumed = owner.token_resume(spare_id)

        assert resumed.paused_at is None
        assert isinstance(spare.memory_list().results, list)


def test_the_owner_sees_which_token_read_which_memory(service):
    reader_id = service.token_ids["alice-read-only"]
    with (
        ReverieClient(service.url, token=service.token) as owner,
        ReverieClient(service.url, token=service.tokens["alice-read-only"]) as reader,
    ):
        memory = owner.remember("User keeps bees on the roof.")
        assert reader.memory_get(memory.id).id == memory.id

        (record,) = owner.access_list(token=reader_id, memory=memory.id)

        assert isinstance(record, AccessRecord)
        assert (record.token_id, record.route, record.memory_ids) == (
            reader_id,
            "api:memory",
            [memory.id],
        )
        assert owner.access_list(token=reader_id, since=record.at, limit=1)[0].id == record.id
        with pytest.raises(ForbiddenError):
            reader.access_list()
