"""The evdev counter on recorded ``input_event`` streams in the kernel's binary format
(``struct input_event``: timeval, u16 type, u16 code, s32 value, host order): what a
keyboard and a wheel mouse send for presses, repeats, releases, motion and wheel steps."""

from __future__ import annotations

import os
import time

from hypothesis import given
from hypothesis import strategies as st

from actframes.capture.evdev_input import EVENT, EvdevCounter, open_devices, presses
from actframes.capture.xrecord import CLICK, KEY, SCROLL

EV_SYN, EV_KEY, EV_REL, EV_MSC = 0, 1, 2, 4
SYN_REPORT, MSC_SCAN = 0, 4
REL_X, REL_Y, REL_HWHEEL, REL_WHEEL, REL_WHEEL_HI_RES = 0, 1, 6, 8, 11
KEY_A, KEY_LEFTSHIFT, KEY_ENTER, KEY_VOLUMEUP, KEY_OK = 30, 42, 28, 115, 0x160
BTN_LEFT, BTN_RIGHT, BTN_TOUCH = 0x110, 0x111, 0x14A


def ev(t: int, code: int, value: int, sec: int = 1_796_000_000, usec: int = 0) -> bytes:
    return EVENT.pack(sec, usec, t, code, value)


def syn() -> bytes:
    return ev(EV_SYN, SYN_REPORT, 0)


def keystroke(code: int, repeats: int = 0) -> bytes:
    """A key as a USB keyboard reports it: scan code, press, report, repeats, release."""
    out = ev(EV_MSC, MSC_SCAN, 0x70004) + ev(EV_KEY, code, 1) + syn()
    out += (ev(EV_KEY, code, 2) + syn()) * repeats
    return out + ev(EV_MSC, MSC_SCAN, 0x70004) + ev(EV_KEY, code, 0) + syn()


def click(button: int) -> bytes:
    return ev(EV_KEY, button, 1) + syn() + ev(EV_KEY, button, 0) + syn()


def wheel(steps: int, code: int = REL_WHEEL) -> bytes:
    # Hi-res wheels send the hi-res event beside the classic one: only the classic counts.
    return ev(EV_REL, code, steps) + ev(EV_REL, REL_WHEEL_HI_RES, 120 * steps) + syn()


def motion(dx: int, dy: int) -> bytes:
    return ev(EV_REL, REL_X, dx) + ev(EV_REL, REL_Y, dy) + syn()


def kinds(data: bytes) -> dict[str, int]:
    out = {KEY: 0, CLICK: 0, SCROLL: 0}
    for p in presses(data, 5):
        assert p.ts_ms == 5 and p.x is None and p.y is None
        out[p.kind] += 1
    return out


def test_keyboard_and_mouse_stream() -> None:
    stream = (
        keystroke(KEY_LEFTSHIFT)
        + keystroke(KEY_A, repeats=12)  # a held key is one press, not thirteen
        + keystroke(KEY_ENTER)
        + keystroke(KEY_VOLUMEUP)
        + keystroke(KEY_OK)
        + motion(3, -2) * 20
        + click(BTN_LEFT)
        + click(BTN_RIGHT)
        + ev(EV_KEY, BTN_TOUCH, 1) + syn()  # a touchpad touch is no click
        + wheel(1) + wheel(-3) + wheel(2, REL_HWHEEL)
    )  # fmt: skip
    assert kinds(stream) == {KEY: 5, CLICK: 2, SCROLL: 6}


def test_motion_and_releases_alone_are_no_presses() -> None:
    stream = motion(1, 1) * 50 + ev(EV_KEY, KEY_A, 0) + ev(EV_KEY, BTN_LEFT, 0) + syn()
    assert presses(stream, 0) == []


def test_a_trailing_part_record_is_ignored() -> None:
    whole = keystroke(KEY_A)
    assert kinds(whole + ev(EV_KEY, KEY_A, 1)[:10]) == {KEY: 1, CLICK: 0, SCROLL: 0}


_keyboard_codes = st.integers(1, 0xFF) | st.integers(0x160, 0x2FF)


@given(st.lists(st.tuples(_keyboard_codes, st.integers(0, 2)), max_size=60), st.data())
def test_key_identities_never_change_the_counts(
    keys: list[tuple[int, int]], data: st.DataObject
) -> None:
    """Only *that* a key was pressed is kept: any other key codes give the same presses,
    and the count is the number of presses (value 1)."""
    other = [(data.draw(_keyboard_codes), value) for _, value in keys]
    a = b"".join(ev(EV_KEY, code, value) for code, value in keys)
    b = b"".join(ev(EV_KEY, code, value) for code, value in other)
    assert presses(a, 7) == presses(b, 7)
    assert len(presses(a, 7)) == sum(1 for _, value in keys if value == 1)


def test_the_counter_reads_a_stream_through_its_thread() -> None:
    """A recorded stream written through a pipe in uneven pieces (a record split between
    writes), counted by the counter's own reading thread, which also wakes the loop."""
    r, w = os.pipe()
    wake_r, wake_w = os.pipe()
    clock_ms = [1_000]
    counter = EvdevCounter([r], lambda: clock_ms[0], wake_fd=wake_w)
    counter.start()
    try:
        stream = keystroke(KEY_A) * 4 + click(BTN_LEFT) + wheel(2) + motion(5, 5)
        for i in range(0, len(stream), 37):  # 37: not a multiple of a record's size
            os.write(w, stream[i : i + 37])
            time.sleep(0.005)
        deadline = time.monotonic() + 5
        got: list[str] = []
        while time.monotonic() < deadline and len(got) < 7:
            got += [p.kind for p in counter.drain()]
            time.sleep(0.01)
        assert sorted(got) == sorted([KEY] * 4 + [CLICK] + [SCROLL] * 2)
        assert os.read(wake_r, 16)  # the first press woke the loop
        assert counter.last_input_ms == 1_000 and counter.failed is None
        os.close(w)  # the end of the stream is like an unplugged device: not a failure
        time.sleep(0.05)
        assert counter.alive()
    finally:
        counter.stop()
        os.close(wake_r)
        os.close(wake_w)


def test_no_devices_is_said_not_guessed(tmp_path: object) -> None:
    fds, note = open_devices({"ACTFRAMES_INPUT_DEVICES": "/nonexistent/event0"})
    assert fds == [] and "/nonexistent/event0" in note
