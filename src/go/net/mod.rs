//! A small residual convolutional network over the board that gives a move policy and a
//! position value, trained on the engine's self-play (`scripts/train/go_net.py`).
//!
//! The shape: a 3x3 convolution from the input planes ([`planes`]) to `C` channels, `B`
//! residual blocks of two 3x3 convolutions, all with ReLU; the policy is a 1x1 convolution
//! to one logit a point plus a pass logit from the channels' board mean; the value is that
//! mean through a hidden layer of `H` to one `tanh` output for the side to move. Every
//! layer is convolutional or pooled, so one network serves every board size.
//!
//! The weights file (little-endian): `QGONET01`, then `u32` planes, `C`, `B`, `H`, then
//! `f32` arrays in this order: the stem's weights `[9][planes][C]` (tap `3 ky + kx` reads
//! the point at row + ky - 1, column + kx - 1) and biases `[C]`; each block's two
//! convolutions likewise `[9][C][C]` and `[C]`; the policy's `[C]` and bias; the pass's
//! `[C]` and bias; the value's hidden `[C][H]`, `[H]`, and output `[H]` and bias. Batch
//! normalisation is folded into the convolutions when the file is written.
pub mod planes;

use super::board::Board;
use crate::color::Color;

const MAGIC: &[u8; 8] = b"QGONET01";
/// Largest widths a file may ask for (a network of a few MB at most).
const MAX_CHANNELS: usize = 256;
const MAX_BLOCKS: usize = 40;

struct Conv {
    cin: usize,
    cout: usize,
    /// `[9][cin][cout]`
    w: Vec<f32>,
    b: Vec<f32>,
}

/// A loaded network.
pub struct Network {
    channels: usize,
    hidden: usize,
    stem: Conv,
    blocks: Vec<(Conv, Conv)>,
    policy_w: Vec<f32>,
    policy_b: f32,
    pass_w: Vec<f32>,
    pass_b: f32,
    v1_w: Vec<f32>,
    v1_b: Vec<f32>,
    v2_w: Vec<f32>,
    v2_b: f32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({} channels, {} blocks)",
            self.channels,
            self.blocks.len()
        )
    }
}

/// What one evaluation gives.
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    /// Probability of every legal move of the mover by board point (0 elsewhere), and of
    /// passing; they sum to 1.
    pub policy: Vec<f32>,
    pub pass: f32,
    /// The mover's expected result, -1 (loss) to 1 (win).
    pub value: f32,
}

/// Buffers of one evaluation, kept between evaluations so that none allocates.
#[derive(Default)]
pub struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
    t: Vec<f32>,
    input: Vec<f32>,
    logits: Vec<f32>,
    mean: Vec<f32>,
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> Result<usize, String> {
        let b = self
            .data
            .get(self.at..self.at + 4)
            .ok_or("the network file is cut short")?;
        self.at += 4;
        Ok(u32::from_le_bytes(b.try_into().unwrap()) as usize)
    }

    fn f32s(&mut self, n: usize) -> Result<Vec<f32>, String> {
        let b = self
            .data
            .get(self.at..self.at + 4 * n)
            .ok_or("the network file is cut short")?;
        self.at += 4 * n;
        let v: Vec<f32> = b
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        if v.iter().any(|x| !x.is_finite()) {
            return Err("the network file holds a weight that is not a finite number".into());
        }
        Ok(v)
    }

    fn conv(&mut self, cin: usize, cout: usize) -> Result<Conv, String> {
        Ok(Conv {
            cin,
            cout,
            w: self.f32s(9 * cin * cout)?,
            b: self.f32s(cout)?,
        })
    }
}

