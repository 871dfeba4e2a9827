"""KataGo's network file read and evaluated in-process, without KataGo: a small network written in
KataGo's own format, its forward pass against a plain per-point computation, and KataGoEngine
answering 1 and 2 visits itself (more visits, or a network it cannot read, go to the process)."""

from __future__ import annotations

import gzip
import json
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from reviewer.core.analysis import Limit
from reviewer.core.engines.katago import KataGoEngine
from reviewer.core.engines.katago_net.model import ModelUnsupported, read_model
from reviewer.core.engines.katago_net.network import forward
from reviewer.core.engines.katago_net.runtime import NetworkRunner, chosen_backend
from reviewer.core.formats import game_from_sgf_text
from reviewer.core.gametree import Game

FAKE_KATAGO = Path(__file__).resolve().parents[1] / "fakes" / "fake_katago.py"
TRUNK, MID, GPOOL, HEAD = 6, 5, 3, 4


class _Writer:
    """A network in KataGo's `.bin.gz` layout with seeded random weights; keeps every tensor it
    writes (in the file's order) so a test can compute the network independently."""

    def __init__(self, seed: int = 1) -> None:
        self.rng = np.random.default_rng(seed)
        self.parts: list[bytes] = []
        self.tensors: list[np.ndarray] = []

    def words(self, *words: object) -> None:
        self.parts.append(("\n".join(str(w) for w in words) + "\n").encode())

    def floats(self, shape: tuple[int, ...], scale: float = 0.3, positive: bool = False) -> None:
        values = self.rng.standard_normal(shape).astype(np.float32) * np.float32(scale)
        if positive:
            values = np.abs(values) + np.float32(0.5)
        self.tensors.append(values)
        self.parts.append(b"@BIN@" + values.astype("<f4").tobytes() + b"\n")

    def conv(self, ky: int, kx: int, channels_in: int, channels_out: int) -> None:
        self.words("conv", ky, kx, channels_in, channels_out, 1, 1)
        self.floats((ky, kx, channels_in, channels_out))

    def norm(self, channels: int) -> None:
        self.words("norm", channels, "1e-05", 1, 1)
        self.floats((channels,), 0.1)
        self.floats((channels,), positive=True)
        self.floats((channels,), positive=True)
        self.floats((channels,), 0.1)

    def matrix(self, rows: int, columns: int) -> None:
        self.words("matmul", rows, columns)
        self.floats((rows, columns))

    def bias(self, count: int) -> None:
        self.words("bias", count)
        self.floats((count,), 0.1)

    def network(self, version: int = 8) -> bytes:
        self.words("tiny-test-net", version, 22, 19, "trunk", 2, TRUNK, MID, MID, 0, GPOOL)
        self.conv(5, 5, 22, TRUNK)
        self.matrix(19, TRUNK)
        self.words("ordinary_block", "b1")
        self.norm(TRUNK), self.words("act"), self.conv(3, 3, TRUNK, MID), self.norm(MID), self.words("act")
        self.conv(3, 3, MID, TRUNK)
        self.words("gpool_block", "b2")
        self.norm(TRUNK), self.words("act"), self.conv(3, 3, TRUNK, MID), self.conv(3, 3, TRUNK, GPOOL)
        self.norm(GPOOL), self.words("act"), self.matrix(3 * GPOOL, MID), self.norm(MID), self.words("act")
        self.conv(3, 3, MID, TRUNK)
        self.norm(TRUNK), self.words("act")
        self.words("policyhead")
        self.conv(1, 1, TRUNK, HEAD), self.conv(1, 1, TRUNK, HEAD), self.norm(HEAD), self.words("act")
        self.matrix(3 * HEAD, HEAD), self.norm(HEAD), self.words("act"), self.conv(1, 1, HEAD, 1)
        self.matrix(3 * HEAD, 1)
        self.words("valuehead")
        self.conv(1, 1, TRUNK, HEAD), self.norm(HEAD), self.words("act"), self.matrix(3 * HEAD, 8), self.bias(8)
        self.words("act"), self.matrix(8, 3), self.bias(3), self.matrix(8, 4), self.bias(4), self.conv(1, 1, HEAD, 1)
        return b"".join(self.parts)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(gzip.compress(data))
    return path


