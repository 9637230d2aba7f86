"""Settings for the test suite: only what tests need differs from production."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
# The production settings, as behind a TLS-terminating proxy: test clients send
# X-Forwarded-Proto: https as that proxy would (tests/conftest.py).
os.environ.setdefault("REVERIE_BEHIND_TLS_PROXY", "1")

from .settings import *  # noqa: F403
from .settings import CACHES, INSTALLED_APPS, Q_CLUSTER, REVERIE_EMBEDDINGS

if "benchmarks" not in INSTALLED_APPS:
    INSTALLED_APPS = [*INSTALLED_APPS, "benchmarks"]

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
Q_CLUSTER = {**Q_CLUSTER, "sync": True}
# Sign-in counters in memory, cleared around every test (tests/conftest.py);
# the tests of sign-in throttling count in the database, as production does.
CACHES = {
    **CACHES,
    "sign_in": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "sign-in"},
}
# A deterministic embedder without a model (memory.embeddings.fake); the tests marked
# `embeddings` run the real one.
REVERIE_EMBEDDINGS = {**REVERIE_EMBEDDINGS, "local": "memory.embeddings.fake.FakeEmbedder"}
