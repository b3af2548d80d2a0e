//! The pattern weights file: compact, versioned, checked.
//!
//! Layout (little-endian): the 8-byte magic `QOTHPAT\n`; u32 version (1); u32 weights per
//! stage (must equal this build's `STAGE_LEN`, so a file for other shapes is refused);
//! u32 stage width in empties; u32 flags (bit 0: the outer-region term is in use); u32
//! body length; the body; u32 FNV-1a of everything before it. The body holds each stage's
//! weights as runs: a varint count of zeros, a varint count of non-zero values, then those
//! values as zigzag varints, until the stage is full. Most table entries are configurations
//! no game reached (zero), so a stage of 167 k weights takes a few tens of kilobytes.
use super::pattern::{Patterns, STAGE_LEN};
use std::fmt;

pub const MAGIC: &[u8; 8] = b"QOTHPAT\n";
const VERSION: u32 = 1;
/// Files above this size are refused before being read whole (`--weights /dev/zero`).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// A malformed pattern file, with the byte offset where reading failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "pattern weights, byte offset {}: {}",
            self.offset, self.message
        )
    }
}

fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The checksum `p`'s file ends with: names a set of tables in logs (the learn loop's
/// progress line says which tables played each game).
pub fn fingerprint(p: &Patterns) -> u32 {
    let bytes = encode(p);
    u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().expect("4 bytes"))
}

/// Encodes `p` in the file format.
pub fn encode(p: &Patterns) -> Vec<u8> {
    let mut body = Vec::new();
    for stage in p.weights.chunks(STAGE_LEN) {
        let mut i = 0;
        while i < stage.len() {
            let z = stage[i..].iter().take_while(|&&w| w == 0).count();
            i += z;
            let nz = stage[i..].iter().take_while(|&&w| w != 0).count();
            put_varint(&mut body, z as u64);
            put_varint(&mut body, nz as u64);
            for &w in &stage[i..i + nz] {
                let w = w as i32;
                put_varint(&mut body, ((w << 1) ^ (w >> 31)) as u32 as u64);
            }
            i += nz;
        }
    }
    let mut out = Vec::with_capacity(body.len() + 32);
    out.extend_from_slice(MAGIC);
    for v in [
        VERSION,
        STAGE_LEN as u32,
        p.width,
        p.outer as u32,
        body.len() as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&body);
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn err(&self, message: impl Into<String>) -> FileError {
        FileError {
            offset: self.pos,
            message: message.into(),
        }
    }
    fn u32(&mut self, what: &str) -> Result<u32, FileError> {
        let b = self
            .bytes
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.err(format!("file ends inside the {what}")))?;
        self.pos += 4;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn varint(&mut self, limit: u64) -> Result<u64, FileError> {
        let start = self.pos;
        let mut v: u64 = 0;
        for shift in (0..35).step_by(7) {
            let b = *self.bytes.get(self.pos).ok_or_else(|| FileError {
                offset: start,
                message: "file ends inside a number".into(),
            })?;
            self.pos += 1;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                if v > limit {
                    return Err(FileError {
                        offset: start,
                        message: format!("value {v} out of range (at most {limit})"),
                    });
                }
                return Ok(v);
            }
        }
        Err(FileError {
            offset: start,
            message: "number longer than 5 bytes".into(),
        })
    }
}

