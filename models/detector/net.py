"""The centre-point network: a small U of plain 3x3 convolutions, one pass per board.

Input: the rectified board, uint8 BGR (1, S, S, 3) with S a multiple of 16. Output at stride 4
(one cell per 8 mm at 0.5 px/mm): per-class heat (sigmoid) and the offset from each cell's
centre to the piece's centre, in cells. The encoder goes down to stride 16 (32 mm cells, a
field of view of about 240 mm: the whole smear of a striker at 8 m/s, and enough board
around a printed circle to tell it from a coin); the decoder adds the coarse context back
to the stride-8 and stride-4 features. Plain convolutions rather than depthwise ones: at
these widths onnxruntime runs them as fast on one core, and torch trains them several times
faster on a CPU.
"""

from __future__ import annotations

import torch
from torch import nn

from vision.detections import CLASS_NAMES

WIDTHS = (8, 16, 32, 48)
# The encoder's coarsest cell in input pixels: a crop of the view whose corners lie on
# multiples of it is answered, away from its edges, as the whole view would be.
COARSEST_STRIDE = 16


def _block(cin: int, cout: int, stride: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


class CentreNet(nn.Module):
    def __init__(self, widths: tuple[int, int, int, int] = WIDTHS) -> None:
        super().__init__()
        c1, c2, c3, c4 = widths
        self.stride4 = nn.Sequential(*_block(3, c1, 2), *_block(c1, c2, 2), *_block(c2, c2))
        self.stride8 = nn.Sequential(*_block(c2, c3, 2), *_block(c3, c3))
        self.stride16 = nn.Sequential(*_block(c3, c4, 2), *_block(c4, c4), *_block(c4, c4))
        self.lateral16 = nn.Conv2d(c4, c3, 1)
        self.fuse8 = nn.Sequential(*_block(c3, c3))
        self.lateral8 = nn.Conv2d(c3, c2, 1)
        self.fuse4 = nn.Sequential(*_block(c2, c2))
        self.heat = nn.Conv2d(c2, len(CLASS_NAMES), 1)
        self.offset = nn.Conv2d(c2, 2, 1)
        # Start with every cell unlikely (CenterNet's prior): the loss is not swamped at first
        # by the thousands of empty cells.
        nn.init.constant_(self.heat.bias, -4.0)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """x: (N, 3, S, S) float in [0, 1] -> heat logits (N, C, S/4, S/4), offsets (N, 2, S/4, S/4)."""
        a = self.stride4(x)
        b = self.stride8(a)
        c = self.stride16(b)
        b = self.fuse8(b + nn.functional.interpolate(self.lateral16(c), scale_factor=2.0, mode="nearest"))
        a = self.fuse4(a + nn.functional.interpolate(self.lateral8(b), scale_factor=2.0, mode="nearest"))
        return self.heat(a), self.offset(a)


class Exported(nn.Module):
    """What the ONNX file holds: a uint8 BGR view (1, S, S, 3) in, heat and offsets out."""

    def __init__(self, net: CentreNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, view: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = view.permute(0, 3, 1, 2).float() * (1.0 / 255.0)
        logits, offsets = self.net(x)
        return torch.sigmoid(logits), offsets
