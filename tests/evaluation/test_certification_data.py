"""The labelled data a certificate is checked against ships inside the evaluation app, as
pinned: certification reads it at run time, so it cannot live with the tests."""

from pathlib import Path

import pytest
from django.conf import settings

from evaluation.formation_evaluation import sha256
from evaluation.qualification.data import FORMATION_DATA, RECONSOLIDATION_DATA
from evaluation.reconsolidation_runner import DEFAULT_FIXTURES


@pytest.mark.parametrize(
    ("capability", "data", "path"),
    [
        ("formation_provider", "qualification", FORMATION_DATA),
        ("reconsolidation", "fixtures", DEFAULT_FIXTURES),
        ("reconsolidation_provider", "qualification", RECONSOLIDATION_DATA),
    ],
)
def test_the_data_a_capability_is_pinned_to_ships_in_the_evaluation_app(capability, data, path):
    pinned = settings.REVERIE_CAPABILITIES[capability]["datasets"][data]

    assert path.is_relative_to(Path(settings.BASE_DIR) / "evaluation")
    assert not path.is_relative_to(Path(settings.BASE_DIR) / "tests")
    assert sha256(path.read_bytes()) == pinned
