"""Train the centre-point detector and export it to ONNX (needs the `train` extra: torch, onnx).

    python -m models.detector.train --seed 0 --train-seeds 0-449,500-649 --val-seeds 450-499 \
        --epochs 60 --out models/detector/detector.onnx

Scenes are rendered once into the cache (`--cache`, models.detector.cache) and reused by
later runs. Every random thing (the scenes, the view jitter, the crops and augmentation, the
weights) follows from `--seed` and the seed ranges, so the same command gives the same model
on the same machine. After each epoch the model is exported and run exactly as the recorder
runs it (vision.detect.onnx_detector) on the validation stills and moving pictures.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.detector import views as V
from models.detector.cache import DEFAULT_CACHE, load_cached, load_video_frames, render_cache
from models.detector.data import Scene
from models.detector.free_size import FREE_DIMS
from models.detector.net import COARSEST_STRIDE, WIDTHS, CentreNet, Exported
from models.detector.scenes import parse_seeds
from vision.detections import CLASS_NAMES

CROP_PX = 256  # 512 mm of board per training crop: a third of the cost of the whole view
BATCH = 16
OFFSET_WEIGHT = 1.0
LEARNING_RATE = 2e-3
# Per-class weight of the heat loss: a board holds nine whites and nine blacks but one queen
# and one striker, which the network would otherwise learn less well; the striker most of
# all (a pale striker on a pale board under a dim lamp was the detector's worst miss on video).
CLASS_WEIGHTS = (1.0, 1.0, 2.0, 4.0)
# This share of the training pictures goes through H.264 first, at a quality drawn from the
# generator's video range (crf 24 to 28) and a little beyond.
VIDEO_SHARE = 0.5
VIDEO_CRF = (22, 31)


class ViewSet:
    """Every training view in memory (uint8), with its pieces."""

    def __init__(self, views: list[V.View]) -> None:
        self.images = np.stack([v.image_bgr for v in views])
        self.pieces = [(v.uv, v.class_id, v.required) for v in views]

    def __len__(self) -> int:
        return len(self.images)


def build_views(
    seeds: list[tuple[str, int]], seed: int, cache: Path, videos: list[Path] | None = None
) -> ViewSet:
    """Views of the cached training scenes: (cache kind, seed) each, and of frames of the
    generator's match `videos` (models.detector.video_frames; H.264 already)."""
    rng = np.random.default_rng([seed, 3])
    views = []
    start = time.time()
    for i, (kind, s) in enumerate(seeds):
        for scene in load_cached(kind, s, cache):
            if rng.random() < VIDEO_SHARE:
                image = V.h264_round_trip(scene.image_bgr, int(rng.integers(*VIDEO_CRF)))
                scene = replace(scene, image_bgr=image)
            views.append(V.render_view(scene, rng))
        if (i + 1) % 100 == 0 or i + 1 == len(seeds):
            print(f"views: {i + 1}/{len(seeds)} seeds, {time.time() - start:.0f} s", file=sys.stderr)
    for video in videos or []:
        views.extend(V.render_view(scene, rng) for scene in load_video_frames(video, cache))
    if videos:
        print(f"views: {len(videos)} videos, {time.time() - start:.0f} s", file=sys.stderr)
    return ViewSet(views)


