"""Calibration's exceptions: one base, subclassed by what went wrong."""


class CalibrationError(Exception):
    """Base of every error raised by calibration/."""


class NoBoardFound(CalibrationError):
    """The picture holds no carrom board that passes the quality gates."""


class CalibrationFileError(CalibrationError, ValueError):
    """A calibration.json that is not valid."""
