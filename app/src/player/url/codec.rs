//! Percent-encoding for links, both ways.
//!
//! A link's query is read as RFC 3986 has it, not as an HTML form: `+` is a plus
//! sign (gVisor's `tgids+idle-stop` is a variant), and only `%XX` is decoded.
//! Writing escapes everything but letters, digits and `-._*:`; a space, which no
//! registered name holds, would be `%20`, so that the two stay inverse.

/// The `key=value` pairs of a query, percent-decoded; a pair without `=` has an
/// empty value (the `embed` and `present` flags), and empty pairs are skipped.
pub fn pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(key), decode(value))
        })
        .collect()
}

/// `%XX` → the byte; anything else is kept, and bytes that are not UTF-8 become `�`.
pub fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let hex = |at: usize| bytes.get(at).and_then(|b| (*b as char).to_digit(16));
        match (bytes[index], hex(index + 1), hex(index + 2)) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                index += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Escapes `text` for a query key or value.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'*' | b':') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Appends `key=value` to a query being written.
pub fn push_pair(query: &mut String, key: &str, value: &str) {
    if !query.is_empty() {
        query.push('&');
    }
    query.push_str(&encode(key));
    query.push('=');
    query.push_str(&encode(value));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plus_is_a_plus_and_encoding_inverts_decoding() {
        assert_eq!(pairs("v=tgids+idle-stop"), [("v".to_string(), "tgids+idle-stop".to_string())]);
        assert_eq!(
            pairs("v=tgids%2Bidle-stop&embed"),
            [("v".to_string(), "tgids+idle-stop".to_string()), ("embed".to_string(), String::new())]
        );
        for text in ["tgids+idle-stop", "a b", "100%", "µs", "%zz", "\u{202e}x", "cmp.seed"] {
            assert_eq!(decode(&encode(text)), text, "{text:?}");
        }
        assert_eq!(decode("%zz%4"), "%zz%4");
        assert_eq!(decode("%FF"), "\u{fffd}");
    }
}
