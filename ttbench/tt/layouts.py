"""Where a TTNN tensor lives, read from its layout: `#ttnn.ttnn_layout<MAP, <GRID>, memref<SHARD x ELEMENT, BUFFER>,
<MEMORY_LAYOUT>, core_ranges = ...>` — the buffer (DRAM, L1 or host memory), interleaved or sharded (by width,
height or block), the core grid, and the shard each core holds (in tiles for a tiled tensor).

The compiler's optimizer (optimization levels 1 and 2) is what moves tensors into L1 and shards them; at level 0
every device tensor is interleaved in DRAM. These are the program's own statements, read without a chip.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Optional

from ..ir.brackets import AttributeSyntaxError, skip_balanced, split_top_level
from ..ir.op_head import TensorType

_LAYOUT_HEAD = "#ttnn.ttnn_layout<"
_BUFFER_RE = re.compile(r"#ttnn\.buffer_type<(\w+)>")
_TILE_RE = re.compile(r"^!ttcore\.tile<(\d+)x(\d+),\s*(\w+)>$")
SHARDED = ("width_sharded", "height_sharded", "block_sharded")


@dataclass(frozen=True)
class Placement:
    buffer: str  # "dram", "l1", "system_memory"
    memory_layout: str  # "interleaved", one of SHARDED, or "" (a host tensor states none)
    grid: tuple  # the layout's core grid, (rows, columns)
    shard: tuple  # the memref's dimensions: what each core holds (tiles for a tiled tensor, elements otherwise)
    tile: Optional[tuple]  # (32, 32) for a tiled tensor, None for row-major
    element: str  # the element type held ("f32", "bf16", ...)

    @property
    def sharded(self) -> bool:
        return self.memory_layout in SHARDED

    @property
    def label(self) -> str:
        """`L1 width_sharded on 1x2`, `DRAM interleaved`, `host`."""
        if self.buffer == "system_memory":
            return "host"
        where = "L1" if self.buffer == "l1" else self.buffer.upper()
        grid = f" on {'x'.join(map(str, self.grid))}" if self.sharded else ""
        return f"{where} {self.memory_layout}{grid}".strip()


class LayoutUnreadable(ValueError):
    """A layout this reader does not follow (the compiler printed something new): said, never guessed."""


def placement(t: Optional[TensorType], aliases: dict) -> Optional[Placement]:
    """The placement a TTNN tensor type's layout states; None for a type with no ttnn layout (a device handle, a
    TTIR tensor). `aliases`: the module's attribute aliases (`#l1` -> `#ttnn.buffer_type<l1>`)."""
    if t is None or not t.encoding.startswith(_LAYOUT_HEAD):
        return None
    encoding = t.encoding
    try:
        body = encoding[len(_LAYOUT_HEAD):skip_balanced(encoding, len(_LAYOUT_HEAD) - 1) - 1]
        parts = split_top_level(body)
    except AttributeSyntaxError as exc:
        raise LayoutUnreadable(f"unreadable layout {encoding[:120]!r}") from exc
    grid_part = next((p for p in parts[1:] if re.fullmatch(r"<\d+(?:x\d+)*>", p)), None)
    memref = next((p for p in parts if p.startswith("memref<")), None)
    if grid_part is None or memref is None:
        raise LayoutUnreadable(f"no grid or memref in the layout {encoding[:120]!r}")
    layout = next((p[1:-1] for p in parts if p in {f"<{m}>" for m in ("interleaved", *SHARDED)}), "")
    items = split_top_level(memref[len("memref<"):-1])
    if len(items) != 2:
        raise LayoutUnreadable(f"unreadable memref {memref[:120]!r}")
    buffer_text = aliases.get(items[1], items[1])
    found = _BUFFER_RE.search(buffer_text)
    if found is None:
        raise LayoutUnreadable(f"no buffer type in {memref[:120]!r}")
    shape_and_element = items[0]
    cut = shape_and_element.find("x!") if "!" in shape_and_element else shape_and_element.rfind("x")
    dims, element = shape_and_element[:cut], shape_and_element[cut + 1:]
    tile = None
    tiled = _TILE_RE.match(element)
    if tiled:
        tile, element = (int(tiled.group(1)), int(tiled.group(2))), tiled.group(3)
    try:
        shard = tuple(int(d) for d in dims.split("x"))
        grid = tuple(int(d) for d in grid_part[1:-1].split("x"))
    except ValueError as exc:
        raise LayoutUnreadable(f"unreadable shard or grid in {encoding[:120]!r}") from exc
    return Placement(buffer=found.group(1), memory_layout=layout, grid=grid, shard=shard, tile=tile, element=element)


