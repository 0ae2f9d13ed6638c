//! The native command line (dev target): a thin shell that reads files and prints.
//!
//! - `kubesim run SCRIPT [--seed N]` — run a scenario script (`-` = stdin), print the transcript;
//! - `kubesim apply FILE.yaml [--seed N]` — apply to the default cluster, settle, print events and tables;
//! - `kubesim bench [--nodes N] [--pods N] [--seed N]` — the benchmark (one JSON line);
//! - `kubesim fuzz [--seeds N] [--from S] [--seed S] [--ops K] [--no-faults]` — the VOPR-style run
//!   ([`crate::vopr`]): random workloads and faults per seed, invariants checked; a failing seed
//!   prints the command and the script that replay it;
//! - `kubesim serve [--addr 127.0.0.1:6443] [--seed N] [--speed X] [--epoch now|fixed|TIME] [--kubeconfig-out FILE]` — the
//!   cluster behind the Kubernetes REST API for the real kubectl (not in WASI builds: see `serve`).

use crate::{kubectl, sandbox, script};
use std::io::Read;

const USAGE: &str = "usage:
  kubesim run SCRIPT [--seed N]        run a scenario script (SCRIPT may be - for stdin)
  kubesim apply FILE.yaml [--seed N]   apply to the default cluster, settle, print events and objects
  kubesim bench [--nodes N] [--pods N] [--deployments N] [--seed N]
  kubesim bench scheduler [--nodes N] [--pods N] [--workload basic|affinity|spread] [--seed N]
                                       the scheduler alone (scheduler_perf): pods bound per second
  kubesim fuzz [--seeds N] [--from S] [--seed S] [--ops K] [--no-faults]
                                       random workloads and faults over many seeds, invariants checked
  kubesim serve [--addr 127.0.0.1:6443] [--seed N] [--speed X] [--epoch now|fixed|TIME] [--kubeconfig-out FILE]
                                       serve the Kubernetes API over plain HTTP for the real kubectl";

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
        "bench" => bench(rest, seed),
        "fuzz" => fuzz(rest),
        "serve" => serve(rest, seed),
        "" | "help" | "--help" | "-h" => {
            println!("{}", USAGE);
            Ok(0)
        }
        other => Err(format!("unknown command \"{}\"\n{}", other, USAGE)),
    }
}

/// `kubesim serve`: see [`crate::serve`].
#[cfg(not(target_arch = "wasm32"))]
fn serve(args: &[String], seed: u64) -> Result<i32, String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", USAGE);
        return Ok(0);
    }
    check_flags(args, &["--addr", "--seed", "--speed", "--kubeconfig-out", "--epoch"])?;
    let value = |name: &str| -> Result<Option<String>, String> {
        match args.iter().position(|a| a == name) {
            Some(i) => args.get(i + 1).cloned().map(Some).ok_or_else(|| format!("{} needs a value", name)),
            None => Ok(None),
        }
    };
    let mut opts = crate::serve::Options { seed, ..Default::default() };
    if let Some(a) = value("--addr")? {
        opts.addr = a;
    }
    if let Some(e) = value("--epoch")? {
        opts.epoch_ms = crate::serve::parse_epoch(&e)?;
    }
    if let Some(s) = value("--speed")? {
        opts.speed = s.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0).ok_or_else(|| format!("--speed expects a number >= 0, got \"{}\"", s))?;
    }
    let out = match value("--kubeconfig-out")? {
        Some(p) => std::path::PathBuf::from(p),
        None => std::env::temp_dir().join("kubesim.kubeconfig"),
    };
    crate::serve::run(&opts, &out)?;
    Ok(0)
}

/// `kubesim serve` needs sockets and threads: not in WASI builds.
#[cfg(target_arch = "wasm32")]
fn serve(_args: &[String], _seed: u64) -> Result<i32, String> {
    Err("serve is not available in this build".into())
}

/// Peak resident set size in MiB (Linux `VmHWM`), 0 where unknown.
/// Peak memory: the resident set's high-water mark natively; in WebAssembly (WASI), the size of
/// linear memory, which only ever grows.
fn peak_rss_mb() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        return (core::arch::wasm32::memory_size(0) * 65_536) as f64 / (1024.0 * 1024.0);
    }
    #[allow(unreachable_code)]
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok()))
        .map(|kb| kb / 1024.0)
        .unwrap_or(0.0)
}

