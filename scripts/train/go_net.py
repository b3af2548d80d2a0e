#!/usr/bin/env python3
"""Train quartet's Go policy and value network on self-play positions.

    quartet train go selfplay --out games.txt ...      # the games (sharded over machines)
    quartet train go planes --games games*.txt --out positions.bin
    python3 scripts/train/go_net.py positions.bin --out data/go/net.bin

Needs PyTorch (pip install torch numpy). The network's shape and the weights file are
described in src/go/net/mod.rs; batch normalisation is folded into the convolutions when
the file is written. Every tenth game is held out: the script prints the held-out move
prediction (how often the policy's top move is the search's most visited one), the policy's
cross-entropy against the visit shares, and the value's squared error against the results.
With --reference FILE it also writes the network's own outputs for a few held-out positions,
which the Rust test compares with the engine's forward pass.
"""
import argparse
import math
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

LEGAL_PLANE = 12


def load(path):
    with open(path, "rb") as f:
        head = f.read(16)
    if head[:8] != b"QGOPLN01":
        sys.exit(f"{path}: not a positions file from `quartet train go planes`")
    size, planes = struct.unpack("<II", head[8:16])
    nbytes = (planes * size * size + 7) // 8
    dt = np.dtype([("game", "<u4"), ("ply", "<u4"), ("planes", "u1", (nbytes,)),
                   ("policy", "<f4", (size * size + 1,)), ("z", "<f4"), ("q", "<f4")])
    data = np.fromfile(path, dtype=dt, offset=16)
    return size, planes, data


def unpack(rec_planes, planes, size):
    bits = np.unpackbits(np.ascontiguousarray(rec_planes), axis=1)[:, : planes * size * size]
    return bits.reshape(-1, planes, size, size).astype(np.float32)


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.b1 = nn.BatchNorm2d(c)
        self.c2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.b2 = nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.relu(self.b1(self.c1(x)))
        return F.relu(x + self.b2(self.c2(y)))


