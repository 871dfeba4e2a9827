"""Where outputs go: full disks, pipes, devices, links, missing folders. Writes are atomic."""

from __future__ import annotations

import os
import resource
import signal
import stat
import threading

import pytest
from conftest import DATA_DIR, EXIT_FAILED, EXIT_OK, read_json, run_reviewer
from report_contract import check_report

GAME = DATA_DIR / "chess_fools_mate.pgn"
OUTPUT_FLAGS = {"--json": "r.json", "-o": "a.pgn", "--csv": "m.csv", "--html": "r.html"}


def analyse(fake_uci, *extra, **popen):
    return run_reviewer("analyze", GAME, "--engine-cmd", fake_uci, "--depth", "2", "-q", "--no-cache", *extra, **popen)


def small_file_limit(limit_bytes: int):
    """A child whose files cannot grow past `limit_bytes`: a full disk, as far as it can tell."""

    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    return apply


@pytest.mark.parametrize("flag", sorted(OUTPUT_FLAGS))
def test_a_full_disk_leaves_the_old_file_whole(tmp_path, fake_uci, flag):
    target = tmp_path / OUTPUT_FLAGS[flag]
    target.write_text("the previous version\n")
    run = analyse(fake_uci, flag, target, preexec_fn=small_file_limit(300))
    assert run.returncode == EXIT_FAILED, run.stderr
    assert "cannot write" in run.stderr and "Traceback" not in run.stderr
    assert target.read_text() == "the previous version\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name], "a temporary file was left behind"


def test_every_output_is_written(tmp_path, fake_uci):
    targets = {flag: tmp_path / "deep" / "new" / name for flag, name in OUTPUT_FLAGS.items()}
    run = analyse(fake_uci, *(part for flag, target in targets.items() for part in (flag, target)))
    assert run.returncode == EXIT_OK, run.stderr
    check_report(read_json(targets["--json"]), "chess")
    assert "Qh4#" in targets["-o"].read_text() and "[%eval" in targets["-o"].read_text()
    assert targets["--csv"].read_text().count("\n") >= 5
    assert "<html" in targets["--html"].read_text().lower()
    for target in targets.values():
        mode = stat.S_IMODE(target.stat().st_mode)
        assert mode & 0o044, f"{target.name} is private ({oct(mode)}): the umask should decide"


def test_a_link_is_followed_not_replaced(tmp_path, fake_uci):
    real = tmp_path / "real.json"
    real.write_text("{}")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    run = analyse(fake_uci, "--json", link)
    assert run.returncode == EXIT_OK, run.stderr
    assert link.is_symlink()
    check_report(read_json(real), "chess")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640, "an existing file keeps its mode"


def test_a_pipe_gets_the_report(tmp_path, fake_uci):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    run = analyse(fake_uci, "--json", fifo)
    reader.join(timeout=10)
    assert run.returncode == EXIT_OK, run.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode), "the pipe was replaced by a file"
    from report_contract import load_strict_json

    check_report(load_strict_json(received[0].decode()), "chess")


@pytest.mark.parametrize("device, minor", [("null", 3), ("full", 7)])
def test_a_device_stays_a_device(tmp_path, fake_uci, device, minor):
    """`--json /dev/null` must not put a file where the device was (as root it could)."""
    node = tmp_path / device
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    except (PermissionError, OSError):
        pytest.skip("cannot make a device node here")
    run = analyse(fake_uci, "--json", node)
    assert stat.S_ISCHR(node.stat().st_mode), "the device was replaced by a file"
    if device == "full":
        assert run.returncode == EXIT_FAILED and "No space" in run.stderr
    else:
        assert run.returncode == EXIT_OK, run.stderr


def test_an_output_under_a_file_fails_clearly(tmp_path, fake_uci):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    run = analyse(fake_uci, "--json", blocker / "r.json")
    assert run.returncode in (1, 2)
    assert "Traceback" not in run.stderr and "a-file" in run.stderr


@pytest.mark.parametrize("flags", [("--json", "-"), ("--json",)])
def test_json_to_standard_output(tmp_path, fake_uci, flags):
    run = analyse(fake_uci, *flags, cwd=tmp_path)
    assert not (tmp_path / "-").exists()
    from report_contract import load_strict_json

    check_report(load_strict_json(run.stdout), "chess")


def test_html_alone_goes_to_standard_output_and_two_outputs_there_are_refused(tmp_path, fake_uci):
    run = analyse(fake_uci, "--html", cwd=tmp_path)
    assert run.returncode == EXIT_OK and run.stdout.lstrip().lower().startswith("<!doctype html")
    run = analyse(fake_uci, "--html", "--json", cwd=tmp_path)
    assert run.returncode != EXIT_OK and "standard output" in run.stderr and "Traceback" not in run.stderr


def test_report_command_writes_atomically_too(tmp_path):
    target = tmp_path / "r.json"
    target.write_text("the previous version\n")
    run = run_reviewer("report", DATA_DIR / "mate_rules.pgn", "--json", target, preexec_fn=small_file_limit(300))
    assert run.returncode == EXIT_FAILED and "Traceback" not in run.stderr
    assert target.read_text() == "the previous version\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]