impl Network {
    /// Reads a weights file's bytes (the format is in the module's comment).
    pub fn from_bytes(data: &[u8]) -> Result<Network, String> {
        if data.get(..8) != Some(MAGIC) {
            return Err("not a quartet Go network file (QGONET01)".into());
        }
        let mut r = Reader { data, at: 8 };
        let planes = r.u32()?;
        let channels = r.u32()?;
        let blocks = r.u32()?;
        let hidden = r.u32()?;
        if planes != planes::PLANES {
            return Err(format!(
                "the network reads {planes} input planes, this engine makes {}",
                planes::PLANES
            ));
        }
        if !(1..=MAX_CHANNELS).contains(&channels)
            || blocks > MAX_BLOCKS
            || !(1..=MAX_CHANNELS).contains(&hidden)
        {
            return Err(format!(
                "network shape out of range: {channels} channels, {blocks} blocks, {hidden} hidden"
            ));
        }
        let stem = r.conv(planes, channels)?;
        let mut bs = Vec::with_capacity(blocks);
        for _ in 0..blocks {
            bs.push((r.conv(channels, channels)?, r.conv(channels, channels)?));
        }
        let policy_w = r.f32s(channels)?;
        let policy_b = r.f32s(1)?[0];
        let pass_w = r.f32s(channels)?;
        let pass_b = r.f32s(1)?[0];
        let v1_w = r.f32s(channels * hidden)?;
        let v1_b = r.f32s(hidden)?;
        let v2_w = r.f32s(hidden)?;
        let v2_b = r.f32s(1)?[0];
        if r.at != data.len() {
            return Err(format!(
                "the network file has {} bytes past its weights",
                data.len() - r.at
            ));
        }
        Ok(Network {
            channels,
            hidden,
            stem,
            blocks: bs,
            policy_w,
            policy_b,
            pass_w,
            pass_b,
            v1_w,
            v1_b,
            v2_w,
            v2_b,
        })
    }

    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        let data = crate::bounded_read::read_capped(path, 64 << 20)?;
        Network::from_bytes(&data).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Evaluates `b` with `mover` to move.
    pub fn evaluate(&self, b: &Board, mover: Color, s: &mut Scratch, out: &mut Evaluation) {
        let n = b.size();
        s.input.clear();
        s.input.resize((n + 2) * (n + 2) * planes::PLANES, 0.0);
        planes::for_each_set(b, mover, |k, p| s.input[p * planes::PLANES + k] = 1.0);
        self.forward(n, s);
        // Policy over the legal moves.
        let c = self.channels;
        out.policy.clear();
        out.policy.resize((n + 2) * (n + 2), 0.0);
        s.mean.clear();
        s.mean.resize(c, 0.0);
        let mut best = f32::NEG_INFINITY;
        s.logits.clear();
        for p in b.points() {
            let x = &s.a[p * c..(p + 1) * c];
            for (m, v) in s.mean.iter_mut().zip(x) {
                *m += v;
            }
            if b.is_legal(mover, p) {
                let l = dot(x, &self.policy_w) + self.policy_b;
                best = best.max(l);
                s.logits.push(l);
            }
        }
        let inv = 1.0 / (n * n) as f32;
        s.mean.iter_mut().for_each(|m| *m *= inv);
        let pass = dot(&s.mean, &self.pass_w) + self.pass_b;
        best = best.max(pass);
        let mut sum = (pass - best).exp();
        let mut i = 0;
        for p in b.points() {
            if b.is_legal(mover, p) {
                let e = (s.logits[i] - best).exp();
                out.policy[p] = e;
                sum += e;
                i += 1;
            }
        }
        out.policy.iter_mut().for_each(|v| *v /= sum);
        out.pass = (pass - best).exp() / sum;
        out.value = self.value_logit(&s.mean).tanh();
    }

    /// The value before `tanh`, from the channels' board means.
    fn value_logit(&self, mean: &[f32]) -> f32 {
        let mut v = self.v2_b;
        for j in 0..self.hidden {
            let mut h = self.v1_b[j];
            for (k, m) in mean.iter().enumerate() {
                h += m * self.v1_w[k * self.hidden + j];
            }
            v += h.max(0.0) * self.v2_w[j];
        }
        v
    }

    /// The trunk: leaves the last block's output in `s.a`, point by point.
    fn forward(&self, n: usize, s: &mut Scratch) {
        let len = (n + 2) * (n + 2) * self.channels;
        for buf in [&mut s.a, &mut s.b, &mut s.t] {
            buf.clear();
            buf.resize(len, 0.0);
        }
        conv3x3(n, &self.stem, &s.input, &mut s.a, None);
        for (c1, c2) in &self.blocks {
            conv3x3(n, c1, &s.a, &mut s.t, None);
            conv3x3(n, c2, &s.t, &mut s.b, Some(&s.a));
            std::mem::swap(&mut s.a, &mut s.b);
        }
    }

