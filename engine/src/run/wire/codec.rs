//! The byte format of [`super`]: a small hand-written binary codec.
//!
//! Why not serde: the derived `Deserialize` code and a self-describing format
//! (MessagePack) were a third of the app's wasm (issue 19), and the page only
//! ever reads what this same build wrote. So the format is positional and
//! untagged: integers as LEB128 varints (signed ones zigzagged), `f64` as its
//! eight bytes, strings and sequences with a length first, an enum as a one-byte
//! variant number and then its fields. A type lists its fields once, in
//! [`wire_struct!`] or [`wire_enum!`] next to its definition; a field added to the
//! type and not to the list fails to compile (the struct literal is incomplete).
//! Reading never panics and never trusts a length: untrusted bytes give an error.

use std::any::Any;
use std::collections::{BTreeMap, VecDeque};
use std::fmt;

/// Why bytes were refused: what was being read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError {
    pub what: &'static str,
    pub at: usize,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.what, self.at)
    }
}

/// Bytes being written.
#[derive(Default)]
pub struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    pub fn new() -> Writer {
        Writer::default()
    }

    pub fn byte(&mut self, value: u8) {
        self.bytes.push(value);
    }

    pub fn varint(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.bytes.push((value as u8) | 0x80);
            value >>= 7;
        }
        self.bytes.push(value as u8);
    }

    pub fn length(&mut self, len: usize) {
        self.varint(len as u64);
    }

    /// Text: its length in bytes, then its UTF-8.
    pub fn text(&mut self, text: &str) {
        self.length(text.len());
        self.bytes.extend_from_slice(text.as_bytes());
    }

    pub fn seq<T: Wire>(&mut self, items: &[T]) {
        self.length(items.len());
        for item in items {
            item.put(self);
        }
    }
}

/// Nesting deeper than this is refused, so that damaged bytes cannot exhaust the
/// stack through a recursive type (a metric's lists).
const MAX_DEPTH: u32 = 32;
/// A sequence reserves up front at most one item per byte left in the message and
/// at most this many bytes of items: a damaged length cannot make a large allocation
/// before the bytes behind it are seen, and a real one is not grown by copies.
const MAX_RESERVE_BYTES: usize = 16 << 20;

/// Bytes being read.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: u32,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0, depth: 0 }
    }

    pub fn error(&self, what: &'static str) -> WireError {
        WireError { what, at: self.at }
    }

    pub fn byte(&mut self) -> Result<u8, WireError> {
        let value = *self.bytes.get(self.at).ok_or_else(|| self.error("the bytes end early"))?;
        self.at += 1;
        Ok(value)
    }

    pub fn varint(&mut self) -> Result<u64, WireError> {
        let mut value = 0u64;
        // Ten groups of seven bits hold any u64; a longer run is damage.
        for shift in (0..70).step_by(7) {
            let byte = self.byte()?;
            let bits = u64::from(byte & 0x7f);
            if shift == 63 && bits > 1 {
                return Err(self.error("a number too large"));
            }
            value |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.error("a number too long"))
    }

    /// A length, which cannot exceed the bytes left (every item takes a byte).
    pub fn length(&mut self) -> Result<usize, WireError> {
        let len = self.varint()?;
        if len > (self.bytes.len() - self.at) as u64 {
            return Err(self.error("a length beyond the bytes"));
        }
        Ok(len as usize)
    }

    pub fn take_bytes(&mut self, len: usize) -> Result<&'a [u8], WireError> {
        let end = self.at.checked_add(len).filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| self.error("the bytes end early"))?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    /// Text as [`Writer::text`] wrote it, borrowed from the bytes.
    pub fn text(&mut self) -> Result<&'a str, WireError> {
        let len = self.length()?;
        let bytes = self.take_bytes(len)?;
        std::str::from_utf8(bytes).map_err(|_| self.error("text that is not UTF-8"))
    }

    pub fn seq<T: Wire>(&mut self) -> Result<Vec<T>, WireError> {
        let len = self.length()?;
        let left = self.bytes.len() - self.at;
        let mut items = Vec::with_capacity(len.min(left).min(MAX_RESERVE_BYTES / size_of::<T>().max(1)));
        for _ in 0..len {
            items.push(T::take(self)?);
        }
        Ok(items)
    }

    /// Runs `read` one level deeper, refusing damage that nests without end.
    pub fn nested<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, WireError>,
    ) -> Result<T, WireError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        self.depth += 1;
        let result = read(self);
        self.depth -= 1;
        result
    }

    /// The whole message was read: trailing bytes are damage too.
    pub fn finish(&self) -> Result<(), WireError> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(self.error("bytes after the end"))
        }
    }
}

