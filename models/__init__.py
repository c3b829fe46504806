"""ONNX models, the scripts that train and export them, and their model cards."""
