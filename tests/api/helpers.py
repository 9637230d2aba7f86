def error_of(response):
    """The error body's code, after checking the body has the contract's shape."""
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "details", "request_id"}, body
    assert body["error"]["request_id"] == response["X-Request-ID"]
    return body["error"]["code"]


def start_session(api, **fields):
    response = api.post("/api/v1/sessions", fields, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def say(api, session, text, *, type="user.message.created", **fields):
    response = api.post(
        f"/api/v1/sessions/{session['id']}/events",
        {"type": type, "parts": [{"type": "text", "text": text}], **fields},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def remember(api, statement, **fields):
    response = api.post("/api/v1/memories", {"statement": statement, **fields}, format="json")
    assert response.status_code == 201, response.content
    return response.json()
