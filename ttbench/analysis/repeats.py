"""Repeated layers: the run of identical blocks a stage is mostly made of (an 8B LLM is one decoder layer, 32 times).

Two ops are the same when their op name, source line and printed text agree once SSA names are set aside (so
`%add_5` and `%add_41` of two layers match, and so do their weights `%p_layers_0_...` and `%p_layers_1_...`).
A repeat is the longest run of consecutive identical blocks; views and findings show its first block with "xN"
and fold the others (the IR itself is never changed: the stage text and the export folder keep every op).

Found in O(n): each op signature that recurs at equal spacing proposes that spacing as the block length; for the
best-supported lengths, block equality is tested with prefix hashes and the longest chain of equal blocks wins.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Optional
from ..core import BringupRecord

MIN_BLOCK_OPS = 8  # shorter periods are op-level patterns (reshape, deallocate, ...), not layers
MIN_COUNT = 2
_CANDIDATE_PERIODS = 3
_SSA = re.compile(r"%[\w.$#-]+|\[num_users=\d+\]")  # names, and FX's use counts (a layer's last op differs)
_MOD = (1 << 61) - 1
_BASE = 1_000_003


@dataclass(frozen=True)
class Repeat:
    start: int  # index (in stage.ops) of the first op of the first block
    length: int  # ops per block
    count: int  # blocks, the first included

    @property
    def end(self) -> int:
        return self.start + self.length * self.count

    def folded(self, index: int) -> bool:
        """Whether op `index` lies in a block after the first (shown as the first block's twin)."""
        return self.start + self.length <= index < self.end

    def twin(self, index: int) -> int:
        """The op of the first block at the same position as op `index` (itself outside the folded blocks)."""
        return self.start + (index - self.start) % self.length if self.folded(index) else index

    def to_dict(self) -> dict:
        return {"start": self.start, "length": self.length, "count": self.count}


def signature(op) -> tuple:
    return op.name, op.location, _SSA.sub("%", op.text)


def find_repeat(ops) -> Optional[Repeat]:
    ids: dict = {}
    seq = [ids.setdefault(signature(op), len(ids)) for op in ops]
    n = len(seq)
    if n < MIN_BLOCK_OPS * MIN_COUNT:
        return None
    periods = _periods(seq)
    if not periods:
        return None
    prefix, powers = _prefix_hashes(seq)
    best = None
    for length in periods:
        found = _longest_chain(prefix, powers, n, length)
        if found and (best is None or found.length * found.count > best.length * best.count):
            best = found
    return best


def _periods(seq: list) -> list:
    """Block lengths proposed by signatures that recur at one fixed spacing, best supported first."""
    positions: dict = {}
    for i, s in enumerate(seq):
        positions.setdefault(s, []).append(i)
    votes: Counter = Counter()
    for at in positions.values():
        if len(at) < MIN_COUNT:
            continue
        gaps = {b - a for a, b in zip(at, at[1:])}
        if len(gaps) == 1:
            (gap,) = gaps
            if gap >= MIN_BLOCK_OPS:
                votes[gap] += 1
    return [gap for gap, _ in votes.most_common(_CANDIDATE_PERIODS)]


def _prefix_hashes(seq: list):
    prefix, powers = [0] * (len(seq) + 1), [1] * (len(seq) + 1)
    for i, s in enumerate(seq):
        prefix[i + 1] = (prefix[i] * _BASE + s + 1) % _MOD
        powers[i + 1] = powers[i] * _BASE % _MOD
    return prefix, powers


def _longest_chain(prefix, powers, n: int, length: int) -> Optional[Repeat]:
    def block(i):
        return (prefix[i + length] - prefix[i] * powers[length]) % _MOD

    # chain[i]: how many equal blocks of `length` follow one another from op i
    chain = [1] * (n - length + 1)
    for i in range(n - 2 * length, -1, -1):
        if block(i) == block(i + length):
            chain[i] = chain[i + length] + 1
    start = max(range(len(chain)), key=lambda i: (chain[i], -i))
    count = chain[start]
    return Repeat(start, length, count) if count >= MIN_COUNT else None


def stage_repeats(b: BringupRecord) -> dict:
    """{stage name: Repeat} for the bringup's stages that have one."""
    out = {}
    for name, stage in b.stages.items():
        if stage.ok and stage.ops:
            found = find_repeat(stage.ops)
            if found is not None:
                out[name] = found
    return out
