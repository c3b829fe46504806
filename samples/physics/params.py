"""Physical parameters of the simulated board, each with where its value comes from.

Masses and sizes are the ICF equipment figures held in calibration.geometry. The friction,
restitution and pocket figures are not published for carrom equipment; they are engineering
estimates for a powdered plywood board with wooden or plastic carrommen, chosen in the
ranges the notes below give and checked against how real play looks (a hard break sends
the striker two or three times across the board; a soft cut stops within a hand's width
of the pocket). Tests pin the physical invariants, not these values.
"""

from __future__ import annotations

from dataclasses import dataclass

GRAVITY_M_S2 = 9.81


@dataclass(frozen=True)
class PhysicsParams:
    # Sliding friction of a disc on a powdered surface. Boric-acid or carrom powder turns
    # the board into a glide surface: textbook carrom exercises use 0.1 to 0.2, and a
    # 0.12 board lets a 2 m/s shot run about 1.7 m, which matches a striker crossing the
    # board and coming back once.
    friction: float = 0.12
    # Coefficients of restitution. Hard wood/acrylic discs on each other: 0.85 to 0.95;
    # the heavier striker (often bakelite or acrylic with a rim) is a little deader: 0.8.
    coin_coin_restitution: float = 0.9
    striker_coin_restitution: float = 0.82
    # A solid hardwood frame without rubber: 0.55 to 0.75 for a disc hitting it square on.
    cushion_restitution: float = 0.65
    # Along the cushion the disc keeps most of its speed (it slides, it does not roll).
    cushion_tangent_keep: float = 0.95
    # A disc whose centre is over a pocket's hole starts tipping in; once it has been over
    # the hole for this long it falls. 15 ms is about the time a 9 mm thick carromman needs
    # to tip past the rim (free fall of ~1 mm at its centre), so a coin crossing the
    # 44.5 mm hole at more than ~3 m/s skims over it and rattles out, a slower one drops.
    drop_time_s: float = 0.015
    # How long the renderer shows a falling piece sinking into the pocket.
    fall_animation_s: float = 0.12
    # Overboard jumps: an impact with a normal speed above the threshold may lift a disc
    # over the 22 mm frame. Real play sees one now and then on hard breaks and smashes;
    # the probability rises with the excess speed and is capped so jumps stay rare.
    jump_speed_m_s: float = 3.0
    jump_probability_per_m_s: float = 0.08
    jump_probability_max: float = 0.15
    # A jumped piece flies straight on (horizontally) until it is past the frame, at least
    # this fast. A hit hard enough to lift a coin leaves it 4 m/s or more (the striker at
    # the 3 m/s threshold gives a coin (1 + 0.82) * 3 * 15 / 20.4 = 4 m/s), so the floor only
    # matters for gentler jumps than these (tests lower the threshold): the longest straight
    # flight, a diagonal from one corner of the surface to beyond the frame at the other,
    # is about 1.15 m, which at 2.5 m/s takes under half a second: a piece never hangs in
    # the air for longer than a real leap off a board does.
    jump_min_speed_m_s: float = 2.5
    # Below this speed a disc is at rest (mm/s); avoids creeping by float noise.
    rest_speed_mm_s: float = 2.0
    # Safety caps: events resolved per step before the remaining overlap is pushed apart,
    # and the longest a single stroke may run.
    max_events_per_step: int = 2000
    max_stroke_s: float = 20.0

    @property
    def deceleration_mm_s2(self) -> float:
        """Sliding friction as a constant deceleration, mm/s^2 (a = mu * g)."""
        return self.friction * GRAVITY_M_S2 * 1000.0