    /// The policy's logits and the value before `tanh`, from input planes given as bytes
    /// (plane, row, col as `planes::to_bytes` writes them), for comparing with the
    /// trainer's own forward pass.
    pub fn raw_outputs(&self, n: usize, bytes: &[u8], s: &mut Scratch) -> (Vec<f32>, f32, f32) {
        let w = n + 2;
        s.input.clear();
        s.input.resize(w * w * planes::PLANES, 0.0);
        for k in 0..planes::PLANES {
            for row in 0..n {
                for col in 0..n {
                    let p = (row + 1) * w + col + 1;
                    s.input[p * planes::PLANES + k] = bytes[k * n * n + row * n + col] as f32;
                }
            }
        }
        self.forward(n, s);
        let c = self.channels;
        let mut mean = vec![0.0f32; c];
        let mut logits = Vec::with_capacity(n * n);
        for row in 0..n {
            for col in 0..n {
                let p = (row + 1) * w + col + 1;
                let x = &s.a[p * c..(p + 1) * c];
                logits.push(dot(x, &self.policy_w) + self.policy_b);
                for (m, v) in mean.iter_mut().zip(x) {
                    *m += v / (n * n) as f32;
                }
            }
        }
        let pass = dot(&mean, &self.pass_w) + self.pass_b;
        (logits, pass, self.value_logit(&mean))
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `out = relu(conv(input) + bias [+ residual])` over the points of an `n`x`n` board laid
/// out with a one-point zero border, channels innermost.
fn conv3x3(n: usize, c: &Conv, input: &[f32], out: &mut [f32], residual: Option<&[f32]>) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has AVX2 and FMA, checked just above.
            unsafe { conv3x3_avx2(n, c, input, out, residual) };
            return;
        }
    }
    conv3x3_body::<false>(n, c, input, out, residual);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn conv3x3_avx2(
    n: usize,
    c: &Conv,
    input: &[f32],
    out: &mut [f32],
    residual: Option<&[f32]>,
) {
    conv3x3_body::<true>(n, c, input, out, residual);
}

/// The convolution; `FMA` fuses each multiply and add (only where the CPU has the
/// instruction: elsewhere `mul_add` is a slow library call). Widths of 16, 32 and 64
/// channels keep a point's sums in registers.
#[inline(always)]
fn conv3x3_body<const FMA: bool>(
    n: usize,
    c: &Conv,
    input: &[f32],
    out: &mut [f32],
    residual: Option<&[f32]>,
) {
    match c.cout {
        16 => conv3x3_fixed::<FMA, 16>(n, c, input, out, residual),
        32 => conv3x3_fixed::<FMA, 32>(n, c, input, out, residual),
        64 => conv3x3_fixed::<FMA, 64>(n, c, input, out, residual),
        _ => conv3x3_any::<FMA>(n, c, input, out, residual),
    }
}

#[inline(always)]
fn conv3x3_fixed<const FMA: bool, const COUT: usize>(
    n: usize,
    c: &Conv,
    input: &[f32],
    out: &mut [f32],
    residual: Option<&[f32]>,
) {
    let w = n + 2;
    let cin = c.cin;
    let bias: &[f32; COUT] = c.b[..COUT].try_into().unwrap();
    for row in 0..n {
        for col in 0..n {
            let p = (row + 1) * w + col + 1;
            let mut acc = *bias;
            for k in 0..9 {
                let q = p + (k / 3) * w + (k % 3) - w - 1;
                let x = &input[q * cin..(q + 1) * cin];
                let wk = &c.w[k * cin * COUT..(k + 1) * cin * COUT];
                for (&a, wr) in x.iter().zip(wk.chunks_exact(COUT)) {
                    let wr: &[f32; COUT] = wr.try_into().unwrap();
                    for j in 0..COUT {
                        acc[j] = if FMA {
                            a.mul_add(wr[j], acc[j])
                        } else {
                            acc[j] + a * wr[j]
                        };
                    }
                }
            }
            if let Some(r) = residual {
                for (o, &rv) in acc.iter_mut().zip(&r[p * COUT..(p + 1) * COUT]) {
                    *o += rv;
                }
            }
            for (o, v) in out[p * COUT..(p + 1) * COUT].iter_mut().zip(acc) {
                *o = v.max(0.0);
            }
        }
    }
}

