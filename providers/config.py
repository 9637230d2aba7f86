"""The configured provider: an OpenAI-compatible chat-completions server (``REVERIE_PROVIDER``)."""

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

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
    # The operator's statement that the provider costs nothing (REVERIE_PROVIDER_PRICE_FREE):
    # without it a price of 0 is taken for a price not configured.
    price_free: bool = False

    @property
    def binding(self) -> str:
        """The server and model a call is prepared for."""
        return f"{self.base_url.rstrip('/')} {self.model}"

    def cost(self, input_tokens: int, output_tokens: int) -> Decimal:
        """What a call of that usage costs, in US dollars."""
        million = Decimal(1_000_000)
        return (
            Decimal(input_tokens) * self.input_price + Decimal(output_tokens) * self.output_price
        ) / million


def read_api_key(config: dict[str, Any], file_setting: str) -> str:
    """The key ``config`` names, itself or in the file ``api_key_file`` (the setting
    ``file_setting``); "" for none."""
    if config.get("api_key"):
        return str(config["api_key"])
    path = config.get("api_key_file")
    if not path:
        return ""
    try:
        return Path(path).read_text().strip()
    except OSError as error:
        raise ImproperlyConfigured(f"{file_setting} cannot be read: {error.strerror}") from None


def provider_config() -> ProviderConfig | None:
    """The configured provider, or None when no server and model are configured."""
    config = settings.REVERIE_PROVIDER
    if not config["base_url"] or not config["model"]:
        return None
    return ProviderConfig(
        base_url=config["base_url"],
        model=config["model"],
        api_key=read_api_key(config, "REVERIE_PROVIDER_API_KEY_FILE"),
        input_price=Decimal(str(config["input_price"])),
        output_price=Decimal(str(config["output_price"])),
        residency=config["residency"],
        price_free=config["price_free"],
    )


def price_refusal(config: ProviderConfig | None) -> str:
    """Why the provider's prices do not allow switching on work that calls it, or "".

    The spend caps and the ledger count in these prices: at 0 every cap holds however many
    calls are made, so a price of 0 must be the operator's statement, not a default."""
    if config is None or config.price_free:
        return ""
    if config.input_price > 0 and config.output_price > 0:
        return ""
    return (
        "the provider's price is 0 (REVERIE_PROVIDER_INPUT_PRICE "
        f"{config.input_price}, REVERIE_PROVIDER_OUTPUT_PRICE {config.output_price}), so spend "
        "caps would count nothing: set the prices the provider bills, or "
        "REVERIE_PROVIDER_PRICE_FREE=1 if it truly costs nothing"
    )
