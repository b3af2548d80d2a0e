//! An asynchronous GTP client driving one engine child process.
//!
//! Blocking contract: every `async fn` here waits at most for its own timeout (plus the
//! grace period in [`GtpClient::shutdown`]); nothing blocks a tokio worker thread. A command
//! that timed out leaves its answer in flight, so the client marks itself unusable rather
//! than read that stale answer as the reply to the next command.
use super::pbrain_bridge::{is_note, PbrainBridge, Step};
use std::fmt;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// Longest answer line accepted; an engine printing more without a newline is broken.
const MAX_LINE: usize = 64 * 1024;

/// What can go wrong talking to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The command line is empty or has an unterminated quote.
    BadCommandLine(String),
    /// The program could not be started.
    Spawn(String),
    /// The engine answered `? message`.
    Failure(String),
    /// No complete answer within the timeout.
    Timeout,
    /// The engine closed its output or exited.
    Died,
    /// The answer is not GTP (no `=`/`?`, an overlong line).
    Malformed(String),
    /// An earlier timeout or protocol error left the pipe out of step.
    Unusable,
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::BadCommandLine(m) => write!(f, "bad engine command line: {m}"),
            ClientError::Spawn(m) => write!(f, "cannot start engine: {m}"),
            ClientError::Failure(m) => write!(f, "engine error: {m}"),
            ClientError::Timeout => f.write_str("engine timed out"),
            ClientError::Died => f.write_str("engine died"),
            ClientError::Malformed(m) => write!(f, "malformed answer: {m:?}"),
            ClientError::Unusable => f.write_str("engine connection out of step"),
        }
    }
}

impl std::error::Error for ClientError {}

/// Where a child's stderr goes: never our stdout.
#[derive(Clone, Debug, Default)]
pub enum StderrTarget {
    #[default]
    Null,
    /// Appended to this file.
    File(PathBuf),
}

/// Splits a command line the way a POSIX shell splits words, without expansions:
/// whitespace separates, `'...'` is literal, `"..."` honours `\"` and `\\`, and a backslash
/// outside quotes escapes the next character.
pub fn split_command_line(line: &str) -> Result<Vec<String>, ClientError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(ClientError::BadCommandLine("unterminated '".into())),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => {
                                return Err(ClientError::BadCommandLine("unterminated \"".into()))
                            }
                        },
                        Some(c) => word.push(c),
                        None => return Err(ClientError::BadCommandLine("unterminated \"".into())),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(ClientError::BadCommandLine("empty command".into()));
    }
    Ok(words)
}

/// The protocol an engine speaks. The referee always talks GTP; a `Pbrain` engine (a
/// Gomocup brain) gets each command translated by a [`PbrainBridge`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    #[default]
    Gtp,
    Pbrain,
}

/// One running engine.
pub struct GtpClient {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    usable: bool,
    command_line: String,
    bridge: Option<PbrainBridge>,
    /// The id of the next GTP command. Every command carries one so that an answer to
    /// another command (a stale one, or an engine answering out of turn) is caught.
    next_id: u32,
    /// The streamed answer being read, if any (see [`GtpClient::start_stream`]).
    stream: Option<StreamState>,
    /// The start of a line read by a cancelled [`GtpClient::next_stream_event`].
    partial: Vec<u8>,
}

/// Where the reading of a streamed answer stands.
#[derive(Clone, Debug)]
struct StreamState {
    id: u32,
    header_seen: bool,
    /// A `?` answer: its message, returned once its closing empty line is read.
    failure: Option<String>,
}

/// One piece of a streamed answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamEvent {
    /// A line of the answer: the text after `=id` if there is any, then every later line.
    Line(String),
    /// The empty line that ends the answer.
    End,
}

impl GtpClient {
    /// Starts `command_line` (split by [`split_command_line`]). The child is killed if the
    /// client is dropped without [`GtpClient::shutdown`]. Must be called inside a tokio
    /// runtime (the child's pipes register with its reactor); does not block.
    pub fn spawn(command_line: &str, stderr: &StderrTarget) -> Result<GtpClient, ClientError> {
        GtpClient::spawn_speaking(command_line, stderr, Protocol::Gtp)
    }