#[inline(always)]
fn conv3x3_any<const FMA: bool>(
    n: usize,
    c: &Conv,
    input: &[f32],
    out: &mut [f32],
    residual: Option<&[f32]>,
) {
    let w = n + 2;
    let (cin, cout) = (c.cin, c.cout);
    for row in 0..n {
        for col in 0..n {
            let p = (row + 1) * w + col + 1;
            let acc = &mut out[p * cout..(p + 1) * cout];
            acc.copy_from_slice(&c.b);
            for k in 0..9 {
                let q = p + (k / 3) * w + (k % 3) - w - 1;
                let x = &input[q * cin..(q + 1) * cin];
                let wk = &c.w[k * cin * cout..(k + 1) * cin * cout];
                for (ci, &a) in x.iter().enumerate() {
                    if a == 0.0 {
                        continue;
                    }
                    let wr = &wk[ci * cout..(ci + 1) * cout];
                    for (o, &wv) in acc.iter_mut().zip(wr) {
                        *o = if FMA { a.mul_add(wv, *o) } else { *o + a * wv };
                    }
                }
            }
            if let Some(r) = residual {
                for (o, &rv) in acc.iter_mut().zip(&r[p * cout..(p + 1) * cout]) {
                    *o += rv;
                }
            }
            for o in acc.iter_mut() {
                *o = o.max(0.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/go/net-v1.bin");
    const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/go/net-v1-reference.txt");

    /// The shipped network's outputs on held-out positions, as PyTorch computed them when
    /// it was trained (`scripts/train/go_net.py --reference`), match the engine's own
    /// forward pass.
    #[test]
    fn the_forward_pass_matches_the_trainers() {
        let net = Network::load(std::path::Path::new(NET)).unwrap();
        let text = std::fs::read_to_string(REFERENCE).unwrap();
        let mut lines = text.lines().filter(|l| !l.starts_with('#'));
        let mut s = Scratch::default();
        let mut seen = 0;
        while let Some(bits) = lines.next() {
            let bytes: Vec<u8> = bits.bytes().map(|b| b - b'0').collect();
            let n = ((bytes.len() / planes::PLANES) as f64).sqrt() as usize;
            assert_eq!(n * n * planes::PLANES, bytes.len());
            let want: Vec<f32> = lines
                .next()
                .unwrap()
                .split(' ')
                .map(|t| t.parse().unwrap())
                .collect();
            let want_v: f32 = lines.next().unwrap().parse().unwrap();
            let (logits, pass, v) = net.raw_outputs(n, &bytes, &mut s);
            assert_eq!(want.len(), logits.len() + 1);
            for (a, b) in logits.iter().chain([&pass]).zip(&want) {
                assert!((a - b).abs() < 1e-3, "logit {a} vs the trainer's {b}");
            }
            assert!(
                (v - want_v).abs() < 1e-3,
                "value {v} vs the trainer's {want_v}"
            );
            seen += 1;
        }
        assert!(seen >= 4);
    }

    #[test]
    fn the_policy_covers_the_legal_moves_and_sums_to_one() {
        let net = Network::load(std::path::Path::new(NET)).unwrap();
        let b = Board::from_diagram(&[
            ".........",
            "..X......",
            ".XO......",
            "..X..O...",
            ".........",
            ".........",
            "...O.X...",
            ".........",
            ".........",
        ])
        .unwrap();
        let mut s = Scratch::default();
        let mut e = Evaluation::default();
        for mover in [Color::Black, Color::White] {
            net.evaluate(&b, mover, &mut s, &mut e);
            let sum: f32 = e.policy.iter().sum::<f32>() + e.pass;
            assert!((sum - 1.0).abs() < 1e-4);
            for p in b.points() {
                assert_eq!(e.policy[p] > 0.0, b.is_legal(mover, p), "{p}");
            }
            assert!((-1.0..=1.0).contains(&e.value));
        }
    }

    #[test]
    fn damaged_files_are_refused() {
        let good = std::fs::read(NET).unwrap();
        assert!(Network::from_bytes(&good).is_ok());
        assert!(Network::from_bytes(&good[..good.len() - 1]).is_err());
        assert!(Network::from_bytes(&[good.as_slice(), &[0]].concat()).is_err());
        assert!(Network::from_bytes(b"QGONET01").is_err());
        let mut planes = good.clone();
        planes[8] = 3;
        assert!(Network::from_bytes(&planes).is_err());
        let mut nan = good.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(Network::from_bytes(&nan).is_err());
    }
}
