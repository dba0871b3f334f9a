//! Compressed inputs: gzip and zstd, told by their first bytes, not their
//! names, and decompressed as they are read.

use std::io::{self, Read};

use flate2::read::MultiGzDecoder;

/// How an input is compressed, by its first bytes.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Compression {
    /// gzip (RFC 1952): `1f 8b`. Several members one after another are
    /// read as one stream, as `zcat` does.
    Gzip,
    /// zstd (RFC 8878): `28 b5 2f fd`. Several frames are read as one.
    Zstd,
}

impl Compression {
    pub fn sniff(head: &[u8]) -> Option<Compression> {
        if head.starts_with(b"\x1f\x8b") {
            Some(Compression::Gzip)
        } else if head.starts_with(b"\x28\xb5\x2f\xfd") {
            Some(Compression::Zstd)
        } else {
            None
        }
    }

    pub fn decoder<'a, R: Read + 'a>(
        self,
        rdr: R,
    ) -> io::Result<Box<dyn Read + 'a>> {
        Ok(match self {
            Compression::Gzip => Box::new(MultiGzDecoder::new(rdr)),
            Compression::Zstd => {
                Box::new(zstd::stream::read::Decoder::new(rdr)?)
            }
        })
    }
}

/// The first bytes of an input from its first raw bytes `raw`, decompressed
/// when `compression` says so (as many as a partial stream gives), at most
/// `max`: what the sniffing of formats and hints looks at.
pub fn decoded_head(
    raw: &[u8],
    compression: Option<Compression>,
    max: usize,
) -> Vec<u8> {
    let Some(c) = compression else {
        return raw[..raw.len().min(max)].to_vec();
    };
    let Ok(dec) = c.decoder(raw) else { return vec![] };
    let mut head = vec![];
    // A stream cut short (as `raw` is) ends in an error: keep what came.
    let _ = dec.take(max as u64).read_to_end(&mut head);
    head
}

pub use robots_batch::sniff::read_head;
