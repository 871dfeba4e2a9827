"""`reviewer batch --cluster`: the same reports as a local batch, and a killed Ray worker loses no game.

One Ray instance (2 CPUs, no dashboard) serves the module; `--cluster local` starts its own."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import DATA_DIR, EXIT_OK, HERE, REPO_ROOT, fake_cmd, read_json, reviewer_command, run_reviewer
from report_contract import check_report

pytestmark = pytest.mark.cluster


@pytest.fixture(scope="module")
def ray_address():
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install '.[cluster]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def wait_for(predicate, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def games_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(DATA_DIR / "chess_three_games.pgn", folder / "three.pgn")
    shutil.copy(DATA_DIR / "chess_fools_mate.pgn", folder / "fools.pgn")
    return folder


def local_reports(tmp_path: Path, folder: Path) -> list[dict]:
    """The reports of the same batch reviewed in this machine's process, with its own store and cache."""
    env = dict(os.environ, REVIEWER_CACHE_DIR=str(tmp_path / "local-cache"), REVIEWER_DATA_DIR=str(tmp_path / "local-data"))
    out = tmp_path / "local.json"
    run = run_reviewer("batch", folder, "--engine-cmd", fake_cmd("fake_uci.py"), "--nodes", "1000", "--multipv", "2",
                       "-q", "--json", out, env=env, timeout=120)
    assert run.returncode == EXIT_OK, run.stderr
    return read_json(out)["reports"]


def comparable(reports: list[dict]) -> list[dict]:
    """Reports without what depends on when they were made (reviewer.report/1 has no such field today)."""
    return [{key: value for key, value in report.items() if key not in ("elapsed_s", "finished_at")} for report in reports]


def test_a_local_cluster_gives_the_reports_of_a_local_batch(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed (pip install '.[cluster]')")
    folder = games_folder(tmp_path)
    out = tmp_path / "cluster.json"
    run = run_reviewer("batch", folder, "--engine-cmd", fake_cmd("fake_uci.py"), "--nodes", "1000", "--multipv", "2",
                       "--cluster", "local", "--json", out, timeout=240)
    assert run.returncode == EXIT_OK, run.stderr
    assert sum(line.startswith("analysed") for line in run.stderr.splitlines()) == 4
    assert " pid " in run.stderr  # each game's line names its worker
    cluster = read_json(out)["reports"]
    for report in cluster:
        check_report(report, "chess")
    assert comparable(cluster) == comparable(local_reports(tmp_path, folder))
    again = run_reviewer("batch", folder, "--engine-cmd", fake_cmd("fake_uci.py"), "--nodes", "1000", "--multipv", "2",
                         "--cluster", "local", "-q", "--json", out, timeout=240)
    assert again.returncode == EXIT_OK, again.stderr  # taken from the store: no task is sent
    assert comparable(read_json(out)["reports"]) == comparable(cluster)


def test_a_killed_worker_loses_no_game(tmp_path, ray_address):
    folder = games_folder(tmp_path)
    pids, release = tmp_path / "pids", tmp_path / "release"
    gated = shlex.join([sys.executable, str(HERE / "gated_engine.py"), str(pids), str(release),
                        *shlex.split(fake_cmd("fake_uci.py"))])
    out = tmp_path / "cluster.json"
    child = subprocess.Popen(
        [*reviewer_command(), "batch", str(folder), "--engine-cmd", gated, "--nodes", "1000", "--multipv", "2",
         "--cluster", ray_address, "--json", str(out)],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        # Every search waits for `release`: a worker whose engine has started is in the middle of a game.
        def started_engines() -> list[Path]:  # the pid files once written whole (a .tmp file is renamed to one)
            return [path for path in pids.iterdir() if path.name.isdigit()] if pids.is_dir() else []

        assert wait_for(lambda: bool(started_engines()), 180), "no engine started on a worker"
        started = started_engines()[0]
        worker = int(started.read_text())
        assert "ray" in Path(f"/proc/{worker}/cmdline").read_bytes().decode(errors="replace").lower()
        os.kill(worker, signal.SIGKILL)
        assert wait_for(lambda: not Path(f"/proc/{worker}").exists() or _zombie(worker), 30)
    finally:
        release.write_text("go on")
        try:
            _, stderr = child.communicate(timeout=240)
        finally:
            if child.poll() is None:
                child.kill()
                child.communicate()
    assert child.returncode == EXIT_OK, stderr
    analysed = [line for line in stderr.splitlines() if line.startswith("analysed")]
    assert "failed" not in stderr and len(analysed) == 4
    assert not any(line.endswith(f" pid {worker})") for line in analysed)  # its game was done again elsewhere
    reports = read_json(out)["reports"]
    assert len(reports) == 4
    assert comparable(reports) == comparable(local_reports(tmp_path, folder))


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True
