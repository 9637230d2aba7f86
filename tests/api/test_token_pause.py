"""The owner pauses one of their tokens and resumes it: while paused it is refused on every
route with ``forbidden``, saying its owner paused it; both changes are recorded."""

import uuid

import pytest
from django.urls import URLPattern, get_resolver, reverse
from rest_framework.test import APIClient

from accounts.models import ApiToken, OperatorAction
from accounts.services import api_token_create, api_token_revoke
from common.services.flags import flag_set
from memory.api.base import ApiView
from tests.conftest import PROXIED_HTTPS
from tests.memory.helpers import remember

from .helpers import error_of

PAUSED_MESSAGE = "This token is paused by its owner; it works again when they resume it."


def bearer(secret):
    api = APIClient(**PROXIED_HTTPS)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return api


@pytest.fixture
def assistant(owner):
    token, secret = api_token_create(principal=owner, name="desktop assistant")
    return token, bearer(secret)


def pause(api, token):
    return api.post(f"/api/v1/tokens/{token.public_id}/pause")


def resume(api, token):
    return api.post(f"/api/v1/tokens/{token.public_id}/resume")


def api_routes():
    """(method, path) of every route of the API, with a fresh id for each path parameter."""
    routes = []
    resolver = get_resolver()
    for namespace in ("api", "reconsolidation_api"):
        for pattern in resolver.namespace_dict[namespace][1].url_patterns:
            view_class = getattr(pattern.callback, "view_class", None)
            if not isinstance(pattern, URLPattern) or view_class is None:
                continue
            if not issubclass(view_class, ApiView):
                continue
            kwargs = {name: uuid.uuid4() for name in pattern.pattern.converters}
            path = reverse(f"{namespace}:{pattern.name}", kwargs=kwargs)
            for method in ("get", "post", "delete"):
                if hasattr(view_class, method):
                    routes.append((method, path))
    return routes


def test_a_paused_token_is_refused_on_every_route_saying_its_owner_paused_it(owner, api, assistant):
    flag_set(key="reconsolidation_surface", enabled=True)
    token, paused = assistant
    assert pause(api, token).status_code == 200

    refused = []
    for method, path in api_routes():
        response = getattr(paused, method)(path, {}, format="json")
        refused.append((method, path, response.status_code, error_of(response)))
        assert response.json()["error"]["message"] == PAUSED_MESSAGE, (method, path)

    assert {(status, code) for *_, status, code in refused} == {(403, "forbidden")}
    paths = {path for _, path, *_ in refused}
    assert {"/api/v1/recall", "/api/v1/memories", "/api/v1/sessions", "/api/v1/export"} <= paths


def test_a_resumed_token_works_again(owner, api, assistant):
    remember(owner, "User lives in Lisbon.")
    token, assistant_api = assistant
    pause(api, token)
    assert assistant_api.get("/api/v1/memories").status_code == 403

    response = resume(api, token)

    assert response.status_code == 200 and response.json()["paused_at"] is None
    recalled = assistant_api.post("/api/v1/recall", {"query": "Lisbon"}, format="json")
    assert recalled.status_code == 200 and len(recalled.json()["items"]) == 1


def test_pausing_answers_with_the_token_and_is_not_counted_as_its_use(owner, api, assistant):
    token, assistant_api = assistant

    body = pause(api, token).json()
    assistant_api.get("/api/v1/memories")

    assert (body["id"], body["name"]) == (str(token.public_id), "desktop assistant")
    assert body["paused_at"] is not None and body["revoked_at"] is None
    assert ApiToken.objects.get(pk=token.pk).last_used_at is None


def test_a_paused_token_cannot_resume_itself(owner, assistant):
    token, assistant_api = assistant
    assert pause(assistant_api, token).status_code == 200

    response = resume(assistant_api, token)

    assert (response.status_code, error_of(response)) == (403, "forbidden")
    assert ApiToken.objects.get(pk=token.pk).paused_at is not None


def test_the_owners_browser_session_pauses_and_resumes(client, owner, assistant):
    token, assistant_api = assistant
    client.force_login(owner)

    assert pause(client, token).status_code == 200
    assert assistant_api.get("/api/v1/memories").status_code == 403
    assert resume(client, token).status_code == 200
    assert assistant_api.get("/api/v1/memories").status_code == 200


def test_another_owner_cannot_pause_my_token(other_api, assistant):
    token, assistant_api = assistant

    for response in (pause(other_api, token), resume(other_api, token)):
        assert (response.status_code, error_of(response)) == (404, "not_found")

    assert assistant_api.get("/api/v1/memories").status_code == 200
    assert not OperatorAction.objects.filter(target=str(token.public_id)).exists()


def test_a_narrowed_token_cannot_pause_another(owner, assistant):
    token, assistant_api = assistant
    _, narrowed = api_token_create(principal=owner, name="ide", scope="assistant:ide")

    response = pause(bearer(narrowed), token)

    assert (response.status_code, error_of(response)) == (403, "forbidden")
    assert assistant_api.get("/api/v1/memories").status_code == 200


def test_a_revoked_token_is_neither_paused_nor_resumed(owner, api):
    token, _ = api_token_create(principal=owner, name="old phone")
    api_token_revoke(token_id=token.public_id, principal=owner)

    response = pause(api, token)

    assert (response.status_code, error_of(response)) == (409, "conflict")


def test_pausing_and_resuming_are_audited_once_per_change(owner, api, assistant):
    token, _ = assistant

    pause(api, token)
    pause(api, token)
    resume(api, token)
    resume(api, token)

    trail = OperatorAction.objects.filter(target=str(token.public_id)).order_by("id")
    assert [(a.action, a.via, a.actor_id, a.principal_id) for a in trail] == [
        ("token_paused", "api", owner.pk, owner.pk),
        ("token_resumed", "api", owner.pk, owner.pk),
    ]


def test_a_pause_replayed_under_its_idempotency_key_answers_the_same(owner, api, assistant):
    token, _ = assistant
    path = f"/api/v1/tokens/{token.public_id}/pause"

    first = api.post(path, HTTP_IDEMPOTENCY_KEY="pause-1")
    again = api.post(path, HTTP_IDEMPOTENCY_KEY="pause-1")

    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert OperatorAction.objects.filter(action="token_paused").count() == 1