def batch(
    data: ViewSet, rng: np.random.Generator
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """A batch of random crops, turned and mirrored at random, with their targets."""
    images, heats, offsets, offset_weights, weights = [], [], [], [], []
    for index in rng.integers(len(data), size=BATCH):
        u0, v0 = rng.integers(0, V.VIEW_PX - CROP_PX + 1, size=2)
        crop = data.images[index, v0 : v0 + CROP_PX, u0 : u0 + CROP_PX]
        uv, cls, required = data.pieces[index]
        crop, uv = V.turn(crop, uv - [u0, v0], int(rng.integers(4)), bool(rng.integers(2)))
        heat, offset, offset_weight, weight = V.targets(uv, cls, required, CROP_PX)
        images.append(crop)
        heats.append(heat)
        offsets.append(offset)
        offset_weights.append(offset_weight)
        weights.append(weight)
    x = torch.from_numpy(np.stack(images)).permute(0, 3, 1, 2).float() / 255.0
    return (
        x,
        torch.from_numpy(np.stack(heats)),
        torch.from_numpy(np.stack(offsets)),
        torch.from_numpy(np.stack(offset_weights)),
        torch.from_numpy(np.stack(weights)),
    )


def photometric(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Lighting the generator may not have drawn: gain, colour cast, offset, gamma, noise."""
    n = x.shape[0]
    gain = 0.75 + 0.5 * torch.rand((n, 1, 1, 1), generator=generator)
    cast = 0.92 + 0.16 * torch.rand((n, 3, 1, 1), generator=generator)
    bias = 0.08 * (torch.rand((n, 1, 1, 1), generator=generator) - 0.5)
    gamma = torch.exp(0.3 * (torch.rand((n, 1, 1, 1), generator=generator) - 0.5))
    noise = 0.03 * torch.rand((n, 1, 1, 1), generator=generator) * torch.randn(x.shape, generator=generator)
    return ((x.clamp(1e-4, 1.0) ** gamma) * gain * cast + bias + noise).clamp(0.0, 1.0)


def focal_loss(logits: torch.Tensor, heat: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, per positive cell."""
    positive = heat >= 1.0
    log_p = nn.functional.logsigmoid(logits)
    log_not_p = nn.functional.logsigmoid(-logits)
    p = torch.sigmoid(logits)
    pos = (1 - p) ** 2 * log_p * positive
    neg = p**2 * (1 - heat) ** 4 * log_not_p * ~positive
    per_class = torch.tensor(CLASS_WEIGHTS, dtype=logits.dtype)[None, :, None, None]
    total = -((pos + neg) * weight[:, None] * per_class).sum()
    return total / positive.sum().clamp(min=1)


def offset_loss(predicted: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    error = (predicted - target).abs().sum(dim=1) * weight
    return error.sum() / weight.sum().clamp(min=1)


def export(net: CentreNet, path: Path, metadata: dict[str, str]) -> None:
    import onnx

    net.eval()
    example = torch.zeros((1, V.VIEW_PX, V.VIEW_PX, 3), dtype=torch.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        Exported(net),
        (example,),
        str(path),
        input_names=["view"],
        output_names=["heat", "offsets"],
        # Free height and width: the recorder runs it over the part of the board that changed.
        dynamic_axes=FREE_DIMS,
        opset_version=17,
        dynamo=False,
    )
    model = onnx.load(str(path))
    for key, value in metadata.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(model, str(path))


def geometry_metadata() -> dict[str, str]:
    return {
        "px_per_mm": str(V.PX_PER_MM),
        "half_extent_mm": str(V.HALF_EXTENT_MM),
        "stride": str(V.STRIDE),
        "classes": ",".join(CLASS_NAMES),
        "coarsest_stride_px": str(COARSEST_STRIDE),
    }


def validate(net: CentreNet, stills: list[Scene], moving: list[Scene]) -> dict[str, object]:
    """The exported model on the validation scenes, as the recorder runs it."""
    from vision.detect.eval import Result, report, score_scene
    from vision.detect.onnx_detector import OnnxDetector

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "detector.onnx"
        export(net, path, geometry_metadata())
        detector = OnnxDetector(path)
        result = Result()
        for scene in stills + moving:
            found = detector.detect(scene.image_bgr, scene.calibration)
            score_scene(scene, found, result, "moving" if scene in moving else scene.condition)
    figures = report(result)
    rest = figures["at_rest"]
    moving_figures = figures["by_condition"].get("moving", {})

    def rounded(value: object, digits: int = 5) -> float | None:
        return None if value is None else round(float(value), digits)  # type: ignore[arg-type]

    return {
        "recall": rounded(rest["recall"]),
        "precision": rounded(rest["precision"]),
        "class_accuracy": rounded(rest["class_accuracy"]),
        "median_error_mm": rounded(rest["median_error_mm"], 3),
        "moving_recall": rounded(moving_figures.get("recall")),
        "moving_precision": rounded(figures["precision_by_layout"].get("moving")),
    }


def train(
    data: ViewSet,
    stills: list[Scene],
    moving: list[Scene],
    epochs: int,
    seed: int,
    steps_per_epoch: int,
) -> tuple[CentreNet, dict[str, object]]:
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng([seed, 5])
    net = CentreNet()
    optimiser = torch.optim.AdamW(net.parameters(), lr=LEARNING_RATE, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, max_lr=LEARNING_RATE, total_steps=epochs * steps_per_epoch, pct_start=0.15
    )
    figures: dict[str, object] = {}
    start = time.time()
    for epoch in range(epochs):
        net.train()
        totals = np.zeros(2)
        for _ in range(steps_per_epoch):
            x, heat, offsets, offset_weight, weight = batch(data, rng)
            logits, predicted = net(photometric(x, generator))
            heat_loss = focal_loss(logits, heat, weight)
            shift_loss = offset_loss(predicted, offsets, offset_weight)
            loss = heat_loss + OFFSET_WEIGHT * shift_loss
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            totals += (float(heat_loss), float(shift_loss))
        figures = validate(net, stills, moving)
        print(
            f"epoch {epoch + 1}/{epochs} ({time.time() - start:.0f} s):"
            f" heat {totals[0] / steps_per_epoch:.4f} offset {totals[1] / steps_per_epoch:.4f}"
            f" val {json.dumps(figures)}",
            file=sys.stderr,
        )
    return net, figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-seeds", default="0-449,500-649")
    parser.add_argument("--val-seeds", default="450-499")
    parser.add_argument(
        "--warm-lamp-seeds", default="", help="extra training looks drawn in the warm-lamp style"
    )
    parser.add_argument(
        "--videos",
        type=Path,
        nargs="*",
        default=[],
        help="generator match videos' folders (match.mp4, truth.json) to learn frames of too",
    )
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--steps-per-epoch", type=int, default=150)
    parser.add_argument("--threads", type=int, default=2, help="torch threads (the machine is shared)")
    parser.add_argument("--out", type=Path, default=Path("models/detector/detector.onnx"))
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args(argv)
    import cv2

    cv2.setNumThreads(1)
    torch.set_num_threads(args.threads)
    train_seeds, val_seeds = parse_seeds(args.train_seeds), parse_seeds(args.val_seeds)
    warm_seeds = parse_seeds(args.warm_lamp_seeds)
    render_cache("train", train_seeds, args.cache)
    render_cache("train-warm-lamp", warm_seeds, args.cache)
    render_cache("still", val_seeds, args.cache)
    render_cache("moving", val_seeds, args.cache)
    data = build_views(
        [("train", s) for s in train_seeds] + [("train-warm-lamp", s) for s in warm_seeds],
        args.seed,
        args.cache,
        args.videos,
    )
    stills = [scene for s in val_seeds for scene in load_cached("still", s, args.cache)]
    moving = [scene for s in val_seeds for scene in load_cached("moving", s, args.cache)]
    print(f"{len(data)} training views, {len(stills)} + {len(moving)} validation scenes", file=sys.stderr)
    net, figures = train(data, stills, moving, args.epochs, args.seed, args.steps_per_epoch)
    export(
        net,
        args.out,
        {
            **geometry_metadata(),
            "widths": ",".join(map(str, WIDTHS)),
            "train_seeds": args.train_seeds,
            "val_seeds": args.val_seeds,
            "warm_lamp_seeds": args.warm_lamp_seeds,
            "video_seeds": ",".join(sorted(video.name.removeprefix("seed-") for video in args.videos)),
            "seed": str(args.seed),
            "epochs": str(args.epochs),
            "steps_per_epoch": str(args.steps_per_epoch),
            "validation": json.dumps(figures),
        },
    )
    print(json.dumps({"out": str(args.out), "bytes": args.out.stat().st_size, "validation": figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
