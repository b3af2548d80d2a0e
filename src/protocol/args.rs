//! Argument checks every engine's handlers share, so the answers to bad arguments are the
//! same in all four games.
use super::engine::GtpError;
use crate::color::Color;

/// `Ok` for a command given no arguments, `? syntax error` otherwise.
pub fn no_args(args: &[String]) -> Result<(), GtpError> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(GtpError::syntax())
    }
}

/// The single argument of a one-argument command, `? syntax error` for any other count.
pub fn one_arg(args: &[String]) -> Result<&str, GtpError> {
    match args {
        [a] => Ok(a),
        _ => Err(GtpError::syntax()),
    }
}

/// A GTP colour (`b`, `black`, `w`, `white`, any case), or `? syntax error`.
pub fn parse_color(s: &str) -> Result<Color, GtpError> {
    s.parse().map_err(|_| GtpError::syntax())
}
