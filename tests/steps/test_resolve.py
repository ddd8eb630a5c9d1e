from actframes.model import Action, Element, ScreenSize
from actframes.steps.resolve import (
    EXACT,
    HIGH,
    LOW,
    MEDIUM,
    NEAR,
    RECORDED,
    UNRESOLVED,
    hit_test,
    resolve_all,
    resolve_click,
    tolerance,
)

FHD = {"": ScreenSize(1920, 1080), "HDMI-1": ScreenSize(1920, 1080), "DP-1": ScreenSize(3840, 1080)}


def el(
    tree: int,
    ts: int,
    x: int,
    y: int,
    w: int,
    h: int,
    name: str,
    dev: str | None = None,
    win: str | None = "Editor",
) -> Element:
    return Element(tree, ts, dev, win, "button", name, x, y, w, h)


TREE = [el(1, 1000, 0, 0, 400, 300, "panel"), el(1, 1000, 100, 100, 50, 20, "OK")]


def click(
    x: int,
    y: int,
    ts: int = 1000,
    dev: str | None = None,
    name: str | None = None,
    win: str | None = "Editor",
) -> Action:
    return Action(7, ts, "click", "app", win, None, dev, x, y, None, name)


def test_tolerance_scales_x_and_y_separately() -> None:
    assert tolerance(ScreenSize(1920, 1080)) == (8, 8)
    assert tolerance(ScreenSize(3840, 1080)) == (16, 8)
    assert tolerance(ScreenSize(1920, 2160)) == (8, 16)


def test_inside_is_exact_smallest() -> None:
    r = resolve_click(click(120, 110), TREE, FHD)
    assert (r.method, r.confidence, r.element and r.element.name) == (EXACT, HIGH, "OK")


def test_left_top_edge_inside_right_bottom_edge_not() -> None:
    assert hit_test(TREE, 100, 100, FHD[""])[1].name == "OK"  # type: ignore[union-attr]
    assert hit_test(TREE, 149, 119, FHD[""])[1].name == "OK"  # type: ignore[union-attr]
    # x = 150 is the right edge (exclusive): in the panel exactly, not in OK
    assert hit_test(TREE, 150, 110, FHD[""]) == (EXACT, TREE[0])


def test_tolerance_ring_and_outside() -> None:
    only_ok = [TREE[1]]
    assert hit_test(only_ok, 157, 110, FHD[""]) == (NEAR, TREE[1])  # dx = 8
    assert hit_test(only_ok, 158, 110, FHD[""]) == (UNRESOLVED, None)  # dx = 9
    assert hit_test(only_ok, 120, 127, FHD[""]) == (NEAR, TREE[1])  # dy = 8
    # a wide screen widens the ring in x only
    assert hit_test(only_ok, 165, 110, FHD["DP-1"]) == (NEAR, TREE[1])
    assert hit_test(only_ok, 120, 128, FHD["DP-1"]) == (UNRESOLVED, None)
    # no screen size: near cannot be measured
    assert hit_test(only_ok, 151, 110, None) == (UNRESOLVED, None)


def test_confidence_by_method_and_time() -> None:
    tree = [el(1, 1000, 100, 100, 50, 20, "OK")]
    assert resolve_click(click(120, 110, ts=1500), tree, FHD).confidence == HIGH
    assert resolve_click(click(120, 110, ts=4000), tree, FHD).confidence == MEDIUM
    assert resolve_click(click(155, 110, ts=1800), tree, FHD)[:2] == (NEAR, MEDIUM)
    assert resolve_click(click(155, 110, ts=5900), tree, FHD)[:2] == (NEAR, LOW)
    assert resolve_click(click(120, 110, ts=6001), tree, FHD)[:2] == (UNRESOLVED, LOW)


def test_unresolved_never_takes_window_title() -> None:
    acts, how = resolve_all([click(900, 900)], TREE, FHD)
    assert how[7].method == UNRESOLVED
    assert acts[0].element_name is None and acts[0].element_role is None


def test_recorded_name_kept() -> None:
    r = resolve_click(click(900, 900, name="Save"), TREE, FHD)
    assert (r.method, r.confidence) == (RECORDED, HIGH)


def test_two_monitors_use_their_own_trees_and_sizes() -> None:
    trees = [
        el(1, 1000, 100, 100, 50, 20, "left OK", dev="HDMI-1"),
        el(2, 1000, 100, 100, 50, 20, "right OK", dev="DP-1"),
    ]
    assert resolve_click(click(120, 110, dev="DP-1"), trees, FHD).element == trees[1]
    assert resolve_click(click(120, 110, dev="HDMI-1"), trees, FHD).element == trees[0]
    # 12 px right of the box: in DP-1's (3840 wide) ring, outside HDMI-1's
    assert resolve_click(click(161, 110, dev="DP-1"), trees, FHD).method == NEAR
    assert resolve_click(click(161, 110, dev="HDMI-1"), trees, FHD).method == UNRESOLVED


def test_other_window_tree_not_used() -> None:
    r = resolve_click(click(120, 110, win="Other"), TREE, FHD)
    assert r.method == UNRESOLVED


def test_nearest_tree_in_time() -> None:
    trees = [el(1, 0, 100, 100, 50, 20, "old"), el(2, 2000, 100, 100, 50, 20, "new")]
    assert resolve_click(click(120, 110, ts=1200), trees, FHD).element == trees[1]
    assert resolve_click(click(120, 110, ts=1000), trees, FHD).element == trees[0]  # tie: earlier
