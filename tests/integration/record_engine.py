"""Runs an engine and writes every line sent to it into a log: `record_engine.py LOG ENGINE ARGS...`.

The lines go to LOG as they arrive (one per line, as received), then on to the engine; the
engine's output comes back unchanged, and when the engine exits, so does this. Tests read LOG to see exactly what an engine was told.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading


def main() -> int:
    log_path, command = sys.argv[1], sys.argv[2:]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert child.stdin is not None and child.stdout is not None

    def pump_out() -> None:
        source = child.stdout.fileno()  # type: ignore[union-attr]
        for chunk in iter(lambda: os.read(source, 65536), b""):
            sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()

    def follow_child() -> None:
        pump.join()
        os._exit(child.wait())  # the engine died: so does its stand-in, as the engine would

    pump = threading.Thread(target=pump_out, daemon=True)
    pump.start()
    threading.Thread(target=follow_child, daemon=True).start()
    with open(log_path, "ab", buffering=0) as log:
        for line in sys.stdin.buffer:
            log.write(line)
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
