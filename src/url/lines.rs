/*!
The URL lines of a chunk, with where each one's path is, found 64 bytes at
a time.

Per line, the batch pipeline asks a handful of questions: where the line
ends, where the path starts after the authority, where a fragment cuts it,
whether normalisation has anything to rewrite, whether the output must
escape anything. Asked one after the other with short scans, each scan ends
with a branch that no predictor guesses (URLs have every length), and those
scans cost more than matching the path on most robots.txt files.

[`UrlLines`] asks them all at once: it classifies a window of the chunk,
sixteen bytes per step with SSE2 or thirty-two with AVX2 where the CPU has
it (a byte at a time off x86-64), into one bitmap per byte class, and then
answers each question for a line with a shift and a count of trailing
zeros. A line shorter than 64 bytes (most URLs) takes one word of each
bitmap, and its questions are masks of those words. Lines that do not fit
a window (a few KiB) are handled by plain scans (`memchr` for the line's
end, and [`extract_path`](crate::extract_path)), and every line gets
exactly the answers those give: lines end at `\n`, without a `\r` before
it, and a last line without one counts too. The default command and
crawl-log mode read their chunks this way. See docs/DESIGN.md,
"Byte-class bitmaps for reading lines".
*/

use crate::lowlevel::byteclass::{
    any, bits_from, classify_window, first, is_plain, Masks, AUTH, CLASSES,
    ESC, HASH, NL, PCT, RFC, WINDOW_BYTES, WINDOW_WORDS,
};
use crate::lowlevel::prefetch::prefetch;
use crate::url::block::{ShortLine, BLOCK};
use crate::url::path::{
    path_start_general, scan_path, ShortPath, UrlPath, SPECIAL_PERCENT,
    SPECIAL_RFC9309,
};

/// One line of a chunk, and what the pipeline needs to know of it.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) struct UrlLine<'c> {
    /// The line's bytes, without its `\n` or `\r\n`.
    pub(crate) text: &'c [u8],
    /// The path of the line, as [`scan_path`] finds it.
    pub(crate) path: UrlPath<'c>,
    /// The special bytes of the path, as [`scan_path`] flags them.
    pub(crate) flags: u8,
    /// Where they are, when the line has a block (see `block`).
    pub(crate) short: Option<ShortPath<'c>>,
    /// Whether the line holds only bytes from 0x20 to 0x7E other than
    /// `,`, `"` and `\`, which no output format escapes or quotes.
    pub(crate) plain: bool,
    /// The line in its block, when it is shorter than a block and the
    /// chunk holds one from its start.
    pub(crate) block: Option<ShortLine<'c>>,
}

/// The lines of a chunk, in order: each up to its `\n` (and without a
/// `\r` before it), the last one with or without one.
pub(crate) struct UrlLines<'c> {
    chunk: &'c [u8],
    /// Where the next line starts.
    pos: usize,
    /// Where the window starts, and how many bytes of the chunk it holds.
    base: usize,
    len: usize,
    /// One bitmap per class: bit `i` of word `w` is byte `base + 64w + i`.
    /// The word after the last one in use is zero, so that 64 bits can be
    /// read from any position inside the window.
    masks: Box<Masks>,
}

