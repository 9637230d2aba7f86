"""Nothing expensive on the request path: the certificate checks a request's flags make compare
digests read when the process started, never the source files themselves."""

import builtins
from pathlib import Path

from django.conf import settings

from common.selectors.flags import flag_cache_clear
from evaluation.provenance import code_digests_read

API = "/api/v1"


def test_a_recall_reads_no_source_file(api, processing_on, monkeypatch):
    # What the serving process does as it starts (config/wsgi.py).
    code_digests_read()
    # Every flag is looked at afresh, certificates included.
    flag_cache_clear()
    base = Path(settings.BASE_DIR).resolve()
    reads = []

    def watched(real):
        def read(path, *args, **kwargs):
            candidate = Path(path) if isinstance(path, str | Path) else None
            if (
                candidate is not None
                and candidate.suffix == ".py"
                and candidate.resolve().is_relative_to(base)
            ):
                reads.append(str(candidate))
            return real(path, *args, **kwargs)

        return read

    monkeypatch.setattr(Path, "read_bytes", watched(Path.read_bytes))
    monkeypatch.setattr(Path, "read_text", watched(Path.read_text))
    monkeypatch.setattr(builtins, "open", watched(builtins.open))

    response = api.post(
        f"{API}/recall",
        {"query": "Kindle", "include": ["messages", "derived"]},
        format="json",
    )

    assert response.status_code == 200
    assert reads == []
