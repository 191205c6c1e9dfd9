"""Who a request is, and which group it acts on: taken from its bearer token or the server's
configuration, never from the body or the path (as the MCP server takes it from its own).

- a tenant token (``http.tokens``: token -> group, or ``--token`` with ``--group``) acts on its one
  group; an ``X-Graphmem-Group`` header naming another is refused (403);
- an admin token (``http.admin_token``, and the local one ``graphmem serve`` writes for this
  machine's CLI) acts on the group its ``X-Graphmem-Group`` header names (else the server's
  group) and may delete groups;
- no token: the server's group (``http.group``), only on a loopback server without tenant
  tokens; anywhere else 401.
A body or query string that names a group (``group_id``, ``tenant`` ...) is refused (422).
"""

from __future__ import annotations

import hmac
import ipaddress
from dataclasses import dataclass

from ..errors import ConfigError, ForbiddenError, UnauthorizedError, ValidationError
from ..types import validate_group_id

GROUP_HEADER = "X-Graphmem-Group"
# Names that would choose a tenant: refused in a body or a query string, whatever the endpoint.
GROUP_ARGUMENTS = frozenset(
    {"group_id", "group", "groupid", "group_ids", "tenant", "tenant_id", "namespace", "user_id"}
)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Access:
    """What one request may touch: ``group_id``, and with ``admin`` any group and group deletion."""

    group_id: str
    admin: bool = False


class Gate:
    """The server's tokens and default group; ``access(...)`` decides each request."""

    def __init__(
        self,
        *,
        host: str,
        group: str,
        tokens: dict[str, str] | None = None,
        admin_tokens: list[str] | None = None,
        local_token: str | None = None,
    ):
        self.group = validate_group_id(group)
        self.tokens = {token: validate_group_id(g) for token, g in (tokens or {}).items() if token}
        self.admin_tokens = [t for t in admin_tokens or [] if t]
        if any(len(t) < 16 for t in [*self.tokens, *self.admin_tokens]):
            raise ConfigError("an HTTP token must be at least 16 characters long: a short one can be guessed")
        self.open = is_loopback(host) and not self.tokens  # requests without a token get self.group
        # the local token (this machine's CLI, written to a file) is no client's: it opens no bind
        if not is_loopback(host) and not self.tokens and not self.admin_tokens:
            raise ConfigError(
                f"binding to {host} exposes the memory beyond this machine: give --token (or [http] tokens, "
                f"or http.admin_token) so that clients must send Authorization: Bearer <token>"
            )
        if local_token:
            self.admin_tokens.append(local_token)

    def access(self, authorization: str | None, group_header: str | None) -> Access:
        token = _bearer(authorization)
        if token is None:
            if not self.open:
                raise UnauthorizedError("this server needs a token: send Authorization: Bearer <token>")
            return Access(self._own(self.group, group_header))
        if any(hmac.compare_digest(token.encode(), t.encode()) for t in self.admin_tokens):
            return Access(validate_group_id(group_header) if group_header else self.group, admin=True)
        for known, group in self.tokens.items():
            if hmac.compare_digest(token.encode(), known.encode()):
                return Access(self._own(group, group_header))
        raise UnauthorizedError("this token is not known to the server: check Authorization: Bearer <token>")

    @staticmethod
    def _own(group: str, group_header: str | None) -> str:
        if group_header and group_header != group:
            raise ForbiddenError(
                f"this request may only use group {group!r} (fixed by its token or the server's configuration), "
                f"not {group_header[:80]!r} from the {GROUP_HEADER} header: leave the header out"
            )
        return group


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise UnauthorizedError("send the token as Authorization: Bearer <token>")
    return token.strip()


def refuse_group_arguments(names: list[str], where: str) -> None:
    """A ValidationError when a body or query string tries to choose the group."""
    smuggled = sorted(n for n in names if n.casefold().replace("-", "_") in GROUP_ARGUMENTS)
    if smuggled:
        raise ValidationError(
            f"{smuggled[0]}: the group is fixed by your token or the server's configuration, not by the "
            f"{where}; send the request without it",
            field=smuggled[0],
        )
