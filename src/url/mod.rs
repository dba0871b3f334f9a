//! From a URL line to the path a dialect matches: where each line of a
//! chunk ends and where its path is, found a window at a time
//! ([`lines`]); the fixed-size block that a short line travels in
//! ([`block`]); and the path of a URL and its normalisers ([`path`]).

pub(crate) mod block;
pub(crate) mod lines;
pub(crate) mod path;
