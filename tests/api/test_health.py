from common.services.flags import flag_set
from common.services.heartbeat import heartbeat_record


def test_healthz_answers_without_credentials(client, db):
    response = client.get("/healthz")

    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_readyz_waits_for_a_worker_heartbeat(client, db):
    not_ready = client.get("/readyz")
    heartbeat_record()
    ready = client.get("/readyz")

    assert not_ready.status_code == 503
    assert not_ready.json()["checks"] == {"database": True, "migrations": True, "worker": False}
    assert ready.status_code == 200 and ready.json()["status"] == "ready"


def test_health_is_not_behind_the_api_flag(client, db):
    flag_set(key="memory_api", enabled=False)

    assert client.get("/healthz").status_code == 200
