"""KataGo's network files (`.bin.gz`, model version 8: residual blocks, some with global pooling).

A file is gzip of whitespace-separated text tokens; each block of weights is the marker `@BIN@`
followed by little-endian float32 values, as many as the header fields before it say. Convolution
weights are stored [y][x][in][out], matrices [in][out]. Batch norms are folded here into one scale
and one bias per channel, the form the forward pass uses. Newer files (transformer trunks, other
activations, the header's post-processing constants) are refused with ModelUnsupported.
"""

from __future__ import annotations

import gzip
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "SUPPORTED_VERSIONS",
    "BatchNorm",
    "Block",
    "Conv",
    "ModelUnsupported",
    "Network",
    "PolicyHead",
    "ValueHead",
    "model_problem",
    "read_model",
]

Floats = NDArray[np.float32]

# The versions whose layout and outputs are read here and were checked against KataGo's own
# evaluation of the same positions (benchmarks/katago_net_check.py).
SUPPORTED_VERSIONS = frozenset({8})
INPUT_CHANNELS = 22  # KataGo's input version 7
GLOBAL_INPUT_CHANNELS = 19
_MARKER = b"@BIN@"
_WHITESPACE = b" \t\r\n\v\f"


class ModelUnsupported(Exception):
    """The file is not a KataGo network this reader knows (or it is damaged)."""


@dataclass(frozen=True)
class Conv:
    weights: Floats  # (ky * kx * in, out): [y][x][in] flattened, as im2col patches are laid out
    kernel: tuple[int, int]  # (ky, kx)
    in_channels: int
    out_channels: int


@dataclass(frozen=True)
class BatchNorm:
    """A batch norm folded for inference: y = x * scale + bias (then ReLU and the board mask)."""

    scale: Floats
    bias: Floats


@dataclass(frozen=True)
class Block:
    pre: BatchNorm
    regular: Conv
    mid: BatchNorm
    final: Conv
    gpool: Conv | None = None  # a global-pooling block: its pooled channels give `regular` a bias
    gpool_norm: BatchNorm | None = None
    gpool_to_bias: Floats | None = None  # (3 * gpool channels, regular channels)


@dataclass(frozen=True)
class PolicyHead:
    p1: Conv
    g1: Conv
    g1_norm: BatchNorm
    gpool_to_bias: Floats
    p1_norm: BatchNorm
    p2: Conv
    gpool_to_pass: Floats


@dataclass(frozen=True)
class ValueHead:
    v1: Conv
    v1_norm: BatchNorm
    v2: Floats
    v2_bias: Floats
    v3: Floats  # -> (win, loss, no result) logits of the side to move
    v3_bias: Floats
    score: Floats  # -> (score mean, score stdev before softplus, lead, variance of time left)
    score_bias: Floats
    ownership: Conv


@dataclass(frozen=True)
class Network:
    name: str
    version: int
    initial_conv: Conv
    initial_global: Floats  # (global inputs, trunk channels)
    blocks: tuple[Block, ...]
    trunk_tip: BatchNorm
    policy: PolicyHead
    value: ValueHead

    @property
    def trunk_channels(self) -> int:
        return self.initial_conv.out_channels


class _Tokens:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def word(self) -> str:
        data, at = self.data, self.at
        while at < len(data) and data[at] in _WHITESPACE:
            at += 1
        start = at
        while at < len(data) and data[at] not in _WHITESPACE:
            at += 1
        if start == at:
            raise ModelUnsupported("the file ends in the middle of the network")
        self.at = at
        return data[start:at].decode("ascii", errors="replace")

    def integer(self) -> int:
        return int(self._numeric("a whole number"))

    def number(self) -> float:
        return self._numeric("a number")

    def _numeric(self, what: str) -> float:
        text = self.word()
        try:
            return int(text) if what == "a whole number" else float(text)
        except ValueError:
            raise ModelUnsupported(f"expected {what}, found {text[:40]!r}") from None

    def floats(self, count: int) -> Floats:
        marker = self.data.find(_MARKER, self.at, self.at + 100 + len(_MARKER))
        if marker < 0:
            raise ModelUnsupported("expected a block of weights (@BIN@); text networks are not read")
        start = marker + len(_MARKER)
        if count < 0 or start + 4 * count > len(self.data):
            raise ModelUnsupported("the file ends in the middle of a block of weights")
        values = np.frombuffer(self.data, dtype="<f4", count=count, offset=start).astype(np.float32)
        if not np.all(np.isfinite(values)):
            raise ModelUnsupported("a block of weights holds a value that is not a number")
        self.at = start + 4 * count
        return values


