//! What `kubectl exec POD -- CMD` runs in a container (the CRI's `ExecSync`): a small shell over
//! the container's view — its environment, the files the kubelet mounted (ConfigMap and Secret
//! keys, the downward API, `/etc/hosts`, `/etc/hostname`, `/etc/resolv.conf`) — with the
//! commands a learner uses to check configuration: `env`, `printenv`, `cat`, `ls`, `echo`,
//! `hostname`, `id`, `pwd`, `whoami`, and `sh -c '…'` (`;` and `&&` lists, `$VAR`/`${VAR}`
//! expanded outside single quotes, as busybox `sh` and dash do).
//!
//! Messages follow the image's userland: busybox's (`busybox`, `alpine` images) or GNU
//! coreutils' (Debian-based images such as nginx). `curl` and `wget` are the caller's (the data
//! path in `cluster::network`); anything else answers with the list of what runs.

use std::collections::BTreeMap;

/// One mount as the container sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mount {
    pub path: String,
    /// file name (relative to `path`) → content; a `subPath` mount is one file at `path` (key "").
    pub files: BTreeMap<String, String>,
}

/// A running container, as its processes see it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContainerView {
    pub image: String,
    pub hostname: String,
    /// The environment in order (the image's own variables included).
    pub env: Vec<(String, String)>,
    pub mounts: Vec<Mount>,
}

/// A command's result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExecResult {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// The commands kubesim's containers run (for the message about anything else).
pub const SUPPORTED: &str = "env, printenv, cat, ls, echo, hostname, id, pwd, whoami, sh -c, curl and wget";

impl ContainerView {
    fn busybox(&self) -> bool {
        self.image.contains("busybox") || self.image.contains("alpine")
    }

