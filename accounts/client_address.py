"""Who sent a request: the address sign-in throttling counts failures against.

Behind a proxy every request comes from the proxy's address, and the client's
is in the X-Forwarded-For header the proxy extends. Anyone can send that
header, so it is read only from a trusted proxy (``REVERIE_TRUSTED_PROXIES``),
and only as far as trusted proxies wrote it: each appends the address it was
connected from, so walking the list from the right, the first address that is
not a trusted proxy is the client. What lies left of it the client wrote
itself, and is ignored.
"""

import ipaddress
from collections.abc import Iterable
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

_Address = ipaddress.IPv4Address | ipaddress.IPv6Address
_Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[_Network, ...]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def _address(text: str) -> _Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    # A dual-stack socket reports an IPv4 client as ::ffff:a.b.c.d.
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return mapped or address


def _trusted(address: _Address | None, networks: Iterable[_Network]) -> bool:
    return address is not None and any(address in network for network in networks)


def client_address(request: HttpRequest) -> str:
    """The client's address for ``request``: ``REMOTE_ADDR``, or behind a trusted proxy the
    right-most address in X-Forwarded-For that is not a trusted proxy.

    An entry that is not an address ends the walk at the proxy that passed it on.
    """
    remote = request.META.get("REMOTE_ADDR") or ""
    networks = _networks(tuple(settings.REVERIE_TRUSTED_PROXIES))
    address = _address(remote)
    if not _trusted(address, networks):
        return str(address) if address is not None else remote
    for entry in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        hop = _address(entry)
        if hop is None:
            break
        address = hop
        if not _trusted(hop, networks):
            break
    return str(address)
