//! The low-level tricks, behind one wall: byte tests many bytes at once
//! (`swar`: in a word, and robots.txt line marks in a vector register),
//! the byte classes of URL lines in vector registers (`byteclass`), and
//! asking for memory before it is read (`prefetch`). The rest of the crate
//! calls these safe functions; the vector intrinsics and their `unsafe`
//! blocks live here.

pub(crate) mod byteclass;
pub(crate) mod prefetch;
pub(crate) mod swar;
