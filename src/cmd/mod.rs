//! The commands, one module each. There is one so far: `check`, the
//! default, which prints a verdict for every URL. Future subcommands
//! (`explain`, `filter`) get a module here and an arm in `main`'s dispatch.

pub mod check;
