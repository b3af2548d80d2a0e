//! Search machinery shared by the games: time management and stop tokens.
