//! The console's shell: the few commands a tutorial types beside kubectl on the learner's machine.
//!
//! No upstream counterpart — this is bash and coreutils on the machine kubectl runs on, as far as
//! kubesim's tutorials need them: `cat` (with `> FILE`/`>> FILE` and a heredoc, the way
//! tutorials write a `kustomization.yaml`), `ls`, `mkdir -p`, `rm [-r]`, `pwd`, `curl` (to the
//! loopback ports `kubectl port-forward` and `kubectl proxy` listen on, or out to the cluster as
//! `sim curl` does), `jobs` and `kill %N`. Files live in [`crate::client::workstation`]. What
//! kubesim simplifies: no pipes, variables or globs; messages are GNU coreutils' and bash's.

use crate::client::workstation::{Target, HOME};
use crate::cluster::{Cluster, HttpReply, HttpResult};

/// The commands this shell runs (a script line starting with one of them is the shell's).
pub const COMMANDS: &[&str] = &["cat", "ls", "mkdir", "rm", "pwd", "curl", "jobs", "kill"];

/// What a command printed and its exit status.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
    /// Both, in the order they were written, where a command interleaves them (curl's `-v`
    /// lines before each body); empty when stdout then stderr is the order.
    pub all: String,
}

impl Run {
    fn err(prog: &str, msg: &str, code: i32) -> Run {
        Run { stderr: format!("{}: {}\n", prog, msg), code, ..Default::default() }
    }

    /// What the terminal shows.
    pub fn display(&self) -> String {
        if self.all.is_empty() {
            format!("{}{}", self.stdout, self.stderr)
        } else {
            self.all.clone()
        }
    }
}

/// Runs one shell command (`args[0]` is the program); `stdin` is a heredoc's body.
pub fn exec(c: &mut Cluster, args: &[String], stdin: Option<&str>) -> Run {
    // `> FILE` / `>> FILE` (or `>FILE`): standard output goes to a file
    let mut words: Vec<String> = Vec::new();
    let mut redirect: Option<(String, bool)> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (append, rest) = match (a.strip_prefix(">>"), a.strip_prefix('>')) {
            (Some(r), _) => (true, r),
            (None, Some(r)) => (false, r),
            (None, None) => {
                words.push(a.clone());
                continue;
            }
        };
        let target = if rest.is_empty() {
            match it.next() {
                Some(t) => t.clone(),
                None => return Run::err("bash", "syntax error near unexpected token `newline'", 2),
            }
        } else {
            rest.to_string()
        };
        redirect = Some((target, append));
    }
    let Some(prog) = words.first().cloned() else { return Run::default() };
    let rest = &words[1..];
    let mut run = match prog.as_str() {
        "cat" => cat(c, rest, stdin),
        "ls" => ls(c, rest),
        "mkdir" => mkdir(c, rest),
        "rm" => rm(c, rest),
        "pwd" => Run { stdout: format!("{}\n", HOME), ..Default::default() },
        "curl" => curl(c, &words),
        "jobs" => jobs(c),
        "kill" => kill(c, rest),
        other => Run::err("bash", &format!("{}: command not found", other), 127),
    };
    if let Some((path, append)) = redirect {
        let text = if append { format!("{}{}", c.workstation().read(&path).unwrap_or(""), run.stdout) } else { std::mem::take(&mut run.stdout) };
        run.stdout.clear();
        run.all.clear();
        if let Err(e) = c.workstation_mut().write(&path, &text) {
            return Run::err("bash", &e, 1);
        }
    }
    run
}

fn cat(c: &Cluster, files: &[String], stdin: Option<&str>) -> Run {
    if files.is_empty() || files == ["-"] {
        return Run { stdout: stdin.unwrap_or("").to_string(), ..Default::default() };
    }
    let mut run = Run::default();
    for f in files {
        match c.workstation().read(f) {
            Some(t) => run.stdout.push_str(t),
            None if c.workstation().is_dir(f) => {
                run.stderr.push_str(&format!("cat: {}: Is a directory\n", f));
                run.code = 1;
            }
            None => {
                run.stderr.push_str(&format!("cat: {}: No such file or directory\n", f));
                run.code = 1;
            }
        }
    }
    run
}

