"""Who a request comes from, as the per-client limits count it (streams, work, pages).

Behind a reverse proxy every request's socket comes from the proxy: only when it comes from
one of the trusted proxies (``FAIRYPOST_WEB_TRUSTED_PROXIES``) is the client read from
``X-Forwarded-For``, as the right-most address there that is not a trusted proxy itself
(each proxy appends the address it saw; what is left of that is the client's own say and
may be forged). Anyone else's ``X-Forwarded-For`` is ignored. An IPv6 client is its /64
(one home or one server has a whole /64 to pick addresses from); an IPv4-mapped IPv6
address is the IPv4 address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
MAX_FORWARDED = 32  # X-Forwarded-For entries looked at, from the right


class Clients:
    """The trusted proxies, and the client a request's peer and headers name."""

    def __init__(self, trusted_proxies: Iterable[str] = ()):
        self.proxies: tuple[Network, ...] = tuple(
            _unmapped_network(ipaddress.ip_network(p.strip(), strict=False)) for p in trusted_proxies)

    def is_proxy(self, address: Address) -> bool:
        return any(address in net for net in self.proxies if net.version == address.version)

    def client(self, peer: str | None, forwarded: list[str]) -> str:
        """The client's key: ``peer`` (the socket's address) or, when it is a trusted proxy,
        the address ``forwarded`` (the X-Forwarded-For headers) names; an IPv6 one's /64."""
        address = _address(peer)
        if address is None:
            return peer or "?"
        if self.proxies and self.is_proxy(address) and forwarded:
            address = self._forwarded_client(address, forwarded)
        return group(address)

    def _forwarded_client(self, peer: Address, forwarded: list[str]) -> Address:
        entries = [e for header in forwarded for e in header.split(",")][-MAX_FORWARDED:]
        client = peer
        for entry in reversed(entries):
            address = _address(entry.strip())
            if address is None:  # not an address: whatever is left of it is not believed
                break
            client = address
            if not self.is_proxy(address):
                break
        return client


def _address(text: str | None) -> Address | None:
    if not text:
        return None
    if text.startswith("[") and "]" in text:  # [2001:db8::1]:443
        text = text[1:text.index("]")]
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _unmapped_network(net: Network) -> Network:
    if isinstance(net, ipaddress.IPv6Network) and net.prefixlen >= 96 and \
            net.network_address.ipv4_mapped is not None:
        return ipaddress.ip_network(f"{net.network_address.ipv4_mapped}/{net.prefixlen - 96}")
    return net


@lru_cache(maxsize=4096)
def group(address: Address) -> str:
    """The key the limits count: an IPv4 address itself, an IPv6 address's /64."""
    if address.version == 6:
        return str(ipaddress.IPv6Network((int(address) >> 64 << 64, 64)))
    return str(address)
