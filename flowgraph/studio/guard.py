"""Who may talk to the studio: its own page and scripts holding its token, nothing another web page sends.

The studio listens on this machine, but every web page the browser shows can
send requests to ``127.0.0.1``: a form post or a ``no-cors`` fetch reaches it
(cross-site request forgery), and a page whose domain name is re-pointed at
``127.0.0.1`` can even read the answers (DNS rebinding). Four checks, at the
door, before any route runs; they follow Jupyter Server (a per-launch token,
``Authorization: token ...``), webpack-dev-server's ``allowedHosts`` and
Vite's ``server.allowedHosts`` (added after its DNS-rebinding advisory,
GHSA-vg6x-rcgg-rjx6):

1. **Host** must name this server: the address it listens on, ``localhost``,
   ``127.0.0.1``, ``[::1]`` or a name given with ``--allow-host`` (else 403).
   A rebinding page's requests carry its own domain name here.
2. **Origin**, where the browser sends one, must be the studio's own,
   ``http://`` and the request's Host (else 403).
3. **JSON only**: a ``POST`` needs ``Content-Type: application/json`` (else
   415), which no cross-origin page can send without a CORS preflight that
   this server never grants; a form or a ``no-cors`` fetch cannot.
4. **The token**: every ``/api/`` request carries ``Authorization: token
   TOKEN`` (else 403). The URL ``flowgraph studio`` prints and opens holds it
   (``/?token=...``); the page keeps it and sends the header. The page and its
   static files need none: they are the same for everybody.

Every answer also says it may not be framed and what the page may load
(:data:`PAGE_HEADERS`): a page on another loopback port is the same *site*,
so a framed studio would have its token and one click could press Save
under a decoy (clickjacking; OWASP's Clickjacking Defense Cheat Sheet,
``frame-ancestors 'none'`` with ``X-Frame-Options: DENY`` for older browsers).

The threat model and the tests that hold each line: ``docs/security.md``.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Iterable

__all__ = ["Guard", "new_token", "DEFAULT_HOSTS", "TOKEN_ENV", "PAGE_HEADERS"]

#: Host names every studio answers to (besides the address it listens on).
DEFAULT_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")
#: The environment variable that sets the token (``--token`` wins).
TOKEN_ENV = "FLOWGRAPH_STUDIO_TOKEN"
#: Headers on every answer: never framed, scripts, styles and requests of the studio's own origin only (no inline
#: script), pictures also as data: and blob: URLs (thumbnails, an exported PNG), no plugins, no <base>.
PAGE_HEADERS = (
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


def new_token() -> str:
    """A fresh per-launch token: 32 random bytes, URL-safe (``secrets.token_urlsafe``)."""
    return secrets.token_urlsafe(32)


def _host_name(host: str) -> str:
    """The name part of a Host header: ``localhost:8765`` -> ``localhost``, ``[::1]:80`` -> ``[::1]``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Guard:
    """ASGI middleware: the four checks of this module, before the app sees a request.

    Parameters
    ----------
    app : ASGI app
    token : str
        The secret every ``/api/`` request must carry.
    hosts : iterable of str
        Host names allowed besides :data:`DEFAULT_HOSTS` (the listening
        address and ``--allow-host`` names).

    Notes
    -----
    Every refusal is a JSON ``{"error": ...}`` with status 403 (Host, Origin,
    token) or 415 (not JSON), and says what to do.
    """

    def __init__(self, app, token: str, hosts: Iterable[str] = ()):
        if not token:
            raise ValueError("the studio needs a token")
        self.app = app
        self.token = token.encode()
        self.hosts = {h.lower() for h in (*DEFAULT_HOSTS, *hosts) if h}
        self.hosts |= {f"[{h}]" for h in self.hosts if ":" in h and not h.startswith("[")}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is None:
            async def send_with_headers(message) -> None:
                if message["type"] == "http.response.start":
                    names = {name.lower() for name, _ in message.get("headers", ())}
                    message = {**message, "headers": [*message.get("headers", ()),
                                                      *(h for h in PAGE_HEADERS if h[0] not in names)]}
                await send(message)

            await self.app(scope, receive, send_with_headers if scope["type"] == "http" else send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        status, message = refusal
        payload = json.dumps({"error": message}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                                (b"cache-control", b"no-store"), *PAGE_HEADERS]})
        await send({"type": "http.response.body", "body": payload})

    def refusal(self, scope) -> tuple[int, str] | None:
        """Why a request is refused, as (status, message), or None to let it through."""
        headers: dict[bytes, bytes] = {}
        for name, value in scope.get("headers", ()):
            headers.setdefault(name.lower(), value)
        host = headers.get(b"host", b"").decode("latin-1")
        if _host_name(host) not in self.hosts:
            return 403, (f"the studio does not answer to the host {host[:100]!r} "
                         "(start it with --allow-host NAME to allow that name)")
        origin = headers.get(b"origin")
        if origin is not None and origin.decode("latin-1") != f"http://{host}":
            return 403, "requests from another web page are refused"
        path = scope.get("path", "")
        if not path.startswith("/api/"):
            return None
        if scope.get("method") == "POST":
            kind = headers.get(b"content-type", b"").split(b";", 1)[0].strip().lower()
            if kind != b"application/json":
                return 415, "send JSON: Content-Type: application/json"
        given = headers.get(b"authorization", b"")
        scheme, _, value = given.partition(b" ")
        if scheme.lower() != b"token" or not hmac.compare_digest(value.strip(), self.token):
            return 403, ("the studio's token is missing or wrong: open the address 'flowgraph studio' printed "
                         "(it ends with ?token=...), or send the header 'Authorization: token TOKEN'")
        return None
