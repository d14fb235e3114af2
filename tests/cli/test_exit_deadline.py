"""An interrupted command ends within ``cli.main.EXIT_GRACE_S`` even when a worker process or a thread would hold
its exit (the hostile corpus once saw a Ctrl-C'd ``build --jobs 2`` print its line and not end in 30 s)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

HELD = textwrap.dedent("""
    import multiprocessing, signal, threading, time
    from cardworks.cli.main import exit_within

    def stuck():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        time.sleep(600)

    if __name__ == "__main__":
        child = multiprocessing.get_context("fork").Process(target=stuck)  # joined at exit: never returns
        child.start()
        print(child.pid, flush=True)
        threading.Thread(target=time.sleep, args=(600,)).start()  # joined at exit too
        if {deadline}:
            exit_within(1.0, 130)
""")


def _run(deadline: bool, wait: float) -> tuple[int | None, int, float]:
    process = subprocess.Popen([sys.executable, "-c", HELD.format(deadline=deadline)], stdout=subprocess.PIPE,
                               text=True)
    child = int(process.stdout.readline())
    start = time.monotonic()
    try:
        code = process.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        code = None
        process.kill()
        process.wait()
        subprocess.run(["kill", "-9", str(child)], check=False)
    return code, child, time.monotonic() - start


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_held_exit_ends_at_the_deadline_and_leaves_no_child() -> None:
    code, child, seconds = _run(deadline=True, wait=20)
    assert code == 130 and seconds < 15
    time.sleep(0.5)
    assert not _alive(child)


def test_without_the_deadline_the_same_exit_is_held() -> None:
    """The case above is a real hang: without ``exit_within`` the process has not ended 5 s on (the deadline
    ends it after 1 s)."""
    code, _, _ = _run(deadline=False, wait=5)
    assert code is None
