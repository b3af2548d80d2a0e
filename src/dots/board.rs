//! The game board: drawn edges, incremental box side counts, owners, the extra-turn rule,
//! move/undo and scores.
use super::geometry::{Geometry, SizeError, GROUND, MAX_BOXES};
use super::notation::EdgeName;
use crate::color::Color;
use std::fmt;

/// Drawn edges. A u128 holds every board up to 127 edges (7x8 and 8x7 included); only 8x8
/// (144 edges) spills into `hi`. The solver works on `lo` alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EdgeSet {
    pub lo: u128,
    pub hi: u16,
}

impl EdgeSet {
    #[inline]
    pub fn contains(&self, e: usize) -> bool {
        if e < 128 {
            self.lo >> e & 1 != 0
        } else {
            self.hi >> (e - 128) & 1 != 0
        }
    }
    #[inline]
    pub fn toggle(&mut self, e: usize) {
        if e < 128 {
            self.lo ^= 1 << e;
        } else {
            self.hi ^= 1 << (e - 128);
        }
    }
    pub fn len(&self) -> usize {
        (self.lo.count_ones() + self.hi.count_ones()) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Why a move was refused. The board is unchanged when this is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    OffBoard,
    AlreadyDrawn,
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::OffBoard => "edge is off the board",
            MoveError::AlreadyDrawn => "edge already drawn",
            MoveError::GameOver => "game is over",
        })
    }
}

#[derive(Clone, Copy, Debug)]
struct Played {
    edge: u8,
    mover: Color,
    completed: u8,
}

#[derive(Clone, Debug)]
pub struct Board {
    geo: Geometry,
    drawn: EdgeSet,
    sides: [u8; MAX_BOXES],
    owner: [Option<Color>; MAX_BOXES],
    to_move: Color,
    score: [u32; 2],
    history: Vec<Played>,
}

impl Board {
    /// An empty board; Black moves first.
    pub fn new(cols: usize, rows: usize) -> Result<Board, SizeError> {
        Ok(Board::from_geometry(Geometry::new(cols, rows)?))
    }

