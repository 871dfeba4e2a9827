"""A tiny GTP engine for tests: answers `name`, `version`, `protocol_version` and `quit`, and `?` to the rest."""

import sys

ANSWERS = {"name": "FakeGnu", "version": "3.8", "protocol_version": "2"}

for line in sys.stdin:
    command = line.strip().split(" ")[0] if line.strip() else ""
    if not command:
        continue
    if command == "quit":
        sys.stdout.write("=\n\n")
        sys.stdout.flush()
        break
    answer = ANSWERS.get(command)
    sys.stdout.write(f"= {answer}\n\n" if answer is not None else "? unknown command\n\n")
    sys.stdout.flush()
