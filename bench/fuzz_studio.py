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
them took 2.2 GB and made a probe wait 10.5 s. The studio is started with a
token (``FLOWGRAPH_STUDIO_TOKEN``) that every request carries.

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


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


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
        heavy_codes: collections.Counter[int] = collections.Counter()
        heavy_probes: list[float] = []

        def large() -> None:
            try:
                code = _send(port, "POST", "/api/check", HEAVY_URL, timeout=300)
            except OSError:
                code = 0
            with lock:
                heavy_codes[code] += 1

        senders = [threading.Thread(target=large) for _ in range(args.heavy)]
        t0 = time.monotonic()
        for t in senders:
            t.start()
        while any(t.is_alive() for t in senders):
            p0 = time.monotonic()
            _send(port, "GET", "/api/constants", b"")
            heavy_probes.append(time.monotonic() - p0)
            peak[0] = max(peak[0], _rss_mb(server.pid))
            time.sleep(0.1)
        print(f"{args.heavy} large-board checks at once: " + ", ".join(f"{c}: {n}" for c, n in sorted(heavy_codes.items()))
              + f" in {time.monotonic() - t0:.1f} s; peak RSS {peak[0]:.0f} MB; slowest probe "
              f"{max(heavy_probes, default=0):.3f} s ({len(heavy_probes)} probes)")
        probes.extend(heavy_probes)
        statuses.update(heavy_codes)

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
    print(f"{sum(statuses.values()):,} requests in {elapsed:.0f} s: "
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