/// A value that crosses as bytes.
pub trait Wire: Sized {
    fn put(&self, w: &mut Writer);
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError>;
}

/// One value from a whole message.
pub fn from_bytes<T: Wire>(bytes: &[u8]) -> Result<T, WireError> {
    let mut reader = Reader::new(bytes);
    let value = T::take(&mut reader)?;
    reader.finish()?;
    Ok(value)
}

/// One value as a whole message.
pub fn to_bytes<T: Wire>(value: &T) -> Vec<u8> {
    let mut writer = Writer::new();
    value.put(&mut writer);
    writer.bytes
}

macro_rules! wire_unsigned {
    ($($ty:ty),*) => {$(
        impl Wire for $ty {
            fn put(&self, w: &mut Writer) {
                w.varint(*self as u64);
            }
            fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
                let value = r.varint()?;
                <$ty>::try_from(value).map_err(|_| r.error(concat!("a number beyond ", stringify!($ty))))
            }
        }
    )*};
}
wire_unsigned!(u8, u16, u32, u64, usize);

macro_rules! wire_signed {
    ($($ty:ty),*) => {$(
        impl Wire for $ty {
            fn put(&self, w: &mut Writer) {
                let value = *self as i64;
                w.varint(((value << 1) ^ (value >> 63)) as u64);
            }
            fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
                let zigzag = r.varint()?;
                let value = ((zigzag >> 1) as i64) ^ -((zigzag & 1) as i64);
                <$ty>::try_from(value).map_err(|_| r.error(concat!("a number beyond ", stringify!($ty))))
            }
        }
    )*};
}
wire_signed!(i32, i64);

impl Wire for bool {
    fn put(&self, w: &mut Writer) {
        w.byte(u8::from(*self));
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        match r.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(r.error("a switch neither 0 nor 1")),
        }
    }
}

impl Wire for f64 {
    fn put(&self, w: &mut Writer) {
        w.bytes.extend_from_slice(&self.to_bits().to_le_bytes());
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let bytes = r.take_bytes(8)?;
        let mut bits = [0u8; 8];
        bits.copy_from_slice(bytes);
        Ok(f64::from_bits(u64::from_le_bytes(bits)))
    }
}

impl Wire for String {
    fn put(&self, w: &mut Writer) {
        w.text(self);
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        Ok(r.text()?.to_string())
    }
}

/// A `&'static str` crosses as text and is interned on arrival ([`super::intern`]).
impl Wire for &'static str {
    fn put(&self, w: &mut Writer) {
        w.text(self);
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        Ok(super::intern(r.text()?))
    }
}

/// A `&'static` slice of plain data (a case's reported figures) is interned too.
impl<T: Wire + Any + Send + Sync> Wire for &'static [T] {
    fn put(&self, w: &mut Writer) {
        w.seq(self);
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        Ok(super::intern_slice(r.seq()?))
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, w: &mut Writer) {
        match self {
            None => w.byte(0),
            Some(value) => {
                w.byte(1);
                value.put(w);
            }
        }
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        match r.byte()? {
            0 => Ok(None),
            1 => Ok(Some(T::take(r)?)),
            _ => Err(r.error("an option neither 0 nor 1")),
        }
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, w: &mut Writer) {
        w.seq(self);
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        r.seq()
    }
}

/// Opaque bytes (a case's extras, already encoded): written raw after their length,
/// and read in one copy, where a `Vec<u8>` would cross a varint per byte.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bytes(pub Vec<u8>);

impl Wire for Bytes {
    fn put(&self, w: &mut Writer) {
        w.length(self.0.len());
        w.bytes.extend_from_slice(&self.0);
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let len = r.length()?;
        Ok(Bytes(r.take_bytes(len)?.to_vec()))
    }
}

