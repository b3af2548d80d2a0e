//! Instruction-set levels of the compiled copies of the hot Othello code.
//!
//! The default build targets baseline x86-64, so the endgame solver and its helpers are
//! compiled several times with `target_feature` and one copy is picked at run time
//! (`endgame`'s `per_isa!`). A level is a const generic `I: u8` of those copies: each copy
//! only ever calls code of its own level, so the choice is made once per solve.

/// Baseline x86-64 (or any other architecture).
pub const PLAIN: u8 = 0;
/// popcnt, lzcnt, BMI1/2 and AVX2: move generation and flips four directions per
/// instruction (`bitboard::moves_f`/`flips_f`).
pub const AVX2: u8 = 1;
/// AVX2 plus AVX-512 F/VL/CD: flips with a vector leading-zero count, which finds the
/// outflanking disc of the four decreasing directions without the run-filling steps.
pub const AVX512: u8 = 2;

/// The highest level this CPU runs.
pub fn detect() -> u8 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx2 = has!("popcnt") && has!("lzcnt") && has!("bmi1") && has!("bmi2") && has!("avx2");
        if avx2 && has!("avx512f") && has!("avx512vl") && has!("avx512cd") {
            AVX512
        } else if avx2 {
            AVX2
        } else {
            PLAIN
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        PLAIN
    }
}

/// Parses `plain`, `avx2` or `avx512` (for the benches that compare the copies).
pub fn parse(s: &str) -> Result<u8, String> {
    match s {
        "plain" => Ok(PLAIN),
        "avx2" => Ok(AVX2),
        "avx512" => Ok(AVX512),
        _ => Err(format!(
            "unknown instruction level '{s}' (plain, avx2, avx512)"
        )),
    }
}

/// The name `parse` reads.
pub fn name(level: u8) -> &'static str {
    match level {
        AVX512 => "avx512",
        AVX2 => "avx2",
        _ => "plain",
    }
}