    /// [`GtpClient::spawn`] for an engine speaking `protocol`.
    pub fn spawn_speaking(
        command_line: &str,
        stderr: &StderrTarget,
        protocol: Protocol,
    ) -> Result<GtpClient, ClientError> {
        let words = split_command_line(command_line)?;
        let err = match stderr {
            StderrTarget::Null => Stdio::null(),
            StderrTarget::File(path) => std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| ClientError::Spawn(format!("{}: {e}", path.display())))?
                .into(),
        };
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(err)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| ClientError::Spawn(format!("{}: {e}", words[0])))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(ClientError::Spawn("no pipes".into()));
        };
        Ok(GtpClient {
            child,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            usable: true,
            command_line: command_line.to_string(),
            bridge: (protocol == Protocol::Pbrain).then(PbrainBridge::new),
            next_id: 1,
            stream: None,
            partial: Vec::new(),
        })
    }

    pub fn command_line(&self) -> &str {
        &self.command_line
    }

    /// Sends one command (a single line; the client adds the id) and waits up to `timeout`
    /// for its answer. `Ok` is the body of a `=` answer, trimmed; `?` answers are
    /// `Err(Failure)`; an answer with another command's id is `Err(Malformed)`.
    pub async fn send(&mut self, command: &str, timeout: Duration) -> Result<String, ClientError> {
        if !self.usable || self.stream.is_some() {
            return Err(ClientError::Unusable);
        }
        let result = match tokio::time::timeout(timeout, self.exchange(command)).await {
            Ok(r) => r,
            Err(_) => Err(ClientError::Timeout),
        };
        if matches!(
            result,
            Err(ClientError::Timeout | ClientError::Died | ClientError::Malformed(_))
        ) {
            self.usable = false;
        }
        result
    }

    async fn exchange(&mut self, command: &str) -> Result<String, ClientError> {
        let line = one_line(command);
        if self.bridge.is_some() {
            return self.exchange_pbrain(&line).await;
        }
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        self.write_lines(&[format!("{id} {line}")]).await?;
        read_answer(&mut self.stdout, Some(id)).await
    }

    /// Sends a command whose answer is read piece by piece with
    /// [`GtpClient::next_stream_event`] (an analysis stream, or a `genmove` that may be
    /// interrupted). GTP engines only; no other command may be sent until the answer's
    /// [`StreamEvent::End`] (or an error) has been read. Waits only for the pipe.
    pub async fn start_stream(&mut self, command: &str) -> Result<(), ClientError> {
        if !self.usable || self.stream.is_some() || self.bridge.is_some() {
            return Err(ClientError::Unusable);
        }
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        let line = format!("{id} {}", one_line(command));
        if let Err(e) = self.write_lines(&[line]).await {
            self.usable = false;
            return Err(e);
        }
        self.stream = Some(StreamState {
            id,
            header_seen: false,
            failure: None,
        });
        Ok(())
    }

    /// The next piece of the streamed answer. Blocks until the engine writes a line (the
    /// caller bounds the wait); cancel-safe, so it can race a stop request in
    /// `tokio::select!`: a line half read is kept for the next call. A `?` answer is
    /// `Err(Failure)` once its closing empty line is read, and ends the stream.
    pub async fn next_stream_event(&mut self) -> Result<StreamEvent, ClientError> {
        let result = self.stream_event().await;
        match &result {
            Ok(StreamEvent::End) | Err(ClientError::Failure(_)) => self.stream = None,
            Ok(StreamEvent::Line(_)) => {}
            Err(_) => {
                self.stream = None;
                self.usable = false;
            }
        }
        result
    }

    async fn stream_event(&mut self) -> Result<StreamEvent, ClientError> {
        loop {
            let Some(state) = self.stream.clone() else {
                return Err(ClientError::Unusable);
            };
            let raw = self.read_kept_line().await?;
            let line = raw.trim_end();
            if !state.header_seen {
                if line.is_empty() {
                    continue;
                }
                let (ok, rest) = match line.as_bytes()[0] {
                    b'=' => (true, &line[1..]),
                    b'?' => (false, &line[1..]),
                    _ => return Err(ClientError::Malformed(line.to_string())),
                };
                let digits = rest
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len());
                let (id, rest) = rest.split_at(digits);
                if !id.is_empty() && id.parse() != Ok(state.id) {
                    return Err(ClientError::Malformed(format!(
                        "{line} (wanted id {})",
                        state.id
                    )));
                }
                let rest = rest.trim().to_string();
                self.stream = Some(StreamState {
                    header_seen: true,
                    failure: (!ok).then(|| rest.clone()),
                    ..state
                });
                if ok && !rest.is_empty() {
                    return Ok(StreamEvent::Line(rest));
                }
                continue;
            }
            if line.is_empty() {
                return match state.failure {
                    Some(message) => Err(ClientError::Failure(message)),
                    None => Ok(StreamEvent::End),
                };
            }
            if state.failure.is_none() {
                return Ok(StreamEvent::Line(line.to_string()));
            }
        }
    }

    /// Writes one line that is no command and gets no answer: `# interrupt` (stops a
    /// running `genmove`), or an empty line (ends an analysis stream).
    pub async fn send_line(&mut self, line: &str) -> Result<(), ClientError> {
        if !self.usable {
            return Err(ClientError::Unusable);
        }
        let result = self.write_lines(&[one_line(line)]).await;
        if result.is_err() {
            self.usable = false;
        }
        result
    }

    /// One line from the engine, cancel-safe: bytes read before a cancellation stay in
    /// `partial` (`fill_buf` itself loses nothing when cancelled).
    async fn read_kept_line(&mut self) -> Result<String, ClientError> {
        loop {
            let chunk = self
                .stdout
                .fill_buf()
                .await
                .map_err(|_| ClientError::Died)?;
            if chunk.is_empty() {
                return Err(ClientError::Died);
            }
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            self.partial.extend_from_slice(&chunk[..take]);
            self.stdout.consume(take);
            if self.partial.len() > MAX_LINE {
                return Err(ClientError::Malformed("overlong line".into()));
            }
            if done {
                let mut buf = std::mem::take(&mut self.partial);
                buf.pop();
                return Ok(String::from_utf8_lossy(&buf).into_owned());
            }
        }
    }

    async fn write_lines(&mut self, lines: &[String]) -> Result<(), ClientError> {
        let stdin = self.stdin.as_mut().ok_or(ClientError::Died)?;
        let mut text = String::new();
        for line in lines {
            text.push_str(line);
            text.push('\n');
        }
        stdin
            .write_all(text.as_bytes())
            .await
            .map_err(|_| ClientError::Died)?;
        stdin.flush().await.map_err(|_| ClientError::Died)
    }

    /// One GTP command carried out on a Gomocup brain.
    async fn exchange_pbrain(&mut self, command: &str) -> Result<String, ClientError> {
        let step = match self.bridge.as_mut() {
            Some(bridge) => bridge.translate(command),
            None => return Err(ClientError::Unusable),
        };
        match step {
            Step::Answer(answer) => answer,
            Step::Tell(lines) => {
                self.write_lines(&lines).await?;
                Ok(String::new())
            }
            Step::ExpectOk(lines) => {
                self.write_lines(&lines).await?;
                let answer = self.read_brain_line().await?;
                match answer.split_whitespace().next() {
                    Some("OK") => Ok(String::new()),
                    Some("ERROR") | Some("UNKNOWN") => Err(ClientError::Failure(answer)),
                    // ABOUT answers with a line of key="value" pairs.
                    _ if command.starts_with("name") => Ok(answer),
                    _ => Err(ClientError::Malformed(answer)),
                }
            }
            Step::ExpectMove(lines, color) => {
                self.write_lines(&lines).await?;
                let answer = self.read_brain_line().await?;
                match self.bridge.as_mut() {
                    Some(bridge) => bridge.accept_move(color, &answer),
                    None => Err(ClientError::Unusable),
                }
            }
        }
    }

    /// The brain's next answer line, skipping its `MESSAGE`/`DEBUG` notes and blank lines.
    async fn read_brain_line(&mut self) -> Result<String, ClientError> {
        loop {
            let line = read_line(&mut self.stdout).await?;
            if !is_note(&line) {
                return Ok(line.trim().to_string());
            }
        }
    }

    /// Whether the child has exited (without waiting).
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends `quit`, closes stdin, waits up to `grace` for the exit, then kills. An engine
    /// that is out of step (it timed out or babbled) is killed at once: it is still busy
    /// with an old command and would only waste the grace period.
    pub async fn shutdown(mut self, grace: Duration) {
        if !self.usable {
            let _ = self.child.kill().await;
            return;
        }
        let _ = self.send("quit", grace).await;
        drop(self.stdin.take());
        if tokio::time::timeout(grace, self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// One command, one line: an embedded newline would desync every later answer.
fn one_line(command: &str) -> String {
    command
        .trim_end()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Reads one GTP answer: skips empty lines before it, then takes lines up to the next empty
/// line. Lenient: `\r`, trailing spaces and a missing id are accepted; an id other than
/// `expected_id` is not (GTP 2, section 2.6: the answer repeats the command's id), nor is
/// any id when the command had none.
pub async fn read_answer<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    expected_id: Option<u32>,
) -> Result<String, ClientError> {
    let mut first: Option<String> = None;
    let mut body = Vec::new();
    loop {
        let line = read_line(reader).await?;
        let line = line.trim_end();
        match &first {
            None if line.is_empty() => continue,
            None => first = Some(line.to_string()),
            Some(_) if line.is_empty() => break,
            Some(_) => body.push(line.to_string()),
        }
    }
    let first = first.unwrap_or_default();
    let (ok, rest) = match first.as_bytes()[0] {
        b'=' => (true, &first[1..]),
        b'?' => (false, &first[1..]),
        _ => return Err(ClientError::Malformed(first)),
    };
    let body_start = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (id, rest) = rest.split_at(body_start);
    if !id.is_empty() && expected_id.is_none_or(|e| id.parse() != Ok(e)) {
        let wanted = expected_id.map_or("no id".to_string(), |e| format!("id {e}"));
        return Err(ClientError::Malformed(format!("{first} (wanted {wanted})")));
    }
    let rest = rest.trim();
    let mut text = rest.to_string();
    for line in body {
        text.push('\n');
        text.push_str(&line);
    }
    if ok {
        Ok(text)
    } else {
        Err(ClientError::Failure(text))
    }
}

/// One line without its newline; invalid UTF-8 is replaced, overlong lines are malformed.
async fn read_line<R: AsyncBufRead + Unpin>(reader: &mut R) -> Result<String, ClientError> {
    let mut buf = Vec::new();
    loop {
        let chunk = reader.fill_buf().await.map_err(|_| ClientError::Died)?;
        if chunk.is_empty() {
            return Err(ClientError::Died);
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        buf.extend_from_slice(&chunk[..take]);
        reader.consume(take);
        if buf.len() > MAX_LINE {
            return Err(ClientError::Malformed("overlong line".into()));
        }
        if done {
            buf.pop();
            return Ok(String::from_utf8_lossy(&buf).into_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        let w = split_command_line(r#"/usr/games/gnugo --mode gtp  --level 10"#).unwrap();
        assert_eq!(w, ["/usr/games/gnugo", "--mode", "gtp", "--level", "10"]);
        let w = split_command_line(r#"a 'b c' "d \"e\" \\ \x" f\ g ''"#).unwrap();
        assert_eq!(w, ["a", "b c", r#"d "e" \ \x"#, "f g", ""]);
        assert!(split_command_line("a 'b").is_err());
        assert!(split_command_line("a \"b").is_err());
        assert!(split_command_line("   ").is_err());
    }

    fn answer_to(bytes: &[u8], id: Option<u32>) -> Result<String, ClientError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut reader = bytes;
        rt.block_on(read_answer(&mut reader, id))
    }

    fn answer(bytes: &[u8]) -> Result<String, ClientError> {
        answer_to(bytes, Some(12))
    }

    /// GTP 2, section 2.6: the answer carries the command's id. Another id (an answer to
    /// an earlier command, or invented) is refused; a missing one is tolerated.
    #[test]
    fn answer_ids_must_match() {
        assert_eq!(answer_to(b"=7 C3\n\n", Some(7)), Ok("C3".into()));
        assert_eq!(answer_to(b"= C3\n\n", Some(7)), Ok("C3".into()));
        assert_eq!(answer_to(b"=7\n\n", Some(7)), Ok("".into()));
        assert!(matches!(
            answer_to(b"=6 C3\n\n", Some(7)),
            Err(ClientError::Malformed(_))
        ));
        assert!(matches!(
            answer_to(b"=70 C3\n\n", Some(7)),
            Err(ClientError::Malformed(_))
        ));
        assert!(matches!(
            answer_to(b"?8 illegal move\n\n", Some(7)),
            Err(ClientError::Malformed(_))
        ));
        assert!(matches!(
            answer_to(b"=7 C3\n\n", None),
            Err(ClientError::Malformed(_))
        ));
        assert_eq!(answer_to(b"= C3\n\n", None), Ok("C3".into()));
    }

    /// A streamed answer read piece by piece from a scripted engine: lines, the end, a `?`
    /// answer, and a line split across a cancelled read that is not lost.
    #[test]
    fn streams_lines_and_survives_cancelled_reads() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let script = r#"read a; printf '=1\ninfo move C3 visits 1\nplay C3\n\n'; \
                read b; printf '?2 game is over\n\n'; \
                read c; printf '=3\ninf'; sleep 0.5; printf 'o rest\n\n'; \
                read d; printf '= %s%s\n\n' $d; cat >/dev/null"#;
            let line = format!("sh -c \"{script}\"");
            let mut c = GtpClient::spawn(&line, &StderrTarget::Null).unwrap();
            c.start_stream("kata-genmove_analyze b").await.unwrap();
            assert!(
                c.send("name", Duration::from_secs(5)).await.is_err(),
                "stream open"
            );
            let mut got = Vec::new();
            while let StreamEvent::Line(l) = c.next_stream_event().await.unwrap() {
                got.push(l);
            }
            assert_eq!(got, ["info move C3 visits 1", "play C3"]);
            c.start_stream("analyze b").await.unwrap();
            assert_eq!(
                c.next_stream_event().await,
                Err(ClientError::Failure("game is over".into()))
            );
            c.start_stream("analyze b 20").await.unwrap();
            let cut = tokio::time::timeout(Duration::from_millis(100), c.next_stream_event()).await;
            assert!(cut.is_err(), "the line is not complete yet");
            assert_eq!(
                c.next_stream_event().await,
                Ok(StreamEvent::Line("info rest".into()))
            );
            assert_eq!(c.next_stream_event().await, Ok(StreamEvent::End));
            c.send_line("# interrupt").await.unwrap();
            assert_eq!(
                c.send("x", Duration::from_secs(5)).await,
                Ok("#interrupt".into()),
                "the raw line carries no id"
            );
        });
    }

    #[test]
    fn parses_answers_leniently() {
        assert_eq!(answer(b"= C3\n\n"), Ok("C3".into()));
        assert_eq!(answer(b"= PASS \r\n\r\n"), Ok("PASS".into()));
        assert_eq!(answer(b"\n=\n\n"), Ok("".into()));
        assert_eq!(answer(b"=12 resign\n\n"), Ok("resign".into()));
        assert_eq!(answer(b"= a\nb\n\n"), Ok("a\nb".into()));
        assert_eq!(
            answer(b"? illegal move\n\n"),
            Err(ClientError::Failure("illegal move".into()))
        );
        assert_eq!(
            answer(b"hello\n\n"),
            Err(ClientError::Malformed("hello".into()))
        );
        assert_eq!(answer(b"= C3\n"), Err(ClientError::Died));
        assert_eq!(answer(b""), Err(ClientError::Died));
        let long = vec![b'x'; MAX_LINE + 10];
        assert!(matches!(answer(&long), Err(ClientError::Malformed(_))));
    }
}