# Bytes of one element, and of one 32x32 tile of the block-float formats (mantissas, plus one shared exponent byte
# per 16 elements).
ELEMENT_BYTES = {"f32": 4, "si32": 4, "ui32": 4, "u32": 4, "i32": 4, "bf16": 2, "f16": 2, "si16": 2, "ui16": 2,
                 "u16": 2, "i16": 2, "si8": 1, "ui8": 1, "u8": 1, "i8": 1, "i1": 1, "f64": 8, "si64": 8, "i64": 8}
BLOCK_FLOAT_TILE_BYTES = {"bfp_bf8": 1088, "bfp_f8": 1088, "bfp_bf4": 576, "bfp_f4": 576, "bfp_bf2": 320,
                          "bfp_f2": 320}


def page_bytes(p: Placement) -> Optional[int]:
    """Bytes of one page: a tile of a tiled tensor, a row (the shard's last dimension) of a row-major one; None for
    an element type ttbench does not size."""
    if p.tile is not None:
        if p.element in BLOCK_FLOAT_TILE_BYTES and p.tile == (32, 32):
            return BLOCK_FLOAT_TILE_BYTES[p.element]
        item = ELEMENT_BYTES.get(p.element)
        return None if item is None else p.tile[0] * p.tile[1] * item
    item = ELEMENT_BYTES.get(p.element)
    return None if item is None or not p.shard else p.shard[-1] * item


def pages(p: Placement) -> int:
    """Pages the memref holds: each core's share for a layout over a core grid (sharded, or interleaved over the L1
    banks, where every bank reserves the same range), the whole tensor for a layout on a 1x1 grid (DRAM)."""
    return math.prod(p.shard) if p.tile is not None else math.prod(p.shard[:-1])


def tensor_bytes(p: Placement) -> Optional[int]:
    """The bytes the tensor takes on the device, tile-padded: its memref on every core of its grid."""
    size = page_bytes(p)
    return None if size is None else pages(p) * size * math.prod(p.grid)


def bytes_per_core(p: Placement, cores: int) -> Optional[int]:
    """The most an L1 tensor takes on one core: its memref on a grid of cores; a tensor stated on one core's grid
    dealt round-robin over all `cores`."""
    size = page_bytes(p)
    if size is None:
        return None
    if math.prod(p.grid) > 1 or p.sharded:
        return pages(p) * size
    return -(-pages(p) // cores) * size


@dataclass(frozen=True)
class ChipLimits:
    """What one chip holds, from the system descriptor the program was compiled for."""
    arch: str
    worker_cores: int  # the Tensix grid
    l1_per_core: int  # bytes of L1 a core leaves to tensors and circular buffers (l1_size - l1_unreserved_base)
    dram: int  # bytes of DRAM over all channels, less what the firmware reserves

    def to_dict(self) -> dict:
        return {"arch": self.arch, "worker_cores": self.worker_cores, "l1_per_core": self.l1_per_core,
                "dram": self.dram}


_DESC_FIELDS = ("l1_size", "l1_unreserved_base", "num_dram_channels", "dram_unreserved_base", "dram_unreserved_end")


def chip_limits(aliases: dict) -> Optional[ChipLimits]:
    """The first chip of the module's `#system_desc`, or None when the module states none."""
    desc = aliases.get("#system_desc", "")
    chip = desc[desc.find("arch = "):] if "arch = " in desc else ""
    fields = {}
    for name in _DESC_FIELDS:
        m = re.search(rf"\b{name} = (\d+)", chip)
        if m is None:
            return None
        fields[name] = int(m.group(1))
    arch = re.match(r"arch = <(\w+)>", chip)
    grid = re.search(r"\bgrid = (\d+)x(\d+)", chip)
    if arch is None or grid is None:
        return None
    return ChipLimits(arch=arch.group(1), worker_cores=int(grid.group(1)) * int(grid.group(2)),
                      l1_per_core=fields["l1_size"] - fields["l1_unreserved_base"],
                      dram=fields["num_dram_channels"] * (fields["dram_unreserved_end"] - fields["dram_unreserved_base"]))
