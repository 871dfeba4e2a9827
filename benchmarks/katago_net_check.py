"""Our KataGo evaluation (features + network, in ONNX Runtime and in numpy) against KataGo's analysis engine, on real games.

For each game (optionally under other rules: FILE:RULES), positions are sampled (every Nth turn, the
last few, and some where our features show a ko ban or a working ladder move) and sent to the
installed KataGo as ONE analysis query with `maxVisits 1`, `nnRandomize false` (symmetry 0) and the
default `ignorePreRootHistory`, so its root value is the raw network output for exactly the inputs
`features.inputs_for_turns` builds. Printed per game: positions compared, max |Δwinrate| and |Δlead|
(Black's view), max |Δpolicy| and policy entries whose legality differs; positions beyond 1e-3 in
winrate or 0.01 in lead are listed (they mean a feature differs).

    .venv/bin/python benchmarks/katago_net_check.py [--every 10] [--last 4] [--extra 4] [--backend both]
        [GAME[:RULES] ...]

GAME is a file of the corpus, a path, or synthetic:NAME (positions written below, for what real games
rarely show: superko bans, suicide, passes, ladder breakers).

KataGo runs with a config, log and OpenCL tuning folder of its own under /tmp; nothing is written in
KataGo's folders.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from reviewer.core.engines.install import installed_katago  # noqa: E402
from reviewer.core.engines.katago import QueryPlan, plan_queries  # noqa: E402
from reviewer.core.engines.katago_net.features import NetInputs, inputs_for_turns  # noqa: E402
from reviewer.core.engines.katago_net.model import read_model  # noqa: E402
from reviewer.core.engines.katago_net.network import RawOutputs  # noqa: E402
from reviewer.core.engines.katago_net.runtime import Backend, NetworkRunner  # noqa: E402
from reviewer.core.formats import load_game  # noqa: E402

SHARED = Path(os.environ.get("REVIEWER_SHARED", REPO_ROOT.parent / "shared"))
CORPUS = SHARED / "corpus" / "sgf"
MODEL = "g170e-b15c192-s1672170752-d466197061"
DEFAULT_GAMES = [
    "sabaki__even.ngf",  # 19x19 japanese, long, kos
    "katrain__LS_vs_AG_G4_English.sgf",  # 19x19 chinese
    "sabaki-sgf__fox_go_server_handicap.sgf",  # 19x19 chinese, 2 handicap stones
    "sabaki__gb2312.gib",  # 19x19 japanese, 5 handicap stones, komi 0
    "katrain__xmgt97.sgf",  # 9x9, negative komi
    "katago__testsgf_rect_9x17_katarules.sgf",  # 9x17
    "katago__testsgf_double_move.sgf",  # 5x5, the same colour twice (KataGo clears its history)
    "katrain__LS_vs_AG_G4_English.sgf:tromp-taylor",  # positional superko, suicide legal, no result impossible
    "sabaki__even.ngf:aga",  # situational superko, handicap bonus N-1
    "sabaki__gb2312.gib:chinese",  # area features with handicap bonus N
    "sabaki__even.ngf:stone-scoring",  # group tax (independent life area)
    "katrain__xmgt97.sgf:aga-button",  # the button
    "synthetic:kos:tromp-taylor",  # a superko ban once passes lift the simple ko ban; multi-stone suicide
    "synthetic:kos:aga",
    "synthetic:kos:japanese",  # passes: global 14 under territory scoring
    "synthetic:double-move:tromp-taylor",  # a second move by the same player clears the superko history
    "synthetic:ladders",  # a ladder, a breaker on one of its two ways
]
# Positions real games rarely reach (SGF, x then y from the top-left corner).
SYNTHETIC = {
    "kos": "(;GM[1]FF[4]SZ[9]KM[7.5]AB[dd][ce][df][ee][ba]AW[ed][fe][ef][ca][bb][ab]PL[W]"
    ";W[de];B[];W[];B[gg];W[hh];B[ee];W[];B[])",
    "double-move": "(;GM[1]FF[4]SZ[9]KM[7.5]AB[dd][ce][df][ee][ba]AW[ed][fe][ef][ca][bb][ab]PL[W];W[de];W[];B[gg])",
    "ladders": "(;GM[1]FF[4]SZ[9]KM[7.5]AB[ge][ef][fg]AW[cc][ff]PL[B];B[gf];W[hh];B[fe])",
}
WINRATE_TOLERANCE = 1e-3
LEAD_TOLERANCE = 0.01
CONFIG = """logDir = {home}/logs
logToStderr = false
homeDataDir = {home}
reportAnalysisWinratesAs = BLACK
maxVisits = 1
numAnalysisThreads = 2
numSearchThreadsPerAnalysisThread = 1
nnRandomize = false
nnMaxBatchSize = 8
"""


@dataclass
class Job:
    name: str
    plan: QueryPlan
    turns: list[int]
    inputs: NetInputs
    feature_seconds: float


def postprocess(raw: RawOutputs, inputs: NetInputs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """KataGo's NNEvaluator post-processing: (Black's winrate, Black's lead, policy with -1 for illegal)."""
    logits = np.where(inputs.legal, raw.policy_logits, np.float32(-1e30)).astype(np.float32)
    exp = np.exp(logits - logits.max(axis=1, keepdims=True), dtype=np.float32)
    policy = exp / exp.sum(axis=1, keepdims=True, dtype=np.float32)
    policy = np.where(inputs.legal, policy, np.float32(-1.0))
    value = raw.value_logits.astype(np.float64)
    if not inputs.no_result_possible:
        value[:, 2] -= 100000.0
    value = np.exp(value - value.max(axis=1, keepdims=True))
    value /= value.sum(axis=1, keepdims=True)
    if not inputs.no_result_possible:
        value[:, 2] = 0.0
    win, loss, no_result = value[:, 0], value[:, 1], value[:, 2]
    lead = raw.score[:, 2].astype(np.float64) * 20.0 * (1.0 - no_result)
    black = np.array([color == "black" for color in inputs.to_move])
    white_win = np.where(black, loss, win)
    white_loss = np.where(black, win, loss)
    white_lead = np.where(black, -lead, lead)
    white_winrate = 0.5 * (1.0 + white_win - white_loss)
    return 1.0 - white_winrate, -white_lead, policy


