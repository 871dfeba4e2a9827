"""Installing engines: Stockfish from Debian, KataGo and its models from KaTrain's wheels.

KataGo (a Linux AppImage) and a recent b10 model come from the `katrain==1.20.0` wheel; the
older, smaller g170e-b15c192 model, four times faster on a CPU, from `katrain==1.10.1`. Both are
fetched with `pip download --no-deps` (or taken from $REVIEWER_WHEEL_DIR when it holds them),
and only the binary, its libraries and the models are unpacked into
`<engines dir>/katago/`. A small analysis config is written there, and the OpenCL tuning files
from `resources/katago/opencltuning/` go to `~/.katago/opencltuning/` under the name KataGo asks
for on this machine, so KataGo never starts its own (very long, on a CPU) tuning.

A stamp file (`installed.json`) makes a second run quick and offline. Nothing here asks
questions; every step reports what it does through `progress` and ends in a `StepResult`.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reviewer.core import paths
from reviewer.core.atomic import write_text_atomic
from reviewer.resources import resource_path

__all__ = [
    "InstalledKataGo",
    "StepResult",
    "install_all",
    "install_katago",
    "install_opencl_runtime",
    "install_stockfish",
    "install_tuning_files",
    "installed_katago",
    "katago_home",
    "probe_katago",
    "stockfish_path",
]

Progress = Callable[[str], None]

STAMP_NAME = "installed.json"
STAMP_FORMAT = 1
KATRAIN_NEW = ("katrain", "1.20.0")
KATRAIN_OLD = ("katrain", "1.10.1")
APPIMAGE_IN_WHEEL = "katrain/KataGo/katago"
MODEL_B10 = "katrain/models/b10c384h6nbttflrs.bin.gz"
MODEL_G170 = "katrain/models/g170e-b15c192-s1672170752-d466197061.bin.gz"
DOWNLOAD_TIMEOUT_S = 900
PROBE_TIMEOUT_S = 90.0
TUNING_NAME = re.compile(r"(tune\d+_gpu)([A-Za-z0-9]*)(_x\d+_y\d+_[A-Za-z0-9_]+\.txt)")
# KataGo's words when it has no tuning file: "No existing tuning parameters found or parseable or
# valid at: PATH" (1.18), "File does not already exist or unable to parse parameters in: PATH" (older).
MISSING_TUNING = re.compile(r"(?:valid at|parameters in):\s*(\S+\.txt)")
LOADED_TUNING = re.compile(r"Loaded tuning parameters from:\s*(\S+\.txt)")
STARTED = "Started, ready to begin handling requests"


def _quiet(message: str) -> None:
    pass


@dataclass
class StepResult:
    """What one install step achieved; `ok` means the engine is usable afterwards."""

    name: str
    ok: bool
    message: str
    warnings: list[str] = field(default_factory=list)


# -- Stockfish ---------------------------------------------------------------------------------------


def stockfish_path() -> Path | None:
    found = shutil.which("stockfish")
    if found:
        return Path(found)
    for candidate in (Path("/usr/games/stockfish"), Path("/usr/local/bin/stockfish")):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _apt_install(packages: Sequence[str], progress: Progress) -> bool:
    """apt-get install, non-interactive; one `apt-get update` and a retry when the first try fails."""
    if not _is_root() or not shutil.which("apt-get"):
        return False
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    command = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    progress(f"apt-get install {' '.join(packages)}")
    for attempt in range(2):
        try:
            done = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=900)
        except (OSError, subprocess.TimeoutExpired):
            return False
        if done.returncode == 0:
            return True
        if attempt == 0:
            progress("apt-get update")
            try:
                subprocess.run(["apt-get", "update", "-q"], env=env, stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=900)
            except (OSError, subprocess.TimeoutExpired):
                return False
    return False


def install_stockfish(progress: Progress = _quiet) -> StepResult:
    found = stockfish_path()
    if found:
        return StepResult("stockfish", True, f"Stockfish is installed: {found}")
    if _apt_install(["stockfish"], progress) and stockfish_path():
        return StepResult("stockfish", True, f"Stockfish installed: {stockfish_path()}")
    hint = "install it as root: apt-get install stockfish" if shutil.which("apt-get") else (
        "install Stockfish from https://stockfishchess.org and put it on PATH"
    )
    return StepResult("stockfish", False, f"Stockfish is not installed; {hint}")


# -- OpenCL runtime ------------------------------------------------------------------------------------


def gpu_device_present() -> bool:
    """A GPU device node (NVIDIA, AMD, or a render node) exists."""
    dev = Path("/dev")
    return any(dev.glob("nvidia[0-9]*")) or (dev / "kfd").exists() or any(dev.glob("dri/renderD*"))


def opencl_icds() -> list[str]:
    vendors = Path("/etc/OpenCL/vendors")
    return sorted(p.name for p in vendors.glob("*.icd")) if vendors.is_dir() else []


def install_opencl_runtime(progress: Progress = _quiet) -> StepResult:
    """KataGo's binary is built for OpenCL: without a GPU it runs on the CPU through PoCL."""
    if sys.platform != "linux":
        return StepResult("opencl", True, "OpenCL: left to the system")
    icds = opencl_icds()
    if icds:
        return StepResult("opencl", True, f"OpenCL runtime present ({', '.join(icds)})")
    if gpu_device_present():
        return StepResult("opencl", False, "a GPU is present but no OpenCL driver: install your GPU's OpenCL ICD")
    if _apt_install(["pocl-opencl-icd"], progress) and opencl_icds():
        return StepResult("opencl", True, "installed pocl-opencl-icd (OpenCL on the CPU)")
    return StepResult("opencl", False, "no OpenCL runtime: install it as root: apt-get install pocl-opencl-icd")


