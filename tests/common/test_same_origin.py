import pytest
from django.urls import reverse

from common.middleware import CONTENT_SECURITY_POLICY
from tests.conftest import PROXIED_HTTPS

pytestmark = pytest.mark.django_db


def test_pages_keep_their_loads_on_this_server(client, owner):
    signed_out = client.get("/review/login/", **PROXIED_HTTPS)
    client.force_login(owner)

    for url, response in (
        ("/review/login/", signed_out),
        ("/review/", client.get(reverse("review:index"), **PROXIED_HTTPS)),
        ("/api/v1/docs/", client.get("/api/v1/docs/", **PROXIED_HTTPS)),
    ):
        assert response.status_code == 200, url
        assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, url
    assert "default-src 'self'" in CONTENT_SECURITY_POLICY
    assert "http" not in CONTENT_SECURITY_POLICY


def test_the_docs_page_names_no_other_host(client):
    body = client.get("/api/v1/docs/", **PROXIED_HTTPS).content.decode()

    assert "googleapis" not in body and "gstatic" not in body
    assert "https://" not in body


def test_json_answers_carry_no_page_policy(client):
    response = client.get("/healthz", **PROXIED_HTTPS)

    assert "Content-Security-Policy" not in response