impl<T: Wire> Wire for VecDeque<T> {
    fn put(&self, w: &mut Writer) {
        w.length(self.len());
        for item in self {
            item.put(w);
        }
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        Ok(r.seq()?.into())
    }
}

/// Arrays are of plain numbers (per-task time buckets, gauge ids): read in place, with
/// no allocation, since a checkpoint of a many-task run holds thousands of them.
impl<T: Wire + Copy + Default, const N: usize> Wire for [T; N] {
    fn put(&self, w: &mut Writer) {
        for item in self {
            item.put(w);
        }
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let mut items = [T::default(); N];
        for item in &mut items {
            *item = T::take(r)?;
        }
        Ok(items)
    }
}

impl<K: Wire + Ord, V: Wire> Wire for BTreeMap<K, V> {
    fn put(&self, w: &mut Writer) {
        w.length(self.len());
        for (key, value) in self {
            key.put(w);
            value.put(w);
        }
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let len = r.length()?;
        let mut map = BTreeMap::new();
        for _ in 0..len {
            let key = K::take(r)?;
            map.insert(key, V::take(r)?);
        }
        if map.len() != len {
            return Err(r.error("a key twice"));
        }
        Ok(map)
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        Ok((A::take(r)?, B::take(r)?))
    }
}

impl<A: Wire, B: Wire, C: Wire> Wire for (A, B, C) {
    fn put(&self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
        self.2.put(w);
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        Ok((A::take(r)?, B::take(r)?, C::take(r)?))
    }
}

