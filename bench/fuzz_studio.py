"""Fuzz a live studio: mutated requests to every endpoint, the server's memory and responsiveness measured.

Starts ``flowgraph studio`` on 127.0.0.1 (a free port, a scratch FILE), sends
``--requests`` mutated requests (``tests/studio/fuzz_bodies.py``) from two
client threads, and every 100 requests times a small probe request. Prints
the answers by status, the server's peak resident memory, the slowest probe,
and whether the server still answers at the end. Exit status 1 on any 500,
a probe slower than ``--max-wait`` seconds, memory over ``--max-rss-mb``, or
a server that no longer answers.

First, ``--heavy N`` requests (default 12) for the largest board a URL may
carry (``numlin/200/200``, 40,000 cells) are sent at once, with a light probe
(``/api/constants``) every 0.1 s while they run: issue 33's case, where 12 of
them took 2.2 GB and made a probe wait 10.5 s. Then issue 51's: ``--big N``
(default 12) requests at once of each kind that is small to send and large to
answer (a 3.99 MB 999x1000 board to check, a 132 KB 40-megapixel PNG to scan,
a 100x100 URL to draw as PNG: 3.97 GB, 2.19 GB and 1.02 GB before), and
``--stalled N`` (default 200) bodies that announce 4 MB, send 1 MB and stall
(965 MB while held, 728 MB after, before). Peak memory is the kernel's
high-water mark (``VmHWM``), so no peak falls between two samples. The studio
is started with a token (``FLOWGRAPH_STUDIO_TOKEN``) that every request carries.

    python bench/fuzz_studio.py --requests 50000          # the long run of docs/reliability.md
    python bench/fuzz_studio.py --requests 2000 --seed 7  # a quick one

Only loopback traffic; the run is bounded by ``--requests`` and ``--seconds``.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' body generator, run from a checkout
from tests.studio.fuzz_bodies import SMALL, body  # noqa: E402

TOKEN = "fuzz-token"
HEAVY_URL = b'{"text": "https://puzz.link/p?numlin/200/200/1zzzz1"}'


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_mb(pid: int, field: str = "VmHWM") -> float:
    """The process's peak (``VmHWM``) or current (``VmRSS``) resident memory, MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _big_bodies() -> dict[str, bytes]:
    """Issue 51's requests: small to send, large to answer."""
    import base64
    import io

    from PIL import Image

    row = " ".join("." * 999)
    board = "STANDARD\n" + "\n\n".join(row for _ in range(1000)) + "\n"  # 3.99 MB, 999,000 cells
    picture = io.BytesIO()
    Image.new("RGB", (8000, 5000)).save(picture, "PNG")  # 40 megapixels in ~130 KB
    return {"/api/check": json.dumps({"text": board}).encode(),
            "/api/scan": json.dumps({"image": base64.b64encode(picture.getvalue()).decode()}).encode(),
            "/api/render": b'{"text": "https://puzz.link/p?numlin/100/100/1zzzz1", "png": true}'}


def _at_once(port: int, requests: list[tuple[str, bytes]]) -> tuple[collections.Counter, float, float]:
    """Send ``requests`` at once, probing ``/api/constants`` every 0.1 s: (statuses, seconds, slowest probe)."""
    codes: collections.Counter[int] = collections.Counter()
    lock = threading.Lock()
    probes: list[float] = []

    def one(path: str, data: bytes) -> None:
        try:
            code = _send(port, "POST", path, data, timeout=300)
        except OSError:
            code = 0
        with lock:
            codes[code] += 1

    senders = [threading.Thread(target=one, args=r) for r in requests]
    t0 = time.monotonic()
    for t in senders:
        t.start()
    while any(t.is_alive() for t in senders):
        p0 = time.monotonic()
        _send(port, "GET", "/api/constants", b"")
        probes.append(time.monotonic() - p0)
        time.sleep(0.1)
    return codes, time.monotonic() - t0, max(probes, default=0.0)


def _stalled(port: int, n: int, server_pid: int) -> tuple[collections.Counter, float, float]:
    """``n`` bodies that announce 4 MB, send 1 MB and stall: (statuses, RSS while held, RSS after they close)."""
    conns, codes = [], collections.Counter()
    head = (f"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: token {TOKEN}\r\n"
            "Content-Type: application/json\r\nContent-Length: 4000000\r\n\r\n").encode()
    for _ in range(n):
        try:
            c = socket.create_connection(("127.0.0.1", port), timeout=30)
            c.sendall(head + b'{"text": "' + b"." * 1_000_000)
            conns.append(c)
        except OSError:
            codes[0] += 1
    time.sleep(1.0)
    held = _rss_mb(server_pid, "VmRSS")
    for c in conns:
        try:
            c.settimeout(30)
            answer = c.recv(64).decode("latin-1")
            codes[int(answer.split()[1]) if answer.startswith("HTTP/") else 0] += 1
        except (OSError, ValueError, IndexError):
            codes[0] += 1
        c.close()
    time.sleep(1.0)
    return codes, held, _rss_mb(server_pid, "VmRSS")


