"""The piece detector's model: training data, training, export (needs the `train` extra)."""
