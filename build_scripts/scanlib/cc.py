"""Connected components of a 1-bit image (8-connected), found on pixel runs with numpy.

The image is a 2-D boolean array, True where there is ink. Components are found by
joining horizontal runs of ink that touch a run on the row above (diagonals count), then
resolving the joins with vectorised label propagation. Only numpy is needed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

BoolImage = NDArray[np.bool_]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class Runs:
    """Horizontal runs of ink: row, first column, one past the last column."""

    row: IntArray
    start: IntArray
    end: IntArray


@dataclass(frozen=True)
class Components:
    """Per-component statistics; index i describes component i (labels are 0..n-1)."""

    runs: Runs
    run_label: IntArray
    area: IntArray
    top: IntArray
    left: IntArray
    bottom: IntArray  # exclusive
    right: IntArray  # exclusive

    @property
    def count(self) -> int:
        return int(self.area.shape[0])

    @property
    def height(self) -> IntArray:
        return self.bottom - self.top

    @property
    def width(self) -> IntArray:
        return self.right - self.left


def find_runs(ink: BoolImage) -> Runs:
    """All horizontal runs of True pixels, ordered by row then column."""
    h, w = ink.shape
    padded = np.zeros((h, w + 2), dtype=np.int8)
    padded[:, 1:-1] = ink
    diff = np.diff(padded, axis=1)
    rs, cs = np.nonzero(diff == 1)
    re, ce = np.nonzero(diff == -1)
    # np.nonzero is row-major, so starts and ends pair up in order.
    assert rs.shape == re.shape
    return Runs(row=rs.astype(np.int64), start=cs.astype(np.int64), end=ce.astype(np.int64))


def _run_links(runs: Runs, width: int) -> tuple[IntArray, IntArray]:
    """Pairs (a, b) of run indices where run b touches run a on the row above (8-connected)."""
    n = runs.row.shape[0]
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    stride = width + 4
    start_key = runs.row * stride + runs.start + 1
    end_key = runs.row * stride + runs.end + 1
    prev_row = runs.row - 1
    # Runs on the row above that overlap [start-1, end+1): their end > start-1, their start < end+1.
    lo = np.searchsorted(end_key, prev_row * stride + runs.start + 1 - 1, side="right")
    hi = np.searchsorted(start_key, prev_row * stride + runs.end + 1 + 1, side="left")
    lo = np.maximum(lo, np.searchsorted(runs.row, prev_row, side="left"))
    hi = np.minimum(hi, np.searchsorted(runs.row, prev_row, side="right"))
    counts = np.maximum(hi - lo, 0)
    b = np.repeat(np.arange(n, dtype=np.int64), counts)
    offsets = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    a = np.repeat(lo, counts) + offsets
    return a.astype(np.int64), b


def _resolve(n: int, a: IntArray, b: IntArray) -> IntArray:
    """Smallest run index of each run's component, by min-label propagation and pointer jumping."""
    label = np.arange(n, dtype=np.int64)
    if a.size == 0:
        return label
    while True:
        la, lb = label[a], label[b]
        low = np.minimum(la, lb)
        new = label.copy()
        np.minimum.at(new, a, low)
        np.minimum.at(new, b, low)
        # Also lower the roots, so whole trees move together.
        np.minimum.at(new, la, low)
        np.minimum.at(new, lb, low)
        while True:
            jumped = new[new]
            if np.array_equal(jumped, new):
                break
            new = jumped
        if np.array_equal(new, label):
            return label
        label = new


def label_components(ink: BoolImage) -> Components:
    """Label the 8-connected components of `ink` and measure each one."""
    runs = find_runs(ink)
    a, b = _run_links(runs, ink.shape[1])
    root = _resolve(runs.row.shape[0], a, b)
    uniq, run_label = np.unique(root, return_inverse=True)
    k = uniq.shape[0]
    run_label = run_label.astype(np.int64)
    area = np.bincount(run_label, weights=(runs.end - runs.start), minlength=k).astype(np.int64)
    top = np.full(k, np.iinfo(np.int64).max, dtype=np.int64)
    left = top.copy()
    bottom = np.zeros(k, dtype=np.int64)
    right = bottom.copy()
    np.minimum.at(top, run_label, runs.row)
    np.minimum.at(left, run_label, runs.start)
    np.maximum.at(bottom, run_label, runs.row + 1)
    np.maximum.at(right, run_label, runs.end)
    return Components(runs, run_label, area, top, left, bottom, right)


def paint(shape: tuple[int, int], comps: Components, keep: NDArray[np.bool_]) -> BoolImage:
    """A new image holding only the components whose `keep` flag is True."""
    out = np.zeros(shape, dtype=np.bool_)
    sel = keep[comps.run_label]
    rows, starts, ends = comps.runs.row[sel], comps.runs.start[sel], comps.runs.end[sel]
    if rows.size == 0:
        return out
    w = shape[1]
    delta = np.zeros(shape[0] * (w + 1) + 1, dtype=np.int32)
    np.add.at(delta, rows * (w + 1) + starts, 1)
    np.add.at(delta, rows * (w + 1) + ends, -1)
    filled = np.cumsum(delta[:-1]).reshape(shape[0], w + 1)[:, :w] > 0
    out |= filled
    return out
