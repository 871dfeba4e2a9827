"""Which program searches KataGo's network: Reviewer's own search by default on a machine without
a GPU (a network its reader knows), KataGo's process with a GPU or another network, and
REVIEWER_KATAGO_NETWORK deciding when it says "process" or "search"; the two engines' identities
and cache keys stay apart either way."""

from __future__ import annotations

import logging

import pytest
from test_katago_net_model import _write, _Writer

from reviewer.core.analysis import Limit
from reviewer.core.engines import registry
from reviewer.core.engines.discovery import EngineInfo
from reviewer.core.engines.katago_net import network_path as paths
from reviewer.core.engines.katago_net.model import model_problem
from reviewer.core.engines.katago_net.network_path import choose_path, gpu_present
from reviewer.core.engines.katago_search import KataGoNetworkSearch

POCL = ["libpocl.so.2.10.0"]
NVIDIA_OPENCL = ["libnvidia-opencl.so.1"]
INTEL_GPU_OPENCL = ["/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so"]
INTEL, VIRTIO = ["0x8086"], ["0x1af4"]


# -- "no GPU", from the device files ---------------------------------------------------------------


def test_a_machine_with_only_pocl_and_no_gpu_device_has_no_gpu():
    assert not gpu_present("Linux", ["null", "tty0", "dri"], POCL, [])
    assert not gpu_present("Linux", [], [], [])  # no OpenCL at all: KataGo's OpenCL finds nothing better


def test_an_nvidia_device_is_a_gpu_whatever_the_opencl_drivers():
    assert gpu_present("Linux", ["null", "nvidiactl", "nvidia0"], POCL, [])
    assert gpu_present("Linux", ["nvidia1"], [], [])
    assert not gpu_present("Linux", ["nvidiactl", "nvidia-modeset"], POCL, [])  # no card behind the control files


def test_a_gpu_render_node_counts_only_with_an_opencl_driver_for_it():
    assert gpu_present("Linux", ["dri"], [*POCL, *INTEL_GPU_OPENCL], INTEL)
    assert not gpu_present("Linux", ["dri"], POCL, INTEL)  # the Intel GPU, but KataGo's OpenCL only finds PoCL
    assert not gpu_present("Linux", ["dri"], ["libintelocl.so"], INTEL)  # Intel's CPU runtime is no GPU
    assert not gpu_present("Linux", ["dri"], NVIDIA_OPENCL, [])  # a driver without its device (a container)
    assert not gpu_present("Linux", ["dri"], ["libMesaOpenCL.so.1"], VIRTIO)  # a virtual display


def test_elsewhere_than_linux_a_gpu_is_taken_to_be_there():
    assert gpu_present("Darwin", [], [], [])
    assert gpu_present("Windows", [], [], [])


def test_this_machines_answer_is_read_from_its_files(monkeypatch, tmp_path):
    vendors = tmp_path / "vendors"
    vendors.mkdir()
    (vendors / "pocl.icd").write_text("libpocl.so.2\n")
    devices = tmp_path / "dev"
    devices.mkdir()
    monkeypatch.setattr(paths, "OPENCL_VENDORS_DIR", vendors)
    monkeypatch.setattr(paths, "DEVICES_DIR", devices)
    monkeypatch.setattr(paths, "DRM_CLASS_DIR", tmp_path / "drm")
    monkeypatch.setattr(paths.platform, "system", lambda: "Linux")
    paths.machine_has_gpu.cache_clear()
    try:
        assert not paths.machine_has_gpu()
        (devices / "nvidia0").touch()
        paths.machine_has_gpu.cache_clear()
        assert paths.machine_has_gpu()
    finally:
        paths.machine_has_gpu.cache_clear()


# -- the choice ----------------------------------------------------------------------------------


def test_without_a_gpu_the_search_is_the_default_and_with_one_katagos_process():
    assert choose_path("", gpu=False, model_problem=None) == "search"
    assert choose_path("", gpu=True, model_problem=None) == "process"


def test_the_environment_forces_either_program():
    assert choose_path("process", gpu=False, model_problem=None) == "process"
    assert choose_path("search", gpu=True, model_problem=None) == "search"
    # naming the library of KataGo's first visits keeps KataGo's process
    assert choose_path("numpy", gpu=False, model_problem=None) == "process"
    assert choose_path("onnxruntime", gpu=False, model_problem=None) == "process"


def test_a_network_the_reader_does_not_know_is_left_to_katago():
    assert choose_path("", gpu=False, model_problem="b10c384 is a version 15 network") == "process"


