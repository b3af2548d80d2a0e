//! Canonical transposition keys: the drawn-edge set mapped by each board symmetry (D2, or D4
//! on square boards), with the ground edges of each box normalised, and the least image
//! taken. Ground edges of one box are interchangeable (in strings-and-coins terms they are
//! identical strings from the same coin to the ground), so only how many are drawn matters.
//!
//! Mapping goes byte by byte through precomputed tables, so a key costs
//! (symmetries x bytes) lookups instead of one bit operation per edge. The tables send the
//! i-th ground edge of a corner to the i-th ground edge of its image corner (not to its
//! geometric image), so normalising once *before* mapping gives normalised images: the key
//! is the least image of the normalised set.
use super::geometry::{Geometry, GROUND};
use super::notation::{Dot, EdgeName};

pub struct Symmetries {
    n_bytes: usize,
    /// `tables[s][byte][value]`: the image under symmetry `s` of `value` at byte `byte`.
    tables: Vec<[[u128; 256]; 16]>,
    /// The same in u64 when every edge fits in one (boards up to 64 edges, 4x4 and 4x5
    /// included): half the cache footprint and cheaper arithmetic in the solver's most
    /// frequent computation.
    narrow: Vec<[[u64; 256]; 8]>,
    /// `edge_images[e][s]`: the image of edge `e` alone under symmetry `s` (narrow boards),
    /// so a child's images are its parent's with one OR each, from a table that stays in
    /// the first-level cache.
    edge_images: Vec<[u64; 8]>,
    /// Edge permutation of each symmetry (for mapping moves).
    perms: Vec<Vec<u8>>,
    inverse: Vec<Vec<u8>>,
    /// For each box with two or more ground edges: the mask of those edges, and the
    /// canonical pattern for each count drawn (the lowest `k` of them).
    groups: Vec<(u128, [u128; 5])>,
    /// Each group's edges in increasing order.
    group_edges: Vec<[u8; 4]>,
    /// For each edge, its group's index in `groups`, or `NO_GROUP`.
    group_of: Vec<u8>,
}

const NO_GROUP: u8 = u8::MAX;

/// Symmetry `sym` of a board with `c`x`r` boxes applied to dot (x, y): 0-3 are the
/// reflections of D2, 4-7 the transposing ones that exist only when `c == r`.
fn transform(sym: usize, c: u8, r: u8, x: u8, y: u8) -> (u8, u8) {
    match sym {
        0 => (x, y),
        1 => (c - x, y),
        2 => (x, r - y),
        3 => (c - x, r - y),
        4 => (y, x),
        5 => (c - y, x),
        6 => (y, c - x),
        _ => (c - y, c - x),
    }
}

