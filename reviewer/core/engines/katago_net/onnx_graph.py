"""KataGo's network as an ONNX graph for ONNX Runtime's CPU provider (faster than numpy's matrix
products on a CPU: benchmarks/network_cpu_paths.py), one graph per board size.

The graph computes exactly what `network.forward` computes, with the same inputs and outputs
(positions, rows, columns, channels in; the same four outputs); tests compare the two. Each node is
named after its output; the convolutions' names say where they are (`TRUNK_CONV`: the residual
blocks', which `quantized` may compute in int8; `input_conv`, `head_conv`: the first one and the heads').
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from reviewer.core.engines.katago_net.model import BatchNorm, Conv, Floats, Network

__all__ = ["HEAD_CONV", "TRUNK_CONV", "onnx_model"]

OPSET = 17
TRUNK_CONV = "trunk_conv"  # the stem of the names of the residual blocks' convolutions
HEAD_CONV = "head_conv"


class _Graph:
    def __init__(self, helper: Any, numpy_helper: Any) -> None:
        self.helper, self.numpy_helper = helper, numpy_helper
        self.nodes: list[Any] = []
        self.weights: list[Any] = []
        self.count = 0

    def _name(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def constant(self, values: Floats | np.ndarray[Any, Any]) -> str:
        name = self._name("w")
        self.weights.append(self.numpy_helper.from_array(np.ascontiguousarray(values), name))
        return name

    def op(self, kind: str, inputs: list[str], stem: str | None = None, **attributes: Any) -> str:
        name = self._name(stem or kind.lower())
        self.nodes.append(self.helper.make_node(kind, inputs, [name], name=name, **attributes))
        return name

    def output(self, kind: str, inputs: list[str], name: str, **attributes: Any) -> None:
        self.nodes.append(self.helper.make_node(kind, inputs, [name], name=name, **attributes))

    def conv(self, x: str, conv: Conv, stem: str = HEAD_CONV) -> str:
        ky, kx = conv.kernel
        weights = conv.weights.reshape(ky, kx, conv.in_channels, conv.out_channels).transpose(3, 2, 0, 1)
        return self.op("Conv", [x, self.constant(weights)], stem, pads=[ky // 2, kx // 2, ky // 2, kx // 2])

    def norm_relu(self, x: str, norm: BatchNorm) -> str:
        scale, bias = (v.reshape(1, -1, 1, 1) for v in (norm.scale, norm.bias))
        return self.op("Relu", [self.op("Add", [self.op("Mul", [x, self.constant(scale)]), self.constant(bias)])])

    def pooled(self, x: str, area: int, value_head: bool = False) -> str:
        """(positions, 3C): mean, mean * (sqrt(area) - 14) / 10, and max (value head: a quadratic term)."""
        size = math.sqrt(area)
        mean = self.op("ReduceMean", [x], axes=[2, 3], keepdims=0)
        scaled = self.op("Mul", [mean, self.constant(np.array((size - 14) * 0.1, np.float32))])
        if value_head:
            third = self.op("Mul", [mean, self.constant(np.array((size - 14) ** 2 * 0.01 - 0.1, np.float32))])
        else:
            third = self.op("ReduceMax", [x], axes=[2, 3], keepdims=0)
        return self.op("Concat", [mean, scaled, third], axis=1)

    def channel_bias(self, x: str, vector: str, matrix: Floats) -> str:
        """x plus, per channel, `vector @ matrix` (a per-position vector) broadcast over the board."""
        bias = self.op("MatMul", [vector, self.constant(matrix)])
        return self.op("Add", [x, self.op("Unsqueeze", [bias, self.constant(np.array([2, 3], np.int64))])])


def onnx_model(network: Network, rows: int, columns: int) -> bytes:
    """The serialized ONNX model of `network` for boards of rows x columns. Needs the `onnx` package."""
    from onnx import TensorProto, helper, numpy_helper

    graph = _Graph(helper, numpy_helper)
    spatial = graph.op("Transpose", ["spatial"], perm=[0, 3, 1, 2])
    x = graph.channel_bias(graph.conv(spatial, network.initial_conv, "input_conv"), "global_inputs", network.initial_global)
    for block in network.blocks:
        inner = graph.norm_relu(x, block.pre)
        regular = graph.conv(inner, block.regular, TRUNK_CONV)
        if block.gpool is not None:
            assert block.gpool_norm is not None and block.gpool_to_bias is not None
            gpool = graph.conv(inner, block.gpool, TRUNK_CONV)
            pooled = graph.pooled(graph.norm_relu(gpool, block.gpool_norm), rows * columns)
            regular = graph.channel_bias(regular, pooled, block.gpool_to_bias)
        x = graph.op("Add", [x, graph.conv(graph.norm_relu(regular, block.mid), block.final, TRUNK_CONV)])
    trunk = graph.norm_relu(x, network.trunk_tip)

    policy = network.policy
    pooled = graph.pooled(graph.norm_relu(graph.conv(trunk, policy.g1), policy.g1_norm), rows * columns)
    p1 = graph.channel_bias(graph.conv(trunk, policy.p1), pooled, policy.gpool_to_bias)
    board = graph.op("Flatten", [graph.conv(graph.norm_relu(p1, policy.p1_norm), policy.p2)], axis=1)
    pass_logit = graph.op("MatMul", [pooled, graph.constant(policy.gpool_to_pass)])
    graph.output("Concat", [board, pass_logit], "policy_logits", axis=1)

    value = network.value
    v1 = graph.norm_relu(graph.conv(trunk, value.v1), value.v1_norm)
    v2 = graph.op("MatMul", [graph.pooled(v1, rows * columns, value_head=True), graph.constant(value.v2)])
    v2 = graph.op("Relu", [graph.op("Add", [v2, graph.constant(value.v2_bias)])])
    for name, matrix, bias in (("value_logits", value.v3, value.v3_bias), ("score", value.score, value.score_bias)):
        product = graph.op("MatMul", [v2, graph.constant(matrix)])
        graph.output("Add", [product, graph.constant(bias)], name)
    ownership = graph.conv(v1, value.ownership)
    graph.output("Squeeze", [ownership, graph.constant(np.array([1], np.int64))], "ownership")

    def tensor(name: str, shape: list[Any]) -> Any:
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)

    channels = network.initial_conv.in_channels
    inputs = [tensor("spatial", ["n", rows, columns, channels]), tensor("global_inputs", ["n", network.initial_global.shape[0]])]
    outputs = [tensor(name, None) for name in ("policy_logits", "value_logits", "score", "ownership")]  # type: ignore[arg-type]
    model = helper.make_model(
        helper.make_graph(graph.nodes, network.name, inputs, outputs, graph.weights),
        opset_imports=[helper.make_opsetid("", OPSET)],
    )
    serialized: bytes = model.SerializeToString()
    return serialized
