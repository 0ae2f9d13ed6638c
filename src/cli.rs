//! The native command line (dev target): a thin shell that reads files and prints.
//!
//! - `kubesim run SCRIPT [--seed N]` — run a scenario script (`-` = stdin), print the transcript;
//! - `kubesim apply FILE.yaml [--seed N]` — apply to the default cluster, settle, print events and tables;
//! - `kubesim bench [--nodes N] [--pods N] [--seed N]` — the benchmark (one JSON line).

use crate::{kubectl, sandbox, script};
use std::io::Read;

const USAGE: &str = "usage:
  kubesim run SCRIPT [--seed N]        run a scenario script (SCRIPT may be - for stdin)
  kubesim apply FILE.yaml [--seed N]   apply to the default cluster, settle, print events and objects
  kubesim bench [--nodes N] [--pods N] [--deployments N] [--seed N]";

fn read_input(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| format!("reading stdin: {}", e))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {}", path, e))
    }
}

fn flag(args: &[String], name: &str) -> Result<Option<u64>, String> {
    match args.iter().position(|a| a == name) {
        Some(i) => {
            let v = args.get(i + 1).ok_or_else(|| format!("{} needs a value", name))?;
            v.parse().map(Some).map_err(|_| format!("{} expects a number, got \"{}\"", name, v))
        }
        None => Ok(None),
    }
}

/// Entry point; returns the process exit code.
pub fn main(args: Vec<String>) -> i32 {
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("kubesim: {}", e);
            2
        }
    }
}

fn run(args: &[String]) -> Result<i32, String> {
    let cmd = args.get(1).map(|s| s.as_str()).unwrap_or("");
    let rest = if args.len() > 2 { &args[2..] } else { &[] };
    let seed = flag(rest, "--seed")?.unwrap_or(1);
    match cmd {
        "run" => {
            let path = rest.first().filter(|p| !p.starts_with("--")).ok_or("run needs a SCRIPT (or - for stdin)")?;
            let text = read_input(path)?;
            let base = std::path::Path::new(path.as_str()).parent().map(|p| p.to_path_buf()).unwrap_or_default();
            let read_file = move |f: &str| std::fs::read_to_string(base.join(f)).ok();
            let mut c = sandbox::default_cluster(seed);
            print!("{}", script::run(&mut c, &text, &read_file));
            Ok(0)
        }
        "apply" => {
            let path = rest.first().filter(|p| !p.starts_with("--")).ok_or("apply needs a FILE")?;
            let text = read_input(path)?;
            let mut c = sandbox::default_cluster(seed);
            let args: Vec<String> = vec!["apply".into(), "-f".into(), "-".into()];
            let out = kubectl::run(&mut c, &args, Some(&text), &|_| None);
            print!("{}", out.stdout);
            eprint!("{}", out.stderr);
            if out.code != 0 {
                return Ok(out.code);
            }
            c.run_until_settled();
            for cmd in [&["get", "events"][..], &["get", "deployments,replicasets,pods", "-o", "wide"][..]] {
                let a: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
                println!("\n$ kubectl {}", a.join(" "));
                let o = kubectl::run(&mut c, &a, None, &|_| None);
                print!("{}", o.combined());
            }
            Ok(0)
        }
        "bench" => crate::cli_bench(rest),
        "" | "help" | "--help" | "-h" => {
            println!("{}", USAGE);
            Ok(0)
        }
        other => Err(format!("unknown command \"{}\"\n{}", other, USAGE)),
    }
}
