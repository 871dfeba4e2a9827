"""Runs an engine, holding back every `go` until a file exists: `gated_engine.py PIDS RELEASE ENGINE ARGS...`.

On start it writes its parent's pid (the process that runs the engine: a Ray worker, say) into a
file named after its own pid in the folder PIDS, so a test can find and kill that process while a
search waits. Lines other than `go` pass at once; the engine's output comes back unchanged, and when
the engine exits, so does this.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path


def main() -> int:
    pids, release, command = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
    pids.mkdir(parents=True, exist_ok=True)
    (pids / f"{os.getpid()}.tmp").write_text(str(os.getppid()))
    (pids / f"{os.getpid()}.tmp").rename(pids / str(os.getpid()))
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert child.stdin is not None and child.stdout is not None

    def pump_out() -> None:
        source = child.stdout.fileno()  # type: ignore[union-attr]
        for chunk in iter(lambda: os.read(source, 65536), b""):
            sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()
        os._exit(child.wait())  # the engine died: so does its stand-in

    threading.Thread(target=pump_out, daemon=True).start()
    for line in sys.stdin.buffer:
        if line.startswith(b"go"):
            while not release.exists():
                time.sleep(0.05)
        try:
            child.stdin.write(line)
            child.stdin.flush()
        except BrokenPipeError:
            break
    try:
        child.stdin.close()
    except BrokenPipeError:
        pass
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
