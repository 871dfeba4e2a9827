"""Which program searches KataGo's network: KataGo's own process, or Reviewer's search in-process.

Without a GPU, KataGo's OpenCL build runs its network on the CPU through PoCL, several times slower
than Reviewer's own evaluation of the same network (docs/benchmarks.md), so there Reviewer's search
(`katago_search`) is the default; with a GPU, KataGo's process (its first visits still computed
in-process: `katago._network_evaluator`). REVIEWER_KATAGO_NETWORK (`runtime.wanted_path`) decides
instead when it is "process" or "search" ("numpy" and "onnxruntime" name the library of KataGo's
first visits, with KataGo's process). A network the in-process reader does not know (`model.py`)
is searched by KataGo's process whatever the machine.

"No GPU" is read from the device files alone, without starting anything: a GPU KataGo can use is an
NVIDIA device (/dev/nvidia0..., the CUDA and OpenCL builds both reach it), or an OpenCL driver other
than a CPU one (PoCL, Intel's CPU runtime) together with a GPU render node (/dev/dri/renderD* of a
GPU vendor). Elsewhere than Linux (macOS's Metal, Windows' drivers) a GPU is taken to be there.
"""

from __future__ import annotations

import functools
import logging
import os
import platform
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from reviewer.core.engines.katago_net.model import model_problem
from reviewer.core.engines.katago_net.runtime import wanted_path

__all__ = ["NetworkPath", "choose_path", "gpu_present", "machine_has_gpu", "network_path"]

log = logging.getLogger(__name__)

NetworkPath = Literal["search", "process"]

# PCI vendors of the GPUs an OpenCL driver drives (NVIDIA, AMD, Intel, Qualcomm's Adreno, ARM's
# Mali, Imagination); a render node of another vendor (virtio, a display-only chip) is no GPU here.
GPU_VENDORS = frozenset({"0x10de", "0x1002", "0x1022", "0x8086", "0x5143", "0x13b5", "0x1010"})
# OpenCL drivers that run on the CPU: KataGo's OpenCL through them is the slow path.
CPU_OPENCL_DRIVERS = ("pocl", "intelocl")

OPENCL_VENDORS_DIR = Path("/etc/OpenCL/vendors")
DEVICES_DIR = Path("/dev")
DRM_CLASS_DIR = Path("/sys/class/drm")


def gpu_present(system: str, device_names: Iterable[str], opencl_drivers: Iterable[str], render_vendors: Iterable[str]) -> bool:
    """Whether KataGo would find a GPU, from what the machine shows without running anything.

    `system`: platform.system(); `device_names`: the names in /dev; `opencl_drivers`: the libraries
    the OpenCL loader's files (/etc/OpenCL/vendors/*.icd) name; `render_vendors`: the PCI vendor
    ("0x10de") of each /dev/dri render node."""
    if system != "Linux":
        return True
    if any(name.startswith("nvidia") and name[len("nvidia"):].isdigit() for name in device_names):
        return True
    gpu_driver = any(
        driver.strip() and not any(cpu in Path(driver.strip()).name.lower() for cpu in CPU_OPENCL_DRIVERS)
        for driver in opencl_drivers
    )
    return gpu_driver and any(vendor.strip().lower() in GPU_VENDORS for vendor in render_vendors)


def choose_path(wanted: str, gpu: bool, model_problem: str | None) -> NetworkPath:
    """The program that searches: `wanted` is REVIEWER_KATAGO_NETWORK ("process" and "search"
    decide; anything else leaves it to the machine), `gpu` whether KataGo would find one,
    `model_problem` why the in-process reader cannot read the network (None: it can)."""
    if wanted == "search":
        return "search"
    if wanted in ("process", "numpy", "onnxruntime") or gpu or model_problem is not None:
        return "process"
    return "search"


def _read_lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


@functools.cache
def machine_has_gpu() -> bool:
    """`gpu_present` for this machine (read once per process)."""
    try:
        devices = os.listdir(DEVICES_DIR)
    except OSError:
        devices = []
    drivers = [line for icd in sorted(OPENCL_VENDORS_DIR.glob("*.icd")) for line in _read_lines(icd)]
    vendors = [line for node in sorted(DRM_CLASS_DIR.glob("renderD*")) for line in _read_lines(node / "device" / "vendor")]
    return gpu_present(platform.system(), devices, drivers, vendors)


_told: set[tuple[str, str]] = set()


def network_path(model: str | None) -> NetworkPath:
    """The program that searches the network in the file `model` (a KataGo command's `-model`) on
    this machine; a network that only KataGo reads is said once in the log."""
    wanted = wanted_path()
    if wanted in ("search", "process", "numpy", "onnxruntime"):
        return choose_path(wanted, False, None)
    if machine_has_gpu():
        return "process"
    problem = "the KataGo command names no -model" if model is None else model_problem(model)
    path = choose_path(wanted, False, problem)
    if problem is not None and (str(model), problem) not in _told:
        _told.add((str(model), problem))
        log.info("KataGo's process searches %s: Reviewer's own search cannot read it (%s)", model or "its network", problem)
    return path
