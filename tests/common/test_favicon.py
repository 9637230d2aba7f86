import logging

import pytest
from django.urls import reverse

from tests.conftest import PROXIED_HTTPS

pytestmark = pytest.mark.django_db


def test_the_icon_is_served_without_a_warning(client, caplog):
    with caplog.at_level(logging.WARNING):
        response = client.get("/favicon.ico", **PROXIED_HTTPS)

    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
    assert "max-age=86400" in response["Cache-Control"]
    assert not [record for record in caplog.records if "favicon" in record.getMessage()]


def test_review_pages_name_the_icon(client, owner):
    client.force_login(owner)
    body = client.get(reverse("review:index")).content.decode()

    assert '<link rel="icon" href="/favicon.ico" type="image/svg+xml">' in body


def test_only_reads_are_answered(client):
    assert client.post("/favicon.ico", **PROXIED_HTTPS).status_code == 405
