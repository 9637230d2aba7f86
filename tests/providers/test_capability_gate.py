"""Without a certificate for the configured provider and model and the current code, no
request leaves the machine, however the capability's flag was set."""

from common.models import Flag
from common.selectors.flags import flag_cache_clear, flag_state
from formation.hybrid import HybridExtractor
from formation.services import formation_extractor, formation_sweep
from memory.services.sessions import session_close
from tests.formation.formation_helpers import later
from tests.memory.helpers import conversation


def test_a_configured_provider_is_not_called_while_the_capability_is_uncertified(
    owner, provider_settings, fake_provider
):
    provider_settings.REVERIE_FLAG_DEFAULTS = {
        **provider_settings.REVERIE_FLAG_DEFAULTS,
        "formation_provider": True,
    }
    Flag.objects.update_or_create(key="formation_provider", defaults={"enabled": True})
    flag_cache_clear()
    session, _ = conversation(owner, "I own a Kindle.")
    session_close(principal=owner, session_id=session.public_id)

    (formation,) = formation_sweep(now=later())

    state = flag_state("formation_provider")
    assert state.value is True and state.enabled is False
    assert "certificate" in state.reason
    assert not isinstance(formation_extractor(), HybridExtractor)
    assert formation.policy_version == "formation@2" and formation.committed_count == 1
    assert fake_provider.requests == 0