impl Symmetries {
    /// Panics if the board has more than 127 edges; callers check `n_edges` first.
    pub fn new(geo: &Geometry) -> Symmetries {
        assert!(geo.n_edges() <= 127);
        let (c, r) = (geo.cols() as u8, geo.rows() as u8);
        let count = if c == r { 8 } else { 4 };
        let n = geo.n_edges();
        let n_bytes = n.div_ceil(8);
        let mut perms = Vec::new();
        for sym in 0..count {
            let perm: Vec<u8> = (0..n)
                .map(|e| {
                    let name = geo.edge_dots(e);
                    let f = |d: Dot| {
                        let (col, row) = transform(sym, c, r, d.col, d.row);
                        Dot { col, row }
                    };
                    let image =
                        EdgeName::new(f(name.from), f(name.to)).expect("symmetry keeps adjacency");
                    geo.edge_index(&image).expect("symmetry stays on the board") as u8
                })
                .collect();
            perms.push(perm);
        }
        let inverse = perms
            .iter()
            .map(|p| {
                let mut inv = vec![0u8; n];
                for (e, &img) in p.iter().enumerate() {
                    inv[img as usize] = e as u8;
                }
                inv
            })
            .collect();
        let mut grouped: Vec<Vec<u8>> = Vec::new();
        for b in 0..geo.n_boxes() {
            let mut ground: Vec<u8> = geo
                .box_edges(b)
                .into_iter()
                .filter(|&e| geo.edge_boxes(e as usize).contains(&GROUND))
                .collect();
            if ground.len() >= 2 {
                ground.sort_unstable();
                grouped.push(ground);
            }
        }
        // Table permutations: geometric, except within ground groups, which keep rank.
        let table_perms: Vec<Vec<u8>> = perms
            .iter()
            .map(|perm| {
                let mut t = perm.clone();
                for g in &grouped {
                    let mut image: Vec<u8> = g.iter().map(|&e| perm[e as usize]).collect();
                    image.sort_unstable();
                    for (&e, &i) in g.iter().zip(&image) {
                        t[e as usize] = i;
                    }
                }
                t
            })
            .collect::<Vec<_>>();
        let tables: Vec<[[u128; 256]; 16]> = table_perms
            .iter()
            .map(|perm| {
                let mut t = [[0u128; 256]; 16];
                for (byte, row) in t.iter_mut().enumerate().take(n_bytes) {
                    for (v, out) in row.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let e = byte * 8 + bit;
                            if v >> bit & 1 != 0 && e < n {
                                *out |= 1u128 << perm[e];
                            }
                        }
                    }
                }
                t
            })
            .collect();
        let mut groups = Vec::new();
        let mut group_edges = Vec::new();
        let mut group_of = vec![NO_GROUP; n];
        for b in 0..geo.n_boxes() {
            let ground: Vec<u8> = geo
                .box_edges(b)
                .into_iter()
                .filter(|&e| geo.edge_boxes(e as usize).contains(&GROUND))
                .collect();
            if ground.len() >= 2 {
                let mut sorted = ground.clone();
                sorted.sort_unstable();
                let mask = sorted.iter().fold(0u128, |m, &e| m | 1 << e);
                let mut patterns = [0u128; 5];
                for (k, p) in patterns.iter_mut().enumerate().take(sorted.len() + 1) {
                    *p = sorted[..k].iter().fold(0u128, |m, &e| m | 1 << e);
                }
                let mut edges = [0u8; 4];
                for (i, &e) in sorted.iter().enumerate() {
                    edges[i] = e;
                    group_of[e as usize] = groups.len() as u8;
                }
                group_edges.push(edges);
                groups.push((mask, patterns));
            }
        }
        let narrow = if n <= 64 {
            tables
                .iter()
                .map(|t: &[[u128; 256]; 16]| {
                    let mut u = [[0u64; 256]; 8];
                    for (row, wide) in u.iter_mut().zip(t) {
                        for (out, &w) in row.iter_mut().zip(wide) {
                            *out = w as u64;
                        }
                    }
                    u
                })
                .collect()
        } else {
            Vec::new()
        };
        let edge_images = if narrow.is_empty() {
            Vec::new()
        } else {
            (0..n)
                .map(|e| {
                    let mut out = [0u64; 8];
                    for (o, t) in out.iter_mut().zip(&narrow) {
                        *o = t[e / 8][1 << (e % 8)];
                    }
                    out
                })
                .collect()
        };
        Symmetries {
            n_bytes,
            tables,
            narrow,
            edge_images,
            perms,
            inverse,
            groups,
            group_edges,
            group_of,
        }
    }

    /// The images of the normalised `drawn` under every symmetry (boards up to 64 edges;
    /// `false` otherwise), from which `child_key` derives the keys of children cheaply.
    #[inline(always)]
    pub fn images(&self, drawn: u128, out: &mut [u64; 8]) -> bool {
        if self.narrow.is_empty() {
            return false;
        }
        let x = self.normalise(drawn) as u64;
        for (img, t) in out.iter_mut().zip(&self.narrow) {
            let mut k = 0;
            for (byte, row) in t.iter().enumerate().take(self.n_bytes) {
                k |= row[(x >> (8 * byte)) as usize & 0xff];
            }
            *img = k;
        }
        true
    }

    /// `canonical(drawn | 1 << e)` from `images` of `drawn` (undrawn `e`): an image is one
    /// OR away. For an edge outside the corner groups, normalising commutes with adding
    /// it; for a corner edge, the normalised child has the group's next lowest edge drawn
    /// instead, and the tables send that edge to its image's normalised place.
    #[inline(always)]
    pub fn child_key(&self, images: &[u64; 8], drawn: u128, e: usize) -> (u128, usize) {
        let mut child = [0u64; 8];
        self.child_images(images, drawn, e, &mut child)
    }

    /// `child_key`, also writing the child's images (those `images` would compute for
    /// `drawn | 1 << e`) into `out`.
    #[inline(always)]
    pub fn child_images(
        &self,
        images: &[u64; 8],
        drawn: u128,
        e: usize,
        out: &mut [u64; 8],
    ) -> (u128, usize) {
        let e = match self.group_of[e] {
            NO_GROUP => e,
            g => {
                let (mask, _) = self.groups[g as usize];
                self.group_edges[g as usize][(drawn & mask).count_ones() as usize] as usize
            }
        };
        let bits = &self.edge_images[e];
        let count = self.narrow.len();
        let mut best = (u64::MAX, 0);
        for s in 0..count {
            let k = images[s] | bits[s];
            out[s] = k;
            if k < best.0 {
                best = (k, s);
            }
        }
        (best.0 as u128, best.1)
    }

    /// `canonical(drawn)` from `images` of `parent`, a subset of `drawn`, with the images
    /// of `drawn` written into `out`: normalising only adds edges as a set grows (each
    /// group's lowest ones), so every image is the parent's OR the image of the normalised
    /// difference, a few bytes.
    #[inline(always)]
    pub fn extend_images(
        &self,
        images: &[u64; 8],
        parent: u128,
        drawn: u128,
        out: &mut [u64; 8],
    ) -> (u128, usize) {
        let d = (self.normalise(drawn) ^ self.normalise(parent)) as u64;
        let mut bytes = [(0usize, 0usize); 8];
        let mut n = 0;
        for b in 0..self.n_bytes {
            let v = (d >> (8 * b)) as usize & 0xff;
            if v != 0 {
                bytes[n] = (b, v);
                n += 1;
            }
        }
        let mut best = (u64::MAX, 0);
        for (s, t) in self.narrow.iter().enumerate() {
            let mut k = images[s];
            for &(b, v) in &bytes[..n] {
                k |= t[b][v];
            }
            out[s] = k;
            if k < best.0 {
                best = (k, s);
            }
        }
        (best.0 as u128, best.1)
    }

    /// The least of the first `count` images and its symmetry: the canonical key.
    #[inline(always)]
    pub fn least(images: &[u64; 8], count: usize) -> (u128, usize) {
        let mut best = (u64::MAX, 0);
        for (s, &k) in images[..count].iter().enumerate() {
            if k < best.0 {
                best = (k, s);
            }
        }
        (best.0 as u128, best.1)
    }

    pub fn count(&self) -> usize {
        self.perms.len()
    }

    #[inline(always)]
    fn normalise(&self, mut x: u128) -> u128 {
        for (mask, patterns) in &self.groups {
            let k = (x & mask).count_ones() as usize;
            x = (x & !mask) | patterns[k];
        }
        x
    }

    #[inline(always)]
    fn map(&self, s: usize, x: u128) -> u128 {
        let t = &self.tables[s];
        let mut out = 0;
        for (byte, row) in t.iter().enumerate().take(self.n_bytes) {
            out |= row[(x >> (8 * byte)) as usize & 0xff];
        }
        out
    }

    /// The canonical key of `drawn` and the symmetry that produced it.
    #[inline(always)]
    pub fn canonical(&self, drawn: u128) -> (u128, usize) {
        let x = self.normalise(drawn);
        if !self.narrow.is_empty() {
            let x = x as u64;
            let mut best = (u64::MAX, 0);
            for (s, t) in self.narrow.iter().enumerate() {
                let mut k = 0;
                for (byte, row) in t.iter().enumerate().take(self.n_bytes) {
                    k |= row[(x >> (8 * byte)) as usize & 0xff];
                }
                if k < best.0 {
                    best = (k, s);
                }
            }
            return (best.0 as u128, best.1);
        }
        let mut best = (u128::MAX, 0);
        for s in 0..self.tables.len() {
            let k = self.map(s, x);
            if k < best.0 {
                best = (k, s);
            }
        }
        best
    }

    /// Maps an edge into (`to_canonical`) or out of the frame of symmetry `s`.
    pub fn map_edge(&self, s: usize, e: usize, to_canonical: bool) -> usize {
        if to_canonical {
            self.perms[s][e] as usize
        } else {
            self.inverse[s][e] as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_positions_share_a_key() {
        let g = Geometry::new(3, 3).unwrap();
        let s = Symmetries::new(&g);
        assert_eq!(s.count(), 8);
        let e = |n: &str| 1u128 << g.edge_index(&n.parse().unwrap()).unwrap();
        // The four corner-adjacent inner edges around the centre are one class.
        let a = s.canonical(e("b2-c2")).0;
        for n in ["b2-b3", "c3-b3", "c2-c3"] {
            assert_eq!(s.canonical(e(n)).0, a, "{n}");
        }
        // The two ground edges of a corner box are interchangeable.
        assert_eq!(s.canonical(e("a1-b1")).0, s.canonical(e("a1-a2")).0);
        // A border edge in the middle of a side is not a corner edge.
        assert_ne!(s.canonical(e("b1-c1")).0, s.canonical(e("a1-b1")).0);
        assert_eq!(Symmetries::new(&Geometry::new(3, 4).unwrap()).count(), 4);
    }

    /// Child keys from parent images agree with computing them from scratch.
    #[test]
    fn child_keys_match_canonical() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        for (c, r) in [(4, 4), (3, 4), (2, 2), (5, 5)] {
            let g = Geometry::new(c, r).unwrap();
            let s = Symmetries::new(&g);
            let n = g.n_edges();
            let mut tried = 0;
            for _ in 0..200 {
                let x: u128 = rng.gen::<u128>() & rng.gen::<u128>() & ((1u128 << n) - 1);
                let mut images = [0u64; 8];
                assert!(s.images(x, &mut images));
                assert_eq!(Symmetries::least(&images, s.count()), s.canonical(x));
                for e in (0..n).filter(|&e| x >> e & 1 == 0) {
                    let k = s.child_key(&images, x, e);
                    assert_eq!(k.0, s.canonical(x | 1 << e).0, "{c}x{r} {x:b} + {e}");
                    let (mut child, mut direct) = ([0u64; 8], [0u64; 8]);
                    assert_eq!(s.child_images(&images, x, e, &mut child), k);
                    assert!(s.images(x | 1 << e, &mut direct));
                    assert_eq!(child, direct, "{c}x{r} {x:b} + {e}");
                    tried += (s.group_of[e] != NO_GROUP) as usize;
                }
            }
            assert!(tried > 100, "{c}x{r}: corner edges tried {tried}");
        }
        let g = Geometry::new(6, 5).unwrap();
        assert!(!Symmetries::new(&g).images(0, &mut [0; 8]));
    }

    /// Keys of supersets from a subset's images agree with computing them from scratch.
    #[test]
    fn extended_keys_match_canonical() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(6);
        for (c, r) in [(4, 4), (3, 5), (1, 4), (2, 2), (5, 5)] {
            let g = Geometry::new(c, r).unwrap();
            let s = Symmetries::new(&g);
            let full = (1u128 << g.n_edges()) - 1;
            for _ in 0..500 {
                let x: u128 = rng.gen::<u128>() & rng.gen::<u128>() & full;
                let more = rng.gen::<u128>() & rng.gen::<u128>() & rng.gen::<u128>() & full;
                let mut images = [0u64; 8];
                assert!(s.images(x, &mut images));
                let (mut out, mut direct) = ([0u64; 8], [0u64; 8]);
                let k = s.extend_images(&images, x, x | more, &mut out);
                assert_eq!(k, s.canonical(x | more), "{c}x{r} {x:b} + {more:b}");
                assert!(s.images(x | more, &mut direct));
                assert_eq!(out, direct, "{c}x{r} {x:b} + {more:b}");
            }
        }
    }

    #[test]
    fn maps_round_trip() {
        let g = Geometry::new(4, 4).unwrap();
        let s = Symmetries::new(&g);
        let corner = |e: usize| s.groups.iter().any(|(m, _)| m >> e & 1 != 0);
        for sym in 0..s.count() {
            for e in 0..g.n_edges() {
                assert_eq!(s.map_edge(sym, s.map_edge(sym, e, true), false), e);
                if !corner(e) {
                    assert_eq!(s.map(sym, 1 << e), 1 << s.map_edge(sym, e, true));
                }
            }
        }
    }

    /// The key is the least *normalised geometric* image, computed the slow way here: for
    /// random sets on square and oblong boards, every image of a set has the set's key.
    #[test]
    fn key_is_the_least_normalised_image() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for (c, r) in [(4, 4), (3, 4), (1, 3), (2, 2), (5, 5), (6, 5)] {
            let g = Geometry::new(c, r).unwrap();
            let s = Symmetries::new(&g);
            let n = g.n_edges();
            for _ in 0..300 {
                let x: u128 = rng.gen::<u128>() & ((1u128 << n) - 1);
                let image = |sym: usize| {
                    (0..n)
                        .filter(|&e| x >> e & 1 != 0)
                        .fold(0u128, |m, e| m | 1 << s.map_edge(sym, e, true))
                };
                let slow = (0..s.count())
                    .map(|sym| s.normalise(image(sym)))
                    .min()
                    .unwrap();
                assert_eq!(s.canonical(x).0, slow, "{c}x{r} {x:b}");
                for sym in 0..s.count() {
                    assert_eq!(s.canonical(image(sym)).0, slow);
                }
            }
        }
    }
}
