//! Where the wasm's code bytes go: each function's size, from the code section,
//! credited to its crate (our own crates by module) through the name section of a
//! module built before wasm-opt strips it; the data segments counted apart.

use std::collections::BTreeMap;

/// Code bytes per crate (our crates per module) and the data segments, from a
/// module that still has its name section.
pub fn attribute(wasm: &[u8]) -> Result<BTreeMap<String, usize>, String> {
    let module = Module::parse(wasm)?;
    let mut parts = BTreeMap::new();
    for (index, size) in module.bodies.iter().enumerate() {
        let name = module.names.get(&(module.imported_functions + index as u32)).map(String::as_str);
        let name = rustc_demangle::demangle(name.unwrap_or("")).to_string();
        *parts.entry(owner(&name)).or_insert(0) += size;
    }
    parts.insert("(data: strings and tables)".to_string(), module.data_bytes);
    Ok(parts)
}

/// Who a function belongs to: the first crate path in its name, one level deeper
/// for our own crates (`slowpath_engine::cases::sparse_dump`).
fn owner(name: &str) -> String {
    let words: Vec<&str> = name
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .filter(|word| word.contains("::"))
        .collect();
    let Some(path) = words.first() else {
        return "(other: runtime, glue)".to_string();
    };
    let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    match segments.as_slice() {
        [krate @ ("slowpath_engine" | "slowpath_app"), "cases", case, ..] => {
            format!("{krate}::cases::{case}")
        }
        [krate @ ("slowpath_engine" | "slowpath_app"), module, _, ..] => format!("{krate}::{module}"),
        // `<str>::…`, `<fmt::Arguments>::…`: methods of the standard library's own types.
        [first, ..] if STD_MODULES.contains(first) => "core".to_string(),
        [first, ..] => first.to_string(),
        [] => "(other: runtime, glue)".to_string(),
    }
}

/// Standard-library modules that appear unprefixed in method names.
const STD_MODULES: &[&str] = &[
    "fmt",
    "str",
    "num",
    "math",
    "string",
    "slice",
    "panicking",
    "raw",
    "ptr",
    "iter",
    "option",
    "result",
    "cell",
    "mem",
    "ops",
    "char",
];

/// The parts of a wasm module the attribution needs.
struct Module {
    imported_functions: u32,
    bodies: Vec<usize>,
    names: BTreeMap<u32, String>,
    data_bytes: usize,
}

struct Bytes<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    fn byte(&mut self) -> Result<u8, String> {
        let byte = *self.bytes.get(self.at).ok_or("the module ends early")?;
        self.at += 1;
        Ok(byte)
    }
    fn leb(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("a number too long".to_string())
    }
    fn take(&mut self, len: usize) -> Result<&'a [u8], String> {
        let end =
            self.at.checked_add(len).filter(|&end| end <= self.bytes.len()).ok_or("the module ends early")?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }
    fn name(&mut self) -> Result<String, String> {
        let len = self.leb()? as usize;
        Ok(String::from_utf8_lossy(self.take(len)?).into_owned())
    }
}

impl Module {
    fn parse(wasm: &[u8]) -> Result<Module, String> {
        if wasm.get(..4) != Some(b"\0asm") {
            return Err("not a wasm module".to_string());
        }
        let mut module =
            Module { imported_functions: 0, bodies: Vec::new(), names: BTreeMap::new(), data_bytes: 0 };
        let mut reader = Bytes { bytes: wasm, at: 8 };
        while reader.at < wasm.len() {
            let id = reader.byte()?;
            let len = reader.leb()? as usize;
            let mut section = Bytes { bytes: reader.take(len)?, at: 0 };
            match id {
                0 if section.name()? == "name" => module.read_names(&mut section)?,
                2 => module.imported_functions = count_function_imports(&mut section)?,
                10 => {
                    for _ in 0..section.leb()? {
                        let size = section.leb()? as usize;
                        section.take(size)?;
                        module.bodies.push(size);
                    }
                }
                11 => module.data_bytes = len,
                _ => {}
            }
        }
        Ok(module)
    }

    fn read_names(&mut self, section: &mut Bytes<'_>) -> Result<(), String> {
        while section.at < section.bytes.len() {
            let kind = section.byte()?;
            let len = section.leb()? as usize;
            let mut sub = Bytes { bytes: section.take(len)?, at: 0 };
            if kind == 1 {
                for _ in 0..sub.leb()? {
                    let index = sub.leb()? as u32;
                    self.names.insert(index, sub.name()?);
                }
            }
        }
        Ok(())
    }
}

fn count_function_imports(section: &mut Bytes<'_>) -> Result<u32, String> {
    let mut functions = 0;
    for _ in 0..section.leb()? {
        section.name()?;
        section.name()?;
        match section.byte()? {
            0 => {
                section.leb()?;
                functions += 1;
            }
            1 => {
                section.byte()?;
                limits(section)?;
            }
            2 => limits(section)?,
            3 => {
                section.byte()?;
                section.byte()?;
            }
            4 => {
                section.byte()?;
                section.leb()?;
            }
            other => return Err(format!("an import of unknown kind {other}")),
        }
    }
    Ok(functions)
}

fn limits(section: &mut Bytes<'_>) -> Result<(), String> {
    let flags = section.byte()?;
    section.leb()?;
    if flags & 1 != 0 {
        section.leb()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_are_crates_and_our_modules() {
        assert_eq!(owner("<yew::html::Foo<slowpath_app::X> as yew::Y>::view::h0123"), "yew");
        assert_eq!(
            owner("slowpath_engine::cases::sparse_dump::sim::step::h1"),
            "slowpath_engine::cases::sparse_dump"
        );
        assert_eq!(owner("slowpath_app::player::controls::Transport::h2"), "slowpath_app::player");
        assert_eq!(owner("memcpy"), "(other: runtime, glue)");
        assert_eq!(owner("fmt::write::h3"), "core");
    }

    #[test]
    fn a_tiny_module_is_read() {
        // One imported function, one defined function (body of 2 bytes), named "a::b".
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend([2, 7, 1, 1, b'm', 1, b'f', 0, 0]);
        wasm.extend([10, 4, 1, 2, 0, 0x0b]);
        let custom = [4, b'n', b'a', b'm', b'e', 1, 7, 1, 1, 4, b'a', b':', b':', b'b'];
        wasm.extend([0, custom.len() as u8]);
        wasm.extend(custom);
        let parts = attribute(&wasm).expect("parses");
        assert_eq!(parts.get("a"), Some(&2));
    }
}