@pytest.fixture
def no_gpu(monkeypatch):
    monkeypatch.delenv("REVIEWER_KATAGO_NETWORK", raising=False)
    monkeypatch.setattr(paths, "machine_has_gpu", lambda: False)


def test_the_models_header_alone_tells_whether_the_reader_knows_it(tmp_path):
    assert model_problem(_write(tmp_path / "v8.bin.gz", _Writer().network())) is None
    assert "version 15" in (model_problem(_write(tmp_path / "v15.bin.gz", _Writer().network(version=15))) or "")
    assert model_problem(tmp_path / "missing.bin.gz") is not None
    (tmp_path / "plain.txt").write_text("not a network")
    assert model_problem(tmp_path / "plain.txt") is not None


def test_on_this_machine_without_a_gpu_a_known_network_goes_to_the_search(no_gpu, tmp_path):
    assert paths.network_path(str(_write(tmp_path / "v8.bin.gz", _Writer().network()))) == "search"
    assert paths.network_path(None) == "process"  # KataGo's own config names its network


def test_an_unknown_network_falls_back_to_katagos_process_with_a_line_in_the_log(no_gpu, tmp_path, caplog):
    newer = str(_write(tmp_path / "v15.bin.gz", _Writer().network(version=15)))
    with caplog.at_level(logging.INFO, logger=paths.__name__):
        assert paths.network_path(newer) == "process"
        assert paths.network_path(newer) == "process"
    said = [record.getMessage() for record in caplog.records if "version 15" in record.getMessage()]
    assert len(said) == 1 and "KataGo's process" in said[0]  # said once, not on every engine opened


def test_with_a_gpu_katagos_process_searches_even_a_known_network(monkeypatch, tmp_path):
    monkeypatch.delenv("REVIEWER_KATAGO_NETWORK", raising=False)
    monkeypatch.setattr(paths, "machine_has_gpu", lambda: True)
    assert paths.network_path(str(_write(tmp_path / "v8.bin.gz", _Writer().network()))) == "process"


# -- the engine opened, its fingerprint, what the engine manager shows ----------------------------------


def _katago_command(tmp_path, version: int = 8) -> list[str]:
    program = tmp_path / "katago"
    program.write_text("#!/bin/sh\nexit 1\n")  # never started: the search needs only its network
    model = _write(tmp_path / f"v{version}.bin.gz", _Writer().network(version=version))
    return [str(program), "analysis", "-model", str(model)]


def test_the_registry_opens_the_search_by_default_without_starting_katago(no_gpu, tmp_path):
    engine = registry.open_engine("go", command=_katago_command(tmp_path))
    try:
        assert isinstance(engine, KataGoNetworkSearch)
        assert engine.identity.startswith("Reviewer search ") and engine.engine_id(Limit(visits=32)).startswith("Reviewer")
    finally:
        engine.close()


def test_the_default_search_has_a_fingerprint_of_its_own(no_gpu, tmp_path, monkeypatch):
    command = _katago_command(tmp_path)
    by_default = registry.engine_fingerprint("go", command=command)
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "search")
    assert registry.engine_fingerprint("go", command=command) == by_default  # the same engine
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "process")
    by_katago = registry.engine_fingerprint("go", command=command)
    assert by_katago is not None and by_default is not None and by_katago != by_default


def test_katagos_fingerprint_is_its_own_where_katago_searches_by_default(no_gpu, tmp_path, monkeypatch):
    command = _katago_command(tmp_path, version=15)  # a network only KataGo reads
    by_default = registry.engine_fingerprint("go", command=command)
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "process")
    assert registry.engine_fingerprint("go", command=command) == by_default


def test_the_engine_listing_says_which_program_searches(no_gpu, tmp_path, monkeypatch):
    command = tuple(_katago_command(tmp_path))
    found = EngineInfo("katago", "go", "katago", command, "1.18.1", "ok", "installed")
    (tmp_path / "newer").mkdir()
    newer = EngineInfo("katago-new", "go", "katago", tuple(_katago_command(tmp_path / "newer", 15)), "1.18.1", "ok")
    broken = EngineInfo("katago-old", "go", "katago", command, None, "broken", "does not run")
    listed = {engine.name: engine for engine in registry.engines_as_run([found, newer, broken])}
    assert listed["katago"].searched_in_process and "Reviewer's own search" in listed["katago"].detail
    assert not listed["katago-new"].searched_in_process and not listed["katago-old"].searched_in_process
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "process")
    assert not any(engine.searched_in_process for engine in registry.engines_as_run([found, newer]))
