"""The queen put back on the centre circle, where the detector can hardly tell her from it.

Law 93 has the umpire put the queen back on the centre circle, which is her size and red like
her. On a small `phone` board the network read her lying there at 0.27 to 0.33, under its
threshold (held-out video 71013, development data since): every queen put back went
uncounted, and the strokes that pocketed her lost her. The bare circle can read as the queen
that faintly too (0.31 and 0.17 on held-out video 71005, `warm-lamp`, once she had gone into
a corner), so a faint queen there is believed only while the laws want her on the board and
nothing shows her anywhere else: from when they say she is to be put back (a pocketing not
covered, a foul) until she is seen away from the centre.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from calibration.geometry import COIN_DIAMETER_MM
from vision.detections import CLASS_NAMES, Detections

# A faint queen peak (the detector reports them from 0.15) this near the centre is the queen
# lying on the centre circle while she is believed there: 71013 read her at 0.19 to 0.33 as
# the light on her changed, her peak within a millimetre of the centre. (Over the 60
# development videos 69000-71019, one look in ten, she read at 0.25 or more in 95% of the
# looks on `phone` boards, 0.6 or more on the others, within 8 mm of the centre.)
CENTRE_QUEEN_MATCH_MM = 6.0
# Found surely this far from the centre, she is no longer lying on it.
MOVED_OFF_MM = COIN_DIAMETER_MM
_QUEEN = CLASS_NAMES.index("queen")


class CentreQueen:
    """Adds the faint queen on the centre circle to the looks counted at rest while the laws
    have her to be put back there, and since, until she is seen elsewhere."""

    def __init__(self) -> None:
        self.believed = False

    def looks(
        self,
        detections: Detections,
        faint: Detections | None,
        owed: Callable[[], Counter[str] | None] | None,
    ) -> Detections:
        queens = detections.class_id == _QUEEN
        if queens.any():
            if np.any(np.hypot(*detections.xy_mm[queens].T) > MOVED_OFF_MM):
                self.believed = False
            return detections
        if faint is None or not len(faint):
            return detections
        there = (faint.class_id == _QUEEN) & (np.hypot(*faint.xy_mm.T) <= CENTRE_QUEEN_MATCH_MM)
        if not there.any():
            return detections
        if not self.believed:
            wanted = owed() if owed is not None else None
            self.believed = wanted is not None and wanted["queen"] > 0
        if not self.believed:
            return detections
        best = int(np.argmax(np.where(there, faint.score, -1.0)))
        return Detections.merge([detections, faint[np.array([best])]])
