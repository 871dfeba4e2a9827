"""KataGo's network in int8 (`katago_net.quantized`): its outputs close to float32's, its figures
under an identity of their own, its calibration kept on disk, and float32 when int8 cannot be made."""

from __future__ import annotations

import json
import logging
import threading

import numpy as np
import pytest

from reviewer.core.analysis import Limit
from reviewer.core.engines.install import installed_katago
from reviewer.core.engines.katago import model_path, plan_queries
from reviewer.core.engines.katago_net import quantized
from reviewer.core.engines.katago_net.features import inputs_for_turns
from reviewer.core.engines.katago_net.model import read_model
from reviewer.core.engines.katago_net.runtime import NetworkRunner, chosen_precision
from reviewer.core.engines.katago_search import KataGoNetworkSearch
from reviewer.core.formats import load_game
from tests.core.test_katago_net_model import _write, _Writer

pytestmark = pytest.mark.timeout(300)
OUTPUTS = ("policy_logits", "value_logits", "score", "ownership")


@pytest.fixture
def tiny_model(tmp_path):
    return _write(tmp_path / "tiny.bin.gz", _Writer().network())


def _positions(rows: int, columns: int, count: int = 3, seed: int = 3):
    rng = np.random.default_rng(seed)
    spatial = (rng.random((count, rows, columns, 22)) < 0.3).astype(np.float32)
    spatial[..., 0] = 1.0  # every point on the board
    return spatial, rng.standard_normal((count, 19)).astype(np.float32)


@pytest.mark.parametrize(("game", "turns"), [("katrain__LS_vs_AG_G4_English.sgf", [20, 60, 100, 140]),
                                             ("katago__sampletest9x9.sgf", [5, 15, 25])])
def test_the_int8_runner_stays_close_to_float32_on_real_positions(tiny_model, tmp_path, corpus_dir, game, turns):
    """A small network of random weights, calibrated on its own 19x19 games as a real one is: on real
    19x19 and 9x9 positions each output's largest error was 3-8% of its largest value (its outputs
    average over a few channels only, so 8-bit steps show more than in a real network)."""
    network = read_model(tiny_model)
    int8 = NetworkRunner(network, "onnxruntime", "int8", "tiny", tmp_path / "int8")
    fp32 = NetworkRunner(network, "onnxruntime")
    inputs = inputs_for_turns(plan_queries(load_game(corpus_dir / "sgf" / game)), 0, turns)
    spatial, global_inputs = inputs.spatial.astype(np.float32), inputs.global_inputs.astype(np.float32)
    low, high = int8.forward(spatial, global_inputs), fp32.forward(spatial, global_inputs)
    assert int8.precision == "int8" and int8.built(*spatial.shape[1:3])
    for name in OUTPUTS:
        ours, theirs = getattr(low, name), getattr(high, name)
        assert not np.array_equal(ours, theirs)  # another computation...
        assert np.abs(ours - theirs).max() <= 0.15 * np.abs(theirs).max(), name  # ...close to float32's
        assert np.corrcoef(ours.ravel(), theirs.ravel())[0, 1] > 0.99, name


def test_the_calibration_is_measured_once_and_kept_whole_on_disk(tiny_model, tmp_path, monkeypatch):
    network = read_model(tiny_model)
    first = quantized.calibration_ranges(network, "abc", tmp_path)
    (kept,) = tmp_path.glob("abc-int8-v*.json")
    assert not list(tmp_path.glob(".int8-*"))  # no half-written file left
    assert json.loads(kept.read_text())["ranges"].keys() == first.keys()
    monkeypatch.setattr(quantized, "measure_ranges", lambda network: pytest.fail("measured again"))
    assert quantized.calibration_ranges(network, "abc", tmp_path) == first
    kept.write_text("{damaged")
    monkeypatch.setattr(quantized, "measure_ranges", lambda network: {"t": (0.0, 1.0)})
    assert quantized.calibration_ranges(network, "abc", tmp_path) == {"t": (0.0, 1.0)}  # measured again, rewritten
    assert json.loads(kept.read_text())["ranges"] == {"t": [0.0, 1.0]}


