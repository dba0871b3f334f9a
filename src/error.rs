//! The library's error type.

use std::fmt;

/// An error of the robots-batch library. Parsing a robots.txt never fails;
/// errors come from names that do not exist (an unknown dialect, engine or
/// classifier).
#[derive(Clone, Debug)]
pub struct Error {
    kind: ErrorKind,
}

/// What went wrong.
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The name is not one of [`Dialect::ALL`](crate::Dialect::ALL).
    UnknownDialect(String),
    /// The name is not one of [`EngineKind::ALL`](crate::EngineKind::ALL).
    UnknownEngine(String),
    /// The name is not one of
    /// [`Classifier::ALL`](crate::survey::classify::Classifier::ALL).
    UnknownClassifier(String),
}

impl Error {
    pub(crate) fn new(kind: ErrorKind) -> Error {
        Error { kind }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::UnknownDialect(ref name) => write!(
                f,
                "unknown dialect {name:?} (expected one of: rfc9309, google, \
                 draft1996, orig1994)"
            ),
            // The names are spelled out, as the dialects' are, so that this
            // module imports nothing; a test checks them against the engines.
            ErrorKind::UnknownEngine(ref name) => write!(
                f,
                "unknown engine {name:?} (expected one of: trie, dense, lazy, \
                 scan, naive; dfa is the old name of trie)"
            ),
            ErrorKind::UnknownClassifier(ref name) => write!(
                f,
                "unknown classifier {name:?} (expected one of: exact, \
                 cc-disallow-all, dpi)"
            ),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use crate::dialect::Dialect;
    use crate::engine::EngineKind;

    #[test]
    fn unknown_engine_lists_every_engine() {
        let err = "regex".parse::<EngineKind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown engine \"regex\" (expected one of: trie, dense, lazy, \
             scan, naive; dfa is the old name of trie)"
        );
        let names: Vec<&str> =
            EngineKind::ALL.iter().map(|engine| engine.name()).collect();
        let listed = format!("(expected one of: {};", names.join(", "));
        assert!(err.to_string().contains(&listed), "{err}");
        // The old name it gives is one the parser takes.
        assert_eq!("dfa".parse::<EngineKind>().unwrap(), EngineKind::Trie);
    }

    #[test]
    fn unknown_dialect_lists_every_dialect() {
        let err = "rfc".parse::<Dialect>().unwrap_err();
        let names: Vec<&str> =
            Dialect::ALL.iter().map(|dialect| dialect.name()).collect();
        let listed = format!("(expected one of: {})", names.join(", "));
        assert!(err.to_string().ends_with(&listed), "{err}");
    }
}
