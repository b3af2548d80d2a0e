#!/usr/bin/env python3
"""Fits the weights of the Gomoku line-pattern evaluation to game results (logistic
regression, "Texel" style), from the features `examples/gomoku_features.rs` dumps.

usage: scripts/gomoku_fit_eval.py features.tsv

The model: P(mover wins) = sigmoid(a * paper + sum_k (m_k * mover_k - w_k * opp_k) + t),
where `paper` is the window-sum evaluation (own + own/4 - other) and mover_k / opp_k count
the empty cells in Pattern4 class k. Printed weights are in the units of the paper
evaluation (m_k / a, w_k / a): how the `classic` weights of src/gomoku/weights.rs were made.
The learnt ones come from `quartet train gomoku fit` (data/gomoku/README.md).
The last quarter of the positions is held out to compare log-losses with and without the
pattern terms.
"""
import sys
import numpy as np

CLASSES = ["None", "Flex2x2", "Block3Plus", "Flex3", "Flex3Plus", "Flex3x2", "Block4",
           "Block4Plus", "Block4Flex3", "Flex4", "Five"]

d = np.loadtxt(sys.argv[1], dtype=np.float64)
y = d[:, 0]
own, other = d[:, 1], d[:, 2]
paper = own + np.floor(own / 4) - other
mover = d[:, 3:14]
opp = d[:, 14:25]
keep = list(range(1, 10))  # None and Five carry no weight


def fit(x, y, iters=3000, l2=1e-3):
    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = (x - mu) / sd
    z = np.hstack([z, np.ones((len(z), 1))])
    w = np.zeros(z.shape[1])
    for _ in range(iters):  # Newton steps converge in a few dozen; cheap at this size
        p = 1 / (1 + np.exp(-z @ w))
        g = z.T @ (p - y) / len(y) + l2 * np.r_[w[:-1], 0]
        h = (z * (p * (1 - p))[:, None]).T @ z / len(y) + l2 * np.eye(len(w))
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    # back to raw units
    raw = w[:-1] / sd
    bias = w[-1] - (raw * mu).sum()
    return raw, bias


def logloss(x, y, raw, bias):
    p = 1 / (1 + np.exp(-(x @ raw + bias)))
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()


n = len(y)
cut = n * 3 // 4
xa = paper[:, None]
xb = np.hstack([paper[:, None], mover[:, keep], opp[:, keep]])
for name, x in [("paper only", xa), ("paper + patterns", xb)]:
    raw, bias = fit(x[:cut], y[:cut])
    print(f"{name}: held-out log-loss {logloss(x[cut:], y[cut:], raw, bias):.4f}"
          f" (train {logloss(x[:cut], y[:cut], raw, bias):.4f})")
raw, bias = fit(xb, y)
a = raw[0]
print(f"all {n} positions: paper coefficient {a:.3e}, tempo {bias / a:.0f} paper units")
m = [0] * 11
w = [0] * 11
for i, k in enumerate(keep):
    m[k] = round(raw[1 + i] / a)
    w[k] = round(-raw[1 + len(keep) + i] / a)
print("MOVER: ", m)
print("WAITER:", w)
