"""Free a fixed-size exported detector's height and width, weights untouched.

    python -m models.detector.free_size models/detector/detector.onnx

Models exported before `train.export` named its input's height and width free (session 16)
take only the whole 384 px view. The network is fully convolutional and its two upsamplings
are by scale, so the same graph answers any size that is a multiple of its coarsest cell;
this rewrites the file's input and output shapes to free ones and records that cell
(`coarsest_stride_px`), which the recorder reads to run the network over only the part of
the board that changed. Needs the `train` extra (onnx).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# The axes left free, by input and output name (also what `train.export` exports).
FREE_DIMS = {
    "view": {1: "rows", 2: "cols"},
    "heat": {2: "cell_rows", 3: "cell_cols"},
    "offsets": {2: "cell_rows", 3: "cell_cols"},
}


def free_size(path: Path, coarsest_stride_px: int) -> None:
    import onnx

    model = onnx.load(str(path))
    for value in list(model.graph.input) + list(model.graph.output):
        for axis, name in FREE_DIMS.get(value.name, {}).items():
            dim = value.type.tensor_type.shape.dim[axis]
            dim.ClearField("dim_value")
            dim.dim_param = name
    # Shapes inferred for the fixed size would contradict the free ones.
    del model.graph.value_info[:]
    metadata = {entry.key: entry for entry in model.metadata_props}
    entry = metadata.get("coarsest_stride_px") or model.metadata_props.add()
    entry.key, entry.value = "coarsest_stride_px", str(coarsest_stride_px)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> int:
    from models.detector.net import COARSEST_STRIDE

    parser = argparse.ArgumentParser(
        prog="python -m models.detector.free_size", description=__doc__.splitlines()[0]
    )
    parser.add_argument("model", type=Path)
    args = parser.parse_args(argv)
    free_size(args.model, COARSEST_STRIDE)
    print(f"{args.model}: height and width free, coarsest cell {COARSEST_STRIDE} px")
    return 0


if __name__ == "__main__":
    sys.exit(main())
