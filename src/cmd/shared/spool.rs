//! A compressed or piped Parquet input copied, decompressed, to a
//! temporary file: Parquet is read from its end (its footer says where its
//! rows are), which a stream cannot give.

use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// A temporary file, removed when dropped (on Unix at once, its open
/// handle keeping its bytes until then).
pub(crate) struct Spooled {
    pub file: File,
    path: Option<PathBuf>,
}

impl Drop for Spooled {
    fn drop(&mut self) {
        if let Some(ref path) = self.path {
            let _ = fs::remove_file(path);
        }
    }
}

/// Copies `rdr` into a new file in the temporary directory ($TMPDIR),
/// rewound to its start: it takes as many bytes of disk as `rdr` gives,
/// and no more memory than a copy's buffer.
pub(crate) fn spool(rdr: &mut dyn Read) -> io::Result<Spooled> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir();
    let name = format!(
        "robots-batch-{}-{}.parquet",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let path = dir.join(name);
    let file =
        File::options().read(true).write(true).create_new(true).open(&path)?;
    let mut spooled = Spooled { file, path: Some(path) };
    // On Unix the name can go now: nothing is left behind, even if the
    // process is killed.
    if cfg!(unix) {
        if let Some(path) = spooled.path.take() {
            fs::remove_file(path)?;
        }
    }
    io::copy(rdr, &mut spooled.file)?;
    spooled.file.seek(SeekFrom::Start(0))?;
    Ok(spooled)
}
