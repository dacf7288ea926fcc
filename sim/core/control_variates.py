"""Control variates for duplicate play: luck measured on a wall, whose expectation is known to be zero, taken
out of the wall's result in proportion to how much of that result it explains.

A feature is usable when its mean is zero whatever the players do: a sum over chance events (the tiles drawn)
of what the event gave less what it was expected to give, given everything before it. Then for any fixed
coefficients b, ``difference - features @ b`` has the mean of ``difference``, and a smaller variance when b is
near the regression of the differences on the features. The coefficients are fitted on other walls than the
ones they adjust (cross-fitting for a fixed number of walls, the walls already played for a sequential test),
so the adjusted mean stays unbiased exactly, not only as the walls grow many.
"""

import numpy as np


def fit(differences: np.ndarray, features: np.ndarray) -> np.ndarray:
    """(features,) coefficients of the least-squares regression of `differences` (walls,) on `features`
    (walls, features), with an intercept; zero where the walls are too few or a feature never varies."""
    differences = np.asarray(differences, dtype=np.float64)
    features = np.asarray(features, dtype=np.float64)
    walls, count = features.shape
    if walls <= count + 1:
        return np.zeros(count)
    centred = features - features.mean(axis=0)
    target = differences - differences.mean()
    coefficients, *_ = np.linalg.lstsq(centred, target, rcond=None)
    return np.where(np.isfinite(coefficients), coefficients, 0.0)


def adjust(differences: np.ndarray, features: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
    """The differences less the luck the coefficients attribute to each wall."""
    return np.asarray(differences, dtype=np.float64) - np.asarray(features, dtype=np.float64) @ coefficients


def cross_fitted(differences: np.ndarray, features: np.ndarray, folds: int = 2) -> np.ndarray:
    """(walls,) adjusted differences: the walls are split into `folds` interleaved folds (wall i in fold
    i % folds), and each fold is adjusted with coefficients fitted on the others."""
    differences = np.asarray(differences, dtype=np.float64)
    features = np.asarray(features, dtype=np.float64)
    fold = np.arange(len(differences)) % folds
    adjusted = np.empty_like(differences)
    for index in range(folds):
        inside = fold == index
        coefficients = fit(differences[~inside], features[~inside])
        adjusted[inside] = adjust(differences[inside], features[inside], coefficients)
    return adjusted
