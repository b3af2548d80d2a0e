//! Reading a user-named file with a size cap: `--weights /dev/zero` (or a FIFO, or a
//! wrong multi-gigabyte file) must end in a message, not in the memory growing until the
//! machine gives out.
use std::io::Read;
use std::path::Path;

/// The file's text, or an error naming the file when it cannot be read, is not UTF-8, or
/// holds more than `max_bytes` bytes (found by reading at most one byte past the cap, so
/// an endless stream costs no more than the cap).
pub fn read_to_string_capped(path: &Path, max_bytes: u64) -> Result<String, String> {
    let bytes = read_capped(path, max_bytes)?;
    String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))
}

/// The file's bytes, or an error naming the file when it cannot be read or holds more
/// than `max_bytes` bytes (reading at most one byte past the cap).
pub fn read_capped(path: &Path, max_bytes: u64) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 > max_bytes {
        return Err(format!(
            "{}: larger than {} MiB; not a file of this kind",
            path.display(),
            max_bytes >> 20
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_and_oversized_inputs_stop_at_the_cap() {
        #[cfg(unix)]
        {
            let e = read_to_string_capped(Path::new("/dev/zero"), 1 << 20).unwrap_err();
            assert_eq!(e, "/dev/zero: larger than 1 MiB; not a file of this kind");
        }
        let dir = std::env::temp_dir().join(format!("quartet-capped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.txt");
        std::fs::write(&path, "x".repeat(100)).unwrap();
        assert_eq!(read_to_string_capped(&path, 100).unwrap().len(), 100);
        assert!(read_to_string_capped(&path, 99).is_err());
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(read_to_string_capped(&path, 99)
            .unwrap_err()
            .ends_with("not UTF-8 text"));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(read_to_string_capped(&dir.join("missing"), 9).is_err());
    }
}