def sample_turns(inputs: NetInputs, moves: int, every: int, last: int, extra: int) -> list[int]:
    """Every `every`th turn, the last `last`, and up to `extra` of each: a ko ban, a working ladder move."""
    turns = set(range(0, moves + 1, every)) | set(range(max(0, moves + 1 - last), moves + 1))
    for channel in (6, 17):
        marked = [t for t in range(moves + 1) if inputs.spatial[t, :, :, channel].any() and t not in turns]
        if marked:
            step = max(1, len(marked) // max(1, extra))
            turns |= set(marked[::step][:extra])
    return sorted(turns)


def load(file_name: str) -> tuple[str, QueryPlan]:
    """A corpus file, a path, or `synthetic:NAME`: (its name, its plan)."""
    if file_name.startswith("synthetic:"):
        name = file_name.removeprefix("synthetic:")
        with tempfile.TemporaryDirectory(prefix="katago_net_check_") as folder:
            path = Path(folder) / f"{name}.sgf"
            path.write_text(SYNTHETIC[name])
            return file_name, plan_queries(load_game(path))
    path = Path(file_name) if Path(file_name).exists() else CORPUS / file_name
    return path.name, plan_queries(load_game(path))


def prepare(spec: str, every: int, last: int, extra: int) -> Job:
    if spec.startswith("synthetic:"):
        name, _, rules = spec.removeprefix("synthetic:").partition(":")
        file_name = f"synthetic:{name}"
        every = 1  # a few moves each: all of them
    else:
        file_name, _, rules = spec.partition(":")
    name, plan = load(file_name)
    if rules:
        plan.rules = rules
    moves = len(plan.segments[0].moves)
    started = time.perf_counter()
    every_turn = inputs_for_turns(plan, 0, range(moves + 1))
    seconds = (time.perf_counter() - started) / (moves + 1)
    turns = sample_turns(every_turn, moves, every, last, extra)
    return Job(f"{name}{':' + rules if rules else ''}", plan, turns, inputs_for_turns(plan, 0, turns), seconds)


def run_katago(jobs: list[Job], launcher: Path, model: Path, tuning: list[Path]) -> dict[tuple[int, int], dict]:
    """One KataGo analysis process for every job: {(job index, turn): final response}."""
    home = Path(tempfile.mkdtemp(prefix="katago_net_check_"))
    try:
        (home / "opencltuning").mkdir()
        for source in tuning:
            if source.is_file():
                shutil.copy(source, home / "opencltuning" / source.name)
        config = home / "analysis.cfg"
        config.write_text(CONFIG.format(home=home))
        queries = []
        for index, job in enumerate(jobs):
            query = job.plan.query(0, job.turns)
            query.update(id=str(index), maxVisits=1, includePolicy=True)
            queries.append(json.dumps(query))
        env = dict(os.environ, HOME=str(home))
        done = subprocess.run(
            [str(launcher), "analysis", "-config", str(config), "-model", str(model)],
            input="\n".join(queries) + "\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=3600,
            check=False,
        )
        results: dict[tuple[int, int], dict] = {}
        for line in done.stdout.splitlines():
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                continue
            if "error" in message or "warning" in message:
                print("KataGo:", message, file=sys.stderr)
                continue
            if not message.get("isDuringSearch", True):
                results[(int(message["id"]), int(message["turnNumber"]))] = message
        if not results:
            print(done.stderr[-3000:], file=sys.stderr)
        return results
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=DEFAULT_GAMES, help="corpus file names or paths, maybe :RULES")
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--last", type=int, default=4)
    parser.add_argument("--extra", type=int, default=4, help="positions with a ko ban / working ladder move")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--backend", choices=("both", "onnxruntime", "numpy"), default="both")
    args = parser.parse_args()
    katago = installed_katago()
    if katago is None or MODEL not in katago.models:
        print(f"needs KataGo with the model {MODEL}: run `reviewer engines install`", file=sys.stderr)
        return 1
    model_path = katago.model_path(MODEL)
    jobs = [prepare(spec, args.every, args.last, args.extra) for spec in args.games]
    print(f"KataGo {katago.version}, model {MODEL}; {sum(len(j.turns) for j in jobs)} positions in {len(jobs)} games")
    started = time.perf_counter()
    responses = run_katago(jobs, katago.launcher, model_path, [Path(p) for p in katago.tuning_files])
    print(f"KataGo answered {len(responses)} positions in {time.perf_counter() - started:.0f} s")
    network = read_model(model_path)
    backends: list[Backend] = ["onnxruntime", "numpy"] if args.backend == "both" else [args.backend]
    all_bad = 0
    for runner in (NetworkRunner(network, backend) for backend in backends):
        worst = {"winrate": 0.0, "lead": 0.0, "policy": 0.0}
        bad_positions = 0
        for index, job in enumerate(jobs):
            count = len(job.turns)
            winrates, leads, policies = [], [], []
            for start in range(0, count, args.batch):
                part = slice(start, start + args.batch)
                raw = runner.forward(job.inputs.spatial[part], job.inputs.global_inputs[part])
                sub = NetInputs(
                    job.inputs.spatial[part],
                    job.inputs.global_inputs[part],
                    job.inputs.to_move[part],
                    job.inputs.legal[part],
                    job.inputs.no_result_possible,
                )
                winrate, lead, policy = postprocess(raw, sub)
                winrates.append(winrate)
                leads.append(lead)
                policies.append(policy)
            winrate, lead, policy = np.concatenate(winrates), np.concatenate(leads), np.concatenate(policies)
            d_winrate, d_lead, d_policy, illegal_mismatch, compared = 0.0, 0.0, 0.0, 0, 0
            flagged = []
            for row, turn in enumerate(job.turns):
                response = responses.get((index, turn))
                if response is None:
                    flagged.append(f"    turn {turn}: no answer from KataGo")
                    continue
                compared += 1
                root = response["rootInfo"]
                theirs_policy = np.array(response["policy"], np.float64)
                dw = abs(root["rawWinrate"] - winrate[row])
                dl = abs(root["rawLead"] - lead[row])
                mismatch = int(((theirs_policy < 0) != (policy[row] < 0)).sum())
                dp = float(
                    np.abs(np.where(theirs_policy < 0, 0, theirs_policy) - np.where(policy[row] < 0, 0, policy[row])).max()
                )
                d_winrate, d_lead, d_policy = max(d_winrate, dw), max(d_lead, dl), max(d_policy, dp)
                illegal_mismatch += mismatch
                if dw > WINRATE_TOLERANCE or dl > LEAD_TOLERANCE or mismatch or dp > 1e-3:
                    flagged.append(
                        f"    turn {turn} ({job.inputs.to_move[row]} to move): winrate KataGo {root['rawWinrate']:.6f} "
                        f"ours {winrate[row]:.6f}; lead KataGo {root['rawLead']:.4f} ours {lead[row]:.4f}; "
                        f"max |Δpolicy| {dp:.2e}; legality differs at {mismatch}"
                    )
            bad_positions += len(flagged)
            worst["winrate"] = max(worst["winrate"], d_winrate)
            worst["lead"] = max(worst["lead"], d_lead)
            worst["policy"] = max(worst["policy"], d_policy)
            plan = job.plan
            print(
                f"{runner.backend}: {job.name} ({plan.width}x{plan.height} {plan.rules} komi {plan.komi:g}): {compared} positions, "
                f"max |Δwinrate| {d_winrate:.2e}, max |Δlead| {d_lead:.2e}, max |Δpolicy| {d_policy:.2e}, "
                f"legality mismatches {illegal_mismatch}; features {job.feature_seconds * 1000:.2f} ms/position"
            )
            for line in flagged:
                print(line)
        print(
            f"{runner.backend} overall: max |Δwinrate| {worst['winrate']:.2e}, max |Δlead| {worst['lead']:.2e}, "
            f"max |Δpolicy| {worst['policy']:.2e}; {bad_positions} positions beyond tolerance"
        )
        all_bad += bad_positions

    return 1 if all_bad else 0


if __name__ == "__main__":
    sys.exit(main())
