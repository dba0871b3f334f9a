//! A sitemap index followed offline: the children a `sitemapindex` lists
//! are read from local files, found in a directory by their URL's path or
//! file name, and their entries take the place of the index's.

use std::collections::HashSet;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::entry::{Entry, EntryKind, Problem, SitemapOptions};
use super::reader::Sitemap;

/// How many indexes deep children are followed (the protocol allows
/// one: an index lists sitemaps, not indexes).
const MAX_NESTING: usize = 4;

/// A root sitemap and, with a directory, the children of its index.
pub struct SitemapSet<'r> {
    /// The sitemaps being read, the root first.
    stack: Vec<Sitemap<'r>>,
    dir: Option<PathBuf>,
    options: SitemapOptions,
    seen: HashSet<PathBuf>,
    missing: Vec<String>,
}

impl std::fmt::Debug for SitemapSet<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SitemapSet")
            .field("dir", &self.dir)
            .field("missing", &self.missing)
            .finish_non_exhaustive()
    }
}

impl<'r> SitemapSet<'r> {
    /// The entries of `root`; with `dir`, an index's children are read
    /// from the files of `dir` (see [`SitemapSet::next_entry`]).
    pub fn new(
        root: Sitemap<'r>,
        dir: Option<&Path>,
        options: &SitemapOptions,
    ) -> SitemapSet<'r> {
        SitemapSet {
            stack: vec![root],
            dir: dir.map(Path::to_path_buf),
            options: options.clone(),
            seen: HashSet::new(),
            missing: vec![],
        }
    }

    /// The next entry. With a directory, a `<sitemap>` entry is replaced
    /// by the entries of its file: `DIR/<its URL's path>`, else
    /// `DIR/<its file name>`. A child not found there is an entry with
    /// [`Problem::MissingChild`] (and is listed in
    /// [`SitemapSet::missing`]); one read already, or nested too deep, an
    /// entry with [`Problem::ChildSkipped`]. A child that cannot be read
    /// (malformed XML, an HTML page) is an error, as the root's would be.
    pub fn next_entry(&mut self) -> io::Result<Option<Entry>> {
        loop {
            let Some(top) = self.stack.last_mut() else { return Ok(None) };
            let Some(mut entry) = top.next_entry()? else {
                self.stack.pop();
                continue;
            };
            let Some(dir) = self.dir.as_deref() else {
                return Ok(Some(entry));
            };
            if entry.kind != EntryKind::Sitemap || entry.problem.is_some() {
                return Ok(Some(entry));
            }
            let candidates = candidates(dir, &entry.url);
            let Some(path) = candidates.iter().find(|p| p.is_file()) else {
                let looked: Vec<String> = candidates
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect();
                self.missing.push(format!(
                    "{} (listed at {}:{}; looked for {})",
                    entry.url,
                    entry.file,
                    entry.line,
                    looked.join(" and ")
                ));
                entry.problem = Some(Problem::MissingChild);
                return Ok(Some(entry));
            };
            let key = path.canonicalize().unwrap_or_else(|_| path.clone());
            if self.stack.len() > MAX_NESTING || !self.seen.insert(key) {
                entry.problem = Some(Problem::ChildSkipped);
                return Ok(Some(entry));
            }
            let name = path.display().to_string();
            let file = std::fs::File::open(path).map_err(|e| {
                io::Error::new(e.kind(), format!("{name}: {e}"))
            })?;
            let child = Sitemap::open(file, &name, &self.options)?;
            self.stack.push(child);
        }
    }

    /// The children not found in the directory so far, each with where
    /// it was listed and the files looked for.
    pub fn missing(&self) -> &[String] {
        &self.missing
    }
}

/// The files a child sitemap at `url` may be in `dir`: by its URL's path,
/// then by its file name (only plain path segments: a `..` never leads
/// out of `dir`).
fn candidates(dir: &Path, url: &str) -> Vec<PathBuf> {
    let after = url.find("://").map_or(url, |i| &url[i + 3..]);
    let path = after.find('/').map_or("", |i| &after[i..]);
    let path = path.split(['?', '#']).next().unwrap_or("");
    let segments: Vec<&str> = path
        .split('/')
        .filter(|s| !s.is_empty())
        .filter(|s| {
            matches!(
                Path::new(s).components().next(),
                Some(Component::Normal(_))
            ) && Path::new(s).components().count() == 1
        })
        .collect();
    let mut out = vec![];
    if !segments.is_empty() {
        out.push(segments.iter().fold(dir.to_path_buf(), |p, s| p.join(s)));
    }
    if let Some(last) = segments.last() {
        let by_name = dir.join(last);
        if !out.contains(&by_name) {
            out.push(by_name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::candidates;
    use std::path::{Path, PathBuf};

    #[test]
    fn children_by_path_then_name() {
        let dir = Path::new("d");
        assert_eq!(
            candidates(dir, "https://a.com/maps/s1.xml.gz?x=1"),
            vec![
                PathBuf::from("d/maps/s1.xml.gz"),
                PathBuf::from("d/s1.xml.gz")
            ]
        );
        assert_eq!(
            candidates(dir, "https://a.com/s1.xml"),
            vec![PathBuf::from("d/s1.xml")]
        );
        assert_eq!(
            candidates(dir, "https://a.com/../../etc/passwd"),
            vec![PathBuf::from("d/etc/passwd"), PathBuf::from("d/passwd")]
        );
        assert!(candidates(dir, "https://a.com/").is_empty());
    }
}
