"""Rendered scenes kept on disk, so the generator draws each picture once.

Rendering a picture costs about a second of CPU (most of it drawing the board and warping it
for the camera); training reads the same pictures many times. One file per seed and kind in
a cache folder (`out/detector-cache` by default) holds its pictures losslessly (PNG) and their
truth (the calibration and every piece with its condition), and a scene loaded back is the
scene that was rendered.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import cv2
import numpy as np

from calibration.camera import Calibration
from models.detector.data import Piece, Scene
from models.detector.scenes import load_moving, load_still, training_scenes

KINDS: dict[str, Callable[[int], list[Scene]]] = {
    "train": training_scenes,
    # Extra training looks under the dimmest lamp, where a pale striker nearly matches the
    # board (the recorder lost such strikers on development videos).
    "train-warm-lamp": lambda seed: training_scenes(seed, "warm-lamp"),
    "still": lambda seed: [load_still(seed)],
    "moving": lambda seed: [load_moving(seed)],
}
DEFAULT_CACHE = Path("out/detector-cache")


def _path(directory: Path, kind: str, seed: int) -> Path:
    return directory / kind / f"{seed:05d}.npz"


def _encode(scenes: list[Scene]) -> dict[str, np.ndarray]:
    arrays: dict[str, np.ndarray] = {}
    meta = []
    for k, scene in enumerate(scenes):
        ok, png = cv2.imencode(".png", scene.image_bgr, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        if not ok:
            raise RuntimeError(f"scene {scene.seed}: PNG encoding failed")
        arrays[f"image{k}"] = png
        meta.append(
            {
                "seed": scene.seed,
                "condition": scene.condition,
                "calibration": scene.calibration.to_dict(),
                "pieces": [
                    [p.name, float(p.xy_mm[0]), float(p.xy_mm[1]), p.visible, p.moving, p.condition]
                    for p in scene.pieces
                ],
            }
        )
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    return arrays


def _decode(stored: np.lib.npyio.NpzFile) -> list[Scene]:
    scenes = []
    for k, item in enumerate(json.loads(bytes(stored["meta"]).decode())):
        image = cv2.imdecode(stored[f"image{k}"], cv2.IMREAD_COLOR)
        pieces = tuple(
            Piece(name, np.array([x, y]), float(visible), bool(moving), condition)
            for name, x, y, visible, moving, condition in item["pieces"]
        )
        calibration = Calibration.from_dict(item["calibration"], where=f"cached scene {item['seed']}")
        scenes.append(Scene(int(item["seed"]), image, calibration, pieces, item["condition"]))
    return scenes


def render_cache(kind: str, seeds: Iterable[int], directory: Path = DEFAULT_CACHE) -> None:
    """Render every seed of `kind` not yet in the cache."""
    seeds = list(seeds)
    todo = [s for s in seeds if not _path(directory, kind, s).is_file()]
    (directory / kind).mkdir(parents=True, exist_ok=True)
    start = time.time()
    for i, seed in enumerate(todo):
        path = _path(directory, kind, seed)
        partial = path.with_suffix(".part.npz")
        np.savez(partial, **_encode(KINDS[kind](seed)))
        partial.replace(path)  # a killed run leaves no half-written file behind
        if (i + 1) % 25 == 0 or i + 1 == len(todo):
            print(f"{kind}: rendered {i + 1}/{len(todo)} seeds, {time.time() - start:.0f} s", file=sys.stderr)


def load_cached(kind: str, seed: int, directory: Path = DEFAULT_CACHE) -> list[Scene]:
    """The scenes of one seed, rendered now if the cache lacks them."""
    path = _path(directory, kind, seed)
    if not path.is_file():
        render_cache(kind, [seed], directory)
    with np.load(path) as stored:
        return _decode(stored)


def load_video_frames(video_dir: Path, directory: Path = DEFAULT_CACHE) -> list[Scene]:
    """The training frames of one generator match video (models.detector.video_frames), kept
    under its seed once picked and decoded."""
    from models.detector.video_frames import CACHE_KIND, video_scenes

    seed = int(json.loads((video_dir / "truth.json").read_text())["video"]["seed"])
    path = _path(directory, CACHE_KIND, seed)
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part.npz")
        np.savez(partial, **_encode(video_scenes(video_dir)))
        partial.replace(path)
    with np.load(path) as stored:
        return _decode(stored)


def main(argv: list[str] | None = None) -> int:
    import argparse

    from models.detector.scenes import parse_seeds

    parser = argparse.ArgumentParser(description="Render generator scenes into the detector's cache.")
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("seeds")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    render_cache(args.kind, parse_seeds(args.seeds), args.cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
