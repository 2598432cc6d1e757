"""The tournaments' refusal (a ``ServiceError``: it says what was wrong, nothing changed)."""

from __future__ import annotations

from ..domain.errors import ServiceError


class TournamentError(ServiceError):
    default_message = "that cannot be done in this tournament"
