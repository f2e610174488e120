"""One real Burrow server for the test session, started as users start it: `npm start` in the
repository (the built server, dist/, on the embedded database) in its own process group, with a
temporary data directory and a free port. Its first start prints an operator token, which the
tests use to create everything else. Stopped with SIGTERM to the group, as Ctrl-C would."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator, NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[3]


class Server(NamedTuple):
    url: str
    token: str


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    data_dir = tempfile.mkdtemp(prefix="burrow-python-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("BURROW_") and k != "DATABASE_URL"}
    env.update(
        BURROW_POSTGRES_LIFECYCLE="embedded",
        BURROW_DATA_DIR=data_dir,
        BURROW_PORT="0",
        BURROW_LOG_LEVEL="error",
        BURROW_GRAPHIQL="false",
        BURROW_TIDDLE_SCHEDULER="false",
        BURROW_RETENTION_INTERVAL_SECONDS="0",
        # Agent tokens may run only the generated documents, by hash: what the client sends.
        BURROW_TRUSTED_DOCUMENTS="agents",
        # Small enough that test_rate_limited reaches it with one token; each other token stays well below.
        BURROW_RATE_LIMIT_BURST="60",
        BURROW_RATE_LIMIT_PER_SECOND="2",
    )
    process = subprocess.Popen(
        ["npm", "start"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    banner: list[str] = []
    found = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            banner.append(line)
            if "operator token" in line:
                found.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        deadline = time.monotonic() + 180
        while not found.wait(0.2):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("npm start did not start:\n" + "".join(banner))
        text = "".join(banner)
        port = re.search(r"http://127\.0\.0\.1:(\d+)/graphql", text)
        token = re.search(r"operator token \(first start .*\): (brw_\S+)", text)
        assert port and token, text
        yield Server(url=f"http://127.0.0.1:{port.group(1)}/graphql", token=token.group(1))
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(30)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
        shutil.rmtree(data_dir, ignore_errors=True)
