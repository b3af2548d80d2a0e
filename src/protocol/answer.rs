//! Formatting GTP answers: `=[id] body` or `?[id] message`, ended by an empty line.
//!
//! An empty line ends an answer, so a body must never contain one: empty and
//! whitespace-only lines after the first are dropped, CR characters are removed and
//! trailing whitespace is trimmed. A body whose first line is empty (a board diagram, as
//! GNU Go prints `showboard`) keeps that shape: `= ` then the diagram on the next lines.
use super::engine::{GtpError, Reply};

fn push_header(out: &mut String, mark: char, id: Option<u32>) {
    out.push(mark);
    if let Some(id) = id {
        out.push_str(&id.to_string());
    }
}

fn push_body(out: &mut String, body: &str) {
    let mut lines = body
        .split('\n')
        .map(|l| l.trim_end_matches(['\r', ' ', '\t']));
    let first = lines.next().unwrap_or("");
    let rest: Vec<&str> = lines.filter(|l| !l.trim().is_empty()).collect();
    if first.trim().is_empty() && rest.is_empty() {
        return;
    }
    out.push(' ');
    out.push_str(&first.replace('\r', ""));
    for line in rest {
        out.push('\n');
        out.push_str(&line.replace('\r', ""));
    }
}

/// `=[id]` alone when the body is empty, `=[id] body` otherwise; then the empty line.
pub fn success(id: Option<u32>, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 8);
    push_header(&mut out, '=', id);
    push_body(&mut out, body);
    out.push_str("\n\n");
    out
}

/// `?[id] message` then the empty line.
pub fn failure(id: Option<u32>, error: &GtpError) -> String {
    let mut out = String::with_capacity(error.0.len() + 8);
    push_header(&mut out, '?', id);
    push_body(&mut out, &error.0);
    out.push_str("\n\n");
    out
}

/// Formats a handler's reply.
pub fn format_reply(id: Option<u32>, reply: &Reply) -> String {
    match reply {
        Ok(body) => success(id, body),
        Err(error) => failure(id, error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn success_forms() {
        assert_eq!(success(None, ""), "=\n\n");
        assert_eq!(success(Some(3), ""), "=3\n\n");
        assert_eq!(success(Some(3), "D4"), "=3 D4\n\n");
        assert_eq!(success(None, "2"), "= 2\n\n");
        assert_eq!(success(None, "a\nb"), "= a\nb\n\n");
    }

    #[test]
    fn bodies_never_contain_an_empty_line() {
        assert_eq!(success(None, "a\n\nb\n"), "= a\nb\n\n");
        assert_eq!(success(Some(1), "a\r\n \r\nb\r\n\r\n"), "=1 a\nb\n\n");
        assert_eq!(success(None, "\n\n\n"), "=\n\n");
        // A leading empty line (board diagrams) is kept as GNU Go does: "= " then the diagram.
        assert_eq!(success(None, "\n  A B\n1 . .\n"), "= \n  A B\n1 . .\n\n");
    }

    #[test]
    fn failure_forms() {
        assert_eq!(failure(None, &GtpError::syntax()), "? syntax error\n\n");
        assert_eq!(
            failure(Some(12), &GtpError::new("illegal move")),
            "?12 illegal move\n\n"
        );
        assert_eq!(failure(Some(1), &GtpError::new("")), "?1\n\n");
        assert_eq!(failure(None, &GtpError::new("x\n\ny")), "? x\ny\n\n");
    }
}
