"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), with Lichess's
parameters: a new player is 1500 with deviation 500 and volatility 0.09, tau 0.75, and the
deviation grows while a player does not play (Lichess counts about 0.21436 rating periods a
day), up to the starting 500. A rating is provisional while its deviation is 110 or more.

Pure arithmetic: the service stores `Rating`s and calls `rate` when a rated game ends, in
the transaction that ends it, one game at a time (each game is its own rating period, as
Lichess does for correspondence games).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178           # Glicko-2's conversion between the two scales
START_RATING = 1500.0
START_DEVIATION = 500.0
START_VOLATILITY = 0.09
TAU = 0.75
MAX_DEVIATION = 500.0
MIN_DEVIATION = 45.0       # Lichess's floor: a settled rating still moves a little
PROVISIONAL_DEVIATION = 110.0
PERIODS_PER_DAY = 0.21436  # Lichess: deviation grows by about one period every 4.7 days
_EPSILON = 1e-6


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION

    def shown(self) -> str:
        """'1523' or '1500?' (provisional), as players see it beside a name."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


def after_inactivity(r: Rating, days: float) -> Rating:
    """The rating as it stands after `days` without a game: only the deviation grows."""
    if days <= 0:
        return r
    phi = r.deviation / SCALE
    grown = math.sqrt(phi * phi + r.volatility ** 2 * days * PERIODS_PER_DAY) * SCALE
    return Rating(r.rating, min(grown, MAX_DEVIATION), r.volatility)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi ** 2))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of Glickman's paper: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: list[tuple[Rating, float]], *, tau: float = TAU,
         min_deviation: float = MIN_DEVIATION) -> Rating:
    """The player's rating after one rating period with `results`: (opponent, score) pairs,
    score 1 for a win, 0.5 a draw, 0 a loss. No results: only the deviation grows by one
    period."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        grown = math.sqrt(phi * phi + sigma * sigma) * SCALE
        return Rating(player.rating, min(grown, MAX_DEVIATION), sigma)
    v_inv = 0.0
    total = 0.0
    for opp, score in results:
        mu_j = (opp.rating - START_RATING) / SCALE
        phi_j = opp.deviation / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    deviation = min(max(phi_new * SCALE, min_deviation), MAX_DEVIATION)
    return Rating(mu_new * SCALE + START_RATING, deviation, sigma_new)


def rate_game(white: Rating, black: Rating, white_score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them (each from the other's rating
    before the game)."""
    return (rate(white, [(black, white_score)]), rate(black, [(white, 1.0 - white_score)]))