impl<'c> UrlLines<'c> {
    pub(crate) fn new(chunk: &'c [u8]) -> UrlLines<'c> {
        UrlLines {
            chunk,
            pos: 0,
            base: 0,
            len: 0,
            masks: Box::new([[0; WINDOW_WORDS + 1]; CLASSES]),
        }
    }

    /// Classifies the window of the chunk that starts at `base`.
    fn fill(&mut self, base: usize) {
        let end = self.chunk.len().min(base + WINDOW_BYTES);
        let bytes = &self.chunk[base..end];
        self.base = base;
        self.len = bytes.len();
        classify_window(bytes, &mut self.masks);
        // A chunk of a memory-mapped file is read here for the first time,
        // from memory, and the hardware prefetchers stop at each 4 KiB
        // page: the next window is requested while the lines of this one
        // are judged, so its classification finds it in the cache.
        prefetch(&self.chunk[end..self.chunk.len().min(end + WINDOW_BYTES)]);
    }

    /// Where the line starting at `start` ends (its `\n`, or the chunk's
    /// end, with whether a `\n` ends it), if the window says.
    #[inline]
    fn end_in_window(&self, start: usize) -> Option<(usize, bool)> {
        if start < self.base || start >= self.base + self.len {
            return None;
        }
        let nl = first(&self.masks[NL], start - self.base, self.len);
        match nl {
            Some(i) => Some((self.base + i, true)),
            None if self.base + self.len == self.chunk.len() => {
                Some((self.chunk.len(), false))
            }
            None => None,
        }
    }

    /// The line from `start` to `end`, every question answered from
    /// `bits`: the window's bitmaps, seen from the line's start.
    #[inline]
    fn line<B: LineBits>(
        &self,
        bits: &B,
        start: usize,
        end: usize,
        newline: bool,
    ) -> UrlLine<'c> {
        let mut end = end;
        if newline && end > start && self.chunk[end - 1] == b'\r' {
            end -= 1;
        }
        let text = &self.chunk[start..end];
        let to = end - start;
        let plain = !bits.any(ESC, 0, to);
        let block = ShortLine::new(self.chunk, start, to);
        let host = if text.starts_with(b"//") { 2 } else { 0 };
        let hay = &text[host..];
        let path_start = if hay.starts_with(b"https://") {
            authority_end(bits, host + 8, to)
        } else if hay.starts_with(b"http://") {
            authority_end(bits, host + 7, to)
        } else if hay.first() == Some(&b'/') {
            Some(host)
        } else {
            path_start_general(hay).map(|i| host + i)
        };
        let Some(path_start) = path_start else {
            let (path, flags, short) = (ROOT, 0, None);
            return UrlLine { text, path, flags, short, plain, block };
        };
        let path_end = bits.first(HASH, path_start, to).unwrap_or(to);
        let mut flags = 0;
        if bits.any(PCT, path_start, path_end) {
            flags |= SPECIAL_PERCENT;
        }
        if bits.any(RFC, path_start, path_end) {
            flags |= SPECIAL_RFC9309;
        }
        let short = match (block, bits.specials(path_start, path_end)) {
            (Some(line), Some(specials)) => Some(ShortPath {
                block: line.block(),
                at: path_start,
                specials,
            }),
            _ => None,
        };
        let rest = &text[path_start..path_end];
        let path = UrlPath { slash: rest[0] != b'/', rest };
        UrlLine { text, path, flags, short, plain, block }
    }
}

/// Where the path starts after an authority that starts at `from`, or
/// `None` when a `#` or the line's end (`to`) comes first.
#[inline]
fn authority_end<B: LineBits>(
    bits: &B,
    from: usize,
    to: usize,
) -> Option<usize> {
    if from >= to {
        return None;
    }
    let i = bits.first(AUTH, from, to)?;
    (!bits.is(HASH, i)).then_some(i)
}

/// The classes of a line's bytes, by position from the line's start.
trait LineBits {
    /// The first position in `from..to` of a byte of class `class`.
    fn first(&self, class: usize, from: usize, to: usize) -> Option<usize>;
    /// Whether a byte in `from..to` is of class `class`.
    fn any(&self, class: usize, from: usize, to: usize) -> bool;
    /// Whether the byte at `at` is of class `class`.
    fn is(&self, class: usize, at: usize) -> bool;
    /// When known, the bytes in `from..to` (at most a block) that RFC 9309
    /// normalisation may rewrite, as bits from `from`.
    fn specials(&self, from: usize, to: usize) -> Option<u64>;
}

/// A line anywhere in the window, which holds it: each question is a
/// search of a class's bitmap.
struct InWindow<'m> {
    masks: &'m Masks,
    /// The line's start, a position in the window.
    at: usize,
}

