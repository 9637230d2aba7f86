"""The owner's export and the erasure of the whole account, on an account of its own."""

import pytest
from reverie_client import Erasure, ErasureRequest, ReverieClient, UnauthenticatedError


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
