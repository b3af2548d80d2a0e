# GoGui regression tests for `quartet go` (run by tests/go_gtp.rs through
# tests/common/tst.rs; by hand: gogui-regress "quartet go --playouts 2000" go.tst).
# Expected answers come from the rules, hand counts, and GNU Go 3.8's answers
# to the same commands.

boardsize 9
clear_board
komi 7.5

# Fixed handicap placement, as GNU Go places it (GTP spec order).
10 fixed_handicap 5
#? [C3 G7 C7 G3 E5]
clear_board
11 fixed_handicap 9
#? [C3 G7 C7 G3 C5 G5 E3 E7 E5]
boardsize 19
12 fixed_handicap 3
#? [D4 Q16 D16]

# A capture: white's four stones on row 5 lose their last liberty.
boardsize 9
clear_board
play b a5
play b b6
play b c6
play b d6
play b e6
play b b4
play b c4
play b d4
play b e4
play w b5
play w c5
play w d5
play w e5
play b f5
20 showboard
#? [.*5 X \. \. \. \. X \. \. \. 5.*]

# A ko capture; the refused recapture is checked by tests/go_gtp.rs.
clear_board
play b c4
play w d4
play b b3
play w e3
play b c2
play w d2
play b a1
play w c3
play b d3
31 showboard
#? [.* 3 \. X [.*] X O .*]

# A finished 5x5 game counted by area: black 15 (columns A-C), white 10 (D-E), komi 0.5.
boardsize 5
komi 0.5
clear_board
play b c1
play w d1
play b c2
play w d2
play b c3
play w d3
play b c4
play w d4
play b c5
play w d5
40 final_score
#? [B\+4.5]

# The capturing race: black must capture the big white string at J9.
boardsize 9
komi 7.5
clear_board
set_free_handicap B9 C9 D9 A8 B8 C8 D8 A7 B7 C7 D7 A6 B6 C6 D6 E5 F5 G5 H5 J5 F4 G4 H4 J4 F3 G3 H3 J3 E2 F2 G2 H2 J2 E1 G1 J1
play w E9
play w F9
play w G9
play w H9
play w E8
play w F8
play w G8
play w H8
play w J8
play w E7
play w F7
play w G7
play w H7
play w J7
play w E6
play w F6
play w G6
play w H6
play w J6
play w A5
play w B5
play w C5
play w D5
play w A4
play w B4
play w C4
play w D4
play w A3
play w B3
play w C3
play w D3
play w A2
play w B2
play w C2
play w D2
play w B1
play w D1
50 reg_genmove b
#? [J9]
51 reg_genmove w
#? [A9]

# Administrative commands.
60 protocol_version
#? [2]
61 known_command kgs-genmove_cleanup
#? [true]
62 known_command frobnicate
#? [false]
