//! A text parameter (the Lab's workload) in a link: `<param>.z=<packed>`, the text's
//! UTF-8 deflated (raw DEFLATE, RFC 1951) and written in base64url without padding
//! (RFC 4648 §5), so that a few lines of workload make a link a chat or a slide can
//! hold. Reading also takes the plain form, `<param>=<percent-encoded text>`, which a
//! person may type. Both ways are byte-exact: what was packed unpacks to the same
//! bytes, comments in any script included.
//!
//! Unpacking is bounded before any work: a packed value longer than any text the
//! parameter allows could pack to is refused unread, and inflating stops at the
//! parameter's byte limit (a small link cannot expand into a large allocation).

use slowpath_engine::run::params::{ParamKind, ParamSpec};
use slowpath_engine::CaseMeta;

/// What follows a text parameter's name in the key of its packed form.
pub const PACKED_SUFFIX: &str = ".z";

/// How much DEFLATE works to make the link short: the strongest level, since a
/// workload is at most a few kilobytes and a link is written once per change.
#[cfg(feature = "text-params")]
const DEFLATE_LEVEL: u8 = 10;

/// Whether `spec` is a text parameter, and its byte limit.
pub fn text_limit(spec: &ParamSpec) -> Option<usize> {
    match spec.kind {
        ParamKind::Text { max_bytes, .. } => Some(max_bytes),
        _ => None,
    }
}

/// The longest packed value a text of `max_bytes` can give: DEFLATE's stored blocks
/// add 5 bytes per 65,535 and base64 4 characters per 3 bytes; anything longer was
/// not written by us and is refused before it is decoded.
pub fn packed_chars_max(max_bytes: usize) -> usize {
    let deflated = max_bytes + 5 * (max_bytes / 65_535 + 1) + 8;
    deflated.div_ceil(3) * 4
}

/// The packed form of `text`, or None in a build without text parameters (the
/// link then carries it percent-encoded).
pub fn pack(text: &str) -> Option<String> {
    #[cfg(feature = "text-params")]
    {
        use base64::Engine;
        let deflated = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), DEFLATE_LEVEL);
        Some(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(deflated))
    }
    #[cfg(not(feature = "text-params"))]
    {
        let _ = text;
        None
    }
}

/// The text a packed value holds, or why it cannot be read (in words for a notice).
pub fn unpack(packed: &str, max_bytes: usize) -> Result<String, String> {
    if packed.len() > packed_chars_max(max_bytes) {
        return Err(format!("it is longer than any text of at most {max_bytes} bytes packs to"));
    }
    #[cfg(feature = "text-params")]
    {
        use base64::Engine;
        let deflated = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(packed.trim_end_matches('='))
            .map_err(|_| "it is not base64url (letters, digits, `-` and `_`)".to_string())?;
        let bytes =
            miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, max_bytes).map_err(|error| {
                match error.status {
                    miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                        format!("it holds more than {max_bytes} bytes of text")
                    }
                    _ => "it is damaged (cut short or altered)".to_string(),
                }
            })?;
        String::from_utf8(bytes).map_err(|_| "its text is not UTF-8".to_string())
    }
    #[cfg(not(feature = "text-params"))]
    {
        Err("this build of the page reads no packed text".to_string())
    }
}

/// A link's `key=value` pairs, decoded.
type Pairs = Vec<(String, String)>;

/// A link's pairs with every packed text parameter (`<p>.z`, `cmp.<p>.z`) replaced by
/// its plain pair (`<p>`, `cmp.<p>`), in place, so that the rest of the reader sees one
/// form; a value that cannot be unpacked is dropped with a notice (key, message).
pub fn unpacked_pairs(meta: &'static CaseMeta, pairs: &[(String, String)]) -> (Pairs, Pairs) {
    let mut problems = Vec::new();
    let mut out = Vec::with_capacity(pairs.len());
    for (key, value) in pairs {
        let Some(plain_key) = key.strip_suffix(PACKED_SUFFIX) else {
            out.push((key.clone(), value.clone()));
            continue;
        };
        let name = plain_key.strip_prefix("cmp.").unwrap_or(plain_key);
        let Some(max_bytes) = meta.params.iter().find(|spec| spec.name == name).and_then(text_limit) else {
            out.push((key.clone(), value.clone()));
            continue;
        };
        match unpack(value, max_bytes) {
            Ok(text) => out.push((plain_key.to_string(), text)),
            Err(why) => problems.push((
                plain_key.to_string(),
                format!("the {name} in this link is unreadable: {why}; the default is used"),
            )),
        }
    }
    (out, problems)
}

/// The key and value a link writes for parameter `spec` under `key` (its name, or
/// `cmp.` and its name): a text parameter packed, any other as formatted.
pub fn written_pair(spec: &ParamSpec, key: &str, formatted: String) -> (String, String) {
    match text_limit(spec).and(pack(&formatted)) {
        Some(packed) => (format!("{key}{PACKED_SUFFIX}"), packed),
        None => (key.to_string(), formatted),
    }
}

#[cfg(all(test, feature = "text-params"))]
mod tests {
    use super::*;

    const LIMIT: usize = 4096;

    #[test]
    fn packing_round_trips_byte_exactly_unicode_comments_included() {
        let texts = [
            String::new(),
            "kernel sjf\njob A at=0 length=30ms\njob B at=10ms length=5ms\n".to_string(),
            "# Ünïcödé: 中文, עברית, 😀 \u{202e}reversed\u{200b}\r\ntask a\n\trun 1ms\n".to_string(),
            "x".repeat(LIMIT),
        ];
        for text in &texts {
            let packed = pack(text).expect("this build packs");
            assert!(packed.len() <= packed_chars_max(LIMIT), "{} chars", packed.len());
            assert!(packed.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{packed}");
            assert_eq!(unpack(&packed, LIMIT).as_deref(), Ok(text.as_str()));
        }
    }

    #[test]
    fn incompressible_text_at_the_limit_still_fits_the_bound() {
        // A text DEFLATE cannot shrink (every byte different from its neighbours)
        // packs to a stored block: the bound on packed length must still admit it.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let text: String = (0..LIMIT)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                char::from(b'!' + (state % 94) as u8)
            })
            .collect();
        let packed = pack(&text).expect("packs");
        assert!(packed.len() <= packed_chars_max(LIMIT), "{} > {}", packed.len(), packed_chars_max(LIMIT));
        assert_eq!(unpack(&packed, LIMIT).as_deref(), Ok(text.as_str()));
    }

    #[test]
    fn damaged_oversized_and_foreign_values_are_refused_in_words() {
        let packed = pack("kernel fifo\njob A length=10ms\n").expect("packs");
        assert!(unpack(&packed[..packed.len() / 2], LIMIT).is_err());
        assert!(unpack("not base64!", LIMIT).unwrap_err().contains("base64url"));
        let bomb = pack(&"a".repeat(LIMIT + 1)).expect("packs");
        assert!(unpack(&bomb, LIMIT).unwrap_err().contains("more than 4096 bytes"));
        assert!(unpack(&"A".repeat(packed_chars_max(LIMIT) + 1), LIMIT).unwrap_err().contains("longer"));
        let not_utf8 = {
            use base64::Engine;
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(miniz_oxide::deflate::compress_to_vec(&[0xff, 0xfe], 6))
        };
        assert!(unpack(&not_utf8, LIMIT).unwrap_err().contains("UTF-8"));
    }
}
