"""The contact sheet: a few pictures of every style preset, side by side.

    python -m samples.render.contact_sheet [--out samples/contact-sheet.png]

One column per style, two pictures each (different seeds, layouts, hands and cameras),
labelled with the style's name. The committed samples/contact-sheet.png is made by this.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from samples.render.stills import render_still
from samples.render.styles import STYLES

TILE = (384, 216)
RENDER_SIZE = (1152, 648)  # rendered larger, then shrunk: a sharper tile
SEEDS = (21, 42)
LAYOUTS = ("break", "play")


def contact_sheet() -> np.ndarray:
    columns = []
    for column_index, name in enumerate(sorted(STYLES)):
        tiles = []
        for seed, layout in zip(SEEDS, LAYOUTS, strict=True):
            # A different seed per column too: one seed under two styles shares its camera.
            image, _ = render_still(seed + 1000 * column_index, style=name, size=RENDER_SIZE, layout=layout)
            tile = cv2.resize(image, TILE, interpolation=cv2.INTER_AREA)
            tiles.append(tile)
        column = np.vstack(tiles)
        cv2.rectangle(column, (0, 0), (8 + 11 * len(name), 22), (0, 0, 0), -1)
        cv2.putText(column, name, (4, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA)
        columns.append(column)
    return np.hstack(columns)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m samples.render.contact_sheet")
    parser.add_argument("--out", type=Path, default=Path("samples/contact-sheet.png"))
    args = parser.parse_args(argv)
    cv2.imwrite(str(args.out), contact_sheet(), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
