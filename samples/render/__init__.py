"""The camera renderer: synthetic overhead footage of a carrom board with exact truth.

board (texture from calibration.geometry) -> camera (pose, lens) -> scene (pieces, hands,
lamp, sensor) -> stills (single pictures) and video (a simulated match as H.264).
"""
