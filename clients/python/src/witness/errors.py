"""The one error the client raises for a refusal from the studio."""

from __future__ import annotations

from typing import Any

import httpx


class WitnessError(Exception):
    """A refusal from the studio, or no answer at all.

    The studio answers every refusal as ``{"error": {"code", "message", "details": {"field", ...}}}``
    (lib/errors.ts): ``code`` is one of BAD_INPUT (422), UNAUTHENTICATED (401), FORBIDDEN (403),
    NOT_FOUND (404), CONFLICT (409), TOO_LARGE (413), RATE_LIMITED (429), UNAVAILABLE (503),
    INTERNAL (500); ``field`` says where (a query parameter, a body key, a JSON pointer) and
    ``message`` what. ``status`` is the HTTP status (0 when the studio could not be reached).
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        status: int,
        field: str | None = None,
        details: Any = None,
        method: str | None = None,
        url: str | None = None,
    ) -> None:
        self.message = message
        self.code = code
        self.status = status
        self.field = field
        self.details = details
        self.method = method
        self.url = url
        where = f" at {field}" if field else ""
        request = f" ({method} {url})" if method and url else ""
        super().__init__(f"{code} {status}{where}: {message}{request}")

    @classmethod
    def from_response(cls, response: httpx.Response) -> WitnessError:
        """The studio's error body as an exception; a body that is not one still gives the status and its text."""
        request = response.request
        method, url = request.method, str(request.url.copy_with(query=None))
        try:
            body = response.json()
        except ValueError:
            body = None
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            details = error.get("details")
            field = details.get("field") if isinstance(details, dict) else None
            return cls(
                error["message"],
                code=str(error.get("code") or _code_for(response.status_code)),
                status=response.status_code,
                field=field if isinstance(field, str) else None,
                details=details,
                method=method,
                url=url,
            )
        text = response.text.strip()
        if "html" in response.headers.get("content-type", "") or text.startswith("<"):
            # a page, not the API: a route this studio does not have, or a proxy's error page
            text = f"{response.reason_phrase} (an HTML page, not an API answer: is this route on this studio's version?)"
        return cls(
            text[:500] or response.reason_phrase, code=_code_for(response.status_code), status=response.status_code, method=method, url=url
        )


_codes = {
    400: "BAD_INPUT",
    401: "UNAUTHENTICATED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    409: "CONFLICT",
    413: "TOO_LARGE",
    422: "BAD_INPUT",
    429: "RATE_LIMITED",
    503: "UNAVAILABLE",
}


def _code_for(status: int) -> str:
    return _codes.get(status, "INTERNAL" if status >= 500 else f"HTTP_{status}")
