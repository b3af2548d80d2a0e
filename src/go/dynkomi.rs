//! Dynamic komi for handicap games (the idea of Pachi's "linear" dynkomi).
//!
//! A Monte-Carlo search judges moves by how often they win. In a handicap game the side
//! giving the stones loses nearly every simulation at first, so every move looks alike and
//! it plays wild; the side taking them wins nearly every simulation and plays slack. The
//! search therefore counts with a komi raised by a few points per handicap stone that falls
//! linearly to the real komi as the game goes on: White, behind, is asked for less, Black,
//! ahead, for more, and both keep win rates in the range where moves differ. Only the
//! search sees it: scoring, the pass decision's board count and reported score leads use
//! the real komi.
use super::board::Move;
use super::game::Game;
use crate::color::Color;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynKomi {
    /// Extra komi per handicap stone at the start of the game (0 turns it off).
    pub per_stone: f32,
    /// Moves (both colours, passes included) after which the extra komi has fallen to 0,
    /// as a fraction of the board's points.
    pub fade: f32,
}

impl DynKomi {
    pub const OFF: DynKomi = DynKomi {
        per_stone: 0.0,
        fade: 0.5,
    };

    /// The komi the search counts with in `game`'s current position.
    pub fn search_komi(&self, game: &Game) -> f32 {
        game.komi() + self.extra(game)
    }

    /// The part of the search komi that is not the game's.
    pub fn extra(&self, game: &Game) -> f32 {
        let h = handicap(game);
        if h == 0 || self.per_stone == 0.0 {
            return 0.0;
        }
        let points = (game.size() * game.size()) as f32;
        let horizon = (self.fade * points).max(1.0);
        let left = (1.0 - game.moves().len() as f32 / horizon).max(0.0);
        // Whole points keep the search's komi on the same half-point grid as the game's.
        (h as f32 * self.per_stone * left).round()
    }
}

/// Handicap stones of the game: the stones set up by `fixed_handicap` and its kin, or else
/// Black's stones played before White's first (Black moves answered by White passes, as
/// programs that only speak `play` set a handicap up). One stone is no handicap.
pub fn handicap(game: &Game) -> usize {
    let set_up = game.handicap_stones().len();
    if set_up > 0 {
        return if set_up >= 2 { set_up } else { 0 };
    }
    let mut black = 0;
    for &(c, m) in game.moves() {
        match (c, m) {
            (Color::White, Move::Play(_)) => break,
            (Color::Black, Move::Play(_)) => black += 1,
            _ => {}
        }
    }
    if black >= 2 {
        black
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(g: &mut Game, c: Color, v: &str) {
        let mv = match crate::protocol::coords::parse_vertex(v, g.size()).unwrap() {
            None => Move::Pass,
            Some((col, row)) => Move::Play(g.board().point(col, row)),
        };
        g.play(c, mv).unwrap();
    }

    #[test]
    fn an_even_game_has_no_handicap_and_no_extra_komi() {
        let mut g = Game::new(9, 7.5);
        for (i, v) in ["E5", "C3", "G7", "C7"].iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            play(&mut g, c, v);
        }
        assert_eq!(handicap(&g), 0);
        let d = DynKomi {
            per_stone: 7.0,
            fade: 0.5,
        };
        assert_eq!(d.search_komi(&g), 7.5);
    }

    #[test]
    fn handicap_from_setup_or_from_white_passes() {
        let mut g = Game::new(9, 0.5);
        let pts: Vec<_> = [(2, 2), (6, 6), (2, 6)]
            .iter()
            .map(|&(c, r)| g.board().point(c, r))
            .collect();
        g.set_handicap(&pts).unwrap();
        assert_eq!(handicap(&g), 3);

        let mut g = Game::new(9, 0.5);
        play(&mut g, Color::Black, "C3");
        assert_eq!(handicap(&g), 0, "one stone is an even game's first move");
        play(&mut g, Color::White, "pass");
        play(&mut g, Color::Black, "G7");
        assert_eq!(handicap(&g), 2);
        play(&mut g, Color::White, "E5");
        play(&mut g, Color::Black, "C7");
        assert_eq!(
            handicap(&g),
            2,
            "later Black stones are moves, not handicap"
        );
    }

    #[test]
    fn extra_komi_falls_linearly_to_zero() {
        let mut g = Game::new(9, 0.5);
        play(&mut g, Color::Black, "C3");
        play(&mut g, Color::White, "pass");
        play(&mut g, Color::Black, "G7");
        let d = DynKomi {
            per_stone: 7.0,
            fade: 0.5,
        };
        // 3 of 40.5 moves played: 14 * (1 - 3/40.5) = 12.96.
        assert_eq!(d.extra(&g), 13.0);
        assert_eq!(d.search_komi(&g), 13.5);
        // Halfway: 20 moves of 40.5 leave 14 * 0.506 = 7.1.
        let mut c = Color::White;
        while g.moves().len() < 20 {
            play(&mut g, c, "pass");
            c = c.opponent();
        }
        assert_eq!(d.extra(&g), 7.0);
        while g.moves().len() < 41 {
            play(&mut g, c, "pass");
            c = c.opponent();
        }
        assert!(g.moves().len() >= 41);
        assert_eq!(d.extra(&g), 0.0);
        assert_eq!(DynKomi::OFF.extra(&g), 0.0);
    }
}
