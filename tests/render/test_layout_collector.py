"""The cycle collector paused during a layout (cardworks.collector): back on after it, the layout's cycles
collected once it ends, a caller's choice to keep it off respected, and layouts on several threads at once."""

from __future__ import annotations

import gc
import threading
import weakref

from cardworks.collector import collected_after


class Node:
    """An object in a reference cycle: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_paused_inside_and_cycles_collected_after() -> None:
    assert gc.isenabled()
    with collected_after():
        assert not gc.isenabled()
        node = Node()
        gone = weakref.ref(node)
        del node
        assert gone() is not None  # a cycle: not freed while paused
    assert gc.isenabled()
    assert gone() is None  # the pass after the layout freed it


def test_a_caller_that_turned_it_off_keeps_it_off() -> None:
    gc.disable()
    try:
        with collected_after():
            node = Node()
            gone = weakref.ref(node)
            del node
        assert not gc.isenabled()
        assert gone() is not None  # no pass: the caller said none
    finally:
        gc.enable()
        gc.collect()


def test_on_again_only_when_the_last_of_several_threads_ends() -> None:
    first_in, second_out, states = threading.Event(), threading.Event(), []

    def first() -> None:
        with collected_after():
            first_in.set()
            second_out.wait(10)
            states.append(("first, after the second ended", gc.isenabled()))

    def second() -> None:
        first_in.wait(10)
        with collected_after():
            pass
        states.append(("second ended, first still running", gc.isenabled()))
        second_out.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert sorted(states) == [("first, after the second ended", False), ("second ended, first still running", False)]
    assert gc.isenabled()


def test_an_error_inside_still_turns_it_back_on() -> None:
    try:
        with collected_after():
            raise ValueError("layout failed")
    except ValueError:
        pass
    assert gc.isenabled()
