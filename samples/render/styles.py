"""Named looks for synthetic footage and the random draw of one concrete look from a style.

A `Style` holds ranges and choices (domain randomisation); `sample_look` draws a `Look`
from it with a seeded generator, so a seed always gives the same board, lamp and camera
settings. The presets imitate the boards and rooms the recorder meets: a tournament board
under a club lamp, a cheap club board without red fills or arrows, a worn and powdered
board, a dim warm room, and a phone held over the board (strong lens distortion, tilt and
compression).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.geometry import FRAME_BREADTH_RANGE_MM

# Surface and frame wood, BGR. Surfaces are light (birch/maple plywood as boards are
# sold); frames are darker hardwood or stained wood.
SURFACE_WOODS: tuple[tuple[int, int, int], ...] = (
    (150, 200, 232),
    (128, 184, 222),
    (110, 170, 214),
    (165, 210, 235),
    (98, 150, 196),
)
FRAME_WOODS: tuple[tuple[int, int, int], ...] = (
    (30, 50, 95),
    (25, 38, 70),
    (40, 75, 130),
    (20, 25, 40),
    (55, 95, 150),
)
INKS: tuple[tuple[int, int, int], ...] = ((25, 25, 30), (40, 35, 35), (30, 30, 70))
REDS: tuple[tuple[int, int, int], ...] = ((40, 40, 190), (50, 30, 160), (35, 55, 200))


@dataclass(frozen=True)
class Style:
    name: str
    red_fill_probability: float  # base and centre circles filled red (cheap boards: none)
    arrows: tuple[str, ...]  # choices: "arc" (arrow + decorative arc), "plain", "corner"
    centre_design_probability: float
    net_probability: float
    wear: tuple[float, float]
    powder: tuple[float, float]
    grain: tuple[float, float]
    hotspot_gain: tuple[float, float]  # peak brightening of the lamp's hotspot
    hotspot_radius: tuple[float, float]  # fraction of the board's half-width
    vignette: tuple[float, float]
    exposure: tuple[float, float]
    temperature_k: tuple[float, float]
    fill: tuple[float, float]  # board height over frame height
    tilt_deg: tuple[float, float]
    k1: tuple[float, float]
    k2: tuple[float, float]
    noise_sigma: tuple[float, float]
    defocus_sigma: tuple[float, float]  # px, a slight lens blur
    jpeg_quality: tuple[int, int]
    crf: int  # H.264 quality for videos of this style


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style(
            name="tournament",
            red_fill_probability=1.0,
            arrows=("arc",),
            centre_design_probability=0.7,
            net_probability=0.5,
            wear=(0.0, 0.25),
            powder=(0.1, 0.35),
            grain=(0.4, 0.8),
            hotspot_gain=(0.15, 0.35),
            hotspot_radius=(0.8, 1.4),
            vignette=(0.1, 0.3),
            exposure=(0.95, 1.1),
            temperature_k=(4000.0, 5500.0),
            fill=(0.75, 0.98),
            tilt_deg=(0.0, 6.0),
            k1=(-0.12, 0.02),
            k2=(-0.02, 0.04),
            noise_sigma=(1.0, 3.0),
            defocus_sigma=(0.0, 0.6),
            jpeg_quality=(88, 97),
            crf=24,
        ),
        Style(
            name="club",
            red_fill_probability=0.0,
            arrows=("corner", "plain"),
            centre_design_probability=0.0,
            net_probability=0.8,
            wear=(0.2, 0.6),
            powder=(0.2, 0.5),
            grain=(0.6, 1.0),
            hotspot_gain=(0.2, 0.5),
            hotspot_radius=(0.6, 1.1),
            vignette=(0.2, 0.45),
            exposure=(0.85, 1.05),
            temperature_k=(3200.0, 4500.0),
            fill=(0.5, 0.9),
            tilt_deg=(2.0, 12.0),
            k1=(-0.2, 0.0),
            k2=(0.0, 0.06),
            noise_sigma=(2.0, 5.0),
            defocus_sigma=(0.3, 1.0),
            jpeg_quality=(80, 92),
            crf=27,
        ),
        Style(
            name="worn",
            red_fill_probability=0.6,
            arrows=("arc", "plain"),
            centre_design_probability=0.3,
            net_probability=0.6,
            wear=(0.5, 1.0),
            powder=(0.4, 0.9),
            grain=(0.5, 1.0),
            hotspot_gain=(0.1, 0.3),
            hotspot_radius=(0.8, 1.5),
            vignette=(0.15, 0.35),
            exposure=(0.9, 1.05),
            temperature_k=(3500.0, 5000.0),
            fill=(0.6, 0.95),
            tilt_deg=(0.0, 10.0),
            k1=(-0.15, 0.02),
            k2=(-0.02, 0.05),
            noise_sigma=(1.5, 4.0),
            defocus_sigma=(0.2, 0.8),
            jpeg_quality=(85, 95),
            crf=26,
        ),
        Style(
            name="warm-lamp",
            red_fill_probability=0.8,
            arrows=("arc", "plain"),
            centre_design_probability=0.5,
            net_probability=0.5,
            wear=(0.1, 0.5),
            powder=(0.1, 0.4),
            grain=(0.4, 0.9),
            hotspot_gain=(0.4, 0.8),
            hotspot_radius=(0.5, 0.9),
            vignette=(0.35, 0.6),
            exposure=(0.6, 0.85),
            temperature_k=(2600.0, 3300.0),
            fill=(0.55, 0.9),
            tilt_deg=(0.0, 10.0),
            k1=(-0.15, 0.0),
            k2=(0.0, 0.05),
            noise_sigma=(3.0, 7.0),
            defocus_sigma=(0.3, 1.0),
            jpeg_quality=(80, 92),
            crf=27,
        ),
        Style(
            name="phone",
            red_fill_probability=0.7,
            arrows=("arc", "plain", "corner"),
            centre_design_probability=0.4,
            net_probability=0.5,
            wear=(0.0, 0.5),
            powder=(0.1, 0.5),
            grain=(0.4, 1.0),
            hotspot_gain=(0.1, 0.4),
            hotspot_radius=(0.7, 1.3),
            vignette=(0.1, 0.4),
            exposure=(0.85, 1.1),
            temperature_k=(3500.0, 6500.0),
            fill=(0.4, 0.8),
            tilt_deg=(5.0, 15.0),
            k1=(-0.3, -0.05),
            k2=(0.02, 0.1),
            noise_sigma=(2.0, 5.0),
            defocus_sigma=(0.0, 1.2),
            jpeg_quality=(70, 88),
            crf=28,
        ),
    )
}
ANY_STYLE = "any"  # draw one of the presets from the seed


def style_names() -> tuple[str, ...]:
    return (ANY_STYLE, *STYLES)


def resolve_style(name: str, rng: np.random.Generator) -> Style:
    """The named preset, or for "any" a preset drawn from `rng`."""
    if name == ANY_STYLE:
        keys = sorted(STYLES)
        return STYLES[keys[int(rng.integers(len(keys)))]]
    if name not in STYLES:
        raise KeyError(name)
    return STYLES[name]


@dataclass(frozen=True)
class BoardLook:
    """One concrete board's appearance."""

    surface_bgr: tuple[int, int, int]
    frame_bgr: tuple[int, int, int]
    ink_bgr: tuple[int, int, int]
    red_bgr: tuple[int, int, int]
    frame_breadth_mm: float
    red_fill: bool
    arrows: str
    centre_design: bool
    nets: bool
    wear: float
    powder: float
    grain: float
    grain_angle: float  # radians; plywood grain direction on the surface
    seed: int  # for the texture's own noise