# -- KataGo -------------------------------------------------------------------------------------------


def katago_home() -> Path:
    return paths.engines_dir() / "katago"


@dataclass(frozen=True)
class InstalledKataGo:
    """KataGo as `install_katago` left it (read back from the stamp)."""

    home: Path
    version: str
    models: dict[str, str]  # model name -> path relative to home
    default_model: str
    tuning_files: tuple[str, ...]  # absolute paths installed for KataGo's OpenCL tuner
    tuning_status: str  # "ok", "needs-tuning" (KataGo would tune OpenCL first), "broken" (did not start)
    device: str = ""
    problem: str = ""  # why KataGo did not start in the check

    @property
    def launcher(self) -> Path:
        return self.home / "katago"

    @property
    def config(self) -> Path:
        return self.home / "analysis.cfg"

    def model_path(self, model: str | None = None) -> Path:
        return self.home / self.models[model or self.default_model]

    def command(self, model: str | None = None, threads: int | None = None) -> list[str]:
        command = [str(self.launcher), "analysis", "-config", str(self.config), "-model", str(self.model_path(model))]
        if threads:
            command += ["-override-config", f"numSearchThreadsPerAnalysisThread={int(threads)}"]
        return command

    def missing_files(self) -> list[Path]:
        wanted = [self.launcher, self.home / "bin" / "katago", self.config]
        wanted += [self.home / path for path in self.models.values()]
        return [path for path in wanted if not path.is_file()]


