//! What the suites that drive a real kubectl against an in-process `kubesim serve` share.

use kubesim::serve::Server;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a frozen clock is moved while a command waits: after `patience` of wall time, one
/// virtual second every `tick`, at most `max_seconds` of them; then the command is killed.
#[derive(Clone, Copy)]
pub struct Pace {
    pub patience: Duration,
    pub tick: Duration,
    pub max_seconds: u32,
}

/// What a kubectl printed (stdout and stderr on one pipe, interleaved as a terminal shows
/// them), its exit code (-1 when killed), and whether it was stopped.
#[allow(dead_code)] // each suite reads the fields it needs
pub struct Run {
    pub code: i32,
    pub out: String,
    pub stopped: bool,
}

/// Runs `kubectl ARGS` with the kubeconfig, home and cache in `dir`.
pub fn run_kubectl(server: &Server, kubectl: &str, dir: &Path, args: &[&str], stdin: Option<&str>, pace: Pace) -> Run {
    let (mut reader, writer) = std::io::pipe().expect("pipe");
    let mut c = Command::new(kubectl);
    // the files a scenario's shell lines wrote (`cat <<EOF > kustomization.yaml`), where
    // relative paths start, as the console's `/home/learner`
    if dir.join("work").is_dir() {
        c.current_dir(dir.join("work"));
    }
    c.env("KUBECONFIG", dir.join("kubeconfig"))
        .env("HOME", dir)
        .env("KUBECACHEDIR", dir.join("cache"))
        .env("KUBECTL_KUBERC", "false")
        .args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(writer.try_clone().expect("pipe"))
        .stderr(writer);
    let mut child = c.spawn().expect("running kubectl");
    drop(c);
    if let Some(text) = stdin {
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    }
    let collector = std::thread::spawn(move || {
        let mut out = String::new();
        let _ = reader.read_to_string(&mut out);
        out
    });
    let started = Instant::now();
    let (mut advanced, mut stopped) = (0, false);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        std::thread::sleep(pace.tick);
        if started.elapsed() > pace.patience {
            if advanced >= pace.max_seconds {
                let _ = child.kill();
                let _ = child.wait();
                stopped = true;
                break None;
            }
            server.advance(1000);
            advanced += 1;
        }
    };
    let out = collector.join().unwrap();
    Run { code: status.and_then(|s| s.code()).unwrap_or(-1), out, stopped }
}
