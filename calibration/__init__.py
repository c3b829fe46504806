"""Board geometry, landmark detection and the image <-> board calibration."""
