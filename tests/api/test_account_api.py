from django.contrib.auth import get_user_model

from .helpers import error_of, remember, say, start_session


def test_export_downloads_only_the_callers_data(api, other_api):
    session = start_session(api)
    say(api, session, "I keep bees.")
    remember(api, "User keeps bees.")
    remember(other_api, "User's childhood nickname was Quokka7.")

    response = api.get("/api/v1/export")

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    body = response.json()
    assert [m["statement"] for m in body["memories"]] == ["User keeps bees."]
    assert body["sessions"][0]["events"][0]["parts"][0]["text"] == "I keep bees."
    assert "Quokka7" not in response.content.decode()


def test_account_erasure_takes_two_requests(api, owner, other_api, other_owner):
    remember(api, "User keeps bees.")
    remember(other_api, "User likes tea.")

    requested = api.post("/api/v1/account/erasure")
    assert requested.status_code == 202
    assert get_user_model().objects.filter(pk=owner.pk).exists()

    confirmed = api.post(
        "/api/v1/account/erasure/confirm", {"token": requested.json()["token"]}, format="json"
    )

    assert confirmed.status_code == 200
    assert confirmed.json()["erased"]["belief"] == 1
    assert not get_user_model().objects.filter(pk=owner.pk).exists()
    assert api.get("/api/v1/sessions").status_code == 401
    assert other_api.get("/api/v1/memories").json()["results"][0]["statement"] == (
        "User likes tea."
    )


def test_a_wrong_erasure_token_erases_nothing(api, owner, other_api):
    theirs = other_api.post("/api/v1/account/erasure").json()["token"]

    for token in ("forged", theirs):
        response = api.post("/api/v1/account/erasure/confirm", {"token": token}, format="json")
        assert (response.status_code, error_of(response)) == (400, "validation_error")
    assert get_user_model().objects.filter(pk=owner.pk).exists()
