"""The synthetic match generator and the sample inputs the README uses."""