def test_a_damaged_kept_int8_graph_is_made_again(tiny_model, tmp_path):
    network = read_model(tiny_model)
    spatial, global_inputs = _positions(5, 5)
    first = NetworkRunner(network, "onnxruntime", "int8", "tiny", tmp_path).forward(spatial, global_inputs)
    (kept,) = tmp_path.glob("tiny-int8-v*-5x5-*.onnx")
    kept.write_bytes(b"not a graph")
    again = NetworkRunner(network, "onnxruntime", "int8", "tiny", tmp_path)
    outputs = again.forward(spatial, global_inputs)
    assert again.precision == "int8" and kept.read_bytes() != b"not a graph"
    for name in OUTPUTS:
        np.testing.assert_array_equal(getattr(outputs, name), getattr(first, name))


def test_an_int8_graph_that_cannot_be_made_leaves_float32_to_evaluate(tiny_model, tmp_path, monkeypatch, caplog):
    network = read_model(tiny_model)

    def broken(*args, **kwargs):
        raise RuntimeError("no quantization here")

    monkeypatch.setattr(quantized, "cached_int8_model", broken)
    runner = NetworkRunner(network, "onnxruntime", "int8", "tiny", tmp_path)
    spatial, global_inputs = _positions(5, 5)
    with caplog.at_level(logging.WARNING):
        outputs = runner.forward(spatial, global_inputs)
    assert runner.precision == "fp32" and "no quantization here" in caplog.text
    expected = NetworkRunner(network, "onnxruntime").forward(spatial, global_inputs)
    for name in OUTPUTS:
        np.testing.assert_array_equal(getattr(outputs, name), getattr(expected, name))


def test_int8_figures_are_keyed_apart_from_float32_ones(tiny_model, monkeypatch):
    command = ["katago", "analysis", "-model", str(tiny_model)]
    int8 = KataGoNetworkSearch(command, precision="int8", workers=1)
    fp32 = KataGoNetworkSearch(command, precision="fp32", workers=1)
    limit = Limit(visits=32)
    assert int8.engine_id(limit) != fp32.engine_id(limit)
    assert "int8" in int8.engine_id(limit) and "int8" not in fp32.engine_id(limit)
    assert int8.engine_id(limit).startswith("Reviewer search ") and fp32.engine_id(limit).startswith("Reviewer search ")

    monkeypatch.setattr(quantized, "cached_int8_model", lambda *args: (_ for _ in ()).throw(RuntimeError("none")))
    fallen = KataGoNetworkSearch(command, precision="int8", workers=1)
    game = load_game_9x9()
    (evaluation,) = list(fallen.analyse(game, [3], Limit(visits=2), threading.Event()))
    assert fallen.precision == "fp32" and evaluation.engine_id == fp32.engine_id(Limit(visits=2))


def load_game_9x9():
    from reviewer.core.formats import game_from_sgf_text

    return game_from_sgf_text("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[gc];W[cg])")


def test_the_precision_is_int8_on_a_cpu_with_vnni_unless_fp32_is_asked_for(monkeypatch):
    monkeypatch.delenv("REVIEWER_KATAGO_PRECISION", raising=False)
    monkeypatch.setattr(quantized, "cpu_has_vnni", lambda: True)
    assert chosen_precision() == "int8"
    monkeypatch.setattr(quantized, "cpu_has_vnni", lambda: False)
    assert chosen_precision() == "fp32"
    monkeypatch.setenv("REVIEWER_KATAGO_PRECISION", "int8")
    assert chosen_precision() == "int8"
    monkeypatch.setenv("REVIEWER_KATAGO_PRECISION", "FP32")
    monkeypatch.setattr(quantized, "cpu_has_vnni", lambda: True)
    assert chosen_precision() == "fp32"


