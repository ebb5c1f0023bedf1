//! What a first visit downloads, and where the wasm's bytes go (issue 19).
//!
//! `cargo xtask size` builds the release, prints every shipped file's size raw,
//! gzipped and brotli-compressed, and attributes the wasm's code to crates and to
//! our own modules from the pre-optimisation module's name section (parsed here:
//! no tool to install). `cargo xtask test` prints the total and fails above
//! [`CEILING_GZ_BYTES`]; the release build writes `.gz` and `.br` beside each file
//! ([`precompress`]) for hosts that serve precompressed assets.

use crate::cmd::{self, root, Failure, Outcome};
use crate::setup::Tools;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The budget is 300 kB gz, not met (670 kB on 2026-12-01: yew's per-component
/// code and the narration's text are most of it, see the issue). The ceiling sits
/// about 7 % above what ships, so that noise never blocks a landing while a real
/// regression (a second copy of the engine, a big crate) fails the tests. It was
/// 650 kB until the engine went to `opt-level = 2` (Cargo.toml), a deliberate
/// trade: +63 kB gz for runs about twice as fast in wasm, within 1.5× of native.
/// Lower it as the bundle shrinks.
pub const CEILING_GZ_BYTES: usize = 720_000;
pub const BUDGET_GZ_BYTES: usize = 300_000;

/// One shipped file.
pub struct Asset {
    pub path: String,
    pub raw: usize,
    pub gz: usize,
    pub br: usize,
}

/// Files a first visit transfers: everything in `dist/` (the measurements in
/// `measure/` too, which a case page's Today panel reads) but the case notes
/// (`cases/*.md`, only linked from the About page) and the precompressed copies.
pub fn shipped(dist: &Path) -> Result<Vec<Asset>, Failure> {
    let mut files = Vec::new();
    walk(dist, &mut files).map_err(|error| Failure::Failed(format!("size: cannot list dist/: {error}")))?;
    files.sort();
    let mut assets = Vec::new();
    for path in files {
        let relative = path.strip_prefix(dist).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let skipped =
            relative.starts_with("cases/") || relative.ends_with(".gz") || relative.ends_with(".br");
        if skipped {
            continue;
        }
        let bytes = std::fs::read(&path)
            .map_err(|error| Failure::Failed(format!("size: cannot read {relative}: {error}")))?;
        assets.push(Asset {
            path: relative,
            raw: bytes.len(),
            gz: gzip(&bytes).len(),
            br: brotli(&bytes).len(),
        });
    }
    if !assets.iter().any(|asset| asset.path.ends_with(".wasm")) {
        return Err(Failure::Failed("size: dist/ holds no wasm: build it first".to_string()));
    }
    Ok(assets)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::read::GzEncoder::new(bytes, flate2::Compression::best());
    let mut compressed = Vec::new();
    encoder.read_to_end(&mut compressed).expect("gzip into memory cannot fail");
    compressed
}

pub fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut compressed = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut compressed, 4096, 11, 22);
        writer.write_all(bytes).expect("brotli into memory cannot fail");
    }
    compressed
}

fn kb(bytes: usize) -> String {
    format!("{:.1} kB", bytes as f64 / 1000.0)
}

/// The per-file table and the total line.
pub fn table(assets: &[Asset]) -> String {
    let mut out = format!("{:<48} {:>10} {:>10} {:>10}\n", "file", "raw", "gzip", "brotli");
    for asset in assets {
        out +=
            &format!("{:<48} {:>10} {:>10} {:>10}\n", asset.path, kb(asset.raw), kb(asset.gz), kb(asset.br));
    }
    out += &total_line(assets);
    out
}

pub fn total_gz(assets: &[Asset]) -> usize {
    assets.iter().map(|asset| asset.gz).sum()
}

pub fn total_line(assets: &[Asset]) -> String {
    let (raw, gz, br) = assets.iter().fold((0, 0, 0), |(r, g, b), a| (r + a.raw, g + a.gz, b + a.br));
    format!(
        "bundle: {} raw, {} gz, {} br (budget {} gz, ceiling {} gz)\n",
        kb(raw),
        kb(gz),
        kb(br),
        kb(BUDGET_GZ_BYTES),
        kb(CEILING_GZ_BYTES)
    )
}

/// Writes `<file>.gz` and `<file>.br` beside every shipped file of `dir`, for
/// hosts that serve precompressed assets (see the README).
pub fn precompress(dir: &Path) -> std::io::Result<()> {
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    for path in files {
        let name = path.to_string_lossy();
        if name.ends_with(".gz") || name.ends_with(".br") {
            continue;
        }
        let bytes = std::fs::read(&path)?;
        std::fs::write(format!("{name}.gz"), gzip(&bytes))?;
        std::fs::write(format!("{name}.br"), brotli(&bytes))?;
    }
    Ok(())
}

/// `cargo xtask size`: build, then the tables.
pub fn run(tools: &Tools) -> Outcome {
    cmd::run("release build", cmd::tool(tools, "trunk").args(["build", "--release"]))?;
    let assets = shipped(&root().join("dist"))?;
    print!("{}", table(&assets));
    let wasm = root().join("target/wasm32-unknown-unknown/release/slowpath-app.wasm");
    let bytes = std::fs::read(&wasm)
        .map_err(|error| Failure::Failed(format!("size: cannot read {}: {error}", wasm.display())))?;
    let parts =
        attribute(&bytes).map_err(|error| Failure::Failed(format!("size: {}: {error}", wasm.display())))?;
    let total: usize = parts.values().sum();
    println!(
        "\nwhere the wasm's bytes go, before wasm-opt ({} of code and data; the shipped file is smaller):",
        kb(total)
    );
    let mut sorted: Vec<_> = parts.into_iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (part, bytes) in sorted.iter().take(40) {
        println!("{:>10} {:>5.1} %  {part}", kb(*bytes), 100.0 * *bytes as f64 / total.max(1) as f64);
    }
    Ok(())
}

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