/// Refuses flags a command does not take (so `kubesim bench --help` prints the usage instead of
/// starting a 100-second run) and flags given without a value.
fn check_flags(args: &[String], known: &[&str]) -> Result<(), String> {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if !known.contains(&a) {
            return Err(format!("unknown flag \"{}\"\n{}", a, USAGE));
        }
        i += 2;
    }
    Ok(())
}

/// Steps between two progress lines of `kubesim bench` (on stderr; stdout stays one JSON line).
const BENCH_PROGRESS_STEPS: u64 = 100_000;

/// `kubesim bench scheduler`: the scheduler alone on upstream's scheduler_perf templates, from a
/// pre-filled queue; one JSON line with pods/s (progress on stderr every 1,000 pods).
fn bench_scheduler(args: &[String], seed: u64) -> Result<i32, String> {
    use crate::scheduler::perf;
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", USAGE);
        return Ok(0);
    }
    check_flags(args, &["--nodes", "--pods", "--workload", "--seed"])?;
    let nodes = flag(args, "--nodes")?.unwrap_or(1000) as usize;
    let pods = flag(args, "--pods")?.unwrap_or(10_000) as usize;
    if nodes == 0 || nodes > 50_000 || pods > 1_000_000 {
        return Err("--nodes must be between 1 and 50000, --pods at most 1000000".into());
    }
    let workload = match args.iter().position(|a| a == "--workload") {
        Some(i) => {
            let w = args.get(i + 1).ok_or("--workload needs a value")?;
            perf::Workload::parse(w).ok_or_else(|| format!("unknown workload \"{}\": basic, affinity or spread", w))?
        }
        None => perf::Workload::Basic,
    };
    let t_setup = std::time::Instant::now();
    let (mut cache, queue) = perf::setup(nodes, pods, workload);
    let setup_s = t_setup.elapsed().as_secs_f64();
    let t0 = std::time::Instant::now();
    let out = perf::run(&mut cache, &queue, seed, &mut |done| {
        eprintln!("kubesim bench scheduler: {} of {} pods, {:.0} pods/s", done, pods, done as f64 / t0.elapsed().as_secs_f64().max(1e-9));
        true
    });
    let wall = t0.elapsed().as_secs_f64();
    println!(
        "{{\"workload\":\"{}\",\"nodes\":{},\"pods\":{},\"scheduled\":{},\"unschedulable\":{},\"nodes_used\":{},\"max_pods_per_node\":{},\"setup_s\":{:.3},\"wall_s\":{:.3},\"pods_per_s\":{:.1},\"peak_rss_mb\":{:.1}}}",
        workload.name(), nodes, pods, out.scheduled, out.unschedulable, out.nodes_used, out.max_pods_per_node, setup_s, wall,
        out.scheduled as f64 / wall.max(1e-9), peak_rss_mb()
    );
    Ok(0)
}

/// `kubesim bench`: N nodes, P pods spread over D Deployments, run until every pod is Running.
fn bench(args: &[String], seed: u64) -> Result<i32, String> {
    if args.first().map(String::as_str) == Some("scheduler") {
        return bench_scheduler(&args[1..], seed);
    }
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", USAGE);
        return Ok(0);
    }
    check_flags(args, &["--nodes", "--pods", "--deployments", "--seed"])?;
    let nodes = flag(args, "--nodes")?.unwrap_or(1000) as usize;
    let pods = flag(args, "--pods")?.unwrap_or(10_000) as usize;
    let deployments = flag(args, "--deployments")?.unwrap_or((pods / 100).max(1) as u64) as usize;
    if nodes == 0 || nodes > sandbox::MAX_NODES {
        return Err(format!("--nodes must be between 1 and {}", sandbox::MAX_NODES));
    }
    let start = std::time::Instant::now();
    let mut c = sandbox::bench_cluster(seed, nodes);
    let setup_s = start.elapsed().as_secs_f64();
    let t0 = std::time::Instant::now();
    let out = sandbox::bench_apply(&mut c, pods, deployments);
    // Settle in chunks with a progress line each, within the same bound as `run_until_settled`.
    let mut steps = 0;
    let settled = loop {
        let s = c.run_steps(BENCH_PROGRESS_STEPS.min(c.max_steps_per_settle() - steps));
        steps += s.steps;
        if s.settled || steps >= c.max_steps_per_settle() {
            break s.settled;
        }
        eprintln!(
            "kubesim bench: {:.0} s: {} of {} pods Running, {} messages, virtual time {:.1} s",
            t0.elapsed().as_secs_f64(),
            sandbox::count_running(&c),
            pods,
            c.trace().total(),
            c.now() as f64 / 1000.0
        );
    };
    let wall = t0.elapsed().as_secs_f64();
    let running = sandbox::count_running(&c);
    let view = c.view();
    let (etcd_versions, etcd_bytes) = view.etcd_stored();
    let audit_bytes: usize = view.audit().iter().map(String::len).sum();
    let mb = |b: usize| b as f64 / (1024.0 * 1024.0);
    println!(
        "{{\"nodes\":{},\"pods\":{},\"running\":{},\"deployments\":{},\"messages\":{},\"virtual_s\":{:.3},\"settled\":{},\"setup_s\":{:.3},\"wall_s\":{:.3},\"pods_per_s\":{:.1},\"peak_rss_mb\":{:.1},\"etcd_versions\":{},\"etcd_values_mb\":{:.1},\"audit_kept\":{},\"audit_mb\":{:.1},\"trace_kept\":{}}}",
        nodes,
        pods,
        running,
        deployments,
        c.trace().total(),
        c.now() as f64 / 1000.0,
        settled,
        setup_s,
        wall,
        running as f64 / wall.max(1e-9),
        peak_rss_mb(),
        etcd_versions,
        mb(etcd_bytes),
        view.audit().len(),
        mb(audit_bytes),
        view.trace().messages().len(),
    );
    if !out.is_empty() {
        eprint!("{}", out);
    }
    // the process exits next: freeing a cluster of 10,000 Pods one map at a time would take
    // longer than the OS takes to drop its pages
    std::mem::forget(c);
    Ok(if running == pods { 0 } else { 1 })
}