impl LineBits for InWindow<'_> {
    #[inline]
    fn first(&self, class: usize, from: usize, to: usize) -> Option<usize> {
        let i = first(&self.masks[class], self.at + from, self.at + to)?;
        Some(i - self.at)
    }

    #[inline]
    fn any(&self, class: usize, from: usize, to: usize) -> bool {
        any(&self.masks[class], self.at + from, self.at + to)
    }

    #[inline]
    fn is(&self, class: usize, at: usize) -> bool {
        bits_from(&self.masks[class], self.at + at) & 1 != 0
    }

    #[inline]
    fn specials(&self, _: usize, _: usize) -> Option<u64> {
        None
    }
}

/// A line of fewer than 64 bytes: each class is one word, read once.
///
/// Most URLs are that short, and a long line's searches ask each question
/// anew (a shift of two words, a loop). See docs/DESIGN.md, "The 64-byte
/// block for short lines".
struct Short {
    words: [u64; CLASSES],
}

impl Short {
    /// The bits of positions `from..to` of the line, which is shorter
    /// than a block (so `to` is below [`BLOCK`]).
    ///
    /// As `to` is below 64, each end is one shift, with no compare and
    /// select for an end of 64.
    #[inline]
    fn span(from: usize, to: usize) -> u64 {
        debug_assert!(from <= to && to < BLOCK);
        let below = |n: usize| (1u64 << (n % BLOCK)) - 1;
        below(to) & !below(from)
    }
}

impl LineBits for Short {
    #[inline]
    fn first(&self, class: usize, from: usize, to: usize) -> Option<usize> {
        let bits = self.words[class] & Short::span(from, to);
        (bits != 0).then(|| bits.trailing_zeros() as usize)
    }

    #[inline]
    fn any(&self, class: usize, from: usize, to: usize) -> bool {
        self.words[class] & Short::span(from, to) != 0
    }

    #[inline]
    fn is(&self, class: usize, at: usize) -> bool {
        self.words[class] >> at & 1 != 0
    }

    #[inline]
    fn specials(&self, from: usize, to: usize) -> Option<u64> {
        let bits = self.words[PCT] | self.words[RFC];
        Some((bits & Short::span(from, to)) >> from)
    }
}

/// The path of a URL without one.
const ROOT: UrlPath<'static> = UrlPath { slash: true, rest: b"" };

impl<'c> Iterator for UrlLines<'c> {
    type Item = UrlLine<'c>;

    #[inline]
    fn next(&mut self) -> Option<UrlLine<'c>> {
        let start = self.pos;
        if start >= self.chunk.len() {
            return None;
        }
        if start >= self.base && start < self.base + self.len {
            let at = start - self.base;
            let nl = bits_from(&self.masks[NL], at);
            if nl != 0 {
                // The line ends within 64 bytes: its classes are a word
                // each.
                let end = start + nl.trailing_zeros() as usize;
                let words =
                    std::array::from_fn(|c| bits_from(&self.masks[c], at));
                self.pos = end + 1;
                return Some(self.line(&Short { words }, start, end, true));
            }
        }
        let mut found = self.end_in_window(start);
        let floor = start & !(BLOCK - 1);
        if found.is_none() && (self.base != floor || self.len == 0) {
            self.fill(floor);
            found = self.end_in_window(start);
        }
        let Some((end, newline)) = found else {
            // A line longer than a window.
            return Some(self.long_line(start));
        };
        self.pos = end + usize::from(newline);
        let bits = InWindow { masks: &self.masks, at: start - self.base };
        Some(self.line(&bits, start, end, newline))
    }
}