def _conv(tokens: _Tokens) -> Conv:
    tokens.word()  # the layer's name
    ky, kx, channels_in, channels_out, dilation_y, dilation_x = (tokens.integer() for _ in range(6))
    if (dilation_y, dilation_x) != (1, 1) or ky % 2 == 0 or kx % 2 == 0:
        raise ModelUnsupported(f"a convolution of {ky}x{kx} dilated {dilation_y}x{dilation_x} is not supported")
    weights = tokens.floats(ky * kx * channels_in * channels_out).reshape(ky * kx * channels_in, channels_out)
    return Conv(weights, (ky, kx), channels_in, channels_out)


def _norm(tokens: _Tokens, channels: int) -> BatchNorm:
    tokens.word()
    count, epsilon, has_scale, has_bias = tokens.integer(), tokens.number(), tokens.integer(), tokens.integer()
    if count != channels:
        raise ModelUnsupported(f"a batch norm of {count} channels follows a layer of {channels}")
    mean, variance = tokens.floats(count), tokens.floats(count)
    scale = tokens.floats(count) if has_scale else np.ones(count, np.float32)
    bias = tokens.floats(count) if has_bias else np.zeros(count, np.float32)
    folded = (scale / np.sqrt(variance + np.float32(epsilon))).astype(np.float32)
    return BatchNorm(folded, (bias - folded * mean).astype(np.float32))


def _activation(tokens: _Tokens) -> None:
    tokens.word()  # version 8: always ReLU


def _matrix(tokens: _Tokens, rows: int | None = None) -> Floats:
    tokens.word()
    count_in, count_out = tokens.integer(), tokens.integer()
    if rows is not None and count_in != rows:
        raise ModelUnsupported(f"a matrix of {count_in} rows follows a layer of {rows} values")
    return tokens.floats(count_in * count_out).reshape(count_in, count_out)


def _bias(tokens: _Tokens) -> Floats:
    tokens.word()
    return tokens.floats(tokens.integer())


def _pooled_branch(tokens: _Tokens) -> tuple[Conv, BatchNorm, Floats]:
    """A convolution, its norm and activation, and the matrix from its pooled channels to a bias."""
    conv = _conv(tokens)
    norm = _norm(tokens, conv.out_channels)
    _activation(tokens)
    return conv, norm, _matrix(tokens, 3 * conv.out_channels)


def _block(tokens: _Tokens, channels: int) -> Block:
    kind = tokens.word()
    if kind not in ("ordinary_block", "gpool_block"):
        raise ModelUnsupported(f"blocks of kind {kind!r} are not supported")
    tokens.word()
    pre = _norm(tokens, channels)
    _activation(tokens)
    regular = _conv(tokens)
    gpool = gpool_norm = gpool_to_bias = None
    if kind == "gpool_block":
        gpool, gpool_norm, gpool_to_bias = _pooled_branch(tokens)
    mid = _norm(tokens, regular.out_channels)
    _activation(tokens)
    final = _conv(tokens)
    if final.out_channels != channels:
        raise ModelUnsupported("a residual block does not give back the trunk's channels")
    return Block(pre, regular, mid, final, gpool, gpool_norm, gpool_to_bias)


def _policy(tokens: _Tokens) -> PolicyHead:
    tokens.word()
    p1 = _conv(tokens)
    g1, g1_norm, gpool_to_bias = _pooled_branch(tokens)
    p1_norm = _norm(tokens, p1.out_channels)
    _activation(tokens)
    p2 = _conv(tokens)
    gpool_to_pass = _matrix(tokens, 3 * g1.out_channels)
    if p2.out_channels != 1 or gpool_to_pass.shape[1] != 1:
        raise ModelUnsupported("a policy head with several policies is not supported")
    return PolicyHead(p1, g1, g1_norm, gpool_to_bias, p1_norm, p2, gpool_to_pass)


