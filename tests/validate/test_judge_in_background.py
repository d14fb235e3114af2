"""Languages judged on a thread of their own never keep a stopped command alive."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardworks.validate.check_language import in_background


def test_the_answer_and_the_failure_come_back() -> None:
    assert in_background(sum, [1, 2, 3]).result(timeout=10) == 6
    with pytest.raises(ZeroDivisionError):
        in_background(lambda: 1 / 0).result(timeout=10)


def test_an_interrupted_command_does_not_wait_for_the_judging() -> None:
    """A thread pool's worker is joined at exit: this process would live the whole 600 s of its judging."""
    probe = ("import time\nfrom cardworks.validate.check_language import in_background\n"
             "in_background(time.sleep, 600)\nraise KeyboardInterrupt")
    ended = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert ended.returncode != 0 and "KeyboardInterrupt" in ended.stderr
