"""Train the patch classifier and export it to ONNX (needs the `train` extra: torch, onnx).

    python -m models.detector.train --seed 0 --train-seeds 0-299 --val-seeds 300-339 \
        --out models/detector/detector.onnx

Every random thing (the scenes, the patch jitter, the augmentation, the weights) follows from
`--seed` and the seed ranges, so the same command gives the same model on the same machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.detector.data import PatchSet, scene_patches
from models.detector.scenes import load_scene, parse_seeds
from vision.detect.base import DEFAULT_PX_PER_MM, BoardRectifier
from vision.detect.patches import BACKGROUND, PATCH_CLASSES, PATCH_PX

OFFSET_WEIGHT = 0.5


class PatchNet(nn.Module):
    """About 1.2 M multiply-adds per 48x48 patch: five 3x3 convolutions, two small heads."""

    def __init__(self, widths: tuple[int, ...] = (8, 16, 16, 32, 32)) -> None:
        super().__init__()
        strides = (2, 2, 1, 2, 1)
        layers: list[nn.Module] = []
        channels = 3
        for width, stride in zip(widths, strides, strict=True):
            layers += [nn.Conv2d(channels, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU()]
            channels = width
        self.features = nn.Sequential(*layers)
        side = PATCH_PX // 8
        self.hidden = nn.Sequential(nn.Flatten(), nn.Linear(channels * side * side, 64), nn.ReLU())
        self.classes = nn.Linear(64, len(PATCH_CLASSES))
        self.offset = nn.Linear(64, 2)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.hidden(self.features(x))
        return self.classes(h), self.offset(h)


class Exported(nn.Module):
    """What the ONNX file holds: uint8 BGR patches (N, H, W, 3) in, probabilities and offsets out."""

    def __init__(self, net: PatchNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, patches: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = patches.permute(0, 3, 1, 2).float() * (1.0 / 255.0)
        logits, offset = self.net(x)
        return torch.softmax(logits, dim=1), offset


def to_tensor(patches: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(patches).permute(0, 3, 1, 2).float() / 255.0


def augment(
    x: torch.Tensor, offsets: torch.Tensor, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """Rotations by quarter turns and mirroring (the top-down view has no preferred
    direction), and lighting: gain, colour cast and noise."""
    n = x.shape[0]
    k = int(torch.randint(0, 4, (1,), generator=generator))
    x = torch.rot90(x, k, dims=(2, 3))
    dx, dy = offsets[:, 0], offsets[:, 1]
    for _ in range(k):  # np.rot90: (col, row) offsets (dx, dy) -> (dy, -dx)
        dx, dy = dy, -dx
    if bool(torch.randint(0, 2, (1,), generator=generator)):
        x = torch.flip(x, dims=(3,))
        dx = -dx
    offsets = torch.stack([dx, dy], dim=1)
    gain = 0.75 + 0.5 * torch.rand((n, 1, 1, 1), generator=generator)
    cast = 0.92 + 0.16 * torch.rand((n, 3, 1, 1), generator=generator)
    bias = 0.08 * (torch.rand((n, 1, 1, 1), generator=generator) - 0.5)
    noise = 0.02 * torch.rand((n, 1, 1, 1), generator=generator) * torch.randn(x.shape, generator=generator)
    return (x * gain * cast + bias + noise).clamp(0.0, 1.0), offsets


def build(seeds: list[int], seed: int, label: str) -> PatchSet:
    rng = np.random.default_rng(seed)
    rectifier = BoardRectifier()
    parts = []
    start = time.time()
    for i, s in enumerate(seeds):
        parts.append(scene_patches(load_scene(s), rng, rectifier))
        if (i + 1) % 20 == 0 or i + 1 == len(seeds):
            print(f"{label}: {i + 1}/{len(seeds)} scenes, {time.time() - start:.0f} s", file=sys.stderr)
    return PatchSet.concat(parts)


def evaluate(net: PatchNet, data: PatchSet) -> dict[str, float]:
    net.eval()
    with torch.no_grad():
        logits, offsets = net(to_tensor(data.patches))
    predicted = logits.argmax(1).numpy()
    piece = data.labels != BACKGROUND
    error = np.linalg.norm(offsets.numpy()[piece] - data.offsets[piece], axis=1) / DEFAULT_PX_PER_MM
    return {
        "accuracy": float(np.mean(predicted == data.labels)),
        "piece_recall": float(np.mean(predicted[piece] == data.labels[piece])),
        "background_kept_out": float(np.mean(predicted[~piece] == BACKGROUND)) if np.any(~piece) else 1.0,
        "median_offset_error_mm": float(np.median(error)) if len(error) else 0.0,
    }


def train(data: PatchSet, val: PatchSet, epochs: int, seed: int, batch: int = 128) -> PatchNet:
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    net = PatchNet()
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * ((len(data) + batch - 1) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    x_all = to_tensor(data.patches)
    y_all = torch.from_numpy(data.labels)
    o_all = torch.from_numpy(data.offsets)
    # Background outnumbers pieces; weigh the classes so each matters as much.
    counts = np.bincount(data.labels, minlength=len(PATCH_CLASSES)).astype(np.float64)
    weights = torch.tensor(np.where(counts > 0, counts.sum() / np.maximum(counts, 1) / len(counts), 0.0))
    weights = (weights / weights[weights > 0].mean()).float().clamp(max=5.0)
    ce = nn.CrossEntropyLoss(weight=weights)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(data), generator=generator)
        total = 0.0
        for start in range(0, len(data), batch):
            idx = order[start : start + batch]
            x, o = augment(x_all[idx], o_all[idx], generator)
            y = y_all[idx]
            logits, offset = net(x)
            loss = ce(logits, y)
            piece = y != BACKGROUND
            if bool(piece.any()):
                loss = loss + OFFSET_WEIGHT * nn.functional.smooth_l1_loss(offset[piece], o[piece])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss) * len(idx)
        figures = evaluate(net, val)
        print(
            f"epoch {epoch + 1}/{epochs}: loss {total / len(data):.4f} val {json.dumps(figures)}",
            file=sys.stderr,
        )
    return net


def export(net: PatchNet, path: Path, metadata: dict[str, str]) -> None:
    import onnx

    net.eval()
    wrapper = Exported(net)
    example = torch.zeros((4, PATCH_PX, PATCH_PX, 3), dtype=torch.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        wrapper,
        (example,),
        str(path),
        input_names=["patches"],
        output_names=["probabilities", "offsets"],
        dynamic_axes={"patches": {0: "n"}, "probabilities": {0: "n"}, "offsets": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    model = onnx.load(str(path))
    for key, value in metadata.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-seeds", default="0-299")
    parser.add_argument("--val-seeds", default="300-339")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--out", type=Path, default=Path("models/detector/detector.onnx"))
    parser.add_argument("--cache", type=Path, help="npz file to keep the cut patches in (and reuse)")
    args = parser.parse_args(argv)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    train_seeds, val_seeds = parse_seeds(args.train_seeds), parse_seeds(args.val_seeds)
    if args.cache and args.cache.is_file():
        stored = np.load(args.cache)
        data = PatchSet(stored["x"], stored["y"], stored["o"])
        val = PatchSet(stored["vx"], stored["vy"], stored["vo"])
    else:
        data = build(train_seeds, args.seed, "train")
        val = build(val_seeds, args.seed + 1, "val")
        if args.cache:
            np.savez_compressed(
                args.cache,
                x=data.patches,
                y=data.labels,
                o=data.offsets,
                vx=val.patches,
                vy=val.labels,
                vo=val.offsets,
            )
    print(
        f"{len(data)} training patches {np.bincount(data.labels).tolist()}, {len(val)} validation",
        file=sys.stderr,
    )
    net = train(data, val, args.epochs, args.seed)
    figures = evaluate(net, val)
    export(
        net,
        args.out,
        {
            "patch_px": str(PATCH_PX),
            "px_per_mm": str(DEFAULT_PX_PER_MM),
            "classes": ",".join(PATCH_CLASSES),
            "train_seeds": args.train_seeds,
            "val_seeds": args.val_seeds,
            "seed": str(args.seed),
            "epochs": str(args.epochs),
            "validation": json.dumps(figures),
        },
    )
    print(json.dumps({"out": str(args.out), "bytes": args.out.stat().st_size, "validation": figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
