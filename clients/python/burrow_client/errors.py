"""Typed errors. A request-level GraphQL error (``errors[]`` with ``extensions.code``) raises the
subclass of BurrowError generated for its code (burrow_client.generated.errors, one per row of
docs/errors.md); an unknown code raises BurrowError itself.

Member codes (a mutation's result union, e.g. RevisionConflict) are data, not exceptions; pass
such a result to ``raise_for_member`` to turn it into the matching exception.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional


class BurrowError(Exception):
    """A failed request, or (via raise_for_member) a mutation's error member. Nothing was changed."""

    #: ``request`` (a GraphQL error) or ``member`` (a result union member)
    kind = "request"
    #: Whether sending the same request later can succeed.
    retryable = False

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: Optional[int] = None,
        errors: Optional[List[Dict[str, Any]]] = None,
        retry_after_seconds: Optional[float] = None,
        payload: Any = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        #: HTTP status, or None over WebSocket
        self.status = status
        #: every GraphQL error of the response, as sent
        self.errors: List[Dict[str, Any]] = errors or []
        #: seconds to wait before a retry, when the server said (Retry-After / extensions)
        self.retry_after_seconds = retry_after_seconds
        #: the error member (a result model), for member codes
        self.payload = payload


class RetryableError(BurrowError):
    """DATABASE_UNAVAILABLE and RATE_LIMITED: nothing was changed; retry after
    ``retry_after_seconds`` (DATABASE_UNAVAILABLE: about a second; RATE_LIMITED: what the token's
    bucket needs to refill)."""

    retryable = True


def error_for(
    errors: List[Dict[str, Any]],
    *,
    status: Optional[int] = None,
    retry_after_header: Optional[str] = None,
) -> BurrowError:
    """The typed exception for a response's GraphQL errors (the first error's code decides)."""
    from .generated.errors import BY_CODE

    first = errors[0] if errors else {}
    extensions = first.get("extensions") or {}
    code = str(extensions.get("code") or "UNKNOWN")
    retry_after: Optional[float] = None
    raw = extensions.get("retryAfterSeconds", retry_after_header)
    if raw is not None:
        try:
            retry_after = float(raw)
        except (TypeError, ValueError):
            retry_after = None
    if retry_after is None and code == "DATABASE_UNAVAILABLE":
        retry_after = 1.0
    message = "; ".join(str(e.get("message", "")) for e in errors) or code
    cls = BY_CODE.get(code, BurrowError)
    return cls(code, message, status=status, errors=errors, retry_after_seconds=retry_after)


def raise_for_member(result: Any) -> None:
    """Raises the typed exception when a mutation answered with an error member (any object with
    ``code`` and ``message``); returns quietly for a success member."""
    from .generated.errors import BY_CODE

    code = getattr(result, "code", None)
    message = getattr(result, "message", None)
    if isinstance(code, str) and isinstance(message, str):
        cls = BY_CODE.get(code, BurrowError)
        raise cls(code, message, payload=result)
