"""The owner's export and the erasure of the whole account, on an account of its own."""

import pytest
from reverie_client import (
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
