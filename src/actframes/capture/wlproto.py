"""Python bindings for the Wayland protocols the recorder speaks, made from their XML.

pywayland ships bindings for the core protocol and for ``wayland-protocols`` (among them
``ext-idle-notify-v1``), but not for wlroots' ``wlr-foreign-toplevel-management-unstable-v1``
(the list of windows with their app id, title and "activated" state) nor for KDE's older
idle protocol (``org_kde_kwin_idle``, the only idle protocol of sway 1.7). Their bindings
are generated here with pywayland's own scanner when the recorder starts: the wlroots XML
ships with actframes (its licence allows it, the notice is in the file); KDE's, which is
LGPL, is read from the system's ``plasma-wayland-protocols`` package when installed.

The generated modules live in memory under the package name ``actframes_wlproto``; their
references to core interfaces resolve to pywayland's own classes, so objects bound from
either mix freely.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE = "actframes_wlproto"
HERE = Path(__file__).resolve().parent
WLR_TOPLEVEL_XML = HERE / "protocols" / "wlr-foreign-toplevel-management-unstable-v1.xml"
# Where distributions put plasma-wayland-protocols' XML files.
KDE_IDLE_XML_PLACES = (
    Path("/usr/share/plasma-wayland-protocols/idle.xml"),
    Path("/usr/local/share/plasma-wayland-protocols/idle.xml"),
)
_CORE_INTERFACES = ("wl_output", "wl_seat", "wl_surface")


@dataclass(frozen=True)
class Bindings:
    toplevel_manager: Any  # ZwlrForeignToplevelManagerV1
    ext_idle_notifier: Any  # ExtIdleNotifierV1
    kde_idle: Any | None  # OrgKdeKwinIdle, when the system has its XML
    seat: Any  # WlSeat


_cached: Bindings | None = None


def kde_idle_xml() -> Path | None:
    return next((p for p in KDE_IDLE_XML_PLACES if p.is_file()), None)


def load() -> Bindings:
    """The bindings (generated once per process). Raises ImportError without pywayland."""
    global _cached
    if _cached is not None:
        return _cached
    from pywayland.protocol.ext_idle_notify_v1 import ExtIdleNotifierV1
    from pywayland.protocol.wayland import WlSeat

    xmls = [WLR_TOPLEVEL_XML]
    kde = kde_idle_xml()
    if kde is not None:
        xmls.append(kde)
    modules = _generate(xmls)
    toplevel = modules["wlr_foreign_toplevel_management_unstable_v1"]
    kde_idle = modules["idle"].OrgKdeKwinIdle if "idle" in modules else None
    _cached = Bindings(toplevel.ZwlrForeignToplevelManagerV1, ExtIdleNotifierV1, kde_idle, WlSeat)
    return _cached


def _generate(xmls: list[Path]) -> dict[str, ModuleType]:
    from pywayland.scanner.protocol import Protocol

    protocols = [Protocol.parse_file(str(x)) for x in xmls]
    imports = {i.name: p.name for p in protocols for i in p.interface}
    imports.update({name: "wayland" for name in _CORE_INTERFACES})
    out: dict[str, ModuleType] = {}
    with tempfile.TemporaryDirectory(prefix="actframes-wl-") as tmp:
        folder = Path(tmp)
        (folder / "__init__.py").write_text("")
        # The generated code imports core interfaces from a sibling "wayland" module:
        # pywayland's own, so there is one class per interface in the process.
        (folder / "wayland.py").write_text("from pywayland.protocol.wayland import *  # noqa\n")
        for protocol in protocols:
            protocol.output(str(folder), imports)
        package = _import_package(folder)
        for protocol in protocols:
            name = protocol.name.replace("-", "_")
            out[name] = importlib.import_module(f"{package.__name__}.{name}")
    return out


def _import_package(folder: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        PACKAGE, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = module
    spec.loader.exec_module(module)
    return module