@pytest.fixture
def tiny_model(tmp_path):
    writer = _Writer()
    return _write(tmp_path / "tiny.bin.gz", writer.network()), writer.tensors


# -- a plain computation of the same network, point by point -------------------------------------


def _conv(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    rows, columns, _ = x.shape
    ky, kx, _, out = w.shape
    result = np.zeros((rows, columns, out), np.float64)
    for r in range(rows):
        for c in range(columns):
            for dy in range(ky):
                for dx in range(kx):
                    rr, cc = r + dy - ky // 2, c + dx - kx // 2
                    if 0 <= rr < rows and 0 <= cc < columns:
                        result[r, c] += x[rr, cc] @ w[dy, dx]
    return result


def _norm(x: np.ndarray, mean, variance, scale, bias) -> np.ndarray:
    return np.maximum((x - mean) / np.sqrt(variance + 1e-5) * scale + bias, 0)


def _pool(x: np.ndarray, value_head: bool = False) -> np.ndarray:
    size = np.sqrt(x.shape[0] * x.shape[1])
    mean = x.mean(axis=(0, 1))
    third = mean * ((size - 14) ** 2 * 0.01 - 0.1) if value_head else x.max(axis=(0, 1))
    return np.concatenate([mean, mean * (size - 14) * 0.1, third])


def _plain_forward(tensors: list[np.ndarray], spatial: np.ndarray, global_inputs: np.ndarray):
    t = iter(tensors)

    def norm(x):
        return _norm(x, next(t), next(t), next(t), next(t))

    x = _conv(spatial, next(t)) + global_inputs @ next(t)
    inner = norm(x)
    x = x + _conv(norm(_conv(inner, next(t))), next(t))
    inner = norm(x)
    regular, gpool = _conv(inner, next(t)), _conv(inner, next(t))
    regular = regular + _pool(norm(gpool)) @ next(t)
    x = x + _conv(norm(regular), next(t))
    trunk = norm(x)
    p1, g1 = _conv(trunk, next(t)), _conv(trunk, next(t))
    pooled = _pool(norm(g1))
    p1 = p1 + pooled @ next(t)
    board = _conv(norm(p1), next(t))[..., 0]
    pass_logit = pooled @ next(t)
    v1 = norm(_conv(trunk, next(t)))
    v2 = np.maximum(_pool(v1, value_head=True) @ next(t) + next(t), 0)
    value = v2 @ next(t) + next(t)
    score = v2 @ next(t) + next(t)
    ownership = _conv(v1, next(t))[..., 0]
    return np.concatenate([board.reshape(-1), pass_logit]), value, score, ownership


@pytest.mark.parametrize(("rows", "columns"), [(5, 5), (7, 9)])
def test_the_forward_pass_computes_the_network_written_in_katagos_layout(tiny_model, rows, columns):
    path, tensors = tiny_model
    network = read_model(path)
    assert len(network.blocks) == 2 and network.blocks[1].gpool is not None
    rng = np.random.default_rng(7)
    spatial = (rng.random((2, rows, columns, 22)) < 0.3).astype(np.float32)
    global_inputs = rng.standard_normal((2, 19)).astype(np.float32)
    outputs = forward(network, spatial, global_inputs)
    assert outputs.policy_logits.shape == (2, rows * columns + 1)
    for index in range(2):
        policy, value, score, ownership = _plain_forward(tensors, spatial[index], global_inputs[index])
        np.testing.assert_allclose(outputs.policy_logits[index], policy, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(outputs.value_logits[index], value, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(outputs.score[index], score, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(outputs.ownership[index], ownership, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(("rows", "columns"), [(5, 5), (7, 9)])
def test_onnx_runtime_computes_what_numpy_computes(tiny_model, rows, columns):
    network = read_model(tiny_model[0])
    runner = NetworkRunner(network, "onnxruntime")
    rng = np.random.default_rng(3)
    spatial = (rng.random((3, rows, columns, 22)) < 0.3).astype(np.float32)
    global_inputs = rng.standard_normal((3, 19)).astype(np.float32)
    by_onnx, by_numpy = runner.forward(spatial, global_inputs), forward(network, spatial, global_inputs)
    assert runner.built(rows, columns)  # ONNX Runtime ran it, numpy did not stand in
    for name in ("policy_logits", "value_logits", "score", "ownership"):
        np.testing.assert_allclose(getattr(by_onnx, name), getattr(by_numpy, name), rtol=1e-4, atol=1e-5)


def test_a_position_evaluated_before_comes_from_the_cache_with_the_same_outputs(tiny_model, monkeypatch):
    runner = NetworkRunner(read_model(tiny_model[0]), "numpy")
    rng = np.random.default_rng(5)
    spatial = (rng.random((3, 5, 5, 22)) < 0.3).astype(np.float32)
    global_inputs = rng.standard_normal((3, 19)).astype(np.float32)
    first = runner.evaluate(spatial[:2], global_inputs[:2])
    forwarded: list[int] = []
    real_forward = runner.forward
    monkeypatch.setattr(runner, "forward", lambda s, g, t=None: forwarded.append(len(s)) or real_forward(s, g, t))
    again = runner.evaluate(spatial[[2, 1, 0]], global_inputs[[2, 1, 0]])
    assert forwarded == [1] and runner.cache_hits == 2  # only the new position went to the network
    whole = forward(runner.network, spatial, global_inputs)
    for name in ("policy_logits", "value_logits", "score", "ownership"):
        np.testing.assert_allclose(getattr(again, name), getattr(whole, name)[[2, 1, 0]], rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(getattr(again, name)[1:], getattr(first, name)[[1, 0]])


def test_the_backend_is_onnx_runtime_unless_numpy_is_asked_for(monkeypatch):
    monkeypatch.delenv("REVIEWER_KATAGO_NETWORK", raising=False)
    assert chosen_backend() == "onnxruntime"
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "numpy")
    assert chosen_backend() == "numpy"


def test_networks_this_reader_does_not_know_are_refused_with_the_reason(tmp_path):
    newer = _write(tmp_path / "newer.bin.gz", _Writer().network(version=15))
    with pytest.raises(ModelUnsupported, match="version 15"):
        read_model(newer)
    whole = _Writer().network()
    with pytest.raises(ModelUnsupported, match="ends in the middle"):
        read_model(_write(tmp_path / "cut.bin.gz", whole[: len(whole) // 2]))
    with pytest.raises(ModelUnsupported, match="more layers"):
        read_model(_write(tmp_path / "longer.bin.gz", whole + b"extra_layer 1\n"))
    (tmp_path / "plain.bin.gz").write_bytes(whole)
    with pytest.raises(ModelUnsupported, match="cannot read"):
        read_model(tmp_path / "plain.bin.gz")
    with pytest.raises(ModelUnsupported, match="cannot read"):
        read_model(tmp_path / "missing.bin.gz")


# -- KataGoEngine: 1 and 2 visits in-process, the rest by the process -------------------------------


def _game() -> Game:
    return game_from_sgf_text("(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese];B[ee];W[cg];B[gc];W[cc])")


def _engine(tmp_path: Path, model: Path) -> tuple[KataGoEngine, Path]:
    log = tmp_path / "received.jsonl"
    command = [sys.executable, str(FAKE_KATAGO), "--log", str(log), "-model", str(model)]
    return KataGoEngine(command, start_timeout_s=30), log


def _analysis_queries(log: Path) -> list[dict]:
    if not log.exists():
        return []
    messages = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    return [m for m in messages if "analyzeTurns" in m]


@pytest.mark.parametrize("backend", ["onnxruntime", "numpy"])
def test_one_and_two_visits_are_answered_in_process_and_more_by_katago(tmp_path, tiny_model, backend, monkeypatch):
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", backend)
    engine, log = _engine(tmp_path, tiny_model[0])
    try:
        game = _game()
        one = {e.ply: e for e in engine.analyse(game, range(5), Limit(visits=1), threading.Event())}
        two = {e.ply: e for e in engine.analyse(game, range(5), Limit(visits=2, maps=True), threading.Event())}
        assert _analysis_queries(log) == []
        assert engine._network is not None and engine._network.backend == backend
        assert sorted(one) == sorted(two) == list(range(5))
        for ply in range(5):
            first, second = one[ply], two[ply]
            assert first.nodes == 1 and first.candidates == () and 0 <= first.winrate_first <= 1
            assert second.nodes == 2 and len(second.candidates) == 1
            (best,) = second.candidates
            assert best.move == second.best_move and best.visits == 1 and 0 < best.prior <= 1
            # two visits: the root's values are the mean of the position's and its best move's
            assert second.winrate_first == pytest.approx((first.winrate_first + best.winrate_first) / 2)
            assert second.score_lead_first == pytest.approx((first.score_lead_first + best.score_lead_first) / 2)
            assert second.side_to_move == ("black" if ply % 2 == 0 else "white")
            assert len(second.policy) == len(second.ownership_first) == 81
            assert 0.5 < sum(second.policy) <= 1.0 + 1e-6  # the rest is the pass's prior
        # occupied points cannot be played: their prior is 0
        assert two[4].policy[4 * 9 + 4] == 0.0  # E5
        list(engine.analyse(game, [4], Limit(visits=3), threading.Event()))
        assert len(_analysis_queries(log)) == 1
    finally:
        engine.close()


def test_a_network_it_cannot_read_leaves_the_first_visits_to_katago(tmp_path):
    model = _write(tmp_path / "newer.bin.gz", _Writer().network(version=15))
    engine, log = _engine(tmp_path, model)
    try:
        results = list(engine.analyse(_game(), [0, 1], Limit(visits=2), threading.Event()))
        assert len(results) == 2 and len(_analysis_queries(log)) == 1
        assert any("version 15" in warning for warning in engine.warnings)
    finally:
        engine.close()


def test_on_a_symmetric_board_the_second_visit_skips_symmetric_copies_as_katago_does():
    from reviewer.core.engines.katago_net.evaluate import _symmetric_copies

    empty = np.zeros((19, 19, 22), np.float32)
    corner = [(15, 16), (3, 16), (15, 2), (3, 2), (16, 15), (16, 3), (2, 15), (2, 3)]  # the 3-4 points, (x, y)
    for to_move, kept in (("black", (16, 3)), ("white", (2, 15))):  # R16 for Black, C4 for White
        copies = _symmetric_copies(empty, to_move)
        assert copies is not None
        assert [point for point in corner if not copies[point[1], point[0]]] == [kept]
        assert not copies[9, 9]  # the centre is its own copy
        assert int((~copies).sum()) == 55  # one of each of the 55 classes of points of a 19x19 board
    one_corner = empty.copy()
    one_corner[3, 3, 1] = 1.0  # a stone on the diagonal (D16) leaves only the transpose ...
    copies = _symmetric_copies(one_corner, "white")
    assert copies is not None and int((~copies).sum()) == 19 * 19 - (19 * 19 - 19) // 2  # ... not the diagonal
    ko = empty.copy()
    ko[4, 4, 6] = 1.0  # a ko ban: KataGo does not prune by symmetry
    assert _symmetric_copies(ko, "black") is None
    rectangle = np.zeros((9, 13, 22), np.float32)
    copies = _symmetric_copies(rectangle, "black")
    assert copies is not None and int((~copies).sum()) == 5 * 7  # no transpose on a rectangle


def test_the_network_answers_positions_as_it_evaluates_them_not_the_whole_game_at_the_end(tmp_path, tiny_model, monkeypatch):
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "numpy")
    letters = "abcdefghi"
    black = [f"{c}a" for c in letters] + ["ab"]
    white = [f"{c}i" for c in letters] + ["ah"]
    moves = "".join(f";B[{b}];W[{w}]" for b, w in zip(black, white))
    game = game_from_sgf_text(f"(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]{moves})")
    assert game.ply_count == 20
    forwarded: list[int] = []
    real_forward = NetworkRunner.forward

    def counting_forward(self, spatial, global_inputs, threads=None):
        forwarded.append(len(spatial))
        return real_forward(self, spatial, global_inputs, threads)

    monkeypatch.setattr(NetworkRunner, "forward", counting_forward)
    engine, log = _engine(tmp_path, tiny_model[0])
    try:
        results = engine.analyse(game, range(21), Limit(visits=2), threading.Event())
        first = next(results)
        assert sum(forwarded) < 21  # the first answer came before every position was evaluated
        rest = list(results)
        assert sorted(e.ply for e in [first, *rest]) == list(range(21))
        assert _analysis_queries(log) == []
    finally:
        engine.close()
