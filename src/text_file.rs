//! Script and data files read as text. A file that is not UTF-8 is refused with the place
//! of its first bad byte (the standard library says only that the stream is not UTF-8).

use std::path::Path;

/// The text of the file at `path`, or why it cannot be read.
pub fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    text(bytes)
}

/// `bytes` as text, or where they stop being UTF-8.
pub fn text(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let before = std::str::from_utf8(&bytes[..at]).expect("valid up to here");
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!(
            "not UTF-8 text: byte {at} (line {line}, column {column}) is 0x{:02X}",
            bytes[at]
        )
    })
}

#[cfg(test)]
mod tests {
    use super::text;

    #[test]
    fn the_first_bad_byte_is_placed() {
        assert_eq!(text(b"use cube3\n".to_vec()).unwrap(), "use cube3\n");
        let e = text(b"use cube3\nR \xc3\xa9 U\n\xff\n".to_vec()).unwrap_err();
        assert_eq!(e, "not UTF-8 text: byte 17 (line 3, column 1) is 0xFF");
        let e = text(b"R U \xe2\x80".to_vec()).unwrap_err();
        assert_eq!(e, "not UTF-8 text: byte 4 (line 1, column 5) is 0xE2");
    }
}
