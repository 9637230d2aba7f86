"""Admin change lists take only the lookups of their own filters and date drill-down.

Every list of the operator admin (/admin/) and of the review site (/review/)
refuses any other lookup with a 400 page of its site, before a query runs: a
lookup on a password's hash would read it out a character at a time, and one
the database cannot run would be a server error.
"""

from datetime import timedelta

import pytest
from django.contrib import admin
from django.db import models
from django.urls import path, reverse
from django.utils import timezone
from django_q.models import Task

from accounts.admin_site import OperatorAdminSite
from accounts.models import OperatorAction
from accounts.services import api_token_create, api_token_revoke
from core.admin_lookups import DeclaredLookupsOnly
from memory.enums import BeliefStatus
from memory.review.site import review_site
from tests.factories import UserFactory
from tests.memory.helpers import conversation, remember
from tests.review.helpers import formed

HOSTILE = (
    "password__startswith=md5",
    "password__regex=(",
    "digest__regex=(",
    "owner__password__startswith=md5",
    "owner__username__regex=(",
    "principal__password__startswith=md5",
    "principal__digest__regex=(",
    "id__gt=0",
)


def changelist_urls(site):
    urls = [
        reverse(f"{site.name}:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for model in site._registry
    ]
    if site is review_site:
        urls.append(reverse("review:review_queue"))
    return urls


def hostile_lookups(model):
    """Lookups no list offers: on secrets, on text, on dates, across relations."""
    lookups = list(HOSTILE)
    for field in model._meta.concrete_fields:
        if isinstance(field, models.ForeignKey):
            lookups += [f"{field.name}__password__startswith=md5", f"{field.name}__id__gt=0"]
        elif isinstance(field, models.DateField):
            lookups.append(f"{field.name}__year=99999999999")
        elif isinstance(field, (models.CharField, models.TextField)):
            lookups.append(f"{field.name}__regex=(")
        else:
            lookups.append(f"{field.name}__gte=99999999999999999999999")
    return lookups


@pytest.fixture
def rows(owner, other_owner, operator, processing_on):
    """A few rows in every list, so that an unfiltered list is not an empty one."""
    session, (message,) = conversation(owner, "My locker code is 3141.", external_id="chat-1")
    remember(owner, "User's locker code is 3141.", sources=[message])
    formed(owner, "User likes rowing.")
    api_token_create(principal=owner, name="assistant")
    revoked, _ = api_token_create(principal=other_owner, name="old laptop")
    api_token_revoke(token_id=revoked.public_id, actor=operator, via=OperatorAction.Via.ADMIN)
    for index, success in enumerate((True, False)):
        Task.objects.create(
            id=f"t{index}",
            name=f"t{index}",
            func=f"memory.tasks.task_{index}",
            started=timezone.now(),
            stopped=timezone.now(),
            success=success,
        )


def is_refusal(response, site_header):
    body = response.content.decode()
    return (
        response.status_code == 400
        and "Nothing was filtered." in body
        and site_header in body
        and "cl" not in response.context
    )


@pytest.mark.parametrize(
    "site_name", ["admin", "review"], ids=["operator admin", "owner review site"]
)
def test_every_change_list_refuses_lookups_it_does_not_declare(
    client, owner, operator, rows, site_name
):
    site = admin.site if site_name == "admin" else review_site
    client.force_login(operator if site_name == "admin" else owner)

    for url in changelist_urls(site):
        unfiltered = client.get(url)
        assert unfiltered.status_code == 200, url
        model = unfiltered.context["opts"].model
        for lookup in hostile_lookups(model):
            response = client.get(f"{url}?{lookup}")
            if "cl" in unfiltered.context:
                assert is_refusal(response, site.site_header), f"{url}?{lookup}"
            else:
                # A page of its own (flags, the overview): it reads no query string.
                assert response.status_code == 200, f"{url}?{lookup}"


def test_every_list_of_both_sites_takes_only_declared_lookups():
    admins = [*admin.site._registry.values(), *review_site._registry.values()]

    assert all(isinstance(model_admin, DeclaredLookupsOnly) for model_admin in admins)
    assert isinstance(review_site.queue_admin, DeclaredLookupsOnly)
    # django-q2's task list is registered as a plain ModelAdmin; the site adds the rule.
    assert isinstance(admin.site.get_model_admin(Task), DeclaredLookupsOnly)


def test_an_operator_cannot_read_a_password_hash_out_of_the_principal_list(client, operator, owner):
    client.force_login(operator)
    url = reverse("admin:accounts_user_changelist")
    real_prefix = owner.password[:5]
    wrong_prefix = "x" if real_prefix[0] != "x" else "y"

    right = client.get(url, {"username": "owner", "password__startswith": real_prefix})
    wrong = client.get(url, {"username": "owner", "password__startswith": wrong_prefix})

    # The same refusal whether the prefix is right or wrong: nothing to tell them apart.
    for response in (right, wrong):
        assert is_refusal(response, admin.site.site_header)
        body = response.content.decode()
        assert "This list does not offer password__startswith, username." in body
        assert "1 principal" not in body and "0 principals" not in body


def test_a_refused_lookup_goes_to_the_operator_trail_without_its_value(client, operator, owner):
    client.force_login(operator)
    prefix = owner.password[:8]

    client.get(reverse("admin:accounts_user_changelist"), {"password__regex": f"^{prefix}"})

    (record,) = OperatorAction.objects.filter(action=OperatorAction.Action.ADMIN_LOOKUP_REFUSED)
    assert record.actor == operator and record.via == OperatorAction.Via.ADMIN
    assert record.target == "accounts.user"
    assert record.details == {"lookups": ["password__regex"]}
    assert prefix not in str(record.details)


def test_an_operator_cannot_match_a_token_digest(client, operator, owner):
    token, _ = api_token_create(principal=owner, name="assistant")
    client.force_login(operator)

    response = client.get(
        reverse("admin:accounts_apitoken_changelist"), {"digest__regex": f"^{token.digest[:4]}"}
    )

    assert is_refusal(response, admin.site.site_header)
    assert token.digest[:4] not in response.content.decode()


def test_an_owner_refused_a_lookup_sees_the_review_sites_page_and_nothing_is_recorded(
    client, owner
):
    remember(owner, "User's locker code is 3141.")
    client.force_login(owner)

    response = client.get(reverse("review:memory_belief_changelist"), {"statement__regex": "("})

    assert is_refusal(response, review_site.site_header)
    assert 'id="review-nav"' in response.content.decode()
    assert not OperatorAction.objects.filter(
        action=OperatorAction.Action.ADMIN_LOOKUP_REFUSED
    ).exists()


def result_count(client, url, query):
    response = client.get(url, query)
    assert response.status_code == 200, (url, query)
    return response.context["cl"].result_count


def test_the_operators_declared_filters_and_search_still_narrow_their_lists(
    client, operator, owner, other_owner, rows
):
    UserFactory(username="gone", is_active=False)
    an_hour_ago = timezone.now() - timedelta(hours=1)
    client.force_login(operator)
    principals = reverse("admin:accounts_user_changelist")
    tokens = reverse("admin:accounts_apitoken_changelist")
    tasks = reverse("admin:django_q_task_changelist")

    assert result_count(client, principals, {}) == 4
    assert result_count(client, principals, {"is_active__exact": "0"}) == 1
    assert result_count(client, principals, {"q": "other"}) == 1
    assert result_count(client, tokens, {"revoked_at__isnull": "True"}) == 1
    assert result_count(client, tokens, {"revoked_at__gte": str(an_hour_ago)}) == 1
    assert result_count(client, tokens, {"q": "laptop"}) == 1
    assert result_count(client, tasks, {"success__exact": "0"}) == 1
    assert result_count(client, tasks, {"func": "memory.tasks.task_1"}) == 1


def test_the_owners_declared_filters_still_narrow_their_lists(client, owner, rows):
    client.force_login(owner)
    memories = reverse("review:memory_belief_changelist")
    queue = reverse("review:review_queue")

    assert result_count(client, memories, {}) == 2
    assert result_count(client, memories, {"status": BeliefStatus.PROVISIONAL}) == 1
    assert result_count(client, memories, {"needs_review__exact": "1"}) == 0
    assert result_count(client, memories, {"q": "rowing"}) == 1
    assert result_count(client, queue, {"reason": "provisional"}) == 1
    assert result_count(client, queue, {"reason": "flagged"}) == 0


def test_a_declared_filter_with_a_value_it_cannot_use_shows_the_whole_list(client, operator, rows):
    client.force_login(operator)
    url = reverse("admin:accounts_user_changelist")

    for query in (
        {"is_active__exact": "maybe"},
        {"is_active__exact": "9" * 30},
    ):
        response = client.get(url, query)
        assert response.status_code == 302
        assert response["Location"] == f"{url}?e=1"
    assert result_count(client, url, {"e": "1"}) == 3
    tokens = reverse("admin:accounts_apitoken_changelist")
    assert client.get(tokens, {"revoked_at__gte": "99999999999"}).status_code == 302


def test_a_field_reference_the_list_does_not_allow_is_refused(client, operator):
    client.force_login(operator)

    response = client.get(reverse("admin:accounts_user_changelist"), {"_to_field": "password"})

    assert is_refusal(response, admin.site.site_header)


OPERATOR_SEARCHES = {
    "accounts.user": ("username",),
    "accounts.apitoken": ("principal__username", "name", "prefix"),
    "accounts.operatoraction": ("actor_name", "principal__username", "target"),
}


def test_operators_search_only_names_and_ids_never_secrets_or_memory_text(rf):
    searches = {
        model._meta.label_lower: tuple(model_admin.search_fields)
        for model, model_admin in admin.site._registry.items()
        if model_admin.search_fields
    }

    assert searches == OPERATOR_SEARCHES


# Drilling down by date, on a site of its own: no list of either site declares one.

trial_site = OperatorAdminSite(name="trial")


class TrailByDateAdmin(admin.ModelAdmin):
    date_hierarchy = "created_at"
    list_filter = ("via",)


trial_site.register(OperatorAction, TrailByDateAdmin)

# A plain AdminSite, which neither records refusals nor names a refusal page of its own.
plain_site = admin.AdminSite(name="plain")


class PlainTrailAdmin(DeclaredLookupsOnly, admin.ModelAdmin):
    list_filter = ("via",)


plain_site.register(OperatorAction, PlainTrailAdmin)
urlpatterns = [path("trial/", trial_site.urls), path("plain/", plain_site.urls)]


@pytest.mark.urls(__name__)
def test_a_date_drill_down_takes_its_own_lookups_with_dates_it_can_use(client, operator):
    with_year = OperatorAction.objects.create(
        actor_name="op", via=OperatorAction.Via.SHELL, action=OperatorAction.Action.FLAG_SET
    )
    OperatorAction.objects.filter(pk=with_year.pk).update(
        created_at=with_year.created_at.replace(year=2001, month=3, day=4)
    )
    OperatorAction.objects.create(
        actor_name="op", via=OperatorAction.Via.SHELL, action=OperatorAction.Action.FLAG_SET
    )
    client.force_login(operator)
    url = reverse("trial:accounts_operatoraction_changelist")

    assert result_count(client, url, {}) == 2
    assert result_count(client, url, {"created_at__year": "2001"}) == 1
    assert result_count(client, url, {"created_at__year": "2001", "created_at__month": "3"}) == 1
    assert result_count(client, url, {"created_at__year": "2001", "created_at__month": "4"}) == 0
    for query in (
        {"created_at__year": "99999999999"},
        {"created_at__year": "9999"},
        {"created_at__year": "0"},
        {"created_at__year": "２００１"},
        {"created_at__year": "2001", "created_at__month": "13"},
        {"created_at__year": "2001", "created_at__month": "12", "created_at__day": "99"},
        {"created_at__gte": "2001-01-01"},
        {"created_at__regex": "("},
    ):
        response = client.get(url, query)
        assert is_refusal(response, trial_site.site_header), query
    # A day its month does not have: Django's own answer, the whole list.
    response = client.get(
        url, {"created_at__year": "2001", "created_at__month": "2", "created_at__day": "30"}
    )
    assert response.status_code == 302 and response["Location"] == f"{url}?e=1"


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_a_list_on_a_site_that_records_nothing_still_refuses_with_the_refusal_page(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = reverse("plain:accounts_operatoraction_changelist")

    refused = client.get(url, {"actor_name__regex": "("})

    assert refused.status_code == 400
    assert "This list cannot be filtered that way" in refused.content.decode()
    assert client.get(url, {"via__exact": "shell"}).status_code == 200


def test_a_lookup_asked_without_the_request_is_refused(rf):
    model_admin = trial_site.get_model_admin(OperatorAction)

    assert model_admin.lookup_allowed("via__exact", "shell", rf.get("/"))
    assert not model_admin.lookup_allowed("via__exact", "shell")
