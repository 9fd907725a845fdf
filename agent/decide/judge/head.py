"""The trained head: a logistic regression over the judge's features, stored as JSON in
resources/judge.json (names, standardisation, weights, threshold, provenance)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np


class HeadMismatch(ValueError):
    """The stored head was trained on other features than this code extracts."""


@dataclass(frozen=True)
class LogisticHead:
    feature_names: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float  # keep when P(keep) >= threshold
    about: dict

    def probability(self, features: np.ndarray) -> np.ndarray:
        z = ((features - self.mean) / self.scale) @ self.weights + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))

    def to_json(self) -> dict:
        return {
            "about": self.about,
            "feature_names": list(self.feature_names),
            "mean": [round(float(v), 6) for v in self.mean],
            "scale": [round(float(v), 6) for v in self.scale],
            "weights": [round(float(v), 6) for v in self.weights],
            "bias": round(float(self.bias), 6),
            "threshold": round(float(self.threshold), 4),
        }

    @classmethod
    def from_json(cls, data: dict, expected_names: tuple[str, ...] | None = None) -> LogisticHead:
        names = tuple(data["feature_names"])
        if expected_names is not None and names != expected_names:
            raise HeadMismatch("resources/judge.json was trained on other features; retrain it (python -m agent.decide.judge.train)")
        return cls(
            names,
            np.asarray(data["mean"], dtype=np.float32),
            np.asarray(data["scale"], dtype=np.float32),
            np.asarray(data["weights"], dtype=np.float32),
            float(data["bias"]),
            float(data["threshold"]),
            dict(data.get("about", {})),
        )

    @classmethod
    def load(cls, path: Path, expected_names: tuple[str, ...] | None = None) -> LogisticHead:
        with open(path, encoding="utf-8") as f:
            return cls.from_json(json.load(f), expected_names)


def fit_logistic(
    x: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None, l2: float = 1.0, iterations: int = 50
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """L2-regularised logistic regression by Newton's method on standardised features.
    Returns (mean, scale, weights, bias). Deterministic: same data, same head."""
    x = x.astype(np.float64)
    y = y.astype(np.float64)
    w_sample = np.ones(len(y)) if sample_weight is None else sample_weight.astype(np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    beta = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[-1] = 0.0  # the bias is not shrunk
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ beta, -30, 30)))
        gradient = z.T @ (w_sample * (p - y)) + penalty * beta
        hessian = (z * (w_sample * p * (1 - p))[:, None]).T @ z + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-6:
            break
    return mean.astype(np.float32), scale.astype(np.float32), beta[:-1].astype(np.float32), float(beta[-1])
