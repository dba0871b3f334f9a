//! Compressed inputs of the library's readers (WARC files, fetch
//! indexes): gzip and zstd, told by their first bytes, not their names.

use std::io::{self, BufReader, Read};

/// How a stream is compressed, by its first bytes.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Compression {
    /// gzip (RFC 1952): `1f 8b`.
    Gzip,
    /// zstd (RFC 8878): `28 b5 2f fd`.
    Zstd,
}

/// The most first bytes [`sniff`] looks at.
pub(crate) const MAGIC_BYTES: usize = 4;

/// How a stream starting with `head` is compressed, if it is.
pub(crate) fn sniff(head: &[u8]) -> Option<Compression> {
    if head.starts_with(b"\x1f\x8b") {
        Some(Compression::Gzip)
    } else if head.starts_with(b"\x28\xb5\x2f\xfd") {
        Some(Compression::Zstd)
    } else {
        None
    }
}

/// `rdr`, decompressed when its first bytes say gzip (any number of
/// members) or zstd (any number of frames). The first bytes are read one
/// read at a time if need be: a pipe may hand over a single byte.
pub(crate) fn decompressed<'r, R: Read + 'r>(
    mut rdr: R,
) -> io::Result<Box<dyn Read + 'r>> {
    let mut head = [0u8; MAGIC_BYTES];
    let n = crate::sniff::read_head(&mut rdr, &mut head)?;
    let rdr = BufReader::new(io::Cursor::new(head).take(n as u64).chain(rdr));
    Ok(match sniff(&head[..n]) {
        Some(Compression::Gzip) => {
            Box::new(flate2::bufread::MultiGzDecoder::new(rdr))
        }
        Some(Compression::Zstd) => {
            Box::new(zstd::stream::read::Decoder::with_buffer(rdr)?)
        }
        None => Box::new(rdr),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![];
        decompressed(bytes).unwrap().read_to_end(&mut out).unwrap();
        out
    }

    #[test]
    fn gzip_zstd_and_plain_alike() {
        let text = b"WARC/1.0\r\n".repeat(100);
        let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
        io::Write::write_all(&mut gz, &text).unwrap();
        let gz = gz.finish().unwrap();
        let zst = zstd::encode_all(&text[..], 0).unwrap();
        assert_eq!(all(&gz), text);
        assert_eq!(all(&zst), text);
        assert_eq!(all(&text), text);
        assert_eq!(all(b"\x1f"), b"\x1f");
        assert_eq!(all(b""), b"");
    }
}