impl<'c> UrlLines<'c> {
    /// A line that does not fit a window, answered by the scalar scans.
    #[cold]
    fn long_line(&mut self, start: usize) -> UrlLine<'c> {
        let rest = &self.chunk[start..];
        let (text, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => {
                let text = &rest[..i];
                (text.strip_suffix(b"\r").unwrap_or(text), start + i + 1)
            }
            None => (rest, self.chunk.len()),
        };
        self.pos = next;
        let (path, flags) = scan_path(text);
        let plain = text.iter().all(|&b| is_plain(b));
        UrlLine { text, path, flags, short: None, plain, block: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::for_each_line;

    /// Every line of `chunk` as `for_each_line` and `scan_path` see it.
    fn expected(chunk: &[u8]) -> Vec<UrlLine<'_>> {
        let mut lines = vec![];
        for_each_line(chunk, |text| {
            let (path, flags) = scan_path(text);
            let plain = text.iter().all(|&b| is_plain(b));
            lines.push(UrlLine {
                text,
                path,
                flags,
                short: None,
                plain,
                block: None,
            });
            Ok::<(), ()>(())
        })
        .unwrap();
        lines
    }

    fn check(chunk: &[u8]) {
        let got: Vec<UrlLine<'_>> = UrlLines::new(chunk).collect();
        let want = expected(chunk);
        assert_eq!(
            got.len(),
            want.len(),
            "{:?}",
            String::from_utf8_lossy(chunk)
        );
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                UrlLine { short: None, block: None, ..*g },
                *w,
                "line {i} of {:?}",
                String::from_utf8_lossy(chunk)
            );
            if let Some(block) = g.block {
                assert_eq!(block.text(), g.text, "line {i}");
                assert_eq!(block.block().as_ptr(), g.text.as_ptr());
            }
            if let Some(short) = g.short {
                let rest = g.path.rest;
                assert_eq!(Some(short.block), g.block.map(|b| b.block()));
                assert_eq!(&short.block[short.at..][..rest.len()], rest);
                let specials = short.specials;
                let want = rest.iter().enumerate().fold(0u64, |m, (i, &b)| {
                    let special =
                        crate::url::path::RFC9309_SPECIAL[usize::from(b)];
                    m | u64::from(special) << i
                });
                assert_eq!(specials, want, "line {i}: {:?}", g.text);
            }
        }
    }

    /// A xorshift generator: deterministic, no dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn small_cases() {
        for chunk in [
            &b""[..],
            b"\n",
            b"\r\n",
            b"\r",
            b"a\r",
            b"https://a.com\n",
            b"https://a.com#x/y\n",
            b"https://a.com/p#x\r\nhttp://b?q",
            b"//a.com/x\n/x\n?x\nx\n;\n#\n",
            b"https://\nhttp://\nhttps:/\nftp://a/b%2A*\n",
            b"https://a.com/\xff$*%\n\"a,b\"\\\n\x00\t\n",
            b"mailto:x/y\nexample.com?q\n//\n///\n",
        ] {
            check(chunk);
        }
    }

    /// Random lines of URL-ish pieces, of every length up to past a
    /// window, so that lines start and end at every offset of a word and
    /// windows are cut everywhere.
    #[test]
    fn random_chunks_agree_with_the_scalar_scans() {
        const PIECES: &[&[u8]] = &[
            b"https://",
            b"http://",
            b"//",
            b"/",
            b"?",
            b";",
            b"#",
            b"%",
            b"%2a",
            b"*",
            b"$",
            b"\r",
            b"\r\n",
            b"\n",
            b",",
            b"\"",
            b"\\",
            b"\xc3\xa9",
            b"\x00",
            b"\t",
            b"a",
            b"example.com",
            b":",
            b"/gp/product/",
            b"ftp://",
            b"x",
        ];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..300 {
            let mut chunk = vec![];
            let lines = 1 + rng.below(200);
            for _ in 0..lines {
                let long = rng.below(50) == 0;
                let pieces =
                    if long { 400 + rng.below(800) } else { rng.below(12) };
                for _ in 0..pieces {
                    chunk.extend_from_slice(PIECES[rng.below(PIECES.len())]);
                }
                if rng.below(20) != 0 {
                    chunk.push(b'\n');
                }
            }
            check(&chunk);
            // Every start offset, against the same scans.
            for cut in [1, 7, BLOCK - 1, BLOCK, BLOCK + 1] {
                if chunk.len() > cut {
                    check(&chunk[cut..]);
                    check(&chunk[..chunk.len() - cut]);
                }
            }
        }
    }
}
