import pytest
from rest_framework.test import APIClient

from accounts.services import api_token_create
from tests.conftest import PROXIED_HTTPS


def client_for(principal):
    _, secret = api_token_create(principal=principal, name="test runtime")
    client = APIClient(**PROXIED_HTTPS)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


@pytest.fixture
def api(owner):
    return client_for(owner)


@pytest.fixture
def other_api(other_owner):
    return client_for(other_owner)


@pytest.fixture
def anonymous(db):
    return APIClient(**PROXIED_HTTPS)