    pub fn from_geometry(geo: Geometry) -> Board {
        Board {
            geo,
            drawn: EdgeSet::default(),
            sides: [0; MAX_BOXES],
            owner: [None; MAX_BOXES],
            to_move: Color::Black,
            score: [0; 2],
            history: Vec::new(),
        }
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }
    pub fn drawn(&self) -> EdgeSet {
        self.drawn
    }
    pub fn is_drawn(&self, e: usize) -> bool {
        self.drawn.contains(e)
    }
    pub fn sides(&self, b: usize) -> u8 {
        self.sides[b]
    }
    pub fn owner(&self, b: usize) -> Option<Color> {
        self.owner[b]
    }
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    pub fn score(&self, c: Color) -> u32 {
        self.score[c.index()]
    }
    pub fn moves_played(&self) -> usize {
        self.history.len()
    }
    pub fn is_over(&self) -> bool {
        self.drawn.len() == self.geo.n_edges()
    }
    pub fn legal_edges(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.geo.n_edges()).filter(|&e| !self.drawn.contains(e))
    }

    /// Moves in the game that completed two boxes at once (double-crosses), for the
    /// long-chain rule: Dots + Doublecrosses = Turns.
    pub fn double_crosses(&self) -> usize {
        self.history.iter().filter(|p| p.completed == 2).count()
    }
    /// Turns so far: a turn is a maximal run of moves by one player.
    pub fn turns(&self) -> usize {
        let mut turns = 0;
        let mut last = None;
        for p in &self.history {
            if last != Some(p.mover) {
                turns += 1;
            }
            last = Some(p.mover);
        }
        turns
    }

    /// Who drew each edge (`None` for undrawn ones), indexed by edge.
    pub fn edge_drawers(&self) -> Vec<Option<Color>> {
        let mut by = vec![None; self.geo.n_edges()];
        for p in &self.history {
            by[p.edge as usize] = Some(p.mover);
        }
        by
    }

    /// Box difference from `c`'s point of view.
    pub fn margin(&self, c: Color) -> i32 {
        self.score[c.index()] as i32 - self.score[c.opponent().index()] as i32
    }

    pub fn edge_index(&self, name: &EdgeName) -> Option<usize> {
        self.geo.edge_index(name)
    }
    pub fn edge_name(&self, e: usize) -> EdgeName {
        self.geo.edge_dots(e)
    }

    /// Draws edge `e` for the side to move. Returns how many boxes it completed; if none,
    /// the turn passes (the extra-turn rule).
    pub fn play(&mut self, e: usize) -> Result<u8, MoveError> {
        if e >= self.geo.n_edges() {
            return Err(MoveError::OffBoard);
        }
        if self.drawn.contains(e) {
            return Err(MoveError::AlreadyDrawn);
        }
        let mover = self.to_move;
        self.drawn.toggle(e);
        let mut completed = 0;
        for b in self.geo.edge_boxes(e) {
            if b != GROUND {
                let b = b as usize;
                self.sides[b] += 1;
                if self.sides[b] == 4 {
                    self.owner[b] = Some(mover);
                    completed += 1;
                }
            }
        }
        self.score[mover.index()] += completed as u32;
        if completed == 0 {
            self.to_move = mover.opponent();
        }
        self.history.push(Played {
            edge: e as u8,
            mover,
            completed,
        });
        Ok(completed)
    }

    /// Takes back the last move; returns its edge.
    pub fn undo(&mut self) -> Option<usize> {
        let p = self.history.pop()?;
        let e = p.edge as usize;
        for b in self.geo.edge_boxes(e) {
            if b != GROUND {
                let b = b as usize;
                if self.sides[b] == 4 {
                    self.owner[b] = None;
                }
                self.sides[b] -= 1;
            }
        }
        self.score[p.mover.index()] -= p.completed as u32;
        self.drawn.toggle(e);
        self.to_move = p.mover;
        Some(e)
    }

    /// ASCII picture: `+` dots, `-`/`|` drawn edges, `B`/`W` box owners; row labels on the
    /// left, column letters below.
    pub fn render(&self) -> String {
        let (c, r) = (self.geo.cols(), self.geo.rows());
        let h = c * (r + 1);
        let mut out = String::new();
        for y in (0..=r).rev() {
            out.push_str(&format!("{:>2} +", y + 1));
            for x in 0..c {
                out.push_str(if self.drawn.contains(y * c + x) {
                    "---+"
                } else {
                    "   +"
                });
            }
            out.push('\n');
            if y > 0 {
                out.push_str("   ");
                let yb = y - 1;
                for x in 0..=c {
                    let v = h + yb * (c + 1) + x;
                    out.push(if self.drawn.contains(v) { '|' } else { ' ' });
                    if x < c {
                        let owner = self.owner[yb * c + x].map_or(' ', |o| o.letter());
                        out.push_str(&format!(" {owner} "));
                    }
                }
                out.push('\n');
            }
        }
        out.push_str("   ");
        for x in 0..=c {
            out.push((b'a' + x as u8) as char);
            if x < c {
                out.push_str("   ");
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    fn edge(b: &Board, s: &str) -> usize {
        b.edge_index(&s.parse().unwrap()).unwrap()
    }

    #[test]
    fn one_box_goes_to_the_fourth_mover() {
        let mut b = Board::new(1, 1).unwrap();
        for (i, s) in ["a1-b1", "b1-b2", "a2-b2"].iter().enumerate() {
            assert_eq!(b.play(edge(&b, s)), Ok(0));
            assert_eq!(
                b.to_move(),
                if i % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                }
            );
        }
        assert_eq!(b.play(edge(&b, "a1-b1")), Err(MoveError::AlreadyDrawn));
        assert_eq!(b.play(4), Err(MoveError::OffBoard));
        assert_eq!(b.play(edge(&b, "a2-a1")), Ok(1));
        assert_eq!((b.score(Color::White), b.owner(0)), (1, Some(Color::White)));
        assert_eq!(
            b.to_move(),
            Color::White,
            "completing a box earns another move"
        );
        assert!(b.is_over());
        assert_eq!(b.undo(), Some(edge(&b, "a1-a2")));
        assert_eq!(
            (b.score(Color::White), b.owner(0), b.to_move()),
            (0, None, Color::White)
        );
    }

    #[test]
    fn render_shows_edges_and_owners() {
        // Four single moves alternate B, W, B, W: White draws the fourth side.
        let mut b = Board::new(2, 1).unwrap();
        for s in ["a1-b1", "a2-b2", "a1-a2", "b1-b2"] {
            b.play(edge(&b, s)).unwrap();
        }
        assert_eq!(
            b.render(),
            " 2 +---+   +\n   | W |    \n 1 +---+   +\n   a   b   c"
        );
    }

    /// Random full games: undo restores everything, and the long-chain rule's identity
    /// Dots + Doublecrosses = Turns holds at the end of every game.
    #[test]
    fn random_games_obey_dots_plus_doublecrosses_equals_turns() {
        let mut rng = SmallRng::seed_from_u64(7);
        for (c, r) in [(1, 1), (2, 3), (5, 5), (8, 8), (3, 7)] {
            for _ in 0..50 {
                let mut b = Board::new(c, r).unwrap();
                let empty = b.clone();
                let mut order: Vec<usize> = (0..b.geometry().n_edges()).collect();
                order.shuffle(&mut rng);
                for &e in &order {
                    b.play(e).unwrap();
                }
                assert!(b.is_over());
                assert_eq!(
                    b.score(Color::Black) + b.score(Color::White),
                    (c * r) as u32
                );
                assert_eq!(b.geometry().n_dots() + b.double_crosses(), b.turns());
                while b.undo().is_some() {}
                assert_eq!(b.drawn(), empty.drawn());
                assert_eq!(b.sides, empty.sides);
                assert_eq!(b.to_move(), Color::Black);
                assert_eq!(b.score, [0, 0]);
            }
        }
    }
}
