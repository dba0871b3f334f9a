//! Only the lines with one verdict, for pipelines (`--emit`).

use std::io;

use crate::batch::Render;
use crate::matcher::Verdict;

/// Renders only the lines whose verdict is the one wanted, each as read
/// and followed by `\n`: a line is allowed when every matcher allows it,
/// disallowed when any disallows it.
#[derive(Debug)]
pub struct EmitRender {
    allowed: bool,
    buf: Vec<u8>,
}

impl EmitRender {
    /// Emits the allowed lines when `allowed`, else the disallowed ones.
    pub fn new(allowed: bool) -> EmitRender {
        EmitRender { allowed, buf: vec![] }
    }
}

impl Render for EmitRender {
    #[inline]
    fn line(&mut self, url: &[u8], verdicts: &[Verdict]) -> io::Result<()> {
        let allowed = verdicts.iter().all(|v| v.is_allowed());
        if allowed == self.allowed {
            self.buf.extend_from_slice(url);
            self.buf.push(b'\n');
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        out.clear();
        std::mem::swap(out, &mut self.buf);
        Ok(())
    }
}
