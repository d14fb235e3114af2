"""Run the preview server in its own process and look at it with Debian's headless Chromium.

A test helper, not part of the product: used by the browser tests and by ``bench/serve.py``. Selenium is given the
system's ``chromedriver`` and ``chromium`` by path, so nothing is downloaded;
Chromium runs with background networking off and a fresh profile.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMIUM = Path(os.environ.get("CARDWORKS_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CARDWORKS_CHROMEDRIVER", "/usr/bin/chromedriver"))
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1280,900"]


def free_port() -> int:
    """A TCP port nothing listens on now (the server binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def server(cards_root: Path, *args: str, timeout: float = 60.0) -> Iterator[str]:
    """``cardworks --cards CARDS_ROOT serve ARGS --port P`` in a child process; yields its base URL."""
    port = free_port()
    command = [sys.executable, "-c", "from cardworks.cli.main import main; main()",
               "--cards", str(cards_root), "serve", *args, "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"cardworks serve exited with {process.returncode}: {process.stdout.read()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            if time.monotonic() > deadline:
                raise RuntimeError("cardworks serve did not start listening in time")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


@contextlib.contextmanager
def chromium(profile: Path) -> Iterator[Any]:
    """A Selenium driver of headless Chromium with a fresh profile in ``profile``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in [*CHROMIUM_FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()