@dataclass(frozen=True)
class LampLook:
    hotspot_gain: float
    hotspot_radius: float  # fraction of the board half-width
    hotspot_xy: tuple[float, float]  # fraction of the half-width, board frame
    height_mm: float  # lamp above the board, sets the shadows' direction and length
    vignette: float
    exposure: float
    temperature_k: float
    glare: float = 0.0  # strength of the lamp's reflection in the varnish (0: matt board)


@dataclass(frozen=True)
class SensorLook:
    noise_sigma: float
    defocus_sigma: float
    jpeg_quality: int
    gamma: float = 1.0  # the camera's tone curve (auto exposure and processing differ)


def _between(rng: np.random.Generator, span: tuple[float, float]) -> float:
    return float(rng.uniform(span[0], span[1]))


def _pick(rng: np.random.Generator, options: tuple) -> object:
    return options[int(rng.integers(len(options)))]


def sample_board(style: Style, rng: np.random.Generator) -> BoardLook:
    return BoardLook(
        surface_bgr=_pick(rng, SURFACE_WOODS),  # type: ignore[arg-type]
        frame_bgr=_pick(rng, FRAME_WOODS),  # type: ignore[arg-type]
        ink_bgr=_pick(rng, INKS),  # type: ignore[arg-type]
        red_bgr=_pick(rng, REDS),  # type: ignore[arg-type]
        frame_breadth_mm=_between(rng, FRAME_BREADTH_RANGE_MM),
        red_fill=bool(rng.random() < style.red_fill_probability),
        arrows=str(_pick(rng, style.arrows)),
        centre_design=bool(rng.random() < style.centre_design_probability),
        nets=bool(rng.random() < style.net_probability),
        wear=_between(rng, style.wear),
        powder=_between(rng, style.powder),
        grain=_between(rng, style.grain),
        grain_angle=float(rng.choice([0.0, np.pi / 2])) + float(rng.normal(0.0, 0.03)),
        seed=int(rng.integers(2**31)),
    )


def sample_lamp(style: Style, rng: np.random.Generator) -> LampLook:
    return LampLook(
        hotspot_gain=_between(rng, style.hotspot_gain),
        hotspot_radius=_between(rng, style.hotspot_radius),
        hotspot_xy=(float(rng.uniform(-0.35, 0.35)), float(rng.uniform(-0.35, 0.35))),
        height_mm=float(rng.uniform(700.0, 1200.0)),
        vignette=_between(rng, style.vignette),
        exposure=_between(rng, style.exposure),
        temperature_k=_between(rng, style.temperature_k),
        glare=float(rng.uniform(0.05, 0.25)) if rng.random() < 0.4 else 0.0,
    )


def sample_sensor(style: Style, rng: np.random.Generator) -> SensorLook:
    lo, hi = style.jpeg_quality
    return SensorLook(
        noise_sigma=_between(rng, style.noise_sigma),
        defocus_sigma=_between(rng, style.defocus_sigma),
        jpeg_quality=int(rng.integers(lo, hi + 1)),
        gamma=float(rng.uniform(0.85, 1.15)),
    )