/// Decodes a pattern file; every inconsistency is reported with its byte offset.
pub fn decode(bytes: &[u8]) -> Result<Patterns, FileError> {
    let mut r = Reader { bytes, pos: 0 };
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(r.err("not a quartet pattern weights file (bad magic)"));
    }
    r.pos = MAGIC.len();
    let version = r.u32("header")?;
    if version != VERSION {
        r.pos -= 4;
        return Err(r.err(format!(
            "version {version}, this build reads version {VERSION}"
        )));
    }
    let len = r.u32("header")?;
    if len as usize != STAGE_LEN {
        r.pos -= 4;
        return Err(r.err(format!(
            "{len} weights per stage, this build's shapes need {STAGE_LEN}"
        )));
    }
    let width = r.u32("header")?;
    if !(1..=60).contains(&width) {
        r.pos -= 4;
        return Err(r.err(format!("stage width {width} not in 1..=60")));
    }
    let flags = r.u32("header")?;
    if flags > 1 {
        r.pos -= 4;
        return Err(r.err(format!("unknown flags {flags:#x}")));
    }
    let body_len = r.u32("header")? as usize;
    let body_start = r.pos;
    let body_end = body_start
        .checked_add(body_len)
        .filter(|&e| e.checked_add(4) == Some(bytes.len()))
        .ok_or_else(|| {
            r.err(format!(
                "body length {body_len} does not match the file size {}",
                bytes.len()
            ))
        })?;
    let sum_at = body_end;
    let stored = u32::from_le_bytes([
        bytes[sum_at],
        bytes[sum_at + 1],
        bytes[sum_at + 2],
        bytes[sum_at + 3],
    ]);
    if fnv1a(&bytes[..sum_at]) != stored {
        return Err(FileError {
            offset: sum_at,
            message: "checksum mismatch (file damaged)".into(),
        });
    }
    let mut p = Patterns::zero(width, flags & 1 != 0);
    let total = p.weights.len();
    let mut r = Reader {
        bytes: &bytes[..body_end],
        pos: body_start,
    };
    let mut i = 0;
    while i < total {
        let stage_end = (i / STAGE_LEN + 1) * STAGE_LEN;
        let z = r.varint((stage_end - i) as u64)? as usize;
        i += z;
        let nz = r.varint((stage_end - i) as u64)? as usize;
        for _ in 0..nz {
            let v = r.varint(u32::MAX as u64)? as u32;
            let w = ((v >> 1) as i32) ^ -((v & 1) as i32);
            if w == 0 || w < i16::MIN as i32 || w > i16::MAX as i32 {
                return Err(FileError {
                    offset: r.pos - 1,
                    message: format!("weight {w} is zero or outside 16 bits"),
                });
            }
            p.weights[i] = w as i16;
            i += 1;
        }
        if z == 0 && nz == 0 && i < stage_end {
            return Err(r.err("empty run (the file would never end)"));
        }
    }
    if r.pos != body_end {
        return Err(r.err("extra bytes after the last stage"));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Patterns {
        let mut p = Patterns::zero(6, true);
        for (i, w) in p.weights.iter_mut().enumerate() {
            if i % 7 == 0 || i % 1000 < 3 {
                *w = ((i * 7919) % 4001) as i16 - 2000;
            }
        }
        p.weights[5] = i16::MIN;
        p.weights[6] = i16::MAX;
        p
    }

    #[test]
    fn the_previous_default_tables_load_like_the_built_in_ones() {
        // data/othello/patterns-v3.bin (the third fit, the default before b94f6c3) stays
        // loadable with `--weights`: it must decode, have the built-in tables' shape, and
        // differ from them.
        let v3 = decode(include_bytes!("../../data/othello/patterns-v3.bin")).unwrap();
        let v4 = decode(include_bytes!("../../data/othello/patterns.bin")).unwrap();
        assert_eq!((v4.width, v4.outer), (v3.width, v3.outer));
        assert_ne!(fingerprint(&v4), fingerprint(&v3));
        assert!(v3.weights.iter().filter(|&&w| w != 0).count() > 100_000);
    }

    #[test]
    fn encode_then_decode_gives_the_same_weights() {
        let p = sample();
        let bytes = encode(&p);
        let q = decode(&bytes).unwrap();
        assert_eq!(q.width, 6);
        assert!(q.outer);
        assert!(q.weights == p.weights);
    }

    #[test]
    fn damaged_files_are_rejected_with_an_offset() {
        let bytes = encode(&sample());
        let e = decode(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(e.message.contains("body length"), "{e}");
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        let e = decode(&flipped).unwrap_err();
        assert!(e.message.contains("checksum"), "{e}");
        assert_eq!(e.offset, bytes.len() - 4);
        let e = decode(b"hello").unwrap_err();
        assert!(e.message.contains("magic"));
        let mut v2 = bytes.clone();
        v2[8] = 2;
        let e = decode(&v2).unwrap_err();
        assert_eq!(e.offset, 8);
        assert!(e.to_string().contains("byte offset 8: version 2"), "{e}");
        let mut shapes = bytes.clone();
        shapes[12] ^= 4;
        assert_eq!(decode(&shapes).unwrap_err().offset, 12);
    }

    #[test]
    fn a_body_that_lies_about_its_runs_is_refused() {
        // Build a file by hand with a zero-run longer than the stage.
        let mut out = MAGIC.to_vec();
        let body = {
            let mut b = Vec::new();
            put_varint(&mut b, STAGE_LEN as u64 + 1);
            put_varint(&mut b, 0);
            b
        };
        for v in [VERSION, STAGE_LEN as u32, 60, 0, body.len() as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&body);
        let s = fnv1a(&out);
        out.extend_from_slice(&s.to_le_bytes());
        let e = decode(&out).unwrap_err();
        assert_eq!(e.offset, 28);
        assert!(e.message.contains("out of range"), "{e}");
    }
}