def installed_katago(home: Path | None = None) -> InstalledKataGo | None:
    """The installed KataGo, or None when the stamp is missing, stale or files are gone."""
    home = home or katago_home()
    try:
        stamp = json.loads((home / STAMP_NAME).read_text(encoding="utf-8"))
        if stamp.get("format") != STAMP_FORMAT:
            return None
        installed = InstalledKataGo(
            home=home,
            version=str(stamp["version"]),
            models={str(k): str(v) for k, v in stamp["models"].items()},
            default_model=str(stamp["default_model"]),
            tuning_files=tuple(str(p) for p in stamp.get("tuning_files", [])),
            tuning_status=str(stamp.get("tuning_status", "unknown")),
            device=str(stamp.get("device", "")),
            problem=str(stamp.get("problem", "")),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if installed.default_model not in installed.models or installed.missing_files():
        return None
    return installed


def _write_stamp(installed: InstalledKataGo) -> None:
    stamp = {
        "format": STAMP_FORMAT,
        "version": installed.version,
        "models": installed.models,
        "default_model": installed.default_model,
        "tuning_files": list(installed.tuning_files),
        "tuning_status": installed.tuning_status,
        "device": installed.device,
        "problem": installed.problem,
        "installed_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    write_text_atomic(installed.home / STAMP_NAME, json.dumps(stamp, indent=2) + "\n")


def analysis_config(home: Path, threads: int | None = None) -> str:
    cores = threads or max(1, min(4, os.cpu_count() or 1))
    return "\n".join(
        [
            "# KataGo analysis engine settings written by `reviewer engines install` (safe to edit;",
            "# reinstalling with --force writes it again). Sized for a CPU or a small GPU.",
            f"logDir = {home / 'logs'}",
            "logAllRequests = false",
            "logAllResponses = false",
            "logSearchInfo = false",
            "logToStderr = false",
            "reportAnalysisWinratesAs = BLACK",
            "maxVisits = 100",
            f"numAnalysisThreads = {cores}",
            "numSearchThreadsPerAnalysisThread = 1",
            f"nnMaxBatchSize = {max(8, 2 * cores)}",
            "nnCacheSizePowerOfTwo = 18",
            "nnMutexPoolSizePowerOfTwo = 14",
            "nnRandomize = true",
            "",
        ]
    )


def _wheel_name_matches(file_name: str, package: str, version: str) -> bool:
    return file_name.lower().startswith(f"{package}-{version}-".lower()) and file_name.endswith(".whl")


def find_or_download_wheel(package: str, version: str, downloads: Path, progress: Progress) -> Path | None:
    """The wheel from $REVIEWER_WHEEL_DIR or the download folder, else `pip download` it there."""
    folders = [Path(os.environ["REVIEWER_WHEEL_DIR"])] if os.environ.get("REVIEWER_WHEEL_DIR") else []
    folders.append(downloads)
    for folder in folders:
        if folder.is_dir():
            for candidate in sorted(folder.iterdir()):
                if _wheel_name_matches(candidate.name, package, version) and zipfile.is_zipfile(candidate):
                    return candidate
    downloads.mkdir(parents=True, exist_ok=True)
    progress(f"downloading {package}=={version} from PyPI (about 40 MB)")
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--disable-pip-version-check", "--retries", "2", "--timeout", "30", "-q",
               "-d", str(downloads), f"{package}=={version}"]
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=DOWNLOAD_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as error:
        progress(f"download of {package}=={version} failed: {error}")
        return None
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["pip failed"]
        progress(f"download of {package}=={version} failed: {last[0]}")
        return None
    for candidate in sorted(downloads.iterdir()):
        if _wheel_name_matches(candidate.name, package, version):
            return candidate
    return None


def _extract_member(wheel: Path, member: str, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(f".{target.name}.part")
    with zipfile.ZipFile(wheel) as archive, archive.open(member) as source, open(temp, "wb") as sink:
        shutil.copyfileobj(source, sink, length=1 << 20)
    os.replace(temp, target)


LAUNCHER = """#!/bin/sh
# KataGo with the libraries it was shipped with (written by `reviewer engines install`).
HERE="$(dirname "$(readlink -f "$0")")"
LD_LIBRARY_PATH="$HERE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
exec "$HERE/bin/katago" "$@"
"""


def _unpack_katago(wheel: Path, home: Path, progress: Progress) -> None:
    """The AppImage from the wheel, extracted without FUSE: keep its binary and libraries only."""
    with tempfile.TemporaryDirectory(prefix="katago-", dir=home) as work:
        appimage = Path(work) / "katago.AppImage"
        _extract_member(wheel, APPIMAGE_IN_WHEEL, appimage)
        appimage.chmod(0o755)
        progress("unpacking KataGo (AppImage --appimage-extract)")
        subprocess.run([str(appimage), "--appimage-extract"], cwd=work, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=600, check=True)
        root = Path(work) / "squashfs-root" / "usr"
        (home / "bin").mkdir(parents=True, exist_ok=True)
        (home / "lib").mkdir(parents=True, exist_ok=True)
        for library in (root / "lib").glob("*.so*"):
            shutil.copy2(library, home / "lib" / library.name)
        temp = home / "bin" / ".katago.part"
        shutil.copy2(root / "bin" / "katago", temp)
        temp.chmod(0o755)
        os.replace(temp, home / "bin" / "katago")
    launcher = home / "katago"
    write_text_atomic(launcher, LAUNCHER)
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def katago_version(launcher: Path) -> str | None:
    try:
        done = subprocess.run([str(launcher), "version"], stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"KataGo v?(\d+\.\d+(?:\.\d+)?)", done.stdout + done.stderr)
    return match.group(1) if done.returncode == 0 and match else None


# -- OpenCL tuning ---------------------------------------------------------------------------------


def tuning_resources() -> list[Path]:
    folder = resource_path("katago", "opencltuning")
    return sorted(folder.glob("tune*.txt")) if folder.is_dir() else []


def _shape_of(name: str) -> tuple[str, str] | None:
    """'tune13_gpuDEVICE_x19_y19_c192_mv8.txt' -> ('tune13_gpu', '_x19_y19_c192_mv8.txt')."""
    match = TUNING_NAME.fullmatch(name)
    return (match.group(1), match.group(3)) if match else None


def install_tuning_files(wanted: Path, progress: Progress = _quiet, replace_wanted: bool = True) -> list[Path]:
    """Our tuning data under the name KataGo asked for (`wanted`) and for every other model shape
    we carry, on the same device. Files already there are kept (they may come from a real tuning
    run), except `wanted` itself when KataGo could not use it (`replace_wanted`).
    Returns the files in place; none when we carry nothing for `wanted`'s shape."""
    wanted_shape = _shape_of(wanted.name)
    match = TUNING_NAME.fullmatch(wanted.name)
    if wanted_shape is None or match is None:
        return []
    device = match.group(2)
    if not any(_shape_of(resource.name) == wanted_shape for resource in tuning_resources()):
        return []
    written: list[Path] = []
    for resource in tuning_resources():
        shape = _shape_of(resource.name)
        if shape is None or shape[0] != wanted_shape[0]:
            continue  # another tuning-file version
        target = wanted.parent / f"{shape[0]}{device}{shape[1]}"
        if not target.is_file() or (replace_wanted and target.name == wanted.name):
            write_text_atomic(target, resource.read_text(encoding="utf-8"))
            progress(f"installed OpenCL tuning file {target}")
        written.append(target)
    return written


@dataclass
class ProbeResult:
    started: bool
    seconds: float
    missing_tuning: Path | None = None
    loaded_tuning: Path | None = None
    device: str = ""
    tuning_started: bool = False
    error: str = ""


def probe_katago(command: Sequence[str], timeout_s: float = PROBE_TIMEOUT_S, progress: Progress = _quiet) -> ProbeResult:
    """Start KataGo once and watch stderr: did it start, which tuning file did it want or load?

    Stops it as soon as that is known, and stops it at once if it begins tuning.
    """
    started_at = time.monotonic()
    result = ProbeResult(started=False, seconds=0.0)
    try:
        process = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True, errors="replace")
    except OSError as error:
        result.error = str(error)
        return result
    lines: list[str] = []
    done = threading.Event()

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            line = line.rstrip()
            lines.append(line)
            if "Using OpenCL Device" in line:
                result.device = line.split(":", 1)[-1].strip().split(" (")[0]
            if (found := MISSING_TUNING.search(line)) is not None:
                result.missing_tuning = Path(found.group(1))
            if (found := LOADED_TUNING.search(line)) is not None:
                result.loaded_tuning = Path(found.group(1))
            if "autotuning" in line.lower():
                result.tuning_started = True
                progress("KataGo wants to tune OpenCL (this can take very long on a CPU)")
                done.set()
            if STARTED in line:
                result.started = True
                done.set()
        done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    done.wait(timeout_s)
    if process.poll() is None:
        process.kill()
    process.wait()
    reader.join(timeout=2)
    assert process.stdin is not None and process.stderr is not None
    process.stdin.close()
    if not reader.is_alive():  # else a child of KataGo still holds stderr open: the reader owns it
        process.stderr.close()
    result.seconds = time.monotonic() - started_at
    if not result.started and not result.tuning_started:
        if process.returncode not in (None, 0, -9) or lines:
            result.error = " | ".join(lines[-3:]) or f"exit status {process.returncode}"
        if time.monotonic() - started_at >= timeout_s:
            result.error = f"no start within {timeout_s:g} s" + (f" ({result.error})" if result.error else "")
    return result


def _device_from_tuning_path(path: Path | None) -> str:
    match = TUNING_NAME.fullmatch(path.name) if path else None
    return match.group(2) if match else ""


def _prefer_small_model(device: str, tuning_path: Path | None) -> bool:
    """A CPU device (PoCL names its devices pthread-...) runs the older, smaller net 4x faster."""
    names = f"{device} {_device_from_tuning_path(tuning_path)}".lower()
    return "pthread" in names or "cpu" in names or not gpu_device_present()


def ensure_tuning(katago: InstalledKataGo, progress: Progress = _quiet, timeout_s: float = PROBE_TIMEOUT_S) -> InstalledKataGo:
    """Make KataGo find tuning files: start it, install what it asks for, check it now starts."""
    tuning_files: list[Path] = []
    device = katago.device
    status, problem = "needs-tuning", ""
    for attempt in range(3):
        progress("starting KataGo to check its OpenCL tuning" + (" again" if attempt else ""))
        probe = probe_katago(katago.command(), timeout_s=timeout_s, progress=progress)
        device = probe.device or device
        if probe.started:
            status = "ok"
            used = probe.loaded_tuning
            if used is not None:
                tuning_files = sorted({*tuning_files, *install_tuning_files(used, progress, replace_wanted=False)})
            progress(f"KataGo started in {probe.seconds:.1f} s")
            break
        if probe.missing_tuning is not None:
            written = install_tuning_files(probe.missing_tuning, progress)
            if not written:
                progress(f"no tuning data fits {probe.missing_tuning.name}; KataGo would tune itself")
                break
            tuning_files = sorted({*tuning_files, *written})
            continue
        if not probe.tuning_started:
            status, problem = "broken", probe.error or "it exited without saying why"
            progress(f"KataGo did not start: {problem}")
        break
    default_model = katago.default_model
    small = next((name for name in katago.models if name.startswith("g170e")), None)
    large = next((name for name in katago.models if name.startswith("b10")), None)
    if small and large:
        default_model = small if _prefer_small_model(device, tuning_files[0] if tuning_files else None) else large
    return InstalledKataGo(
        home=katago.home,
        version=katago.version,
        models=katago.models,
        default_model=default_model,
        tuning_files=tuple(str(p) for p in tuning_files),
        tuning_status=status,
        device=device,
        problem=problem,
    )


def _restore_tuning_files(katago: InstalledKataGo, progress: Progress) -> None:
    """Put back tuning files recorded in the stamp that have gone (a new home folder, a cleanup)."""
    for recorded in katago.tuning_files:
        path = Path(recorded)
        if not path.is_file():
            install_tuning_files(path, progress, replace_wanted=False)


def _katago_result(katago: InstalledKataGo, verb: str, warnings: list[str]) -> StepResult:
    where = f"KataGo {katago.version} {verb}: {katago.home} (model {katago.default_model})"
    if katago.tuning_status == "broken":
        return StepResult("katago", False, f"{where}, but it does not start: {katago.problem}", warnings)
    if katago.tuning_status == "needs-tuning":
        warnings = [*warnings, "KataGo has no OpenCL tuning for this device: its first start may take very long"]
    return StepResult("katago", True, where, warnings)


def install_katago(progress: Progress = _quiet, force: bool = False) -> StepResult:
    """Install KataGo (see the module's doc); quick and offline when the stamp says it is done."""
    home = katago_home()
    existing = None if force else installed_katago(home)
    if existing is not None:
        _restore_tuning_files(existing, progress)
        if existing.tuning_status != "ok":  # the machine may have changed since (OpenCL installed...)
            existing = ensure_tuning(existing, progress)
            _write_stamp(existing)
        return _katago_result(existing, "is installed", [])
    if not (sys.platform == "linux" and platform.machine() in ("x86_64", "AMD64")):
        return StepResult("katago", False, "KataGo can be installed here on Linux x86-64 only; install it yourself "
                          "and name its analysis command in engines.json")
    home.mkdir(parents=True, exist_ok=True)
    downloads = home / "downloads"
    new_wheel = find_or_download_wheel(*KATRAIN_NEW, downloads, progress)
    if new_wheel is None:
        return StepResult("katago", False, "KataGo could not be downloaded (katrain==1.20.0 from PyPI); "
                          "check the network and run `reviewer engines install` again")
    models: dict[str, str] = {}
    warnings: list[str] = []
    try:
        _unpack_katago(new_wheel, home, progress)
        version = katago_version(home / "katago")
        if version is None:
            return StepResult("katago", False, f"the unpacked KataGo does not run: try `{home / 'katago'} version`")
        progress(f"KataGo {version} unpacked into {home}")
        _extract_member(new_wheel, MODEL_B10, home / "models" / Path(MODEL_B10).name)
        models[Path(MODEL_B10).name.removesuffix(".bin.gz")] = f"models/{Path(MODEL_B10).name}"
        old_wheel = find_or_download_wheel(*KATRAIN_OLD, downloads, progress)
        if old_wheel is not None:
            _extract_member(old_wheel, MODEL_G170, home / "models" / Path(MODEL_G170).name)
            models[Path(MODEL_G170).name.removesuffix(".bin.gz")] = f"models/{Path(MODEL_G170).name}"
        else:
            warnings.append("the small g170e-b15c192 model (katrain==1.10.1) could not be fetched; using b10 only")
    except (OSError, zipfile.BadZipFile, KeyError, subprocess.SubprocessError) as error:
        return StepResult("katago", False, f"KataGo could not be unpacked: {error}")
    write_text_atomic(home / "analysis.cfg", analysis_config(home))
    (home / "logs").mkdir(exist_ok=True)
    katago = InstalledKataGo(home=home, version=version, models=models,
                             default_model=next(iter(models)), tuning_files=(), tuning_status="needs-tuning")
    katago = ensure_tuning(katago, progress)
    _write_stamp(katago)
    for wheel in downloads.glob("*.whl"):
        wheel.unlink(missing_ok=True)  # what we need is unpacked; the stamp keeps us from downloading again
    return _katago_result(katago, "installed", warnings)


def prepare_networks(progress: Progress = _quiet) -> list[str]:
    """Build each game's in-process network for its usual boards now, as a game just opened would
    (`EnginePlan.preload_network`), so that the first search waits for nothing: what is made once
    from an engine's files (Reviewer's search's int8 calibration and graphs, about 20 s) is kept
    beside the engines. Warnings for a game whose network could not be built."""
    from reviewer.core.engines.registry import EnginePlan
    from reviewer.core.games import registered_games

    warnings: list[str] = []
    for support in registered_games():
        if not support.preloads_network:
            continue
        started = time.monotonic()
        try:
            built = [size for size in support.usual_board_sizes if EnginePlan(support.kind, board_size=size).preload_network()]
        except Exception as error:  # the network is then built at its first search
            warnings.append(f"the {support.kind} engine's network could not be built ahead ({error})")
            continue
        if built:
            boards = ", ".join(f"{columns}×{rows}" for rows, columns in built)
            progress(f"the {support.kind} engine's network is built for {boards} ({time.monotonic() - started:.1f} s)")
    return warnings


def install_all(progress: Progress = _quiet, force: bool = False) -> list[StepResult]:
    results = [install_stockfish(progress), install_opencl_runtime(progress)]
    try:
        results.append(install_katago(progress, force=force))
    except Exception as error:  # a KataGo failure must not cost the rest
        results.append(StepResult("katago", False, f"KataGo could not be installed: {error}"))
    return results