class Net(nn.Module):
    def __init__(self, planes, c, blocks, hidden):
        super().__init__()
        self.stem = nn.Conv2d(planes, c, 3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(c)
        self.blocks = nn.ModuleList(Block(c) for _ in range(blocks))
        self.policy = nn.Conv2d(c, 1, 1)
        self.pass_ = nn.Linear(c, 1)
        self.v1 = nn.Linear(c, hidden)
        self.v2 = nn.Linear(hidden, 1)

    def forward(self, x):
        """Policy logits (board points then pass) and the value before tanh."""
        h = F.relu(self.stem_bn(self.stem(x)))
        for b in self.blocks:
            h = b(h)
        n = x.shape[0]
        logits = self.policy(h).reshape(n, -1)
        mean = h.mean(dim=(2, 3))
        logits = torch.cat([logits, self.pass_(mean)], dim=1)
        v = self.v2(F.relu(self.v1(mean))).reshape(n)
        return logits, v


def symmetry(x, pol, k, size):
    """Applies one of the 8 board symmetries to planes (N, P, n, n) and policy (N, n*n+1)."""
    board = pol[:, :-1].reshape(-1, size, size)
    if k & 4:
        x, board = x.transpose(2, 3), board.transpose(1, 2)
    r = k & 3
    x, board = torch.rot90(x, r, (2, 3)), torch.rot90(board, r, (1, 2))
    return x.contiguous(), torch.cat([board.reshape(len(pol), -1), pol[:, -1:]], dim=1)


def masked(logits, x):
    legal = torch.cat([x[:, LEGAL_PLANE].reshape(len(x), -1), torch.ones(len(x), 1)], dim=1)
    return logits.masked_fill(legal == 0, -1e9)


def losses(net, x, pol, target_v):
    logits, v = net(x)
    logp = F.log_softmax(masked(logits, x), dim=1)
    ce = -(pol * logp).sum(dim=1).mean()
    mse = ((torch.tanh(v) - target_v) ** 2).mean()
    return ce, mse, logits


def evaluate(net, size, planes, data, batch=1024):
    net.eval()
    ce_sum = mse_sum = hits = 0.0
    with torch.no_grad():
        for i in range(0, len(data), batch):
            d = data[i:i + batch]
            x = torch.from_numpy(unpack(d["planes"], planes, size))
            pol = torch.from_numpy(np.ascontiguousarray(d["policy"]))
            z = torch.from_numpy(np.ascontiguousarray(d["z"]))
            ce, mse, logits = losses(net, x, pol, z)
            ce_sum += ce.item() * len(d)
            mse_sum += mse.item() * len(d)
            top = masked(logits, x).argmax(dim=1)
            hits += (top == pol.argmax(dim=1)).sum().item()
    net.train()
    n = len(data)
    return ce_sum / n, mse_sum / n, hits / n


def fold(conv, bn):
    w = conv.weight.detach().double()
    scale = bn.weight.detach().double() / torch.sqrt(bn.running_var.double() + bn.eps)
    w = w * scale.reshape(-1, 1, 1, 1)
    b = bn.bias.detach().double() - bn.running_mean.double() * scale
    # [cout][cin][ky][kx] -> [ky][kx][cin][cout]
    return w.permute(2, 3, 1, 0).reshape(-1).float().numpy(), b.float().numpy()


def export(net, planes, c, blocks, hidden, path):
    parts = [b"QGONET01", struct.pack("<IIII", planes, c, blocks, hidden)]
    arrays = list(fold(net.stem, net.stem_bn))
    for b in net.blocks:
        arrays += fold(b.c1, b.b1)
        arrays += fold(b.c2, b.b2)
    arrays += [net.policy.weight.detach().reshape(-1).numpy(), net.policy.bias.detach().numpy(),
               net.pass_.weight.detach().reshape(-1).numpy(), net.pass_.bias.detach().numpy(),
               net.v1.weight.detach().t().contiguous().reshape(-1).numpy(),
               net.v1.bias.detach().numpy(),
               net.v2.weight.detach().reshape(-1).numpy(), net.v2.bias.detach().numpy()]
    for a in arrays:
        parts.append(np.asarray(a, dtype="<f4").tobytes())
    with open(path, "wb") as f:
        f.write(b"".join(parts))


def write_reference(net, size, planes, data, path, count):
    """The trainer's outputs for `count` positions, for the engine's forward-pass test."""
    net.eval()
    d = data[:count]
    x = torch.from_numpy(unpack(d["planes"], planes, size))
    with torch.no_grad():
        logits, v = net(x)
    bits = unpack(d["planes"], planes, size).astype(np.uint8).reshape(len(d), -1)
    with open(path, "w") as f:
        f.write(f"# go net reference: size {size}, planes {planes}; per position: the planes "
                "as 0/1, then the policy logits (points, pass), then the value before tanh\n")
        for i in range(len(d)):
            f.write("".join(map(str, bits[i])) + "\n")
            f.write(" ".join(f"{t:.6f}" for t in logits[i].tolist()) + "\n")
            f.write(f"{v[i].item():.6f}\n")
    net.train()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("positions", nargs="+")
    ap.add_argument("--out", required=True, help="the weights file written")
    ap.add_argument("--channels", type=int, default=32)
    ap.add_argument("--blocks", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=float, default=4)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--wd", type=float, default=1e-4)
    ap.add_argument("--value-weight", type=float, default=1.0)
    ap.add_argument("--q-share", type=float, default=0.5,
                    help="share of the search's win rate in the value target (the rest: result)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reference", help="write the trainer's outputs for 8 held-out positions")
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = np.random.default_rng(a.seed)
    loaded = [load(p) for p in a.positions]
    size, planes = loaded[0][0], loaded[0][1]
    if any((s, p) != (size, planes) for s, p, _ in loaded):
        sys.exit("the positions files differ in board size or planes")
    data = np.concatenate([d for _, _, d in loaded])
    held = data["game"] % 10 == 0
    train, test = data[~held], data[held]
    print(f"{len(train)} training positions, {len(test)} held out "
          f"({len(np.unique(test['game']))} games); size {size}, {planes} planes")
    net = Net(planes, a.channels, a.blocks, a.hidden)
    opt = torch.optim.SGD(net.parameters(), lr=a.lr, momentum=0.9, weight_decay=a.wd,
                          nesterov=True)
    steps = int(a.epochs * len(train) / a.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=max(steps, 1),
                                                pct_start=0.1)
    start = time.time()
    for step in range(steps):
        idx = rng.integers(0, len(train), a.batch)
        d = train[idx]
        x = torch.from_numpy(unpack(d["planes"], planes, size))
        pol = torch.from_numpy(np.ascontiguousarray(d["policy"]))
        x, pol = symmetry(x, pol, int(rng.integers(8)), size)
        target = torch.from_numpy((1 - a.q_share) * d["z"] + a.q_share * (2 * d["q"] - 1))
        ce, mse, _ = losses(net, x, pol, target)
        loss = ce + a.value_weight * mse
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if (step + 1) % 500 == 0 or step + 1 == steps:
            print(f"step {step + 1}/{steps}  train ce {ce.item():.3f} mse {mse.item():.3f}  "
                  f"{time.time() - start:.0f} s", flush=True)
    ce, mse, acc = evaluate(net, size, planes, test)
    uniform = evaluate_uniform(test, planes, size)
    print(f"held out: move prediction {100 * acc:.1f}%, policy cross-entropy {ce:.3f} "
          f"(uniform over legal moves {uniform:.3f}), value squared error {mse:.3f} "
          "(0 knows every result, 1 knows none)")
    export(net, planes, a.channels, a.blocks, a.hidden, a.out)
    print(f"wrote {a.out}")
    if a.reference:
        write_reference(net, size, planes, test, a.reference, 8)
        print(f"wrote {a.reference}")


def evaluate_uniform(data, planes, size):
    x = unpack(data["planes"], planes, size)
    legal = x[:, LEGAL_PLANE].reshape(len(x), -1).sum(axis=1) + 1
    return float(np.mean(np.log(legal)))


if __name__ == "__main__":
    main()
