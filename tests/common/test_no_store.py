from django.http import HttpResponse
from django.test import RequestFactory
from django.utils.cache import add_never_cache_headers
from django.utils.http import parse_http_date

from common.middleware import NoStoreMiddleware


def _answered(path, response):
    return NoStoreMiddleware(lambda request: response)(RequestFactory().get(path))


def test_a_private_answer_carries_what_django_writes_to_keep_it_out_of_caches():
    expected = HttpResponse()
    add_never_cache_headers(expected)

    for path in ("/api/v1/recall", "/review/", "/admin/"):
        response = _answered(path, HttpResponse())

        assert response["Cache-Control"] == expected["Cache-Control"], path
        assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
        # Now, as Django writes it (a second may have passed since ``expected``).
        assert 0 <= parse_http_date(response["Expires"]) - parse_http_date(expected["Expires"]) <= 1


def test_a_view_that_set_its_own_caching_is_overruled_not_kept():
    view_set = HttpResponse()
    view_set["Cache-Control"] = "public, max-age=3600"

    response = _answered("/api/v1/memories", view_set)

    directives = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"no-store", "no-cache", "private", "max-age=0", "must-revalidate"} <= directives
    assert "public" not in directives and "max-age=3600" not in directives
    assert "Expires" in response


def test_a_public_answer_is_left_as_it_is():
    response = _answered("/healthz", HttpResponse())

    assert "Cache-Control" not in response and "Expires" not in response