fn ls(c: &Cluster, args: &[String]) -> Run {
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let one = args.iter().any(|a| a.starts_with('-') && a.contains('1'));
    let paths: Vec<String> = if paths.is_empty() { vec![".".to_string()] } else { paths.into_iter().cloned().collect() };
    let mut run = Run::default();
    let many = paths.len() > 1;
    for (n, p) in paths.iter().enumerate() {
        match c.workstation().list(p) {
            Some(entries) => {
                if many {
                    run.stdout.push_str(&format!("{}{}:\n", if n > 0 { "\n" } else { "" }, p));
                }
                let names: Vec<String> = entries.into_iter().map(|(name, _)| name).collect();
                if !names.is_empty() {
                    run.stdout.push_str(&names.join(if one { "\n" } else { "  " }));
                    run.stdout.push('\n');
                }
            }
            None if c.workstation().read(p).is_some() => run.stdout.push_str(&format!("{}\n", p)),
            None => {
                run.stderr.push_str(&format!("ls: cannot access '{}': No such file or directory\n", p));
                run.code = 2;
            }
        }
    }
    run
}

fn mkdir(c: &mut Cluster, args: &[String]) -> Run {
    let parents = args.iter().any(|a| a == "-p");
    let dirs: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if dirs.is_empty() {
        return Run::err("mkdir", "missing operand\nTry 'mkdir --help' for more information.", 1);
    }
    let mut run = Run::default();
    for d in dirs {
        if c.workstation().is_dir(d) && !parents {
            run.stderr.push_str(&format!("mkdir: cannot create directory '{}': File exists\n", d));
            run.code = 1;
            continue;
        }
        // without -p the parent must exist
        let clean = crate::client::workstation::clean(d);
        let parent = clean.rsplit_once('/').map(|(p, _)| p).filter(|p| !p.is_empty()).unwrap_or("/");
        if !parents && !c.workstation().is_dir(parent) {
            run.stderr.push_str(&format!("mkdir: cannot create directory '{}': No such file or directory\n", d));
            run.code = 1;
            continue;
        }
        if let Err(e) = c.workstation_mut().mkdir(d) {
            run.stderr.push_str(&format!("mkdir: {}\n", e));
            run.code = 1;
        }
    }
    run
}

fn rm(c: &mut Cluster, args: &[String]) -> Run {
    let recursive = args.iter().any(|a| a.starts_with('-') && (a.contains('r') || a.contains('R')));
    let force = args.iter().any(|a| a.starts_with('-') && a.contains('f'));
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if paths.is_empty() && !force {
        return Run::err("rm", "missing operand\nTry 'rm --help' for more information.", 1);
    }
    let mut run = Run::default();
    for p in paths {
        if let Err(e) = c.workstation_mut().remove(p, recursive) {
            if force && e.ends_with("No such file or directory") {
                continue;
            }
            run.stderr.push_str(&format!("rm: {}\n", e));
            run.code = 1;
        }
    }
    run
}

fn jobs(c: &Cluster) -> Run {
    let list = c.workstation().jobs();
    // bash's current job (`+`) and previous one (`-`)
    let (current, previous) = (list.last().map(|j| j.number), list.iter().rev().nth(1).map(|j| j.number));
    let stdout = list
        .iter()
        .map(|j| {
            let mark = if Some(j.number) == current { '+' } else if Some(j.number) == previous { '-' } else { ' ' };
            format!("[{}]{}  Running                 {} &\n", j.number, mark, j.command)
        })
        .collect();
    Run { stdout, ..Default::default() }
}

fn kill(c: &mut Cluster, args: &[String]) -> Run {
    let Some(spec) = args.iter().find(|a| !a.starts_with('-') || a.starts_with("-%")) else {
        return Run::err("bash: kill", "usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]", 2);
    };
    let n = match spec.as_str() {
        "%%" | "%+" | "%" => c.workstation().current_job(),
        s => s.strip_prefix('%').and_then(|n| n.parse().ok()),
    };
    let Some(n) = n else {
        if spec.starts_with('%') {
            return Run::err("bash: kill", &format!("{}: no such job", spec), 1);
        }
        return Run::err("bash: kill", &format!("({}) - No such process (the console's processes are its jobs: kill %N)", spec), 1);
    };
    match c.workstation_mut().kill(n) {
        // bash reports the job's end at the next prompt
        Some(j) => Run { stdout: format!("[{}]+  Terminated              {}\n", j.number, j.command), ..Default::default() },
        None => Run::err("bash: kill", &format!("%{}: no such job", n), 1),
    }
}

