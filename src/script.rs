//! Scenario scripts: the language of `kubesim run`, the transcript tests and the page's console.
//!
//! No upstream counterpart: this is kubesim's sandbox. A script is a list of lines:
//! - `kubectl …` — a kubectl command ([`crate::kubectl`]); `kubectl apply -f - <<EOF` … `EOF` heredocs feed stdin;
//! - `sim settle` — run until nothing but background heartbeats is pending;
//! - `sim advance 30s` — move virtual time forward (`500ms`, `30s`, `5m`, `1h`);
//! - `sim node add NAME [--cpu 4] [--memory 8Gi] [--pods 110] [--zone Z] [--label k=v]… [--taint k=v:Effect]…`
//!   (`--zone` adds `topology.kubernetes.io/zone=Z` and the default cluster's region);
//! - `sim node fail NAME` / `sim node recover NAME`;
//! - `sim fault restart COMPONENT` — the component crashes and restarts (informers relist, work queue empty);
//! - `sim fault watch-drop COMPONENT` — its watch connections close; the reflectors resume from
//!   their last resourceVersion (or relist after `410 Gone` when it was compacted);
//! - `sim fault restart kube-apiserver` — every watch breaks; the new watch cache makes every
//!   informer relist;
//! - `sim fault api-error CODE [COMPONENT] [--resource R] [--verb V] [--count N]` — kube-apiserver
//!   answers the next matching requests with 409, 429 (Retry-After: 1), 500 or 504;
//! - `sim trace` — the trace messages recorded since the previous `sim trace`;
//! - `sim audit` — the audit events since the previous `sim audit`, as JSON lines;
//!   `sim audit policy` — the audit policy as YAML; `sim audit query 'QUERY'` (or the query as
//!   a heredoc) — a CloudWatch Logs Insights query over the audit log;
//! - `sim etcd get KEY [--rev N]` — the stored JSON value; `sim etcd keys [PREFIX]`;
//! - the console's shell commands on the learner's machine ([`crate::shell`]): `cat` (with
//!   `> FILE` and a heredoc), `ls`, `mkdir -p`, `rm`, `pwd`, `curl`, `jobs`, `kill %N`;
//! - `# comments` and blank lines.
//!
//! The transcript echoes each command as `$ command` followed by what it printed.

use crate::cluster::Cluster;
use crate::kubectl;
use crate::sandbox;

/// Bound on script length.
pub const MAX_SCRIPT_LINES: usize = 10_000;

/// One parsed command.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// The command line as written (without the heredoc body).
    pub line: String,
    /// 1-based line number in the script.
    pub line_no: usize,
    pub stdin: Option<String>,
}

/// Splits a script into commands, collecting heredoc bodies.
pub fn parse(script: &str) -> Result<Vec<Command>, String> {
    let lines: Vec<&str> = script.lines().collect();
    if lines.len() > MAX_SCRIPT_LINES {
        return Err(format!("script has {} lines, over kubesim's limit of {}", lines.len(), MAX_SCRIPT_LINES));
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let raw = lines[i];
        let line = raw.trim();
        i += 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line_no = i;
        if let Some(pos) = line.find("<<") {
            // the delimiter is the word after `<<`; what follows it stays on the command line
            // (`cat <<EOF > kustomization.yaml`)
            let after = line[pos + 2..].trim_start().trim_start_matches('-');
            let (word, tail) = after.split_once(char::is_whitespace).unwrap_or((after, ""));
            let marker = word.trim_matches(|c| c == '\'' || c == '"').to_string();
            if marker.is_empty() {
                return Err(format!("line {}: heredoc without a delimiter", line_no));
            }
            let mut body = String::new();
            let mut closed = false;
            while i < lines.len() {
                let l = lines[i];
                i += 1;
                if l.trim() == marker {
                    closed = true;
                    break;
                }
                body.push_str(l);
                body.push('\n');
            }
            if !closed {
                return Err(format!("line {}: heredoc is not closed (expected a line \"{}\")", line_no, marker));
            }
            let command = format!("{} {}", line[..pos].trim(), tail.trim());
            out.push(Command { line: command.trim().to_string(), line_no, stdin: Some(body) });
        } else {
            out.push(Command { line: line.to_string(), line_no, stdin: None });
        }
    }
    Ok(out)
}

/// Runs a whole script on `cluster`, returning the transcript. `read_file` resolves `-f FILE`.
pub fn run(cluster: &mut Cluster, script: &str, read_file: &dyn Fn(&str) -> Option<String>) -> String {
    let mut sb = sandbox::Sandbox::attach(cluster);
    let cmds = match parse(script) {
        Ok(c) => c,
        Err(e) => return format!("error: {}\n", e),
    };
    let mut transcript = String::new();
    for c in cmds {
        let echo = if c.stdin.is_some() { format!("$ {} <<EOF", c.line) } else { format!("$ {}", c.line) };
        transcript.push_str(&echo);
        transcript.push('\n');
        let out = exec(cluster, &mut sb, &c, read_file);
        transcript.push_str(&out);
        if !out.is_empty() && !out.ends_with('\n') {
            transcript.push('\n');
        }
    }
    transcript
}

/// Executes one command and returns what it printed (stdout then stderr).
pub fn exec(cluster: &mut Cluster, sb: &mut sandbox::Sandbox, c: &Command, read_file: &dyn Fn(&str) -> Option<String>) -> String {
    let args = match kubectl::split_args(&c.line) {
        Ok(a) => a,
        Err(e) => return format!("error: line {}: {}\n", c.line_no, e),
    };
    match args.first().map(|s| s.as_str()) {
        Some("kubectl") | Some("k") => kubectl::run(cluster, &args[1..], c.stdin.as_deref(), read_file).combined(),
        Some("sim") => match sandbox::sim_command_with_stdin(cluster, sb, &args[1..], c.stdin.as_deref()) {
            Ok(s) => s,
            Err(e) => format!("error: {}\n", e),
        },
        Some(p) if crate::shell::COMMANDS.contains(&p) => {
            crate::shell::exec(cluster, &args, c.stdin.as_deref()).display()
        }
        Some(other) => format!(
            "error: line {}: unknown command \"{}\": lines start with \"kubectl\", \"sim\" or one of the console's shell commands ({}) (or are # comments)\n",
            c.line_no,
            other,
            crate::shell::COMMANDS.join(", ")
        ),
        None => String::new(),
    }
}