/// `kubesim fuzz`: seeds `from..from+seeds` (or the one `--seed`), progress on stderr every 100
/// seeds, a summary line on stdout; the first failure stops the run with its replay.
fn fuzz(rest: &[String]) -> Result<i32, String> {
    let one = flag(rest, "--seed")?;
    let from = one.or(flag(rest, "--from")?).unwrap_or(0);
    let seeds = if one.is_some() { 1 } else { flag(rest, "--seeds")?.unwrap_or(200) };
    let opts = crate::vopr::Options {
        ops: flag(rest, "--ops")?.unwrap_or(16) as usize,
        faults: !rest.iter().any(|a| a == "--no-faults"),
        twice: true,
    };
    let started = std::time::Instant::now();
    let (mut ops, mut faults, mut checks, mut messages) = (0usize, 0usize, 0u64, 0u64);
    let (mut stuck, mut max_settle, mut max_per_object) = (0usize, 0u64, 0u64);
    for (i, seed) in (from..from.saturating_add(seeds)).enumerate() {
        match crate::vopr::run_seed(seed, &opts) {
            Ok(o) => {
                ops += o.ops;
                faults += o.faults;
                checks += o.checks;
                messages += o.messages;
                stuck += o.stuck_applied;
                max_settle = max_settle.max(o.max_settle_steps);
                max_per_object = max_per_object.max(o.max_steps_per_object);
            }
            Err(f) => {
                println!("FAILED seed {} at operation {}: {}", f.seed, f.step, f.message);
                println!("replay: kubesim fuzz --seed {} --ops {}{}", f.seed, opts.ops, if opts.faults { "" } else { " --no-faults" });
                if !f.script.is_empty() {
                    println!("the script up to the failure (kubesim run FILE):\n{}", f.script);
                }
                return Ok(1);
            }
        }
        if (i + 1) % 100 == 0 {
            eprintln!("fuzz: {} seeds, {} operations, {} faults, {} checks, {:.0} s", i + 1, ops, faults, checks, started.elapsed().as_secs_f64());
        }
    }
    println!(
        "{{\"seeds\": {}, \"from\": {}, \"operations\": {}, \"faults\": {}, \"stuck_workloads\": {}, \"invariant_checks\": {}, \"messages\": {}, \"longest_settle_steps\": {}, \"settle_steps_per_object\": {}, \"settle_bound\": \"{} + {} per object\", \"each_seed_twice\": true, \"failures\": 0, \"wall_s\": {:.1}}}",
        seeds,
        from,
        ops,
        faults,
        stuck,
        checks,
        messages,
        max_settle,
        max_per_object,
        crate::vopr::SETTLE_BASE_STEPS,
        crate::vopr::SETTLE_STEPS_PER_OBJECT,
        started.elapsed().as_secs_f64()
    );
    Ok(0)
}