/// curl on the learner's machine: `localhost`/`127.0.0.1` ports are the console's listeners
/// (`kubectl port-forward`, `kubectl proxy`); anything else goes out as `sim curl` does.
pub(crate) fn curl(c: &mut Cluster, words: &[String]) -> Run {
    let fetch = match crate::runtime::nettools::parse(words) {
        Ok(f) => f,
        Err(run) => return Run { stdout: run.stdout, stderr: run.stderr, code: run.code as i32, ..Default::default() },
    };
    let method = if fetch.head { "HEAD" } else { "GET" };
    let mut run = Run::default();
    for url in &fetch.urls {
        let (target, host) = match fetch.resolved(url) {
            Some((u, h)) => (u, Some(h)),
            None => (url.clone(), None),
        };
        let reply = match loopback(&target) {
            Some((port, path)) => match c.workstation().listener(port).cloned() {
                Some(job) => {
                    let reply = match &job.target {
                        Target::PortForward { namespace, pod, forwards } => {
                            // the port-forward process prints this on the terminal it shares
                            run.all.push_str(&format!("Handling connection for {}\n", port));
                            let remote = forwards.iter().find(|(l, _)| *l == port).map(|(_, r)| *r).unwrap_or(port);
                            c.port_forward_request(port, namespace, pod, remote, method, &path, fetch.options(host.as_deref()))
                        }
                        Target::Proxy => c.kubectl_proxy_request(port, method, &path),
                    };
                    reply
                }
                None => HttpReply { result: HttpResult::Failed(format!("curl: (7) Failed to connect to {} port {} after 0 ms: Couldn't connect to server", loopback_host(&target), port)), peer: Some("127.0.0.1".into()), server: None, content_type: "text/html", location: None },
            },
            None => c.http_request_with(None, method, &target, fetch.options(host.as_deref())),
        };
        let date = crate::api::time::unix_http_date(crate::api::time::EPOCH_MS + c.now());
        let r = crate::runtime::nettools::render(&fetch, url, &reply, &date, false);
        run.stdout.push_str(&r.stdout);
        run.stderr.push_str(&r.stderr);
        run.all.push_str(&r.stderr);
        run.all.push_str(&r.stdout);
        run.code = r.code as i32;
        if r.code != 0 {
            break;
        }
    }
    run
}

/// A loopback URL's port and path (`http://localhost:8080/x` → (8080, "/x")).
fn loopback(url: &str) -> Option<(u16, String)> {
    let (host, port, path) = crate::cluster::parse_url(url).ok()?;
    let h = host.trim_start_matches('[').trim_end_matches(']');
    matches!(h, "localhost" | "127.0.0.1" | "::1").then_some(())?;
    Some((u16::try_from(port).ok()?, path))
}

fn loopback_host(url: &str) -> String {
    crate::cluster::parse_url(url).map(|(h, _, _)| h).unwrap_or_else(|_| "localhost".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(c: &mut Cluster, line: &str, stdin: Option<&str>) -> Run {
        let args = crate::kubectl::split_args(line).unwrap();
        exec(c, &args, stdin)
    }

    #[test]
    fn files_are_written_listed_read_and_removed_as_coreutils_does() {
        let mut c = Cluster::bare(1, crate::cluster::ClusterConfig::default());
        assert_eq!(sh(&mut c, "cat > base/k.yaml", Some("a\n")).stderr, "bash: base/k.yaml: No such file or directory\n");
        assert_eq!(sh(&mut c, "mkdir -p base overlays/dev", None).code, 0);
        assert_eq!(sh(&mut c, "cat > base/k.yaml", Some("a\n")).code, 0);
        assert_eq!(sh(&mut c, "cat >> base/k.yaml", Some("b\n")).code, 0);
        assert_eq!(sh(&mut c, "cat base/k.yaml", None).stdout, "a\nb\n");
        assert_eq!(sh(&mut c, "ls", None).stdout, "base  overlays\n");
        assert_eq!(sh(&mut c, "ls overlays", None).stdout, "dev\n");
        assert_eq!(sh(&mut c, "cat nope", None).stderr, "cat: nope: No such file or directory\n");
        assert_eq!(sh(&mut c, "rm base", None).stderr, "rm: cannot remove 'base': Is a directory\n");
        assert_eq!(sh(&mut c, "rm -r base", None).code, 0);
        assert_eq!(sh(&mut c, "ls base", None).code, 2);
        assert_eq!(sh(&mut c, "nano x", None).stderr, "bash: nano: command not found\n");
        assert_eq!(sh(&mut c, "pwd", None).stdout, "/home/learner\n");
    }

    #[test]
    fn nothing_listens_on_a_loopback_port_without_a_job() {
        let mut c = Cluster::bare(1, crate::cluster::ClusterConfig::default());
        let r = sh(&mut c, "curl localhost:8080", None);
        assert_eq!(r.code, 7);
        assert_eq!(r.stderr.trim_end(), "curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server");
        assert_eq!(sh(&mut c, "kill %1", None).stderr, "bash: kill: %1: no such job\n");
    }
}