impl<T: Wire> Wire for Box<T> {
    fn put(&self, w: &mut Writer) {
        (**self).put(w);
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, WireError> {
        Ok(Box::new(T::take(r)?))
    }
}

/// `Wire` for a struct with named fields, or a one-field tuple struct (`Name(0)`),
/// written in the order listed. Every field must be listed.
macro_rules! wire_struct {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl $crate::run::wire::codec::Wire for $ty {
            fn put(&self, w: &mut $crate::run::wire::codec::Writer) {
                $( $crate::run::wire::codec::Wire::put(&self.$field, w); )*
            }
            fn take(r: &mut $crate::run::wire::codec::Reader<'_>)
                -> Result<Self, $crate::run::wire::codec::WireError> {
                Ok($ty { $( $field: $crate::run::wire::codec::Wire::take(r)?, )* })
            }
        }
    };
    ($ty:ident(0)) => {
        impl $crate::run::wire::codec::Wire for $ty {
            fn put(&self, w: &mut $crate::run::wire::codec::Writer) {
                $crate::run::wire::codec::Wire::put(&self.0, w);
            }
            fn take(r: &mut $crate::run::wire::codec::Reader<'_>)
                -> Result<Self, $crate::run::wire::codec::WireError> {
                Ok($ty($crate::run::wire::codec::Wire::take(r)?))
            }
        }
    };
}
pub(crate) use wire_struct;

/// `Wire` for an enum: each variant with its number (one byte) and its shape,
/// `Unit`, `Tuple(a, b)` or `Struct { a, b }` (the names bind its fields). The
/// write side is a `match`, so a variant left out fails to compile.
macro_rules! wire_enum {
    ($ty:ident { $($body:tt)* }) => {
        impl $crate::run::wire::codec::Wire for $ty {
            fn put(&self, w: &mut $crate::run::wire::codec::Writer) {
                $crate::run::wire::codec::wire_enum!(@put self, w, $ty, [] $($body)*)
            }
            fn take(r: &mut $crate::run::wire::codec::Reader<'_>)
                -> Result<Self, $crate::run::wire::codec::WireError> {
                let tag = r.byte()?;
                $crate::run::wire::codec::wire_enum!(@take tag, r, $ty, [] $($body)*)
            }
        }
    };
    (@put $s:ident, $w:ident, $ty:ident, [$($arms:tt)*] $tag:literal => $v:ident { $($f:ident),* } $(, $($rest:tt)*)?) => {
        $crate::run::wire::codec::wire_enum!(@put $s, $w, $ty, [$($arms)*
            $ty::$v { $($f),* } => { $w.byte($tag); $( $crate::run::wire::codec::Wire::put($f, $w); )* }
        ] $($($rest)*)?)
    };
    (@put $s:ident, $w:ident, $ty:ident, [$($arms:tt)*] $tag:literal => $v:ident ( $($f:ident),* ) $(, $($rest:tt)*)?) => {
        $crate::run::wire::codec::wire_enum!(@put $s, $w, $ty, [$($arms)*
            $ty::$v ( $($f),* ) => { $w.byte($tag); $( $crate::run::wire::codec::Wire::put($f, $w); )* }
        ] $($($rest)*)?)
    };
    (@put $s:ident, $w:ident, $ty:ident, [$($arms:tt)*] $tag:literal => $v:ident $(, $($rest:tt)*)?) => {
        $crate::run::wire::codec::wire_enum!(@put $s, $w, $ty, [$($arms)*
            $ty::$v => { $w.byte($tag); }
        ] $($($rest)*)?)
    };
    (@put $s:ident, $w:ident, $ty:ident, [$($arms:tt)*]) => {
        match $s { $($arms)* }
    };
    (@take $t:ident, $r:ident, $ty:ident, [$($arms:tt)*] $tag:literal => $v:ident { $($f:ident),* } $(, $($rest:tt)*)?) => {
        $crate::run::wire::codec::wire_enum!(@take $t, $r, $ty, [$($arms)*
            $tag => Ok($ty::$v { $( $f: $crate::run::wire::codec::Wire::take($r)? ),* }),
        ] $($($rest)*)?)
    };
    (@take $t:ident, $r:ident, $ty:ident, [$($arms:tt)*] $tag:literal => $v:ident ( $($f:ident),* ) $(, $($rest:tt)*)?) => {
        $crate::run::wire::codec::wire_enum!(@take $t, $r, $ty, [$($arms)*
            $tag => Ok($ty::$v ( $( { let $f = $crate::run::wire::codec::Wire::take($r)?; $f } ),* )),
        ] $($($rest)*)?)
    };
    (@take $t:ident, $r:ident, $ty:ident, [$($arms:tt)*] $tag:literal => $v:ident $(, $($rest:tt)*)?) => {
        $crate::run::wire::codec::wire_enum!(@take $t, $r, $ty, [$($arms)*
            $tag => Ok($ty::$v),
        ] $($($rest)*)?)
    };
    (@take $t:ident, $r:ident, $ty:ident, [$($arms:tt)*]) => {
        match $t { $($arms)* _ => Err($r.error(concat!("an unknown ", stringify!($ty)))) }
    };
}
pub(crate) use wire_enum;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    enum Shape {
        Dot,
        Pair(u64, i64),
        Named { width: u16, label: String },
    }
    wire_enum!(Shape { 0 => Dot, 1 => Pair(a, b), 2 => Named { width, label } });

    #[test]
    fn numbers_and_shapes_round_trip() {
        for value in [0u64, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(from_bytes::<u64>(&to_bytes(&value)), Ok(value));
        }
        for value in [0i64, -1, 1, i64::MIN, i64::MAX] {
            assert_eq!(from_bytes::<i64>(&to_bytes(&value)), Ok(value));
        }
        let shapes = vec![Shape::Dot, Shape::Pair(7, -7), Shape::Named { width: 3, label: "é".into() }];
        let bytes = to_bytes(&shapes);
        assert_eq!(from_bytes::<Vec<Shape>>(&bytes).as_ref(), Ok(&shapes));
        assert_eq!(bytes[..2], [3, 0], "a length, then the first variant's number");
    }

    #[test]
    fn damage_is_refused() {
        assert!(from_bytes::<u16>(&to_bytes(&70_000u64)).is_err(), "out of range");
        assert!(from_bytes::<u64>(&[0xff; 11]).is_err(), "too long");
        assert!(from_bytes::<Vec<u64>>(&[0xff, 0xff, 0xff, 0x0f]).is_err(), "a length beyond the bytes");
        assert!(from_bytes::<Shape>(&[9]).is_err(), "an unknown variant");
        assert!(from_bytes::<bool>(&[2]).is_err());
        assert!(from_bytes::<u8>(&[1, 2]).is_err(), "trailing bytes");
        assert!(from_bytes::<String>(&[2, 0xc3, 0x28]).is_err(), "not UTF-8");
    }
}
