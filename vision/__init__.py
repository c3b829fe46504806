"""Frame sources, detection, tracking, event inference, the pipeline and the CLI."""
