//! The page: every file of `src/serve/page/`, embedded in the binary, or read from a folder
//! on disk (`--page-dir`) so the page can be edited without rebuilding.
use rust_embed::RustEmbed;
use std::borrow::Cow;
use std::path::Path;

#[derive(RustEmbed)]
#[folder = "src/serve/page/"]
struct Embedded;

/// The Content-Type of a page file, from its extension.
pub fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("json") => "application/json",
        Some("txt" | "md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Whether `name` is a plain relative path (no `..`, no absolute or hidden parts), so a
/// request can never reach outside the page folder.
fn is_safe(name: &str) -> bool {
    !name.is_empty()
        && name.split('/').all(|part| {
            !part.is_empty()
                && !part.starts_with('.')
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        })
}

/// The file `name` (`index.html` for the root), from `dir` if given, else embedded.
pub async fn get(dir: Option<&Path>, name: &str) -> Option<Cow<'static, [u8]>> {
    if !is_safe(name) {
        return None;
    }
    match dir {
        Some(dir) => tokio::fs::read(dir.join(name)).await.ok().map(Cow::Owned),
        None => Embedded::get(name).map(|f| f.data),
    }
}

/// The names of the embedded files.
pub fn embedded_names() -> Vec<String> {
    Embedded::iter().map(|n| n.into_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_the_folder_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/serve/page");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with('.'))
            .collect();
        on_disk.sort();
        let mut embedded = embedded_names();
        embedded.sort();
        assert_eq!(embedded, on_disk);
        assert!(embedded.contains(&"index.html".to_string()));
    }

    #[test]
    fn paths_stay_inside_the_folder() {
        assert!(is_safe("app.js"));
        assert!(is_safe("img/board.svg"));
        for bad in [
            "",
            "../x",
            "a/../b",
            "/etc/passwd",
            ".hidden",
            "a//b",
            "a b",
        ] {
            assert!(!is_safe(bad), "{bad}");
        }
    }
}
