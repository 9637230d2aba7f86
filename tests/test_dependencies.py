"""The dependency files agree: requirements.txt is the runtime of pyproject.toml, and the
hashed lock pins every declared dependency at a version its specifier allows."""

import re
import tomllib

from django.conf import settings
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

BASE_DIR = settings.BASE_DIR
PIN = re.compile(r"^([A-Za-z0-9._-]+)(?:\[[^\]]*\])?==([^\s\\;]+)")


def project():
    return tomllib.loads((BASE_DIR / "pyproject.toml").read_text())


def requirement_lines(text):
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            yield line


def lock_pins():
    pins = {}
    for line in (BASE_DIR / "requirements.lock").read_text().splitlines():
        match = PIN.match(line)
        if match:
            pins[canonicalize_name(match[1])] = match[2]
    return pins


def test_requirements_txt_is_the_runtime_of_pyproject_with_compatible_release_pins():
    runtime = list(requirement_lines((BASE_DIR / "requirements.txt").read_text()))

    assert sorted(runtime) == sorted(project()["project"]["dependencies"])
    assert all("~=" in line for line in runtime), runtime


def test_the_lock_pins_every_declared_dependency_within_its_specifier():
    declared = [
        *project()["project"]["dependencies"],
        *(entry for group in project()["dependency-groups"].values() for entry in group),
    ]
    pins = lock_pins()
    unmet = []
    for entry in declared:
        requirement = Requirement(entry)
        pinned = pins.get(canonicalize_name(requirement.name))
        if pinned is None or not requirement.specifier.contains(pinned, prereleases=True):
            unmet.append(f"{entry}: locked {pinned}")

    assert unmet == [], "run `make lock` after changing pyproject.toml"


def test_every_locked_package_carries_hashes():
    text = (BASE_DIR / "requirements.lock").read_text()
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text)
    unhashed = [
        block.split()[0] for block in blocks if PIN.match(block) and "--hash=sha256:" not in block
    ]

    assert len(lock_pins()) > 20
    assert unhashed == []