def _value(tokens: _Tokens) -> ValueHead:
    tokens.word()
    v1 = _conv(tokens)
    v1_norm = _norm(tokens, v1.out_channels)
    _activation(tokens)
    v2, v2_bias = _matrix(tokens, 3 * v1.out_channels), _bias(tokens)
    _activation(tokens)
    v3, v3_bias = _matrix(tokens), _bias(tokens)
    score, score_bias = _matrix(tokens), _bias(tokens)
    ownership = _conv(tokens)
    if v3.shape[1] != 3 or score.shape[1] != 4 or ownership.out_channels != 1:
        raise ModelUnsupported("the value head does not have version 8's outputs")
    return ValueHead(v1, v1_norm, v2, v2_bias, v3, v3_bias, score, score_bias, ownership)


_HEADER_BYTES = 4096  # the name, the version and the input widths come first, as text


def model_problem(path: str | Path) -> str | None:
    """Why the network in `path` cannot be read here (its version or its inputs), from the first
    bytes of the file only (milliseconds, where `read_model` takes seconds); None when its header is
    one `read_model` reads. A file damaged further on is only found by `read_model`."""
    try:
        with gzip.open(path, "rb") as stream:
            head = stream.read(_HEADER_BYTES)
    except (OSError, EOFError, zlib.error) as error:
        return f"cannot read {path}: {error}"
    try:
        tokens = _Tokens(head)
        name, version = tokens.word(), tokens.integer()
        if version not in SUPPORTED_VERSIONS:
            return f"{name} is a version {version} network; versions {sorted(SUPPORTED_VERSIONS)} are read"
        spatial, global_inputs = tokens.integer(), tokens.integer()
    except ModelUnsupported as error:
        return f"{Path(path).name}: {error}"
    if (spatial, global_inputs) != (INPUT_CHANNELS, GLOBAL_INPUT_CHANNELS):
        return f"{name} takes {spatial}+{global_inputs} inputs, not KataGo's input version 7"
    return None


def read_model(path: str | Path) -> Network:
    """The network in a KataGo `.bin.gz` file; ModelUnsupported when it cannot be read here."""
    try:
        with gzip.open(path, "rb") as stream:
            data = stream.read()
    except (OSError, EOFError, zlib.error) as error:
        raise ModelUnsupported(f"cannot read {path}: {error}") from None
    tokens = _Tokens(data)
    name, version = tokens.word(), tokens.integer()
    if version not in SUPPORTED_VERSIONS:
        raise ModelUnsupported(f"{name} is a version {version} network; versions {sorted(SUPPORTED_VERSIONS)} are read")
    spatial, global_inputs = tokens.integer(), tokens.integer()
    if (spatial, global_inputs) != (INPUT_CHANNELS, GLOBAL_INPUT_CHANNELS):
        raise ModelUnsupported(f"{name} takes {spatial}+{global_inputs} inputs, not KataGo's input version 7")
    tokens.word()  # "trunk"
    block_count, channels = tokens.integer(), tokens.integer()
    for _ in range(4):  # mid, regular, dilated and gpool widths: each layer states its own
        tokens.integer()
    initial_conv = _conv(tokens)
    if initial_conv.in_channels != spatial or initial_conv.out_channels != channels:
        raise ModelUnsupported("the first convolution does not match the inputs and the trunk")
    initial_global = _matrix(tokens, global_inputs)
    blocks = tuple(_block(tokens, channels) for _ in range(block_count))
    trunk_tip = _norm(tokens, channels)
    _activation(tokens)
    policy, value = _policy(tokens), _value(tokens)
    if data[tokens.at :].strip():
        raise ModelUnsupported(f"{name} has more layers than a version {version} network")
    return Network(name, version, initial_conv, initial_global, blocks, trunk_tip, policy, value)