    fn var(&self, name: &str) -> Option<&str> {
        self.env.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The file at an absolute path, if there is one.
    pub fn file(&self, path: &str) -> Option<String> {
        for m in &self.mounts {
            if let Some(f) = m.files.get("") {
                if m.path == path {
                    return Some(f.clone());
                }
            }
            if let Some(rest) = path.strip_prefix(m.path.trim_end_matches('/')).and_then(|r| r.strip_prefix('/')) {
                if let Some(f) = m.files.get(rest) {
                    return Some(f.clone());
                }
            }
        }
        None
    }

    /// The names in a directory (mount points and the files in them), or None if it is not one.
    pub fn dir(&self, path: &str) -> Option<Vec<String>> {
        let p = if path == "/" { String::new() } else { path.trim_end_matches('/').to_string() };
        let mut names: Vec<String> = Vec::new();
        let mut found = false;
        for m in &self.mounts {
            if m.path == p || (p.is_empty() && m.path == "/") {
                if !m.files.contains_key("") {
                    found = true;
                    names.extend(m.files.keys().filter(|k| !k.contains('/')).cloned());
                }
            } else if let Some(rest) = m.path.strip_prefix(&format!("{}/", p)) {
                found = true;
                names.push(rest.split('/').next().unwrap_or(rest).to_string());
            }
        }
        let base: &[&str] = if self.busybox() { &["bin", "dev", "etc", "home", "lib", "proc", "root", "sys", "tmp", "usr", "var"] } else { &["bin", "boot", "dev", "docker-entrypoint.d", "docker-entrypoint.sh", "etc", "home", "lib", "media", "mnt", "opt", "proc", "root", "run", "sbin", "srv", "sys", "tmp", "usr", "var"] };
        if p.is_empty() {
            found = true;
            names.extend(base.iter().map(|s| s.to_string()));
        } else if base.iter().any(|b| p == format!("/{}", b) && !b.contains('.')) {
            // the image's own top-level directories exist, empty as far as kubesim knows
            found = true;
        }
        if !found {
            return None;
        }
        names.sort();
        names.dedup();
        Some(names)
    }

    fn missing(&self, cmd: &str, path: &str) -> String {
        if self.busybox() {
            match cmd {
                "cat" => format!("cat: can't open '{}': No such file or directory\n", path),
                _ => format!("{}: {}: No such file or directory\n", cmd, path),
            }
        } else {
            match cmd {
                "ls" => format!("ls: cannot access '{}': No such file or directory\n", path),
                _ => format!("{}: {}: No such file or directory\n", cmd, path),
            }
        }
    }

    /// Runs one command (already split into words).
    pub fn run(&self, argv: &[String]) -> ExecResult {
        let mut r = ExecResult::default();
        let Some(cmd) = argv.first() else { return r };
        let args = &argv[1..];
        let name = cmd.rsplit('/').next().unwrap_or(cmd);
        match name {
            "env" if args.is_empty() => {
                for (k, v) in &self.env {
                    r.stdout.push_str(&format!("{}={}\n", k, v));
                }
            }
            "printenv" => {
                if args.is_empty() {
                    return self.run(&["env".to_string()]);
                }
                for a in args {
                    match self.var(a) {
                        Some(v) => r.stdout.push_str(&format!("{}\n", v)),
                        None => r.code = 1,
                    }
                }
            }
            "echo" => {
                let (newline, words) = match args.first().map(String::as_str) {
                    Some("-n") => (false, &args[1..]),
                    _ => (true, args),
                };
                r.stdout = words.join(" ");
                if newline {
                    r.stdout.push('\n');
                }
            }
            "hostname" => r.stdout = format!("{}\n", self.hostname),
            "pwd" => r.stdout = "/\n".into(),
            "whoami" => r.stdout = "root\n".into(),
            "id" => {
                r.stdout = if self.busybox() { "uid=0(root) gid=0(root) groups=0(root),10(wheel)\n".into() } else { "uid=0(root) gid=0(root) groups=0(root)\n".into() };
            }
            "cat" => {
                for a in args.iter().filter(|a| !a.starts_with('-')) {
                    if let Some(f) = self.file(a) {
                        r.stdout.push_str(&f);
                    } else if self.dir(a).is_some() {
                        r.stderr.push_str(&if self.busybox() { format!("cat: read error: Is a directory\n") } else { format!("cat: {}: Is a directory\n", a) });
                        r.code = 1;
                    } else {
                        r.stderr.push_str(&self.missing("cat", a));
                        r.code = 1;
                    }
                }
            }
            "ls" => {
                let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
                let paths: Vec<String> = if paths.is_empty() { vec!["/".to_string()] } else { paths.into_iter().cloned().collect() };
                let many = paths.len() > 1;
                for (i, p) in paths.iter().enumerate() {
                    if self.file(p).is_some() {
                        r.stdout.push_str(&format!("{}\n", p));
                        continue;
                    }
                    match self.dir(p) {
                        Some(names) => {
                            if many {
                                r.stdout.push_str(&format!("{}{}:\n", if i > 0 { "\n" } else { "" }, p));
                            }
                            for n in names {
                                r.stdout.push_str(&format!("{}\n", n));
                            }
                        }
                        None => {
                            r.stderr.push_str(&self.missing("ls", p));
                            r.code = if self.busybox() { 1 } else { 2 };
                        }
                    }
                }
            }
            "sh" | "bash" | "ash" | "dash" => match (args.first().map(String::as_str), args.get(1)) {
                (Some("-c"), Some(script)) => return self.shell(script),
                _ => {
                    r.stderr = "kubesim runs `sh -c 'COMMANDS'`; an interactive shell (-it) is not simulated\n".into();
                    r.code = 1;
                }
            },
            _ => {
                r.stderr = format!("kubesim's containers run {} (got `{}`)\n", SUPPORTED, argv.join(" "));
                r.code = 127;
            }
        }
        r
    }

    /// `sh -c SCRIPT`: commands separated by `;` or `&&`, each expanded and split into words.
    pub fn shell(&self, script: &str) -> ExecResult {
        let mut out = ExecResult::default();
        for (words, and) in split_list(script, &|n| self.var(n).map(str::to_string)) {
            if and && out.code != 0 {
                continue;
            }
            if words.is_empty() {
                continue;
            }
            if words[0] == "exit" {
                out.code = words.get(1).and_then(|c| c.parse().ok()).unwrap_or(out.code);
                return out;
            }
            let r = self.run(&words);
            out.stdout.push_str(&r.stdout);
            out.stderr.push_str(&r.stderr);
            out.code = r.code;
        }
        out
    }
}

/// Splits a shell list into commands (each a list of words; `true` when joined by `&&` to the
/// one before), expanding `$NAME` and `${NAME}` outside single quotes.
fn split_list(script: &str, var: &dyn Fn(&str) -> Option<String>) -> Vec<(Vec<String>, bool)> {
    let mut cmds = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut and_next = false;
    let chars: Vec<char> = script.chars().collect();
    let mut i = 0;
    let (mut single, mut double) = (false, false);
    let flush = |words: &mut Vec<String>, word: &mut String, in_word: &mut bool| {
        if *in_word {
            words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if single {
            if c == '\'' {
                single = false;
            } else {
                word.push(c);
            }
            i += 1;
            continue;
        }
        match c {
            '\'' if !double => {
                single = true;
                in_word = true;
            }
            '"' => {
                double = !double;
                in_word = true;
            }
            '\\' if i + 1 < chars.len() => {
                word.push(chars[i + 1]);
                in_word = true;
                i += 1;
            }
            '$' if i + 1 < chars.len() && (chars[i + 1] == '{' || chars[i + 1].is_ascii_alphabetic() || chars[i + 1] == '_') => {
                let (name, next) = if chars[i + 1] == '{' {
                    let end = chars[i + 2..].iter().position(|c| *c == '}').map(|p| i + 2 + p).unwrap_or(chars.len());
                    (chars[i + 2..end.min(chars.len())].iter().collect::<String>(), end + 1)
                } else {
                    let end = chars[i + 1..].iter().position(|c| !(c.is_ascii_alphanumeric() || *c == '_')).map(|p| i + 1 + p).unwrap_or(chars.len());
                    (chars[i + 1..end].iter().collect::<String>(), end)
                };
                word.push_str(&var(&name).unwrap_or_default());
                in_word = true;
                i = next;
                continue;
            }
            ' ' | '\t' | '\n' if !double => flush(&mut words, &mut word, &mut in_word),
            ';' if !double => {
                flush(&mut words, &mut word, &mut in_word);
                cmds.push((std::mem::take(&mut words), and_next));
                and_next = false;
            }
            '&' if !double && chars.get(i + 1) == Some(&'&') => {
                flush(&mut words, &mut word, &mut in_word);
                cmds.push((std::mem::take(&mut words), and_next));
                and_next = true;
                i += 1;
            }
            _ => {
                word.push(c);
                in_word = true;
            }
        }
        i += 1;
    }
    flush(&mut words, &mut word, &mut in_word);
    cmds.push((words, and_next));
    cmds
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> ContainerView {
        let mut files = BTreeMap::new();
        files.insert("app.properties".to_string(), "color=blue\n".to_string());
        ContainerView {
            image: "busybox:1.36".into(),
            hostname: "app".into(),
            env: vec![("GREETING".into(), "hello".into()), ("PATH".into(), "/bin".into())],
            mounts: vec![Mount { path: "/etc/config".into(), files }],
        }
    }

    #[test]
    fn shell_expands_and_runs_lists() {
        let v = view();
        let cases: Vec<(&str, &str, &str, i32)> = vec![
            ("echo $GREETING ${GREETING}!", "hello hello!\n", "", 0),
            ("echo '$GREETING'", "$GREETING\n", "", 0),
            ("echo \"$GREETING world\"", "hello world\n", "", 0),
            ("cat /etc/config/app.properties", "color=blue\n", "", 0),
            ("ls /etc/config", "app.properties\n", "", 0),
            ("cat /nope; echo after", "after\n", "cat: can't open '/nope': No such file or directory\n", 0),
            ("cat /nope && echo after", "", "cat: can't open '/nope': No such file or directory\n", 1),
            ("printenv GREETING", "hello\n", "", 0),
            ("echo $UNSET.", ".\n", "", 0),
            ("exit 3", "", "", 3),
        ];
        for (script, out, err, code) in cases {
            let r = v.shell(script);
            assert_eq!((r.stdout.as_str(), r.stderr.as_str(), r.code), (out, err, code), "{script}");
        }
        let r = v.run(&["nslookup".into(), "x".into()]);
        assert_eq!(r.code, 127);
        assert!(r.stderr.contains("env, printenv, cat"), "{}", r.stderr);
    }
}
