//! A harness for driving the `robots-batch` binary, in the style of
//! ripgrep's `tests/util.rs`: a fresh directory per test ([`Dir`]) and a
//! command builder ([`TestCommand`]) whose assertions dump the whole
//! context (command, directory, status, stdout, stderr) when they fail.

use std::env;
use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{self, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

static TEST_DIR: &str = "robots-batch-tests";
static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

/// Sets up a test: a fresh directory named after it, holding the example
/// robots.txt as `robots.txt`, and a command that runs in it.
pub fn setup(test_name: &str) -> (Dir, TestCommand) {
    let dir = Dir::new(test_name);
    dir.create("robots.txt", EXAMPLE_ROBOTS);
    let cmd = dir.command();
    (dir, cmd)
}

/// `datasets/example/robots.txt`.
pub const EXAMPLE_ROBOTS: &str =
    include_str!("../datasets/example/robots.txt");

/// `datasets/example/urls.txt`.
pub const EXAMPLE_URLS: &str = include_str!("../datasets/example/urls.txt");

/// A directory of its own for one test, under `target/`, emptied when it is
/// made. It is left behind after the test, for inspection.
#[derive(Clone, Debug)]
pub struct Dir {
    dir: PathBuf,
}

impl Dir {
    /// A new, empty directory, unique to this process and call.
    pub fn new(name: &str) -> Dir {
        let id = NEXT_ID.fetch_add(1, Ordering::SeqCst);
        let root = env::current_exe()
            .unwrap()
            .parent()
            .expect("executable's directory")
            .parent()
            .expect("target profile directory")
            .join(TEST_DIR)
            .join(format!("{}", process::id()));
        let dir = root.join(format!("{name}-{id}"));
        if dir.exists() {
            fs::remove_dir_all(&dir).unwrap();
        }
        fs::create_dir_all(&dir).unwrap();
        Dir { dir }
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Writes `contents` to the file `name` in the directory.
    pub fn create<P: AsRef<Path>, C: AsRef<[u8]>>(
        &self,
        name: P,
        contents: C,
    ) {
        let path = self.dir.join(name);
        fs::write(&path, contents).unwrap_or_else(|err| {
            panic!("could not write {}: {err}", path.display())
        });
    }

    /// Makes the directory `name` (and its parents) in the directory.
    pub fn create_dir<P: AsRef<Path>>(&self, name: P) {
        fs::create_dir_all(self.dir.join(name)).unwrap();
    }

    /// A command running the binary in this directory.
    pub fn command(&self) -> TestCommand {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_robots-batch"));
        cmd.current_dir(&self.dir);
        // Debug logs would go to stderr, which the tests read.
        cmd.env_remove("RUST_LOG");
        TestCommand { dir: self.clone(), cmd, stdin: None }
    }
}

/// A command to run, with what to feed its standard input.
#[derive(Debug)]
pub struct TestCommand {
    dir: Dir,
    cmd: Command,
    stdin: Option<Vec<u8>>,
}

impl TestCommand {
    /// The underlying command.
    pub fn cmd(&mut self) -> &mut Command {
        &mut self.cmd
    }

    /// Adds an argument.
    pub fn arg<A: AsRef<OsStr>>(&mut self, arg: A) -> &mut TestCommand {
        self.cmd.arg(arg);
        self
    }

    /// Adds arguments.
    pub fn args<I, A>(&mut self, args: I) -> &mut TestCommand
    where
        I: IntoIterator<Item = A>,
        A: AsRef<OsStr>,
    {
        self.cmd.args(args);
        self
    }

    /// Feeds `input` to standard input (otherwise it is empty).
    pub fn stdin<B: AsRef<[u8]>>(&mut self, input: B) -> &mut TestCommand {
        self.stdin = Some(input.as_ref().to_vec());
        self
    }

    /// Runs the command and returns its output, whatever its status.
    pub fn output(&mut self) -> process::Output {
        self.cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = self.cmd.spawn().unwrap_or_else(|err| {
            panic!("could not run {:?}: {err}", self.cmd)
        });
        let mut stdin = child.stdin.take().unwrap();
        let input = self.stdin.clone().unwrap_or_default();
        // Written from a thread, so that a large input cannot deadlock
        // against a full stdout pipe.
        let writer = thread::spawn(move || {
            // The command may stop reading early; that is its business.
            let _ = stdin.write_all(&input);
        });
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        out
    }

    /// Runs the command, asserts that it succeeded with nothing on standard
    /// error, and returns standard output as a string.
    pub fn stdout(&mut self) -> String {
        String::from_utf8(self.stdout_bytes()).unwrap_or_else(|err| {
            panic!("stdout is not UTF-8 ({err}); use stdout_bytes")
        })
    }

    /// Runs the command, asserts that it succeeded with nothing on standard
    /// error, and returns standard output.
    pub fn stdout_bytes(&mut self) -> Vec<u8> {
        let out = self.output();
        if !out.status.success() || !out.stderr.is_empty() {
            self.fail("command failed or wrote to stderr", &out);
        }
        out.stdout
    }

    /// Runs the command, asserts that it exited with `code`, and returns
    /// its output.
    pub fn assert_exit_code(&mut self, code: i32) -> process::Output {
        let out = self.output();
        if out.status.code() != Some(code) {
            self.fail(&format!("expected exit code {code}"), &out);
        }
        out
    }

    /// Runs the command, asserts that it failed with exit code 2 and a
    /// single `robots-batch: ` line on standard error and nothing on
    /// standard output, and returns that line.
    pub fn assert_error(&mut self) -> String {
        let out = self.assert_exit_code(2);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let one_line = stderr.ends_with('\n') && stderr.lines().count() == 1;
        if !one_line || !stderr.starts_with("robots-batch: ") {
            self.fail("expected one `robots-batch: ` line on stderr", &out);
        }
        if !out.stdout.is_empty() {
            self.fail("expected nothing on stdout", &out);
        }
        stderr.trim_end().to_string()
    }

    /// Panics with the whole context of a run.
    pub fn fail(&self, what: &str, out: &process::Output) -> ! {
        panic!(
            "\n\n==========\n{what}\n\ncommand: {:?}\ncwd: {}\nstatus: {}\
             \n\nstdout:\n{}\n\nstderr:\n{}\n==========\n",
            self.cmd,
            self.dir.path().display(),
            out.status,
            show(&out.stdout),
            show(&out.stderr),
        )
    }
}

/// Bytes for a failure message: text as it is, cut when long.
pub fn show(bytes: &[u8]) -> String {
    const MAX: usize = 4000;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX)]);
    if bytes.len() > MAX {
        format!("{text}\n... ({} bytes in all)", bytes.len())
    } else {
        text.into_owned()
    }
}

/// The lines of `input` as the output contract defines them: split at
/// `\n`, a `\r` before the `\n` dropped, no line after a final `\n`.
pub fn lines(input: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    let last = lines.pop().filter(|last| !last.is_empty());
    lines
        .into_iter()
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .chain(last)
        .collect()
}

/// Says on the terminal that a test skipped part of its work, and why.
///
/// libtest captures `eprintln!` and shows it only for failing tests, so a
/// skip said that way is invisible; writing to the standard error stream
/// itself bypasses the capture, and `cargo test` shows the line.
pub fn skip(test: &str, why: &str) {
    use std::io::Write;
    let line = format!("SKIPPED {test}: {why}\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}
