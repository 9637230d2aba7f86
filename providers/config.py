"""The configured provider: an OpenAI-compatible chat-completions server (``REVERIE_PROVIDER``)."""

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


@dataclass(frozen=True)
class ProviderConfig:
    base_url: str
    model: str
    api_key: str
    # US dollars per million tokens, as the provider bills them.
    input_price: Decimal
    output_price: Decimal
    # Where the provider processes requests ("eu", "on-premises", ...), as the
    # operator labels it; the egress policy pins it.
    residency: str

    @property
    def binding(self):
        """What a certificate of provider-assisted work is bound to: server, model and prices
        do not change without a new evaluation."""
        return f"{self.base_url.rstrip('/')} {self.model}"

    def cost(self, input_tokens, output_tokens):
        """What a call of that usage costs, in US dollars."""
        million = Decimal(1_000_000)
        return (
            Decimal(input_tokens) * self.input_price + Decimal(output_tokens) * self.output_price
        ) / million


def _api_key(config):
    if config.get("api_key"):
        return config["api_key"]
    path = config.get("api_key_file")
    if not path:
        return ""
    try:
        return Path(path).read_text().strip()
    except OSError as error:
        raise ImproperlyConfigured(
            f"REVERIE_PROVIDER_API_KEY_FILE cannot be read: {error.strerror}"
        ) from None


def provider_config():
    """The configured provider, or None when no server and model are configured."""
    config = settings.REVERIE_PROVIDER
    if not config["base_url"] or not config["model"]:
        return None
    return ProviderConfig(
        base_url=config["base_url"],
        model=config["model"],
        api_key=_api_key(config),
        input_price=Decimal(str(config["input_price"])),
        output_price=Decimal(str(config["output_price"])),
        residency=config["residency"],
    )


def price_refusal(config):
    """Why a provider capability may not be on at these prices, or "": a zero price makes
    the per-call ceiling and the daily caps refuse nothing, so it must be stated."""
    if settings.REVERIE_PROVIDER.get("price_free"):
        return ""
    if config.input_price > 0 and config.output_price > 0:
        return ""
    return (
        "the provider's prices are not set (REVERIE_PROVIDER_INPUT_PRICE and "
        "REVERIE_PROVIDER_OUTPUT_PRICE, US dollars per million tokens); for a local model "
        "that costs nothing, state REVERIE_PROVIDER_PRICE_FREE=1"
    )