def _send(port: int, method: str, path: str, data: bytes, timeout: float = 60) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=data or None,
                     headers={"Content-Type": "application/json", "Authorization": f"token {TOKEN}"})
        res = conn.getresponse()
        res.read()
        return res.status
    finally:
        conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=3600, help="stop sending after this long")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-wait", type=float, default=2.0, help="slowest probe allowed, seconds")
    parser.add_argument("--max-rss-mb", type=float, default=1024.0)
    parser.add_argument("--heavy", type=int, default=12, help="large-board requests sent at once first (0: none)")
    parser.add_argument("--big", type=int, default=12,
                        help="requests of each kind small to send and large to answer, at once (0: none)")
    parser.add_argument("--stalled", type=int, default=200, help="stalled 4 MB bodies held at once (0: none)")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="flowgraph-fuzz-"))
    board = folder / "board.txt"
    board.write_text(SMALL)
    port = _free_port()
    import os

    server = subprocess.Popen([sys.executable, "-m", "flowgraph", "studio", str(board), "--no-browser",
                               "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              env={**os.environ, "FLOWGRAPH_STUDIO_TOKEN": TOKEN})
    for _ in range(200):
        try:
            _send(port, "GET", "/api/file", b"", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    statuses: collections.Counter[int] = collections.Counter()
    failures: list[str] = []
    probes: list[float] = []
    peak = [0.0]
    lock = threading.Lock()
    sent = [0]
    t_end = time.monotonic() + args.seconds

    def client(k: int) -> None:
        rng = random.Random(f"{args.seed}:{k}")
        while time.monotonic() < t_end:
            with lock:
                if sent[0] >= args.requests:
                    return
                sent[0] += 1
                n = sent[0]
            method, path, data = body(rng)
            try:
                code = _send(port, method, path, data)
            except OSError as exc:
                code = 0
                with lock:
                    failures.append(f"{path}: {type(exc).__name__}: {exc}")
            with lock:
                statuses[code] += 1
                if code == 500:
                    failures.append(f"500 from {path}: {data[:200]!r}")
            if n % 100 == 0:
                t0 = time.monotonic()
                _send(port, "POST", "/api/new", b'{"family": "standard", "width": 3, "height": 3}')
                with lock:
                    probes.append(time.monotonic() - t0)
                    peak[0] = max(peak[0], _rss_mb(server.pid))

    if args.heavy:
        heavy_codes, seconds, slowest = _at_once(port, [("/api/check", HEAVY_URL)] * args.heavy)
        peak[0] = max(peak[0], _rss_mb(server.pid))
        print(f"{args.heavy} large-board checks at once: " + ", ".join(f"{c}: {n}" for c, n in sorted(heavy_codes.items()))
              + f" in {seconds:.1f} s; peak RSS {peak[0]:.0f} MB; slowest probe {slowest:.3f} s")
        probes.append(slowest)
        statuses.update(heavy_codes)

    if args.big:
        for path, data in _big_bodies().items():
            codes, seconds, slowest = _at_once(port, [(path, data)] * args.big)
            peak[0] = max(peak[0], _rss_mb(server.pid))
            print(f"{args.big} x {path} ({len(data):,} bytes) at once: "
                  + ", ".join(f"{c}: {n}" for c, n in sorted(codes.items()))
                  + f" in {seconds:.1f} s; peak RSS so far {peak[0]:.0f} MB; slowest probe {slowest:.3f} s")
            probes.append(slowest)
            statuses.update(codes)

    if args.stalled:
        codes, held, after = _stalled(port, args.stalled, server.pid)
        peak[0] = max(peak[0], _rss_mb(server.pid))
        print(f"{args.stalled} stalled 4 MB bodies: " + ", ".join(f"{c}: {n}" for c, n in sorted(codes.items()))
              + f"; RSS {held:.0f} MB while held, {after:.0f} MB after; peak RSS so far {peak[0]:.0f} MB")
        statuses.update({c: n for c, n in codes.items() if c})  # (a refused connection is no answer)

    t0 = time.monotonic()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    try:
        alive = _send(port, "POST", "/api/check", json.dumps({"text": SMALL}).encode(), timeout=30) == 200
    except OSError:
        alive = False
    peak[0] = max(peak[0], _rss_mb(server.pid))
    server.terminate()
    server.wait(timeout=30)
    print(f"{sum(statuses.values()):,} answers in all, {sum(n for c, n in statuses.items() if c >= 500):,} of them 5xx "
          f"({statuses[500]:,} x 500); the fuzzed {sent[0]:,} requests in {elapsed:.0f} s: "
          + ", ".join(f"{code}: {n:,}" for code, n in sorted(statuses.items())))
    print(f"server peak RSS {peak[0]:.0f} MB; slowest probe {max(probes, default=0):.3f} s "
          f"(median {sorted(probes)[len(probes) // 2] if probes else 0:.3f} s, {len(probes)} probes); "
          f"answers at the end: {alive}")
    for line in failures[:20]:
        print("  " + line)
    bad = (statuses[500] or not alive or peak[0] > args.max_rss_mb or max(probes, default=0) > args.max_wait
           or statuses[0])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
