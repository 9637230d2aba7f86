"""``AnyOf``: a long ``IN`` as one parameter."""

from django.db.models import F

from common.principal import principal_context
from core.lookups import AnyOf
from memory.models import Belief
from tests.memory.helpers import remember


def test_it_keeps_the_rows_whose_column_is_one_of_the_values(owner):
    kept = remember(owner, "User owns a watch.", subject="device:watch")
    other = remember(owner, "User owns a bicycle.", subject="device:bicycle")
    with principal_context(owner):
        by_id = list(
            Belief.objects.filter(
                AnyOf(F("id"), [kept.pk, None, kept.pk, other.pk + 1000])
            ).values_list("id", flat=True)
        )
        by_subject = list(
            Belief.objects.filter(AnyOf(F("subject"), ["device:bicycle"])).values_list(
                "id", flat=True
            )
        )

    assert (by_id, by_subject) == ([kept.pk], [other.pk])


def test_no_values_match_nothing_and_ask_the_database_nothing(owner, django_assert_num_queries):
    remember(owner, "User owns a watch.", subject="device:watch")
    with principal_context(owner), django_assert_num_queries(0):
        assert list(Belief.objects.filter(AnyOf(F("id"), []))) == []