@pytest.mark.engine
def test_on_real_positions_int8_stays_within_the_networks_own_symmetry_noise(corpus_dir, tmp_path):
    """Over 419 positions int8 was measured at a mean policy KL of 0.0065 from float32, 1.0 points of
    winrate and 0.35 of lead, where the same network on the transposed board differs by 0.13, 3.3
    and 1.6 (benchmarks/network_precision.py); a dozen positions here, against bounds near that noise."""
    installed = installed_katago()
    if installed is None:
        pytest.skip("KataGo's network is not installed: run `reviewer engines install`")
    path = model_path(list(installed.command()))
    assert path is not None
    network = read_model(path)
    game = load_game(corpus_dir / "sgf" / "katrain__LS_vs_AG_G4_English.sgf")
    inputs = inputs_for_turns(plan_queries(game), 0, list(range(20, 180, 14)))
    spatial, global_inputs = inputs.spatial.astype(np.float32), inputs.global_inputs.astype(np.float32)
    int8 = NetworkRunner(network, "onnxruntime", "int8", quantized.file_digest(path), tmp_path)
    low, high = int8.forward(spatial, global_inputs, 1), NetworkRunner(network, "onnxruntime").forward(spatial, global_inputs, 1)
    assert int8.precision == "int8"

    def log_policy(logits):
        shifted = logits - logits.max(1, keepdims=True)
        return shifted - np.log(np.exp(shifted).sum(1, keepdims=True))

    p, q = log_policy(high.policy_logits), log_policy(low.policy_logits)
    assert (np.exp(p) * (p - q)).sum(1).mean() < 0.05
    assert (p.argmax(1) == q.argmax(1)).mean() >= 0.75
    lead_gap = np.abs(high.score[:, 2] - low.score[:, 2]) * 20
    assert lead_gap.mean() < 1.5

    def winrate(values):
        e = np.exp(values - values.max(1, keepdims=True))
        return (e[:, 0] - e[:, 1]) / e.sum(1) * 50 + 50

    assert np.abs(winrate(high.value_logits) - winrate(low.value_logits)).mean() < 3.0


def test_installing_builds_the_search_s_int8_graphs_beside_the_engines(monkeypatch):
    """`reviewer engines install` builds the network for Go's usual boards as a game just opened
    would, so the search's first position waits for nothing; the int8 calibration and graphs stay
    in the engines' directory that every process of the user shares. Nothing where KataGo's
    process searches."""
    from reviewer.core import paths
    from reviewer.core.engines import install
    from reviewer.core.engines.katago_net import evaluate

    installed = installed_katago()
    if installed is None:
        pytest.skip("KataGo is not installed (reviewer engines install)")
    said: list[str] = []
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "process")
    assert install.prepare_networks(said.append) == [] and said == []
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "search")
    monkeypatch.setenv("REVIEWER_KATAGO_PRECISION", "int8")
    assert install.prepare_networks(said.append) == []
    assert said == [said[0]] and said[0].startswith("the go engine's network is built for 19×19, 13×13, 9×9 (")
    kept = {path.name for path in (paths.engines_dir() / evaluate.INT8_DIRECTORY).iterdir()}
    digest = quantized.file_digest(installed.model_path())
    assert {f"{digest}-int8-v{quantized.QUANTIZATION_VERSION}-{n}x{n}-ort" for n in (19, 13, 9)} <= {
        name.split("ort")[0] + "ort" for name in kept}


def test_a_go_game_opened_builds_the_network_in_the_precision_the_search_will_run(tiny_model, tmp_path, monkeypatch):
    """The window builds the network when a Go game opens (`preload_network`): for Reviewer's search
    that is the int8 graph, not float32's, or the first position would wait for it."""
    from reviewer.core.engines import katago
    from reviewer.core.engines.katago_net import evaluate

    monkeypatch.setenv("REVIEWER_ENGINES_DIR", str(tmp_path / "engines"))
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "search")
    monkeypatch.setenv("REVIEWER_KATAGO_PRECISION", "int8")
    assert katago.preload_network(["katago", "analysis", "-model", str(tiny_model)], (9, 9))
    built = {key[-1]: runner for key, runner in evaluate._runners.items() if key[0] == str(tiny_model.resolve())}
    assert set(built) == {"int8"} and built["int8"].built(9, 9) and built["int8"].precision == "int8"


def test_making_an_int8_graph_writes_no_advice_to_the_log(tiny_model, caplog):
    """ONNX Runtime's quantizer advises pre-processing, as a warning, on every graph: not the user's concern."""
    network = read_model(tiny_model)
    with caplog.at_level(logging.INFO):
        quantized.int8_model(network, 9, 9, quantized.measure_ranges(network))
    assert not [record for record in caplog.records if "pre-process" in record.getMessage()]
