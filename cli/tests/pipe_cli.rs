//! `clair` in a shell pipeline: a reader that stops early (`| head`) ends the command quietly.
mod common;

use common::PDFS;
use std::io::Read;
use std::process::{Command, Stdio};

#[test]
fn a_reader_that_stops_early_ends_clair_quietly_not_with_a_panic() {
    // The reader takes 4 KB and closes the pipe. Both outputs of this 10-K are far larger than a
    // pipe's buffer (64 KB on Linux): `tables --json` 510 KB, `extract` 403 KB, so clair is still
    // writing when the pipe closes, however fast it runs. (`tables` without `--json` is 54 KB:
    // it could all fit in the buffer before the reader closes it.)
    let pdf = format!("{PDFS}/MICROSOFT_2016_10K.pdf");
    let commands: [&[&str]; 2] = [&["tables", "--json"], &["extract"]];
    for cmd in commands {
        let mut child = Command::new(env!("CARGO_BIN_EXE_clair"))
            .args(cmd)
            .arg(&pdf)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("clair starts");
        let mut head = [0u8; 4096];
        child.stdout.take().expect("stdout").read_exact(&mut head).expect("some output first");
        // The read end is dropped here: clair's next write meets a closed pipe.
        let out = child.wait_with_output().expect("clair ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{cmd:?}: {stderr}");
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(out.status.signal(), Some(libc_sigpipe()), "{cmd:?}: {:?}", out.status);
        }
    }
}

/// SIGPIPE's number on the Unix systems CI runs on (Linux, macOS).
#[cfg(unix)]
fn libc_sigpipe() -> i32 {
    13
}
