"""The qualification file's signature: only what this installation wrote, unedited, passes."""

from evaluation.qualification.signing import sign, signed

RESULTS = {"meta": {"capability": "formation_provider"}, "observed": {"deterministic": []}}


def test_a_signed_file_passes_and_any_edit_fails():
    results = sign(RESULTS)
    assert signed(results)
    assert not signed({**results, "observed": {"deterministic": [{"case": "x"}]}})
    assert not signed({**results, "meta": {"capability": "reconsolidation_provider"}})


def test_an_unsigned_or_badly_signed_file_fails():
    assert not signed(RESULTS)
    assert not signed({**RESULTS, "signature": None})
    assert not signed({**RESULTS, "signature": "x" * 43})


def test_another_installations_signature_fails(settings):
    settings.SECRET_KEY = "another installation's key, long enough to be one"
    elsewhere = sign(RESULTS)
    settings.SECRET_KEY = "this installation's own key, long enough to be one too"
    assert not signed(elsewhere)
