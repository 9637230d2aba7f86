"""Operators never reach what reconsolidation derived: no page of the operator admin shows a
derived memory's text, and the owner's review pages are not theirs to open."""

from django.contrib import admin
from django.urls import reverse

from common.services.flags import flag_set
from tests.reconsolidation.banks import reconsolidated

DERIVED_WORDS = ("Kindle", "Maya", "daughter", "Apple Watch", "imperial")


def test_no_operator_page_shows_derived_text(client, owner, operator):
    flag_set(key="reconsolidation_surface", enabled=True)
    bank = reconsolidated(owner)
    client.force_login(operator)
    pages = [reverse("admin:index")]
    for model in admin.site._registry:
        opts = model._meta
        pages.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
        pages.append(reverse("admin:app_list", args=[opts.app_label]))

    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        body = response.content.decode()
        for word in DERIVED_WORDS:
            assert word not in body, (page, word)
    # The owner's pages are the owner's: the operator's own session finds nothing of theirs.
    for page in (
        reverse("review:reconsolidation_derivedmemory_change", args=[bank["summary"].public_id]),
        reverse(
            "review:reconsolidation_operation_change", args=[bank.operations["merge"].public_id]
        ),
    ):
        assert client.get(page).status_code == 404, page
