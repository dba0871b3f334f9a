//! Where a sitemap run's input comes from: its name, the directory of an
//! index's children and the reader's options; and what the run did not
//! find there.

use std::path::PathBuf;
use std::sync::Mutex;

use super::entry::SitemapOptions;

/// Where a sitemap run's input comes from and how it is read.
#[derive(Debug, Default)]
pub struct SitemapSource {
    /// The input's name in the `file` field.
    pub name: String,
    /// `--sitemap-dir`: where an index's children are looked for.
    pub dir: Option<PathBuf>,
    /// The origin and limits of the reader.
    pub options: SitemapOptions,
    /// The children not found, as the run met them.
    missing: Mutex<Vec<String>>,
}

impl SitemapSource {
    /// A source named `name`, its index's children looked for in `dir`.
    pub fn new(
        name: &str,
        dir: Option<PathBuf>,
        options: SitemapOptions,
    ) -> SitemapSource {
        SitemapSource {
            name: name.to_string(),
            dir,
            options,
            ..Default::default()
        }
    }

    /// The children of an index not found in the directory, each with
    /// where it was listed and the files looked for.
    pub fn missing(&self) -> Vec<String> {
        self.missing.lock().map(|m| m.clone()).unwrap_or_default()
    }

    /// Where a run puts the children it did not find.
    pub(crate) fn missing_cell(&self) -> &Mutex<Vec<String>> {
        &self.missing
    }
}
