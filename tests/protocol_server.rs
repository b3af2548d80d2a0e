//! Drives the shared GTP server with a tiny fake engine over in-memory pipes and compares
//! whole transcripts byte for byte. Expected answers follow the GTP 2 spec's answer format.
use quartet::protocol::{
    serve, serve_watched, CommandSpec, GtpEngine, GtpError, Outstanding, Reply, Stream,
};
use quartet::search::StopToken;
use std::time::{Duration, Instant};

#[derive(Default)]
struct Fake {
    stones: Vec<String>,
    quit_called: bool,
    stop: StopToken,
}

/// A search that runs until its token stops, or 300 ms: answers which ended it.
fn think(e: &mut Fake, _: &[String]) -> Reply {
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(300) {
        if e.stop.is_stopped() {
            return Ok("stopped".into());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok("done".into())
}

/// A search with no bound of its own (10 s guard): answers when its token stops.
fn wait(e: &mut Fake, _: &[String]) -> Reply {
    let start = Instant::now();
    while !e.stop.is_stopped() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok(if e.stop.is_stopped() {
        "stopped"
    } else {
        "guard"
    }
    .into())
}

/// An analysis stream: one line at once, then one per 10 ms until stopped (10 s guard).
fn watch(e: &mut Fake, args: &[String], out: &mut Stream<'_>) -> Reply {
    if !args.is_empty() {
        return Err(GtpError::syntax());
    }
    let start = Instant::now();
    out.line("info tick");
    while !out.is_stopped() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(e.stop.is_stopped());
    Ok(String::new())
}

/// A genmove with analysis lines: not ended by new input, ends with `play`.
fn think_aloud(e: &mut Fake, args: &[String], out: &mut Stream<'_>) -> Reply {
    let r = think(e, args)?;
    out.line("info thought");
    Ok(format!("play {r}"))
}

fn play(e: &mut Fake, args: &[String]) -> Reply {
    match args {
        [c, v] if c == "b" || c == "w" => {
            e.stones.push(v.clone());
            Ok(String::new())
        }
        _ => Err(GtpError::syntax()),
    }
}

fn echo(_: &mut Fake, args: &[String]) -> Reply {
    Ok(args.join(" "))
}

fn board(_: &mut Fake, _: &[String]) -> Reply {
    Ok("\n A B\n\n1 . .\n".to_string())
}

fn boom(_: &mut Fake, _: &[String]) -> Reply {
    panic!("deliberate test panic")
}

static COMMANDS: [CommandSpec<Fake>; 8] = [
    CommandSpec::new("play", play),
    CommandSpec::new("echo", echo),
    CommandSpec::new("showboard", board),
    CommandSpec::new("boom", boom),
    CommandSpec::new("think", think),
    CommandSpec::new("wait", wait),
    CommandSpec::analysis("watch", watch),
    CommandSpec::streaming("think_aloud", think_aloud),
];

impl GtpEngine for Fake {
    fn name(&self) -> &str {
        "Fake"
    }
    fn version(&self) -> &str {
        "0.1"
    }
    fn commands() -> &'static [CommandSpec<Fake>] {
        &COMMANDS
    }
    fn begin_command(&mut self, _name: &str, stop: &StopToken) {
        self.stop = stop.clone();
    }
    fn on_quit(&mut self) {
        self.quit_called = true;
    }
}

async fn transcript(input: Vec<u8>) -> (Fake, String) {
    let (engine, out) = serve(Fake::default(), std::io::Cursor::new(input), Vec::new())
        .await
        .expect("serve");
    (engine, String::from_utf8(out).expect("utf8 output"))
}

#[tokio::test]
async fn administrative_commands() {
    let (_, out) = transcript(
        b"protocol_version\n1 name\n2 version\nknown_command play\n\
          known_command quit\n3 known_command nope\nknown_command\nlist_commands\n"
            .to_vec(),
    )
    .await;
    assert_eq!(
        out,
        "= 2\n\n=1 Fake\n\n=2 0.1\n\n= true\n\n= true\n\n=3 false\n\n? syntax error\n\n\
         = protocol_version\nname\nversion\nknown_command\nlist_commands\nquit\n\
         gogui-interrupt\ncputime\nplay\necho\nshowboard\nboom\nthink\nwait\nwatch\nthink_aloud\n\n"
    );
}

#[tokio::test]
async fn engine_commands_ids_and_errors() {
    let (engine, out) = transcript(
        b"10 play b D4\nplay x\n11 play\n12 frobnicate\nfrobnicate 1 2\n\
          # a comment\n\n   \n13\techo  a\tb # c\n7\n99999999999 name\n"
            .to_vec(),
    )
    .await;
    assert_eq!(
        out,
        "=10\n\n? syntax error\n\n?11 syntax error\n\n?12 unknown command\n\n\
         ? unknown command\n\n=13 a b\n\n?7 syntax error\n\n? syntax error\n\n"
    );
    assert_eq!(engine.stones, vec!["D4"]);
    assert!(engine.quit_called, "on_quit runs at EOF too");
}

#[tokio::test]
async fn multi_line_bodies_have_no_empty_line() {
    let (_, out) = transcript(b"5 showboard\n".to_vec()).await;
    assert_eq!(out, "=5 \n A B\n1 . .\n\n");
}

#[tokio::test]
async fn quit_answers_and_stops_reading() {
    let (engine, out) = transcript(b"1 echo x\n2 quit\n3 play b A1\necho never\n".to_vec()).await;
    assert_eq!(out, "=1 x\n\n=2\n\n");
    assert!(engine.stones.is_empty());
    assert!(engine.quit_called);
}

#[tokio::test]
async fn eof_without_final_newline_and_crlf() {
    let (_, out) = transcript(b"1 echo a\r\n2 echo b".to_vec()).await;
    assert_eq!(out, "=1 a\n\n=2 b\n\n");
    let (_, out) = transcript(Vec::new()).await;
    assert_eq!(out, "");
}

#[tokio::test]
async fn a_panicking_handler_is_answered_and_the_server_goes_on() {
    let (_, out) = transcript(b"4 boom\n5 echo alive\n".to_vec()).await;
    assert_eq!(out, "?4 internal error\n\n=5 alive\n\n");
}

#[tokio::test]
async fn over_long_lines_are_drained_and_answered() {
    let mut input = b"21 echo ".to_vec();
    input.extend(std::iter::repeat_n(b'x', 3 << 20));
    input.extend_from_slice(b"\n22 echo ok\n");
    // An over-long last line without LF.
    input.extend(std::iter::repeat_n(b'y', (1 << 20) + 1));
    let (_, out) = transcript(input).await;
    assert_eq!(out, "?21 line too long\n\n=22 ok\n\n? line too long\n\n");

    // Exactly at the cap is accepted.
    let mut input = b"echo ".to_vec();
    input.extend(std::iter::repeat_n(b'z', (1 << 20) - 5));
    input.push(b'\n');
    let (_, out) = transcript(input).await;
    assert_eq!(out.len(), 2 + (1 << 20) - 5 + 2);
}

#[tokio::test]
async fn binary_garbage_never_panics_or_hangs() {
    // A deterministic byte soup with LFs, NULs, high bytes and '#'.
    let mut x: u32 = 12345;
    let mut input = Vec::new();
    for _ in 0..200_000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        input.push((x >> 16) as u8);
    }
    input.extend_from_slice(b"\n77 echo end\n");
    let (_, out) = transcript(input).await;
    assert!(
        out.ends_with("=77 end\n\n"),
        "tail: {:?}",
        &out[out.len().saturating_sub(40)..]
    );
    // Every answer is well-formed: starts with = or ? and is ended by one empty line.
    for answer in out.trim_end_matches('\n').split("\n\n") {
        assert!(
            answer.starts_with('=') || answer.starts_with('?'),
            "{answer:?}"
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn blocking_handlers_do_not_starve_a_current_thread_runtime() {
    // The reader task and the dispatcher share one runtime thread only through
    // spawn_blocking; a long input must still flow.
    let mut input = Vec::new();
    for i in 0..2000 {
        input.extend_from_slice(format!("{i} echo {i}\n").as_bytes());
    }
    let (_, out) = transcript(input).await;
    assert_eq!(out.matches("\n\n").count(), 2000);
    assert!(out.ends_with("=1999 1999\n\n"));
}

// The input below arrives at once (an in-memory reader), so every line has been read
// before the first command runs: what the reader does with a line must not depend on
// timing, only on the order of lines.

#[tokio::test]
async fn pipelined_commands_are_answered_in_order_and_do_not_stop_a_search() {
    // End of input follows at once: the searches still run to their bound.
    let (_, out) = transcript(b"1 think\n2 echo a\n3 think\n4 echo b\n5 name\n".to_vec()).await;
    assert_eq!(out, "=1 done\n\n=2 a\n\n=3 done\n\n=4 b\n\n=5 Fake\n\n");
}

#[tokio::test]
async fn interrupt_stops_the_latest_command_only() {
    let input = b"1 think\n# interrupt\n2 echo a\n".to_vec();
    let (_, out) = transcript(input).await;
    assert_eq!(out, "=1 stopped\n\n=2 a\n\n");
}

#[tokio::test]
async fn any_new_line_ends_an_analysis_stream_then_runs() {
    let (_, out) = transcript(b"7 watch\n8 echo next\n".to_vec()).await;
    assert_eq!(out, "=7\ninfo tick\n\n=8 next\n\n");
    // `quit` is such a line; end of input ends a stream too (it has no end of its own).
    let (engine, out) = transcript(b"7 watch\n8 quit\n".to_vec()).await;
    assert_eq!(out, "=7\ninfo tick\n\n=8\n\n");
    assert!(engine.quit_called);
    let (_, out) = transcript(b"7 watch\n".to_vec()).await;
    assert_eq!(out, "=7\ninfo tick\n\n");
    let (_, out) = transcript(b"7 watch".to_vec()).await;
    assert_eq!(out, "=7\ninfo tick\n\n");
    // A bad argument is an ordinary error, before any header.
    let (_, out) = transcript(b"7 watch x\n".to_vec()).await;
    assert_eq!(out, "?7 syntax error\n\n");
}

#[tokio::test]
async fn a_streaming_genmove_is_not_ended_by_new_input_but_by_interrupt() {
    let (_, out) = transcript(b"3 think_aloud\n# interrupt\n4 echo x\n".to_vec()).await;
    assert_eq!(out, "=3\ninfo thought\nplay stopped\n\n=4 x\n\n");
}

#[tokio::test]
async fn quit_waits_for_the_running_search() {
    let (engine, out) = transcript(b"1 think\n2 quit\n3 echo never\n".to_vec()).await;
    assert_eq!(out, "=1 done\n\n=2\n\n");
    assert!(engine.quit_called);
    // A streaming genmove is an ordinary command: it runs to its bound too.
    let (_, out) = transcript(b"3 think_aloud\nquit\n".to_vec()).await;
    assert_eq!(out, "=3\ninfo thought\nplay done\n\n=\n\n");
}

#[tokio::test]
async fn gogui_interrupt_is_known_and_harmless() {
    let (_, out) = transcript(b"known_command gogui-interrupt\ngogui-interrupt\n".to_vec()).await;
    assert_eq!(out, "= true\n\n=\n\n");
}

/// A reader that hands out its lines slowly and then never ends (a controller that keeps
/// the pipe open).
struct Slow {
    data: Vec<u8>,
    pos: usize,
    delay: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl tokio::io::AsyncRead for Slow {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        use std::future::Future;
        if self.pos >= self.data.len() {
            return std::task::Poll::Pending;
        }
        let delay = self
            .delay
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(Duration::from_millis(100))));
        if delay.as_mut().poll(cx).is_pending() {
            return std::task::Poll::Pending;
        }
        self.delay = None;
        let end = self.data[self.pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.data.len(), |i| self.pos + i + 1);
        let pos = self.pos;
        buf.put_slice(&self.data[pos..end]);
        self.pos = end;
        std::task::Poll::Ready(Ok(()))
    }
}

fn slow(data: &[u8]) -> Slow {
    Slow {
        data: data.to_vec(),
        pos: 0,
        delay: None,
    }
}

#[tokio::test]
async fn a_line_arriving_during_a_search_waits_for_it_and_so_does_quit() {
    let input = slow(b"1 think\n2 echo a\n3 quit\n");
    let (_, out) = serve(Fake::default(), input, Vec::new())
        .await
        .expect("serve");
    let out = String::from_utf8(out).unwrap();
    // `2 echo a` arrived 100 ms into the 300 ms search and `3 quit` at 200 ms: neither
    // stopped it.
    assert_eq!(out, "=1 done\n\n=2 a\n\n=3\n\n");
}

#[tokio::test]
async fn a_departed_controller_stops_the_running_command_and_runs_no_other() {
    let outstanding = Outstanding::new();
    let gone = outstanding.clone();
    // The input never ends; `1 wait` arrives at 100 ms, `2 echo a` at 200 ms.
    let input = slow(b"1 wait\n2 echo a\n");
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(400)).await;
        gone.controller_gone();
    });
    let started = Instant::now();
    let (engine, out) = serve_watched(Fake::default(), input, Vec::new(), outstanding)
        .await
        .expect("serve");
    let took = started.elapsed();
    // The stopped command's answer is still written (a real closed pipe refuses it), the
    // queued one never runs, and the session ends as after `quit`.
    assert_eq!(String::from_utf8(out).unwrap(), "=1 stopped\n\n");
    assert!(engine.quit_called);
    assert!(took < Duration::from_secs(5), "{took:?}");
}
