"""Times of contact for discs moving in straight lines: the event finder of the simulator.

Within one simulation step every disc moves with a constant velocity (friction is applied
between steps), so each kind of event is the root of a quadratic: two discs touching, a
disc reaching a cushion, a disc's centre entering or leaving a pocket's hole. Every
function returns, per candidate, the earliest time in [0, inf) or inf when it never comes.
"""

from __future__ import annotations

import numpy as np

from samples.physics.vec import dot

INF = np.inf


def pair_contact_times(pos: np.ndarray, vel: np.ndarray, radius: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """(R, A) time until disc rows[r] and disc a touch while approaching; inf elsewhere.

    `rows` are the indices (into pos) of the moving discs: a pair where neither moves never
    meets. Discs already touching or overlapping and approaching get 0: they collide now.
    """
    dx = pos[None, :, 0] - pos[rows, None, 0]
    dy = pos[None, :, 1] - pos[rows, None, 1]
    wx = vel[None, :, 0] - vel[rows, None, 0]
    wy = vel[None, :, 1] - vel[rows, None, 1]
    reach = radius[rows, None] + radius[None, :]
    b = dx * wx + dy * wy
    a = wx * wx + wy * wy
    c = dx * dx + dy * dy - reach * reach
    disc = b * b - a * c
    candidate = (b < 0.0) & ((disc >= 0.0) | (c <= 0.0))
    times = np.full(b.shape, INF)
    if not candidate.any():
        return times
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        root = (-b[candidate] - np.sqrt(np.maximum(disc[candidate], 0.0))) / a[candidate]
    times[candidate] = np.where(c[candidate] <= 0.0, 0.0, np.maximum(root, 0.0))
    return times


def cushion_contact_times(pos: np.ndarray, vel: np.ndarray, limit: np.ndarray) -> np.ndarray:
    """(M, 2) time until each disc's centre reaches |coordinate| = limit on each axis."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ahead = np.where(vel > 0.0, (limit[:, None] - pos) / vel, INF)
        behind = np.where(vel < 0.0, (-limit[:, None] - pos) / vel, INF)
    times = np.minimum(ahead, behind)
    return np.where(np.isnan(times), INF, np.maximum(times, 0.0))


def circle_entry_times(pos: np.ndarray, vel: np.ndarray, centres: np.ndarray, radius: float) -> np.ndarray:
    """(M, K) time until each point enters each circle, moving inwards across its rim."""
    q = pos[:, None, :] - centres[None, :, :]
    a = dot(vel, vel)[:, None]
    b = dot(q, vel[:, None, :])
    c = dot(q, q) - radius * radius
    disc = b * b - a * c
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        root = (-b - np.sqrt(np.maximum(disc, 0.0))) / a
    entering = (b < 0.0) & (a > 0.0)
    times = np.where(entering & (disc >= 0.0), np.maximum(root, 0.0), INF)
    # On or inside the rim: entering now if moving inwards; leaving ones are not entering.
    return np.where(c <= 0.0, np.where(entering, 0.0, INF), times)


def circle_exit_time(pos: np.ndarray, vel: np.ndarray, centre: np.ndarray, radius: float) -> float:
    """Time until a point inside a circle leaves it; inf when it is not moving."""
    a = float(dot(vel, vel))
    if a == 0.0:
        return INF
    q = pos - centre
    b = float(dot(q, vel))
    c = float(dot(q, q)) - radius * radius
    disc = max(b * b - a * c, 0.0)
    return max((-b + np.sqrt(disc)) / a, 0.0)
