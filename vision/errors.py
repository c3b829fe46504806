"""Vision's exceptions: one base, subclassed by what went wrong."""


class VisionError(Exception):
    """Base of every error raised by vision/."""


class SourceError(VisionError):
    """A video or image that cannot be opened or read."""


class UsageError(VisionError):
    """A command line that asks for something impossible."""
