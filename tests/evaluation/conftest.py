import json

import pytest
from django.core.management import call_command

from .fixtures import write_tiny_dataset


@pytest.fixture(scope="session")
def evaluated(tmp_path_factory, django_db_setup, django_db_blocker):
    """One evaluation of the tiny dataset with every arm, shared by the tests that read it
    (each arm runs in its own process against its own fresh database)."""
    directory = tmp_path_factory.mktemp("evaluation")
    path = write_tiny_dataset(directory)
    out = directory / "out"
    with django_db_blocker.unblock():
        call_command(
            "evaluate",
            str(path),
            "--arms",
            "control,formation,reconsolidation,hybrid",
            "--k",
            "10",
            "--out",
            str(out),
        )
    return out, json.loads((out / "results.json").read_text())
