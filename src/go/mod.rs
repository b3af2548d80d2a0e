//! Go: rules, scoring, SGF, Monte-Carlo tree search and the GTP front end.
