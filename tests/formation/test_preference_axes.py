"""Two preferences of one subject: restating, compatible, or in conflict."""

import pytest

from formation.preference_axes import relation


@pytest.mark.parametrize(
    ("statement", "other", "expected"),
    [
        ("User prefers answers in bullet points.", "User prefers short answers.", "compatible"),
        ("User prefers concise answers.", "User prefers short answers.", "restates"),
        ("User prefers detailed answers.", "User prefers short answers.", "conflicts"),
        ("User prefers short answers in bullet points.", "User prefers long answers.", "conflicts"),
        ("User prefers dark themes.", "User prefers high-contrast themes.", "compatible"),
        ("User prefers tabs.", "User prefers spaces.", "conflicts"),
        ("User prefers four spaces.", "User prefers two spaces.", "conflicts"),
        ("User prefers metric units.", "User prefers celsius.", "restates"),
        ("User prefers friendly answers.", "User prefers short answers.", "conflicts"),
        ("User prefers friendly answers.", "User prefers warm answers.", "conflicts"),
    ],
)
def test_relation(statement, other, expected):
    assert relation(statement, other) == expected
    assert relation(other, statement) == expected
