"""KataGo's network evaluated with numpy on the CPU, several positions at once.

Positions are evaluated at their board's exact size (KataGo's evaluation with a padded board and a
mask gives the same numbers). Tensors are (positions, rows, columns, channels), so that every
convolution is one matrix product over im2col patches, which BLAS runs on all cores.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from reviewer.core.engines.katago_net.model import BatchNorm, Block, Conv, Network

__all__ = ["RawOutputs", "forward"]

Floats = NDArray[np.float32]


@dataclass(frozen=True)
class RawOutputs:
    """The network's outputs for each position, from the side to move's point of view.

    `policy_logits`: (positions, rows * columns + 1), row-major from the top row, pass last;
    `value_logits`: (positions, 3) win, loss, no result; `score`: (positions, 4) score mean / 20,
    score stdev before softplus, lead / 20, time left before softplus; `ownership`: (positions,
    rows, columns) before tanh, positive for the side to move."""

    policy_logits: Floats
    value_logits: Floats
    score: Floats
    ownership: Floats


def _conv(x: Floats, conv: Conv) -> Floats:
    count, rows, columns, channels = x.shape
    ky, kx = conv.kernel
    if (ky, kx) == (1, 1):
        product: Floats = x @ conv.weights
        return product
    ry, rx = ky // 2, kx // 2
    padded = np.zeros((count, rows + 2 * ry, columns + 2 * rx, channels), np.float32)
    padded[:, ry : ry + rows, rx : rx + columns] = x
    patches = np.empty((count, rows, columns, ky * kx * channels), np.float32)
    for dy in range(ky):
        for dx in range(kx):
            at = (dy * kx + dx) * channels
            patches[..., at : at + channels] = padded[:, dy : dy + rows, dx : dx + columns]
    flat: Floats = patches.reshape(-1, ky * kx * channels) @ conv.weights
    return flat.reshape(count, rows, columns, conv.out_channels)


def _norm_relu(x: Floats, norm: BatchNorm) -> Floats:
    activated: Floats = np.maximum(x * norm.scale + norm.bias, np.float32(0))
    return activated


def _pooled(x: Floats) -> Floats:
    """Per channel: mean, mean scaled by the board's size, and max (the trunk's and policy's pooling)."""
    size = math.sqrt(x.shape[1] * x.shape[2])
    mean = x.mean(axis=(1, 2), dtype=np.float32)
    top = x.max(axis=(1, 2))
    return np.concatenate([mean, mean * np.float32((size - 14) * 0.1), top], axis=1)


def _value_pooled(x: Floats) -> Floats:
    size = math.sqrt(x.shape[1] * x.shape[2])
    mean = x.mean(axis=(1, 2), dtype=np.float32)
    scaled = mean * np.float32((size - 14) * 0.1)
    squared = mean * np.float32((size - 14) ** 2 * 0.01 - 0.1)
    return np.concatenate([mean, scaled, squared], axis=1)


def _block(x: Floats, block: Block) -> Floats:
    inner = _norm_relu(x, block.pre)
    regular = _conv(inner, block.regular)
    if block.gpool is not None:
        assert block.gpool_norm is not None and block.gpool_to_bias is not None
        pooled = _pooled(_norm_relu(_conv(inner, block.gpool), block.gpool_norm))
        regular = regular + (pooled @ block.gpool_to_bias)[:, None, None, :]
    return x + _conv(_norm_relu(regular, block.mid), block.final)


def forward(network: Network, spatial: Floats, global_inputs: Floats) -> RawOutputs:
    """Evaluate positions: `spatial` (positions, rows, columns, 22), `global_inputs` (positions, 19)."""
    x = _conv(spatial.astype(np.float32), network.initial_conv)
    x = x + (global_inputs.astype(np.float32) @ network.initial_global)[:, None, None, :]
    for block in network.blocks:
        x = _block(x, block)
    trunk = _norm_relu(x, network.trunk_tip)
    count, rows, columns, _ = trunk.shape

    policy = network.policy
    p1 = _conv(trunk, policy.p1)
    pooled = _pooled(_norm_relu(_conv(trunk, policy.g1), policy.g1_norm))
    p1 = p1 + (pooled @ policy.gpool_to_bias)[:, None, None, :]
    board_logits = _conv(_norm_relu(p1, policy.p1_norm), policy.p2).reshape(count, rows * columns)
    pass_logit = pooled @ policy.gpool_to_pass
    policy_logits = np.concatenate([board_logits, pass_logit], axis=1)

    value = network.value
    v1 = _norm_relu(_conv(trunk, value.v1), value.v1_norm)
    v2 = np.maximum(_value_pooled(v1) @ value.v2 + value.v2_bias, np.float32(0))
    ownership = _conv(v1, value.ownership).reshape(count, rows, columns)
    return RawOutputs(policy_logits, v2 @ value.v3 + value.v3_bias, v2 @ value.score + value.score_bias, ownership)
