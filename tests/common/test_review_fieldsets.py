"""The review site's read-only pages show every field their fieldsets name."""

from common.review.base import fieldset_fields


def test_fields_set_side_by_side_are_each_listed_in_their_place():
    fieldsets = (
        (None, {"fields": ("statement", ("created_at", "updated_at"))}),
        ("Details", {"classes": ("collapse",), "fields": ["public_id"]}),
    )

    assert fieldset_fields(fieldsets) == ("statement", "created_at", "updated_at", "public_id")
