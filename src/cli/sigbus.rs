//! What happens when a memory-mapped URL file shrinks under us.
//!
//! Reading a page of a mapped file that another process has truncated
//! raises `SIGBUS`, whose default action kills the process with no word
//! of why. robots-batch maps regular files (the fastest way to read them),
//! so it turns that signal into the same kind of error as any other I/O
//! failure: one line on standard error naming the file, and exit code 2.
//! The output written so far is a prefix of the full output, cut short
//! (maybe in the middle of a row, as the signal may come while another
//! thread writes); the exit code says it is incomplete. (A file that is rewritten in
//! place without shrinking cannot be detected this way: its verdicts may
//! mix old and new lines, as with any tool that reads a file while it
//! changes.)

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// The message the handler writes, prepared before any page is read:
/// a signal handler may not allocate.
static MESSAGE: OnceLock<Vec<u8>> = OnceLock::new();

/// Set by the first thread to take the signal: several threads may touch
/// lost pages at once, and only one should speak.
static EXITING: AtomicBool = AtomicBool::new(false);

/// From now on, a `SIGBUS` ends the process with exit code 2 and a line
/// saying that `name` shrank while it was being read.
pub fn exit_on_sigbus(name: &str) {
    let message = format!(
        "robots-batch: failed to read {name}: the file shrank while it was \
         being read (SIGBUS on its memory map); the output is cut short\n"
    );
    if MESSAGE.set(message.into_bytes()).is_err() {
        return;
    }
    #[cfg(unix)]
    install();
}

#[cfg(unix)]
fn install() {
    extern "C" fn on_sigbus(_: libc::c_int) {
        // Only async-signal-safe calls here: atomics, write, pause, _exit.
        if EXITING.swap(true, Ordering::SeqCst) {
            // Another thread is writing the message and exiting; returning
            // would only fault again.
            loop {
                // SAFETY: pause is async-signal-safe.
                unsafe { libc::pause() };
            }
        }
        if let Some(message) = MESSAGE.get() {
            // SAFETY: the pointer and length are those of a live, never
            // freed buffer (a static's contents).
            unsafe {
                libc::write(2, message.as_ptr().cast(), message.len());
            }
        }
        // SAFETY: _exit is async-signal-safe and never returns.
        unsafe { libc::_exit(2) }
    }
    // SAFETY: a zeroed sigaction is a valid "no flags, empty mask" value,
    // and the handler above only makes async-signal-safe calls.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as usize;
        libc::sigemptyset(&mut action.sa_mask);
        if libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) != 0 {
            log::debug!("could not install a SIGBUS handler");
        }
    }
}
