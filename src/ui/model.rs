//! The page's model: one simulated cluster plus the timeline of trace messages the page animates.
//!
//! Time travel without replay: the page runs the simulation ahead (every command is followed by
//! `sim settle`), keeps the [`Cluster`], and shows the state *at* a step by reading etcd's history.
//! Each [`MessageKind::EtcdTxn`] carries the revision it wrote, so the state after step `k` is
//! "every object at the highest revision written by a message ≤ k". Stepping back or scrubbing is
//! a read at an older revision: no re-simulation.
//!
//! Everything here is plain Rust compiled on every target, so it is unit-tested natively.

use super::story::{Chapter, Phase, StoryIndex};
use crate::api::{codec, meta, time::EPOCH_MS};
use crate::cluster::{Cluster, ClusterConfig, Settle, BUSY_WINDOW};
use crate::kubectl::{self, printers};
use crate::sandbox::{self, Sandbox};
use crate::scheduler::Attempt;
use crate::script::{self, Command};
use crate::sim::sort::CompactSort;
use crate::trace::{Actor, Message, MessageKind, MsgId};
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;

/// One animated step: a trace message and what the world looks like after it.
#[derive(Clone, Debug)]
pub struct Step {
    pub msg: Message,
    /// etcd revision visible after this message (the highest revision written so far).
    pub rev: i64,
    /// Audit lines recorded after this message (an absolute count, as `audit_total`: lines the
    /// API server no longer keeps are counted).
    pub audit: usize,
    /// Index into [`Session::segments`].
    pub segment: usize,
}

/// A command the user ran (Apply or a console line): the steps it produced start at `start`.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    pub command: String,
    pub start: usize,
}

/// One audit event, reduced to what the Audit panel shows.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditRow {
    pub verb: String,
    pub uri: String,
    pub user: String,
    pub user_agent: String,
    pub code: i64,
    /// The audit level the policy gave the request (`Metadata`, `Request`, `RequestResponse`).
    pub level: String,
    /// `objectRef.resource` (`pods` also for `pods/binding`, as the learner's queries filter it).
    pub resource: String,
    /// `objectRef.name`, or for a create of a generated name `responseObject.metadata.name`.
    pub name: String,
    /// `requestObject.kind` (empty below level Request, and for requests without a body).
    pub kind: String,
    /// The step (index into `steps`) of the request.
    pub step: usize,
}

/// A Pod as the diagram draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct PodChip {
    pub name: String,
    pub short: String,
    pub node: String,
    /// kubectl's STATUS column (`Running`, `ContainerCreating`, `ErrImagePull`, `Terminating`…),
    /// with `↻N` when the Pod's containers have restarted N times.
    pub status: String,
    /// kubectl's READY column (`1/1`).
    pub ready: String,
    pub class: &'static str,
    /// The owner (`ReplicaSet nginx-5cfbf748d`), its template hash and the containers' images:
    /// the chip's tooltip.
    pub owner: String,
    pub hash: String,
    pub images: String,
    /// The owner's place among the ReplicaSets (creation order): the chip's stripe colour, so
    /// a rolling update shows old and new Pods apart. `None` without an owner.
    pub tone: Option<usize>,
}

/// A Deployment or ReplicaSet summary for the controller boxes.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    pub name: String,
    pub ready: i64,
    pub desired: i64,
}

/// A Service as the diagram's Services row draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceChip {
    pub namespace: String,
    pub name: String,
    /// The ClusterIP, or `None` for a headless Service.
    pub cluster_ip: String,
    /// `80`, or `80:30080` with a node port.
    pub ports: String,
    /// Endpoints whose `ready` condition is true, and all endpoints, over the Service's slices.
    pub ready: usize,
    pub total: usize,
}

/// A node as the diagram draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeInfo {
    pub name: String,
    /// Registered at this step (a Node object exists in etcd).
    pub registered: bool,
    pub ready: bool,
    /// Cut off from the control plane at this step (`sim node partition`, not yet healed).
    pub cut_off: bool,
}

/// One HorizontalPodAutoscaler's status over time, from each version etcd kept of it up to a
/// position (the Rollout tab's scaling chart).
#[derive(Clone, Debug, PartialEq)]
pub struct HpaHistory {
    pub name: String,
    /// `Deployment/web`
    pub target: String,
    pub min: i64,
    pub max: i64,
    /// The CPU utilization target (percent), when the HPA has one.
    pub target_pct: Option<i64>,
    /// (virtual ms, current CPU utilization %, current replicas, desired replicas)
    pub points: Vec<(i64, Option<i64>, i64, i64)>,
}

/// One Deployment's rollout at a position (the Rollout tab).
#[derive(Clone, Debug, PartialEq)]
pub struct RolloutView {
    pub name: String,
    pub namespace: String,
    /// `deployment.kubernetes.io/revision`
    pub revision: String,
    /// RollingUpdate (else Recreate)
    pub rolling: bool,
    pub replicas: i64,
    /// maxSurge and maxUnavailable resolved to pods (surge rounds up, unavailable down)
    pub max_surge: i64,
    pub max_unavailable: i64,
    /// as written in the spec (`25%`, `1`)
    pub surge_text: String,
    pub unavailable_text: String,
    pub paused: bool,
    /// the Progressing condition's status and reason
    pub progressing: Option<(String, String)>,
    /// Pods of all its ReplicaSets (status.replicas) and how many are available
    pub total: i64,
    pub available: i64,
    /// newest revision first
    pub sets: Vec<RsBar>,
}

/// One ReplicaSet of a rollout.
#[derive(Clone, Debug, PartialEq)]
pub struct RsBar {
    pub name: String,
    pub revision: String,
    pub images: String,
    pub desired: i64,
    pub current: i64,
    pub ready: i64,
    pub available: i64,
    /// its template is the Deployment's (the "new" ReplicaSet)
    pub is_new: bool,
}

/// One line of the Objects panel, clickable when it is an object's row.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjLine {
    pub text: String,
    pub target: Option<(String, String)>, // (resource, name) in namespace default
}

/// The page's simulation session.
pub struct Session {
    pub seed: u64,
    pub cluster: Cluster,
    sandbox: Sandbox,
    pub base_rev: i64,
    pub base_audit: usize,
    pub base_time: i64,
    last_id: MsgId,
    /// The number kube-apiserver gives the next request it handles (audit lines carry it).
    next_request: u64,
    pub steps: Vec<Step>,
    pub segments: Vec<Segment>,
    pub audit_rows: Vec<AuditRow>,
    /// The Audit panel's filter values (resources, verbs, users), each with the index of the row
    /// it first appears in: the options at a step without reading every row.
    audit_values: [Vec<(String, usize)>; 3],
    /// message id -> step index
    index: BTreeMap<MsgId, usize>,
    /// Everything run so far, as a `kubesim run` script: replaying it reproduces this session.
    pub log: String,
    /// Console transcript (commands echoed with `$ `).
    pub transcript: String,
    /// An Apply whose consequences are still being simulated (see [`Session::settle_some`]).
    settling: Option<Settling>,
    /// Steps gathered from the trace but not yet on the timeline (during a settle in slices).
    staged: Vec<Step>,
    /// The story level, its chapters and rounds ([`super::story`]).
    story: StoryIndex,
    /// The components that sent or received a message, in order of appearance (the jump menu).
    components: Vec<String>,
    /// Where nodes were cut off and healed: (step, node, cut off from there on).
    partitions: Vec<(usize, String, bool)>,
}

/// A settle in progress: the command it belongs to and how far it got.
#[derive(Clone, Debug, PartialEq)]
pub struct Settling {
    pub command: String,
    /// Deliveries simulated so far.
    pub steps: u64,
    /// Virtual time reached, ms since the session started.
    pub time_ms: i64,
    /// Whether the command's segment is already on the timeline (each slice's steps join it).
    segment_open: bool,
    /// The session's log before the command: Cancel replays it, so the cluster is as it was.
    log_before: String,
    /// The transcript line that goes after the command's output when the settle ends (a
    /// console command settles like kubectl apply: `sim settle` is logged once it has run).
    log_settle: bool,
}

/// Deliveries simulated at once when Apply starts (seed 004 needs 271: small applies finish in
/// the first slice, deterministically); larger ones continue in slices between frames.
pub const FIRST_SLICE_STEPS: u64 = 400;
/// Deliveries between two looks at the page's time budget.
pub const SLICE_CHUNK_STEPS: u64 = 25;

/// The page's bound on one settle's deliveries: every step lands on the timeline, so a settle
/// that does not end (kubesim's bug, never the learner's: every input settles) stops here, with
/// a console line naming what kept the cluster busy, instead of filling the timeline with
/// millions of steps (the CLI's bound is 2 000 000).
pub const PAGE_MAX_STEPS_PER_SETTLE: u64 = 100_000;

/// Bound on the console transcript kept in memory.
const MAX_TRANSCRIPT: usize = 200_000;

/// Ensures the text ends with a newline and uses `\n` line ends: what a heredoc delivers.
pub fn normalize(text: &str) -> String {
    let mut s = String::new();
    for l in text.lines() {
        s.push_str(l);
        s.push('\n');
    }
    s
}

/// A Pod's row of `kubectl get pods` (NAME, READY, STATUS, RESTARTS, …) as words.
fn pod_row(pod: &Value, now_unix_ms: i64) -> Vec<String> {
    printers::print_pod_row(pod, now_unix_ms)
}

/// True when the editor holds a script (`kubectl …`/`sim …` lines) rather than a manifest.
pub fn is_script(text: &str) -> bool {
    for l in text.lines() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        // a YAML manifest's first line is a key (`apiVersion: v1`), never one of these commands
        let first = t.split_whitespace().next().unwrap_or("");
        return t.starts_with("kubectl ") || t.starts_with("sim ") || t == "kubectl" || t.starts_with("k ") || (crate::shell::COMMANDS.contains(&first) && !t.contains(": "));
    }
    false
}

/// A heredoc delimiter that does not occur as a line of `body`.
fn marker_for(body: &str) -> String {
    let mut m = "EOF".to_string();
    let mut i = 0;
    while body.lines().any(|l| l.trim() == m) {
        i += 1;
        m = format!("EOF{}", i);
    }
    m
}

/// The script line(s) for `kubectl apply -f -` of `yaml`.
pub fn apply_script(yaml: &str) -> String {
    let body = normalize(yaml);
    let m = marker_for(&body);
    format!("kubectl apply -f - <<{m}\n{body}{m}\nsim settle\n")
}

impl Session {
    /// The default cluster (control plane + 3 nodes), settled, with an empty timeline.
    pub fn new(seed: u64) -> Session {
        // the page reads old revisions: keep the whole history of a learner's session
        let mut config = ClusterConfig { max_steps_per_settle: PAGE_MAX_STEPS_PER_SETTLE, ..ClusterConfig::default() };
        config.limits.etcd_history = config.limits.etcd_history.max(1_000_000);
        let cluster = sandbox::default_cluster_with(seed, config);
        let sandbox = Sandbox::attach(&cluster);
        let last_id = cluster.trace().total();
        Session {
            seed,
            base_rev: cluster.view().etcd_revision(),
            base_audit: cluster.view().audit_total() as usize,
            base_time: cluster.now(),
            next_request: cluster.view().requests_handled() + 1,
            cluster,
            sandbox,
            last_id,
            steps: Vec::new(),
            segments: Vec::new(),
            audit_rows: Vec::new(),
            audit_values: Default::default(),
            index: BTreeMap::new(),
            log: String::new(),
            transcript: String::new(),
            settling: None,
            staged: Vec::new(),
            story: StoryIndex::default(),
            components: Vec::new(),
            partitions: Vec::new(),
        }
    }

    /// A session rebuilt from a script (a shared link's `x=`): the same commands, so the same run.
    pub fn replay(seed: u64, log: &str) -> Session {
        let mut s = Session::new(seed);
        s.run_script(log, true);
        s
    }

    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    fn collect(&mut self, command: &str) -> usize {
        self.gather();
        self.commit(command, false)
    }

    /// Turns the trace messages since the last look into steps, staged until [`Session::commit`]
    /// (a settle in slices gathers after each slice, so no single task copies them all).
    fn gather(&mut self) {
        let start = self.steps.len() + self.staged.len();
        let (mut rev, mut audit) = match self.staged.last() {
            Some(st) => (st.rev, st.audit),
            None => (self.rev_at(start), self.audit_at(start)),
        };
        let seg = self.segments.len();
        // the trace is in id order: start after the last message seen, not at its beginning
        let msgs = self.cluster.trace().messages();
        let from = msgs.partition_point(|m| m.id <= self.last_id);
        for m in &msgs[from..] {
            if let MessageKind::EtcdTxn { revision, .. } = &m.kind {
                rev = rev.max(*revision);
            }
            if matches!(m.kind, MessageKind::Request { .. }) && m.to == Actor::ApiServer {
                // the request's audit lines: none when the policy says None
                let seq = self.next_request;
                self.next_request += 1;
                let view = self.cluster.view();
                let dropped = view.audit_total() as usize - view.audit().len();
                let seqs = view.audit_request_seqs();
                audit = audit.max(dropped);
                while let Some(&line_seq) = audit.checked_sub(dropped).and_then(|i| seqs.get(i)) {
                    if line_seq > seq {
                        break;
                    }
                    if line_seq == seq {
                        if let Some(l) = view.audit().get(audit - dropped) {
                            let row = audit_row(l, start + self.staged.len());
                            // the filters' values, each with the row it first appears in
                            let n = self.audit_rows.len();
                            for (k, v) in [&row.resource, &row.verb, &row.user].into_iter().enumerate() {
                                if !(k == 0 && v.is_empty()) && !self.audit_values[k].iter().any(|(x, _)| x == v) {
                                    self.audit_values[k].push((v.clone(), n));
                                }
                            }
                            self.audit_rows.push(row);
                        }
                    }
                    audit += 1;
                }
            }
            self.staged.push(Step { msg: m.clone(), rev, audit, segment: seg });
        }
        self.last_id = self.cluster.trace().total();
        // the steps hold the messages now: the cluster's trace need not keep a second copy
        self.cluster.forget_trace_through(self.last_id);
    }

    /// Puts the staged steps on the timeline as the segment of `command`. Returns the index of
    /// the first of them.
    /// `continuing`: the steps belong to the last segment (the next slice of its settle).
    fn commit(&mut self, command: &str, continuing: bool) -> usize {
        let start = self.steps.len();
        let new_steps = std::mem::take(&mut self.staged);
        let seg = self.segments.len();
        // what `sim settle` delivers belongs to the command before it
        let seg = if (continuing || command == "sim settle") && seg > 0 { seg - 1 } else { seg };
        if !new_steps.is_empty() && seg == self.segments.len() {
            self.segments.push(Segment { command: command.to_string(), start });
        }
        for (i, mut st) in new_steps.into_iter().enumerate() {
            st.segment = seg;
            if let (crate::trace::MessageKind::Fault { kind: k @ (crate::trace::FaultKind::Partition | crate::trace::FaultKind::Heal), .. }, Some(node)) = (&st.msg.kind, st.msg.from.node()) {
                self.partitions.push((start + i, node.to_string(), *k == crate::trace::FaultKind::Partition));
            }
            self.index.insert(st.msg.id, start + i);
            self.steps.push(st);
        }
        let mut story = std::mem::take(&mut self.story);
        super::story::extend(self, start, &mut story);
        self.story = story;
        for i in start..self.steps.len() {
            for a in [&self.steps[i].msg.from, &self.steps[i].msg.to] {
                let c = super::story::component_of(a);
                if !self.components.contains(&c) {
                    self.components.push(c);
                }
            }
        }
        start
    }

    /// The components that sent or received a message, in order of appearance.
    pub fn components(&self) -> &[String] {
        &self.components
    }

    /// The story of the timeline ([`super::story`]).
    pub fn story(&self) -> &StoryIndex {
        &self.story
    }

    /// The chapters of the timeline.
    pub fn chapters(&self) -> &[Chapter] {
        &self.story.chapters
    }

    /// How many steps the story level visits.
    pub fn story_len(&self) -> usize {
        self.story.steps.len()
    }

    /// The chapter phase of step index `i` if it is a story step.
    pub fn story_phase(&self, i: usize) -> Option<&Phase> {
        let c = (*self.story.of_step.get(i)?)?;
        Some(&self.story.chapters[c as usize].phase)
    }

    /// A line for the console's transcript that is not a command run (a cancelled edit).
    pub fn note_transcript(&mut self, s: &str) {
        self.push_transcript(s);
    }

    fn push_transcript(&mut self, s: &str) {
        self.transcript.push_str(s);
        if self.transcript.len() > MAX_TRANSCRIPT {
            let cut = self.transcript.len() - MAX_TRANSCRIPT / 2;
            let cut = (cut..self.transcript.len()).find(|i| self.transcript.is_char_boundary(*i)).unwrap_or(0);
            self.transcript.drain(..cut);
        }
    }

    /// Runs one script command with logging. Returns its output.
    fn exec(&mut self, cmd: &Command, log_text: &str) -> String {
        let before = self.cluster.trace().total();
        let out = script::exec(&mut self.cluster, &mut self.sandbox, cmd, &|_| None);
        let changed = self.cluster.trace().total() != before || cmd.line.trim_start().starts_with("sim ");
        if changed {
            self.log.push_str(log_text);
        }
        out
    }

    /// The editor's Apply: `kubectl apply -f -` with the editor's text (or the editor's script),
    /// then `sim settle`. Returns kubectl's output and the index of the first new step.
    pub fn apply(&mut self, text: &str) -> (kubectl::Output, usize) {
        let r = self.apply_begin(text);
        self.finish_settling();
        r
    }

    /// Simulates whatever settle is still pending, at once.
    fn finish_settling(&mut self) {
        while !self.settle_some(SLICE_CHUNK_STEPS * 400, &mut || true) {}
    }

    /// Apply's first half: runs kubectl (and a script entirely); for a manifest, the settle that
    /// follows is left to [`Session::settle_some`], which the page calls in slices so no task
    /// blocks it for long. Returns kubectl's output and the index of the first new step.
    pub fn apply_begin(&mut self, text: &str) -> (kubectl::Output, usize) {
        self.finish_settling();
        let start = self.steps.len();
        if is_script(text) {
            let t = self.run_script(text, true);
            let failed = t.lines().any(|l| l.starts_with("error:") || l.starts_with("Error from server"));
            return (kubectl::Output { stdout: t.clone(), stderr: String::new(), code: i32::from(failed), ..Default::default() }, start);
        }
        let body = normalize(text);
        let args: Vec<String> = ["apply", "-f", "-"].iter().map(|s| s.to_string()).collect();
        let before = self.cluster.trace().total();
        let log_before = self.log.clone();
        let out = kubectl::run(&mut self.cluster, &args, Some(&body), &|_| None);
        self.push_transcript(&format!("$ kubectl apply -f - <<EOF\n{}", out.combined()));
        if self.cluster.trace().total() != before {
            self.log.push_str(&apply_script(&body));
            let time_ms = self.cluster.now() - self.base_time;
            self.settling = Some(Settling { command: "kubectl apply -f -".into(), steps: 0, time_ms, segment_open: false, log_before, log_settle: false });
        } else {
            self.collect("kubectl apply -f -");
        }
        (out, start)
    }

    /// The settle in progress, if any.
    pub fn settling(&self) -> Option<&Settling> {
        self.settling.as_ref()
    }

    /// Simulates the pending settle `chunk` deliveries at a time while `more()` says so. Returns
    /// true when nothing is pending any more (the new steps are then on the timeline).
    pub fn settle_some(&mut self, chunk: u64, more: &mut dyn FnMut() -> bool) -> bool {
        let Some(mut st) = self.settling.take() else {
            return true;
        };
        let bound = self.cluster.max_steps_per_settle();
        loop {
            // the last stretch before the bound runs in one call, so that a settle that hits the
            // bound has its whole busy report (the cluster counts the last BUSY_WINDOW deliveries)
            let left = bound.saturating_sub(st.steps);
            let s = if left <= BUSY_WINDOW + chunk { self.cluster.run_steps_reporting(left.max(1)) } else { self.cluster.run_steps(chunk.max(1)) };
            st.steps += s.steps;
            st.time_ms = self.cluster.now() - self.base_time;
            if s.settled || st.steps >= bound {
                if !s.settled {
                    let report = sandbox::settle_report(&Settle { steps: st.steps, ..s });
                    self.push_transcript(&report);
                }
                if st.log_settle && st.steps > 0 {
                    self.log.push_str("sim settle\n");
                }
                self.gather();
                self.commit(&st.command, st.segment_open);
                return true;
            }
            if !more() {
                // this slice's steps join the timeline: the learner can scrub them while the
                // rest is simulated
                self.gather();
                self.commit(&st.command, st.segment_open);
                st.segment_open |= !self.segments.is_empty() && self.segments.last().map(|g| g.command == st.command).unwrap_or(false);
                self.settling = Some(st);
                return false;
            }
        }
    }

    /// Runs a whole script (the editor's, or a shared link's log), then settles.
    /// Returns the transcript. `echo` adds it to the console.
    pub fn run_script(&mut self, text: &str, echo: bool) -> String {
        self.finish_settling();
        let cmds = match script::parse(text) {
            Ok(c) => c,
            Err(e) => {
                let t = format!("error: {}\n", e);
                if echo {
                    self.push_transcript(&t);
                }
                return t;
            }
        };
        let mut transcript = String::new();
        for c in &cmds {
            let (echo_line, log_text) = match &c.stdin {
                Some(body) => {
                    let m = marker_for(body);
                    (format!("$ {} <<EOF\n", c.line), format!("{} <<{m}\n{body}{m}\n", c.line))
                }
                None => (format!("$ {}\n", c.line), format!("{}\n", c.line)),
            };
            transcript.push_str(&echo_line);
            let out = self.exec(c, &log_text);
            transcript.push_str(&out);
            if !out.is_empty() && !out.ends_with('\n') {
                transcript.push('\n');
            }
            self.collect(&c.line);
        }
        let s = self.cluster.run_until_settled();
        if s.steps > 0 {
            self.log.push_str("sim settle\n");
        }
        if !s.settled {
            transcript.push_str(&sandbox::settle_report(&s));
        }
        self.collect("sim settle");
        if echo {
            self.push_transcript(&transcript);
        }
        transcript
    }

    /// A console line: runs it with `kubesim run`'s interpreter (`kubectl …`, `sim …`), then
    /// settles so its consequences join the timeline. `kubectl apply -f -` reads `stdin` (the editor).
    /// Returns (output, first new step).
    /// `kubectl edit TYPE/NAME` typed in the console: the text the editor opens with (kubectl's
    /// header and the object as YAML), or kubectl's error, which goes to the transcript.
    pub fn edit_text(&mut self, line: &str) -> Result<String, String> {
        self.finish_settling();
        let args = kubectl::split_args(line.trim()).unwrap_or_default();
        let args: Vec<String> = if args.first().map(String::as_str) == Some("kubectl") { args[1..].to_vec() } else { args };
        match kubectl::edit::edit_text(&mut self.cluster, &args) {
            Ok(t) => Ok(t),
            Err(e) => {
                self.push_transcript(&format!("$ {}\n{}\n", line.trim(), e.trim_end()));
                Err(e)
            }
        }
    }

    pub fn console(&mut self, line: &str, stdin: &str) -> (String, usize) {
        let r = self.console_begin(line, stdin);
        self.finish_settling();
        r
    }

    /// The console line's first half: runs the command and puts its requests on the timeline;
    /// what follows is left to [`Session::settle_some`], as for Apply. The transcript gets the
    /// command and its output at once (a settle that hits its bound adds its report at the end).
    pub fn console_begin(&mut self, line: &str, stdin: &str) -> (String, usize) {
        self.finish_settling();
        let start = self.steps.len();
        let line = line.trim();
        if line.is_empty() {
            return (String::new(), start);
        }
        let args = kubectl::split_args(line).unwrap_or_default();
        let wants_stdin = args.windows(2).any(|w| (w[0] == "-f" || w[0] == "--filename") && w[1] == "-") || args.iter().any(|a| a == "-f-" || a == "--filename=-") || is_edit(&args);
        let (cmd, log_text) = if wants_stdin {
            let body = normalize(stdin);
            let m = marker_for(&body);
            (Command { line: line.to_string(), line_no: 1, stdin: Some(body.clone()) }, format!("{} <<{m}\n{body}{m}\n", line))
        } else {
            (Command { line: line.to_string(), line_no: 1, stdin: None }, format!("{}\n", line))
        };
        let log_before = self.log.clone();
        let mut out = self.exec(&cmd, &log_text);
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        self.collect(line);
        self.push_transcript(&format!("$ {}\n{}", line, out));
        let segment_open = self.segments.last().map(|g| g.command == line && g.start >= start).unwrap_or(false);
        let time_ms = self.cluster.now() - self.base_time;
        self.settling = Some(Settling { command: line.to_string(), steps: 0, time_ms, segment_open, log_before, log_settle: true });
        (out, start)
    }

    /// Cancel of the settle in progress: the session becomes what it was before the command
    /// (its log replayed on a fresh cluster of the same seed: the same run, deterministically),
    /// and the transcript says so. False when nothing was settling.
    pub fn cancel(&mut self) -> bool {
        let Some(st) = self.settling.take() else {
            return false;
        };
        let mut transcript = std::mem::take(&mut self.transcript);
        transcript.push_str(&format!("^C cancelled after {} messages ({} of cluster time): the cluster is as it was before `{}`\n", st.steps, crate::trace::format_ms(st.time_ms), st.command));
        let mut fresh = Session::new(self.seed);
        fresh.run_script(&st.log_before, false);
        fresh.transcript = transcript;
        *self = fresh;
        true
    }

    // ---- reading the state at a position ----------------------------------------------------
    //
    // A position `pos` is the number of messages delivered: 0 = before the first step,
    // `len()` = the end. The current message is `steps[pos - 1]`.

    pub fn rev_at(&self, pos: usize) -> i64 {
        if pos == 0 || self.steps.is_empty() {
            self.base_rev
        } else {
            self.steps[pos.min(self.steps.len()) - 1].rev
        }
    }

    pub fn audit_at(&self, pos: usize) -> usize {
        if pos == 0 || self.steps.is_empty() {
            self.base_audit
        } else {
            self.steps[pos.min(self.steps.len()) - 1].audit
        }
    }

    /// Virtual time (ms) at a position.
    pub fn time_at(&self, pos: usize) -> i64 {
        if pos == 0 || self.steps.is_empty() {
            self.base_time
        } else {
            self.steps[pos.min(self.steps.len()) - 1].msg.time_ms
        }
    }

    /// What kubectl's printers take as "now" (Unix ms).
    pub fn now_unix(&self, pos: usize) -> i64 {
        EPOCH_MS + self.time_at(pos)
    }

    pub fn current(&self, pos: usize) -> Option<&Step> {
        if pos == 0 {
            None
        } else {
            self.steps.get(pos - 1)
        }
    }

    /// kube-apiserver's authorization of request `id` (shown at step `pos`): the decision its
    /// response carries, if it comes within the next few hundred steps.
    pub fn response_authz(&self, pos: usize, id: MsgId) -> Option<Rc<crate::apiserver::authorizer::Authorized>> {
        self.steps.get(pos.saturating_sub(1)..)?.iter().take(400).find_map(|x| match &x.msg.kind {
            crate::trace::MessageKind::Response { authz: Some(a), .. } if x.msg.cause == Some(id) => Some(a.clone()),
            _ => None,
        })
    }

    pub fn step_of(&self, id: MsgId) -> Option<usize> {
        self.index.get(&id).copied()
    }

    /// Objects of a resource in `ns` ("" = all) as of the position.
    pub fn objects(&self, resource: &str, ns: &str, pos: usize) -> Vec<Value> {
        let Some(info) = meta::lookup(resource) else { return Vec::new() };
        let view = self.cluster.view();
        let rev = self.rev_at(pos);
        // at the cluster's latest revision the watch cache has every object decoded already
        let rev = (rev != view.etcd_revision()).then_some(rev);
        view.objects(info, ns, rev)
    }

    /// One object as of the position.
    pub fn object(&self, resource: &str, ns: &str, name: &str, pos: usize) -> Option<Value> {
        let info = meta::lookup(resource)?;
        let key = info.etcd_key(ns, name);
        self.value_of_key(&key, self.rev_at(pos))
    }

    /// The JSON stored at `key` as of `rev`.
    pub fn value_of_key(&self, key: &str, rev: i64) -> Option<Value> {
        let kv = self.cluster.view().etcd_get(key, Some(rev)).ok()??;
        let mut v: Value = serde_json::from_str(kv.value.as_deref()?).ok()?;
        meta::set(&mut v, &["metadata", "resourceVersion"], serde_json::json!(kv.mod_revision.to_string()));
        Some(v)
    }

    /// Every HorizontalPodAutoscaler's status history up to the position: each write of it in
    /// the steps so far (at most the last 400 per HPA).
    pub fn hpa_histories(&self, pos: usize) -> Vec<HpaHistory> {
        const PREFIX: &str = "/registry/horizontalpodautoscalers/";
        let mut writes: BTreeMap<String, Vec<(i64, i64)>> = BTreeMap::new();
        for st in &self.steps[..pos.min(self.steps.len())] {
            if let MessageKind::EtcdTxn { key, revision, op } = &st.msg.kind {
                if key.starts_with(PREFIX) {
                    let e = writes.entry(key.clone()).or_default();
                    if *op == "DELETE" {
                        e.clear();
                    } else {
                        e.push((st.msg.time_ms, *revision));
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (key, revs) in writes {
            let Some(now) = self.value_of_key(&key, self.rev_at(pos)) else { continue };
            let metric = meta::get_array(&now, &["spec", "metrics"]).iter().find(|m| meta::get_str(m, &["type"]) == "Resource" && meta::get_str(m, &["resource", "name"]) == "cpu").cloned();
            let target_pct = metric.as_ref().and_then(|m| meta::get_i64(m, &["resource", "target", "averageUtilization"]));
            let mut points = Vec::new();
            for (t, rev) in revs.iter().rev().take(400).rev() {
                let Some(v) = self.value_of_key(&key, *rev) else { continue };
                let util = meta::get_array(&v, &["status", "currentMetrics"])
                    .iter()
                    .find(|m| meta::get_str(m, &["resource", "name"]) == "cpu")
                    .and_then(|m| meta::get_i64(m, &["resource", "current", "averageUtilization"]));
                points.push((*t, util, meta::get_i64(&v, &["status", "currentReplicas"]).unwrap_or(0), meta::get_i64(&v, &["status", "desiredReplicas"]).unwrap_or(0)));
            }
            out.push(HpaHistory {
                name: meta::name(&now).to_string(),
                target: format!("{}/{}", meta::get_str(&now, &["spec", "scaleTargetRef", "kind"]), meta::get_str(&now, &["spec", "scaleTargetRef", "name"])),
                min: meta::get_i64(&now, &["spec", "minReplicas"]).unwrap_or(1),
                max: meta::get_i64(&now, &["spec", "maxReplicas"]).unwrap_or(1),
                target_pct,
                points,
            });
        }
        out
    }

    /// Every Deployment's rollout as of the position: its ReplicaSets (newest revision first) with
    /// their counts, and the window maxSurge and maxUnavailable allow (the Rollout tab).
    pub fn rollouts(&self, pos: usize) -> Vec<RolloutView> {
        use crate::controllers::deployment::util as du;
        let rss = self.objects("replicasets", "", pos);
        let count = |o: &Value, f: &str| meta::get_i64(o, &["status", f]).unwrap_or(0);
        self.objects("deployments", "", pos)
            .iter()
            .filter(|d| !is_system(d))
            .map(|d| {
                let replicas = meta::get_i64(d, &["spec", "replicas"]).unwrap_or(1);
                let template = meta::get(d, &["spec", "template"]);
                let mut sets: Vec<RsBar> = rss
                    .iter()
                    .filter(|rs| meta::controller_of(rs).map(|o| meta::get_str(o, &["uid"]) == meta::uid(d)).unwrap_or(false))
                    .map(|rs| RsBar {
                        name: meta::name(rs).to_string(),
                        revision: meta::annotation(rs, "deployment.kubernetes.io/revision").unwrap_or("").to_string(),
                        images: meta::get(rs, &["spec", "template", "spec", "containers"])
                            .and_then(Value::as_array)
                            .map(|cs| cs.iter().map(|c| meta::get_str(c, &["image"]).to_string()).collect::<Vec<_>>().join(", "))
                            .unwrap_or_default(),
                        desired: meta::get_i64(rs, &["spec", "replicas"]).unwrap_or(1),
                        current: count(rs, "replicas"),
                        ready: count(rs, "readyReplicas"),
                        available: count(rs, "availableReplicas"),
                        is_new: crate::kubectl::describe::equal_ignore_hash(meta::get(rs, &["spec", "template"]), template),
                    })
                    .collect();
                sets.csort_by_key(|b| std::cmp::Reverse(b.revision.parse::<i64>().unwrap_or(0)));
                let rolling = meta::get_str(d, &["spec", "strategy", "type"]) != "Recreate";
                let progressing = meta::get(d, &["status", "conditions"])
                    .and_then(Value::as_array)
                    .and_then(|c| meta::find_condition(c, "Progressing"))
                    .map(|c| (meta::get_str(c, &["status"]).to_string(), meta::get_str(c, &["reason"]).to_string()));
                let text = |k: &str| {
                    meta::get(d, &["spec", "strategy", "rollingUpdate", k]).map(|v| match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                };
                RolloutView {
                    name: meta::name(d).to_string(),
                    namespace: meta::namespace(d).to_string(),
                    revision: meta::annotation(d, "deployment.kubernetes.io/revision").unwrap_or("").to_string(),
                    rolling,
                    replicas,
                    max_surge: du::max_surge(d) as i64,
                    max_unavailable: du::max_unavailable(d) as i64,
                    surge_text: text("maxSurge").unwrap_or_else(|| "25%".into()),
                    unavailable_text: text("maxUnavailable").unwrap_or_else(|| "25%".into()),
                    paused: meta::get(d, &["spec", "paused"]).and_then(Value::as_bool).unwrap_or(false),
                    progressing,
                    total: sets.iter().map(|b| b.current).sum(),
                    available: sets.iter().map(|b| b.available).sum(),
                    sets,
                }
            })
            .collect()
    }

    /// `kubectl get deploy,rs,pods -o wide` as of the position, line by line.
    pub fn objects_lines(&self, pos: usize) -> Vec<ObjLine> {
        let now = self.now_unix(pos);
        let mut out = Vec::new();
        let kinds = [
            ("deployments", "Deployment"),
            ("replicasets", "ReplicaSet"),
            ("pods", "Pod"),
            ("configmaps", "ConfigMap"),
            ("secrets", "Secret"),
            ("serviceaccounts", "ServiceAccount"),
            ("roles", "Role"),
            ("rolebindings", "RoleBinding"),
        ];
        for (res, kind) in kinds {
            // what every namespace gets (the root CA, the default account) is left out: the
            // panel shows what the manifests made
            let objs: Vec<Value> = self
                .objects(res, "default", pos)
                .into_iter()
                .filter(|o| !matches!((kind, meta::name(o)), ("ConfigMap", crate::controllers::rootcacertpublisher::ROOT_CA_CONFIG_MAP) | ("ServiceAccount", "default")))
                .collect();
            if objs.is_empty() {
                continue;
            }
            if !out.is_empty() {
                out.push(ObjLine { text: String::new(), target: None });
            }
            let table = printers::print_table(kind, &objs, true, true, now);
            for (i, line) in table.lines().enumerate() {
                let target = if i == 0 { None } else { objs.get(i - 1).map(|o| (res.to_string(), meta::name(o).to_string())) };
                out.push(ObjLine { text: line.to_string(), target });
            }
        }
        if out.is_empty() {
            out.push(ObjLine { text: "No resources found in default namespace.".into(), target: None });
        }
        out
    }

    /// `kubectl describe` of one object as of the position.
    pub fn describe(&self, resource: &str, name: &str, pos: usize) -> String {
        let ns = "default";
        let Some(info) = meta::lookup(resource) else {
            return String::new();
        };
        let obj_ns = if info.namespaced { ns } else { "" };
        let Some(obj) = self.object(resource, obj_ns, name, pos) else {
            return format!("Error from server (NotFound): {} \"{}\" not found\n", info.qualified(), name);
        };
        let uid = meta::uid(&obj).to_string();
        let events: Vec<Value> = self
            .objects("events", ns, pos)
            .into_iter()
            .filter(|e| {
                meta::get_str(e, &["involvedObject", "uid"]) == uid
                    || (meta::get_str(e, &["involvedObject", "name"]) == name && meta::get_str(e, &["involvedObject", "kind"]) == info.kind && meta::get_str(e, &["involvedObject", "uid"]).is_empty())
            })
            .collect();
        let now = self.now_unix(pos);
        let owned_by = |o: &Value| meta::controller_of(o).map(|r| meta::get_str(r, &["uid"]) == uid).unwrap_or(false);
        match info.kind {
            "Deployment" => {
                let rss: Vec<Value> = self.objects("replicasets", ns, pos).into_iter().filter(|r| owned_by(r)).collect();
                printers::describe_deployment(&obj, &rss, &events, now)
            }
            "ReplicaSet" => {
                let pods: Vec<Value> = self.objects("pods", ns, pos).into_iter().filter(|p| owned_by(p)).collect();
                printers::describe_replica_set(&obj, &pods, &events, now)
            }
            "Pod" => printers::describe_pod(&obj, &events, now),
            "Node" => {
                let pods: Vec<Value> = self.objects("pods", "", pos).into_iter().filter(|p| meta::get_str(p, &["spec", "nodeName"]) == name).collect();
                let lease = self.objects("leases", "kube-node-lease", pos).into_iter().find(|l| meta::name(l) == name);
                crate::kubectl::describe::describe_node_with_lease(&obj, lease.as_ref(), &pods, &events, now)
            }
            "ConfigMap" => crate::kubectl::describe::describe_config_map(&obj, &events, now),
            "Secret" => crate::kubectl::describe::describe_secret(&obj),
            "ServiceAccount" => crate::kubectl::describe::describe_service_account(&obj, &events, now),
            "Role" | "ClusterRole" => crate::kubectl::describe::describe_role(&obj),
            "RoleBinding" | "ClusterRoleBinding" => crate::kubectl::describe::describe_role_binding(&obj),
            _ => printers::to_yaml(&obj),
        }
    }

    /// `kubectl get events` (namespace default) as of the position.
    pub fn events_text(&self, pos: usize) -> String {
        let evs = self.objects("events", "default", pos);
        if evs.is_empty() {
            return "No resources found in default namespace.\n".into();
        }
        printers::print_events_owned(evs, self.now_unix(pos))
    }

    /// The Events of the default namespace as `kubectl get events --watch` prints them when
    /// started before the timeline: one line per ADDED or MODIFIED Event, in the order etcd stored
    /// them, each with the age it had when it arrived (kubectl prints lines as they come), in
    /// columns that only grow.
    pub fn events_watch_text(&self, pos: usize) -> String {
        let mut table = kubectl::WatchTable::default();
        let mut out = String::new();
        let mut header = true;
        for st in &self.steps[..pos.min(self.steps.len())] {
            let MessageKind::EtcdTxn { op: "PUT", key, revision } = &st.msg.kind else {
                continue;
            };
            if !key.starts_with("/registry/events/default/") {
                continue;
            }
            let Some(e) = self.value_of_key(key, *revision) else {
                continue;
            };
            let (h, rows) = printers::print_table_cells("Event", std::slice::from_ref(&e), false, EPOCH_MS + st.msg.time_ms);
            out.push_str(&table.lines(header.then_some(h.as_slice()), &rows));
            header = false;
        }
        if out.is_empty() {
            out.push_str("(no events yet: kubectl keeps watching)\n");
        }
        out
    }

    /// Audit rows of the requests made up to the position.
    pub fn audit_upto(&self, pos: usize) -> &[AuditRow] {
        let n = self.audit_at(pos).saturating_sub(self.base_audit).min(self.audit_rows.len());
        &self.audit_rows[..n]
    }

    /// The audit lines kube-apiserver still keeps, up to the position (those of the cluster's
    /// start included: the log a query searches).
    pub fn audit_lines_upto(&self, pos: usize) -> &[String] {
        let view = self.cluster.view();
        let dropped = view.audit_total() as usize - view.audit().len();
        let lines = view.audit();
        &lines[..self.audit_at(pos).saturating_sub(dropped).min(lines.len())]
    }

    /// Audit events recorded but no longer kept (kube-apiserver's bounds), for the panel to say.
    pub fn audit_dropped(&self) -> u64 {
        let view = self.cluster.view();
        view.audit_total() - view.audit().len() as u64
    }

    /// The values the Audit panel's filters offer: (resources, verbs, users) of the rows up to the
    /// position, each sorted and without repeats.
    pub fn audit_filter_options(&self, pos: usize) -> (Vec<String>, Vec<String>, Vec<String>) {
        let n = self.audit_upto(pos).len();
        let [a, b, c] = [0, 1, 2].map(|k| {
            let mut v: Vec<String> = self.audit_values[k].iter().filter(|(_, first)| *first < n).map(|(x, _)| x.clone()).collect();
            v.sort();
            v
        });
        (a, b, c)
    }

    /// A CloudWatch Logs Insights query over the audit log as it is at the position.
    pub fn audit_query(&self, pos: usize, text: &str) -> Result<crate::apiserver::audit::insights::Results, crate::apiserver::audit::insights::QueryError> {
        let ctx = crate::apiserver::audit::insights::LogContext::eks(self.cluster.seed());
        crate::apiserver::audit::insights::query(text, self.audit_lines_upto(pos), &ctx)
    }

    /// Keys under /registry/ as of the position, with their mod revision.
    pub fn etcd_keys(&self, pos: usize) -> Vec<(String, i64)> {
        self.cluster.view().etcd_key_revisions("/registry/", Some(self.rev_at(pos))).unwrap_or_default()
    }

    /// The key written by the latest etcd transaction at or before the position.
    pub fn last_written_key(&self, pos: usize) -> Option<String> {
        self.steps[..pos.min(self.steps.len())].iter().rev().find_map(|s| match &s.msg.kind {
            MessageKind::EtcdTxn { key, .. } => Some(key.clone()),
            _ => None,
        })
    }

    /// (value at the position, mod revision, diff against the key's previous version).
    pub fn etcd_entry(&self, key: &str, pos: usize) -> Option<EtcdEntry> {
        let rev = self.rev_at(pos);
        let kv = self.cluster.view().etcd_get(key, Some(rev)).ok()??;
        let value: Value = serde_json::from_str(kv.value.as_deref().unwrap_or("null")).unwrap_or(Value::Null);
        let prev = self.cluster.view().etcd_change_at(kv.mod_revision).and_then(|c| c.prev).and_then(|p| p.value).and_then(|v| serde_json::from_str::<Value>(&v).ok());
        let diff = match &prev {
            Some(p) => json_diff(p, &value),
            None => vec![DiffLine { op: '+', path: String::new(), old: String::new(), new: "(created)".into() }],
        };
        Some(EtcdEntry {
            key: key.to_string(),
            mod_revision: kv.mod_revision,
            create_revision: kv.create_revision,
            version: kv.version,
            pretty: serde_json::to_string_pretty(&value).unwrap_or_default(),
            diff,
        })
    }

    /// The scheduler's attempts of this session, up to the position's time.
    pub fn attempts(&self, pos: usize) -> Vec<&Attempt> {
        let t = self.time_at(pos);
        self.cluster.view().scheduler_attempts().iter().filter(|a| a.time_ms <= t && a.time_ms >= self.base_time).collect()
    }

    /// Pods for the diagram.
    /// kubectl's STATUS column for a Pod at a position (`Pending`, `CrashLoopBackOff`, …).
    pub fn pod_status(&self, pod: &Value, pos: usize) -> String {
        pod_row(pod, self.now_unix(pos)).get(2).cloned().unwrap_or_default()
    }

    pub fn pod_chips(&self, pos: usize) -> Vec<PodChip> {
        let now = self.now_unix(pos);
        // owners in creation order (a rolling update's old ReplicaSet before the new one)
        let mut owners: Vec<(String, String)> = ["replicasets", "statefulsets", "daemonsets", "jobs"]
            .iter()
            .flat_map(|r| self.objects(r, "", pos))
            .filter(|o| !is_system(o))
            .map(|o| (meta::get_str(&o, &["metadata", "creationTimestamp"]).to_string(), meta::get_str(&o, &["metadata", "uid"]).to_string()))
            .collect();
        owners.sort();
        self.objects("pods", "", pos)
            .iter()
            .filter(|p| !is_system(p))
            .map(|p| {
                let name = meta::name(p).to_string();
                let owner_ref = meta::controller_of(p);
                let owner = owner_ref.map(|r| format!("{} {}", meta::get_str(r, &["kind"]), meta::get_str(r, &["name"]))).unwrap_or_default();
                let tone = owner_ref.and_then(|r| owners.iter().position(|o| o.1 == meta::get_str(r, &["uid"])));
                let labels = meta::labels(p);
                let hash = ["pod-template-hash", "controller-revision-hash"].iter().find_map(|k| labels.get(*k).and_then(|v| v.as_str())).unwrap_or("").to_string();
                let images = meta::get_array(p, &["spec", "containers"]).iter().map(|c| meta::get_str(c, &["image"]).to_string()).collect::<Vec<_>>().join(", ");
                let row = pod_row(p, now);
                let ready = row.get(1).cloned().unwrap_or_default();
                let status = row.get(2).cloned().unwrap_or_default();
                let restarts = row.get(3).and_then(|r| r.split_whitespace().next()).map(String::from).unwrap_or_else(|| "0".into());
                let node = meta::get_str(p, &["spec", "nodeName"]).to_string();
                let all_ready = {
                    let mut it = ready.split('/');
                    let a = it.next().unwrap_or("0");
                    let b = it.next().unwrap_or("1");
                    a == b && a != "0"
                };
                let class = if meta::is_deleting(p) {
                    "terminating"
                } else if node.is_empty() {
                    "unscheduled"
                } else if status.contains("Err") || status.contains("BackOff") || status == "Failed" || status == "Error" {
                    "failed"
                } else if status == "Running" && all_ready {
                    "ready"
                } else if status == "Running" {
                    "running"
                } else if status == "Completed" {
                    "done"
                } else {
                    "creating"
                };
                // the restart count travels with the status: `CrashLoopBackOff ↻3`
                let status = if restarts != "0" && !restarts.is_empty() { format!("{} ↻{}", status, restarts) } else { status };
                PodChip { short: short_pod_name(&name), name, node, status, ready, class, owner, hash, images, tone }
            })
            .collect()
    }

    /// Deployments and ReplicaSets (all namespaces) for the controller boxes.
    pub fn workloads(&self, resource: &str, pos: usize) -> Vec<Workload> {
        self.objects(resource, "", pos)
            .iter()
            .filter(|o| !is_system(o))
            .map(|o| Workload { name: meta::name(o).to_string(), ready: meta::get_i64(o, &["status", "readyReplicas"]).unwrap_or(0), desired: meta::get_i64(o, &["spec", "replicas"]).unwrap_or(1) })
            .collect()
    }

    /// Whether CoreDNS runs (the kube-dns Service exists): the diagram draws its box.
    pub fn coredns(&self, pos: usize) -> bool {
        self.objects("services", "kube-system", pos).iter().any(|s| meta::name(s) == "kube-dns")
    }

    /// Whether ingress-nginx runs (its controller's Service exists): the diagram draws its box.
    pub fn ingress_nginx(&self, pos: usize) -> bool {
        self.objects("services", crate::ingressnginx::NAMESPACE, pos).iter().any(|s| meta::name(s) == "ingress-nginx-controller")
    }

    /// Whether metrics-server runs (its Service exists): the diagram draws its box.
    pub fn metrics_server(&self, pos: usize) -> bool {
        self.objects("services", "kube-system", pos).iter().any(|s| meta::name(s) == "metrics-server")
    }

    /// The Services as of the position (not `default/kubernetes`, the API server's own, nor the
    /// system's add-ons, drawn as their components), with their EndpointSlices' ready counts:
    /// the diagram's Services row.
    pub fn services(&self, pos: usize) -> Vec<ServiceChip> {
        let slices = self.objects("endpointslices", "", pos);
        self.objects("services", "", pos)
            .iter()
            .filter(|s| !(meta::namespace(s) == "default" && meta::name(s) == "kubernetes") && !is_system(s))
            .map(|s| {
                let (ns, name) = (meta::namespace(s), meta::name(s));
                let mut ready = 0;
                let mut total = 0;
                for sl in slices.iter().filter(|sl| meta::namespace(sl) == ns && meta::get_str(sl, &["metadata", "labels", "kubernetes.io/service-name"]) == name) {
                    for e in meta::get_array(sl, &["endpoints"]) {
                        total += 1;
                        if meta::get(e, &["conditions", "ready"]).and_then(|r| r.as_bool()) != Some(false) {
                            ready += 1;
                        }
                    }
                }
                let ports: Vec<String> = meta::get_array(s, &["spec", "ports"])
                    .iter()
                    .map(|p| match meta::get_i64(p, &["nodePort"]) {
                        Some(np) => format!("{}:{}", meta::get_i64(p, &["port"]).unwrap_or(0), np),
                        None => meta::get_i64(p, &["port"]).unwrap_or(0).to_string(),
                    })
                    .collect();
                ServiceChip { namespace: ns.to_string(), name: name.to_string(), cluster_ip: meta::get_str(s, &["spec", "clusterIP"]).to_string(), ports: ports.join(","), ready, total }
            })
            .collect()
    }

    /// The Network panel as of the position: `kubectl get svc,endpointslices -A -o wide`, and
    /// the `iptables-save` kube-proxy writes for those objects (None: no Service but the
    /// API server's own).
    pub fn network_text(&self, pos: usize) -> Option<(String, String)> {
        let svcs = self.objects("services", "", pos);
        if svcs.iter().all(|s| meta::namespace(s) == "default" && meta::name(s) == "kubernetes") {
            return None;
        }
        let slices = self.objects("endpointslices", "", pos);
        let now = self.now_unix(pos);
        let with_kind = |kind: &str, objs: &[Value]| printers::add_namespace_column(&printers::print_table(kind, objs, true, true, now), objs);
        let tables = format!("{}\n{}", with_kind("Service", &svcs), with_kind("EndpointSlice", &slices));
        let s_refs: Vec<&Value> = svcs.iter().collect();
        let e_refs: Vec<&Value> = slices.iter().collect();
        let rules = crate::proxy::iptables::proxier::iptables_save(&crate::proxy::iptables::proxier::service_ports(&s_refs, &e_refs));
        Some((tables, rules))
    }

    /// The Network panel's Ingress part as of the position: `kubectl get ingress -A -o wide` and
    /// the servers ingress-nginx builds from them (None: no Ingress).
    pub fn ingress_text(&self, pos: usize) -> Option<(String, String)> {
        let ings = self.objects("ingresses", "", pos);
        if ings.is_empty() {
            return None;
        }
        let now = self.now_unix(pos);
        let table = printers::add_namespace_column(&printers::print_table("Ingress", &ings, true, true, now), &ings);
        let store = |r: &str| {
            let mut st = crate::client::Store::default();
            st.replace(self.objects(r, "", pos));
            st
        };
        let (services, slices, secrets) = (store("services"), store("endpointslices"), store("secrets"));
        let mut refs: Vec<&Value> = ings.iter().collect();
        crate::ingressnginx::controller::sort_ingresses(&mut refs);
        Some((table, crate::ingressnginx::controller::build(&refs, &services, &slices, &secrets).describe()))
    }

    /// The Network panel's NetworkPolicy part as of the position: `kubectl get netpol -A` and,
    /// per policy, the Pods it selects and the directions it isolates them in (None: no policy).
    pub fn netpol_text(&self, pos: usize) -> Option<(String, String)> {
        let pols = self.objects("networkpolicies", "", pos);
        if pols.is_empty() {
            return None;
        }
        let now = self.now_unix(pos);
        let table = printers::add_namespace_column(&printers::print_table("NetworkPolicy", &pols, true, true, now), &pols);
        let pods = self.objects("pods", "", pos);
        let mut out = String::new();
        for np in &pols {
            let types: Vec<&str> = meta::get_array(np, &["spec", "policyTypes"]).iter().filter_map(Value::as_str).collect();
            let selected: Vec<&str> = pods
                .iter()
                .filter(|p| meta::namespace(p) == meta::namespace(np) && meta::selector_matches(meta::get(np, &["spec", "podSelector"]), &meta::labels(p)))
                .map(|p| meta::name(p))
                .collect();
            out.push_str(&format!(
                "{}/{} isolates for {}: {}\n",
                meta::namespace(np),
                meta::name(np),
                types.join(" and ").to_lowercase(),
                if selected.is_empty() { "(no Pod yet)".to_string() } else { selected.join(", ") }
            ));
        }
        Some((table, out))
    }

    /// The Pods the Network panel can explain (`namespace/name`, the learner's, with an address),
    /// and the one to show: `want` if it is one of them, else the Pod of the step, else the first
    /// Pod a policy selects, else the first.
    pub fn netpol_pods(&self, pos: usize, want: Option<&str>) -> (Vec<String>, Option<String>) {
        let pods = self.objects("pods", "", pos);
        let keys: Vec<String> = pods
            .iter()
            .filter(|p| !is_system(p) && !meta::get_str(p, &["status", "podIP"]).is_empty())
            .map(|p| format!("{}/{}", meta::namespace(p), meta::name(p)))
            .collect();
        let pols = self.objects("networkpolicies", "", pos);
        let selected_by_policy = pods
            .iter()
            .filter(|p| !is_system(p) && pols.iter().any(|np| meta::namespace(np) == meta::namespace(p) && meta::selector_matches(meta::get(np, &["spec", "podSelector"]), &meta::labels(p))))
            .map(|p| format!("{}/{}", meta::namespace(p), meta::name(p)))
            .find(|k| keys.contains(k));
        let pick = want
            .map(str::to_string)
            .filter(|k| keys.contains(k))
            .or_else(|| self.pod_of_step(pos).filter(|k| keys.contains(k)))
            .or(selected_by_policy)
            .or_else(|| keys.first().cloned());
        (keys, pick)
    }

    /// The Network panel's view of one Pod: the policies isolating it each way and every other
    /// Pod's connection to and from it, judged by kube-network-policies' own evaluation.
    pub fn netpol_for_pod(&self, pos: usize, pod: &str) -> Option<String> {
        let agent = crate::networkpolicy::KubeNetworkPolicies::from_objects(self.objects("networkpolicies", "", pos), self.objects("pods", "", pos), self.objects("namespaces", "", pos));
        // the port a Pod serves: a declared container port, else the numeric targetPort of a
        // Service selecting it (what clients reach it on), else 80
        let services = self.objects("services", "", pos);
        let port_of = |p: &Value| -> (i64, String) {
            let declared = meta::get_array(p, &["spec", "containers"]).iter().flat_map(|c| meta::get_array(c, &["ports"]).iter()).find_map(|cp| Some((meta::get_i64(cp, &["containerPort"])?, match meta::get_str(cp, &["protocol"]) { "" => "TCP", x => x }.to_string())));
            declared
                .or_else(|| {
                    let labels = meta::labels(p);
                    services.iter().filter(|s| meta::namespace(s) == meta::namespace(p)).find_map(|s| {
                        let sel = meta::get(s, &["spec", "selector"]).and_then(Value::as_object).filter(|m| !m.is_empty())?;
                        if !sel.iter().all(|(k, v)| labels.get(k) == Some(v)) {
                            return None;
                        }
                        let sp = meta::get_array(s, &["spec", "ports"]).first()?;
                        let port = meta::get_i64(sp, &["targetPort"]).or_else(|| meta::get_i64(sp, &["port"]))?;
                        Some((port, match meta::get_str(sp, &["protocol"]) { "" => "TCP", x => x }.to_string()))
                    })
                })
                .unwrap_or((80, "TCP".to_string()))
        };
        agent.explain_pod(pod, &|p| !is_system(p), &port_of)
    }

    /// The nodes of the cluster (every kubelet), registered and Ready as of the position.
    pub fn nodes(&self, pos: usize) -> Vec<NodeInfo> {
        let objs = self.objects("nodes", "", pos);
        sandbox::node_names(&self.cluster)
            .into_iter()
            .map(|n| {
                let o = objs.iter().find(|o| meta::name(o) == n);
                let ready = o
                    .and_then(|o| meta::get(o, &["status", "conditions"]))
                    .and_then(|c| c.as_array())
                    .map(|cs| cs.iter().any(|c| meta::get_str(c, &["type"]) == "Ready" && meta::get_str(c, &["status"]) == "True"))
                    .unwrap_or(false);
                // the last cut or heal of this node before the position
                let cut_off = self.partitions.iter().rev().find(|(i, node, _)| *i < pos && *node == n).map(|p| p.2).unwrap_or(false);
                NodeInfo { registered: o.is_some(), ready, cut_off, name: n }
            })
            .collect()
    }

    /// The pod key most relevant to the current step (for the Scheduler panel's default).
    pub fn pod_of_step(&self, pos: usize) -> Option<String> {
        let s = self.current(pos)?;
        match &s.msg.kind {
            MessageKind::Watch { kind, namespace, name, .. } if *kind == "Pod" => Some(format!("{}/{}", namespace, name)),
            MessageKind::Request { info: p, .. } => {
                if p.resource == "pods" && !p.name.is_empty() {
                    Some(format!("{}/{}", p.namespace, p.name))
                } else {
                    None
                }
            }
            MessageKind::EtcdTxn { key, .. } => key.strip_prefix("/registry/pods/").map(|s| s.to_string()),
            _ => None,
        }
    }
}

/// `nginx-deployment-bf744486c-j5b8n` -> `…-j5b8n`-style short name for chips.
pub fn short_pod_name(name: &str) -> String {
    if name.chars().count() <= 14 {
        return name.to_string();
    }
    match name.rsplit_once('-') {
        Some((_, suffix)) if !suffix.is_empty() && suffix.len() <= 10 => format!("…-{}", suffix),
        _ => format!("{}…", name.chars().take(13).collect::<String>()),
    }
}

/// One etcd key as the etcd panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct EtcdEntry {
    pub key: String,
    pub mod_revision: i64,
    pub create_revision: i64,
    pub version: i64,
    pub pretty: String,
    pub diff: Vec<DiffLine>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DiffLine {
    /// '+' added, '-' removed, '~' changed.
    pub op: char,
    pub path: String,
    pub old: String,
    pub new: String,
}

fn flatten(v: &Value, path: &mut String, out: &mut BTreeMap<String, String>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                flatten(x, path, out);
                path.truncate(len);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, x) in a.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{}]", i));
                flatten(x, path, out);
                path.truncate(len);
            }
        }
        _ => {
            let s = serde_json::to_string(v).unwrap_or_default();
            let s = if s.chars().count() > 120 { format!("{}…", s.chars().take(119).collect::<String>()) } else { s };
            out.insert(path.clone(), s);
        }
    }
}

/// Leaf-by-leaf difference of two JSON values (paths like `status.conditions[0].status`).
pub fn json_diff(old: &Value, new: &Value) -> Vec<DiffLine> {
    let mut a = BTreeMap::new();
    let mut b = BTreeMap::new();
    flatten(old, &mut String::new(), &mut a);
    flatten(new, &mut String::new(), &mut b);
    let mut out = Vec::new();
    for (k, v) in &b {
        match a.get(k) {
            None => out.push(DiffLine { op: '+', path: k.clone(), old: String::new(), new: v.clone() }),
            Some(o) if o != v => out.push(DiffLine { op: '~', path: k.clone(), old: o.clone(), new: v.clone() }),
            _ => {}
        }
    }
    for (k, v) in &a {
        if !b.contains_key(k) {
            out.push(DiffLine { op: '-', path: k.clone(), old: v.clone(), new: String::new() });
        }
    }
    out.csort_by(|x, y| x.path.cmp(&y.path));
    out
}

fn audit_row(line: &str, step: usize) -> AuditRow {
    let v: Value = serde_json::from_str(line).unwrap_or(Value::Null);
    let name = match meta::get_str(&v, &["objectRef", "name"]) {
        "" => meta::get_str(&v, &["responseObject", "metadata", "name"]),
        n => n,
    };
    AuditRow {
        verb: meta::get_str(&v, &["verb"]).to_string(),
        uri: meta::get_str(&v, &["requestURI"]).to_string(),
        user: meta::get_str(&v, &["user", "username"]).to_string(),
        user_agent: meta::get_str(&v, &["userAgent"]).to_string(),
        code: meta::get_i64(&v, &["responseStatus", "code"]).unwrap_or(0),
        level: meta::get_str(&v, &["level"]).to_string(),
        resource: meta::get_str(&v, &["objectRef", "resource"]).to_string(),
        name: name.to_string(),
        kind: meta::get_str(&v, &["requestObject", "kind"]).to_string(),
        step,
    }
}

/// A request path taken apart.

/// Kind for a resource name (`pods` -> `Pod`).
pub fn kind_of(resource: &str) -> &'static str {
    meta::RESOURCES.iter().find(|r| r.resource == resource).map(|r| r.kind).unwrap_or("object")
}

/// (resource, namespace, name) of an etcd key such as `/registry/pods/default/x` or `/registry/minions/n`.
pub fn parse_key(key: &str) -> (String, String, String) {
    let rest = key.strip_prefix("/registry/").unwrap_or(key);
    // the longest etcd prefix that matches (`services/specs` before a plain first segment)
    let known = meta::RESOURCES.iter().filter(|r| rest.starts_with(r.etcd_prefix) && rest[r.etcd_prefix.len()..].starts_with('/')).max_by_key(|r| r.etcd_prefix.len());
    let (resource, tail) = match known {
        Some(r) => (r.resource, &rest[r.etcd_prefix.len() + 1..]),
        // a custom resource: `/registry/<group>/<plural>/…`
        None if rest.split('/').next().map(|g| g.contains('.')).unwrap_or(false) => match rest.splitn(3, '/').collect::<Vec<_>>().as_slice() {
            [_, p, t] => (*p, *t),
            [_, p] => (*p, ""),
            _ => (rest, ""),
        },
        None => match rest.split_once('/') {
            Some((p, t)) => (p, t),
            None => (rest, ""),
        },
    };
    let parts: Vec<&str> = tail.split('/').collect();
    match parts.len() {
        2 => (resource.to_string(), parts[0].to_string(), parts[1].to_string()),
        1 => (resource.to_string(), String::new(), parts[0].to_string()),
        _ => (resource.to_string(), String::new(), String::new()),
    }
}

// ---- editor errors -------------------------------------------------------------------------

/// Where an Apply error belongs in the editor (1-based line and column).
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorMark {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Places kubectl's error output on the manifest's lines: YAML syntax errors by the decoder's
/// position, server-side field errors (`spec.replicas: Invalid value…`, `unknown field
/// "spec.replica"`, `Go struct field DeploymentSpec.spec.replicas`) by finding the field in the
/// YAML, kind/apiVersion problems on their keys. The messages are kubectl's own lines.
pub fn locate_errors(text: &str, stderr: &str) -> Vec<ErrorMark> {
    if stderr.trim().is_empty() {
        return Vec::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let docs = match codec::decode_manifest(text) {
        Err(e) => {
            return vec![ErrorMark { line: e.line.unwrap_or(1).max(1), column: e.column.unwrap_or(1).max(1), message: stderr.trim_end().to_string() }];
        }
        Ok(d) => d,
    };
    // document ranges (0-based line indices)
    let starts: Vec<usize> = docs.iter().map(|d| d.start_line.saturating_sub(1)).collect();
    let range_for = |name: &str| -> (usize, usize) {
        let i = docs.iter().position(|d| !name.is_empty() && meta::name(&d.object) == name).unwrap_or(0);
        let s = starts.get(i).copied().unwrap_or(0);
        let e = starts.get(i + 1).map(|x| x.saturating_sub(1)).unwrap_or(lines.len());
        (s, e.max(s))
    };
    let mut marks: Vec<ErrorMark> = Vec::new();
    let mut doc_name = String::new();
    let full = stderr.trim_end();
    for raw in full.lines() {
        // the object's name appears as `"name"` after `The Kind "` or `name: "`
        if let Some(n) = quoted_after(raw, "is invalid").or_else(|| between(raw, "for name: \"", "\"")) {
            doc_name = n;
        }
        if let Some(n) = between(raw, "The ", " is invalid").and_then(|s| between(&s, "\"", "\"")) {
            doc_name = n;
        }
        let (s, e) = range_for(&doc_name);
        let doc_lines = &lines[s.min(lines.len())..e.min(lines.len())];
        let mut path: Option<String> = None;
        let mut key_only: Option<&str> = None;
        if let Some(p) = between(raw, "unknown field \"", "\"") {
            path = Some(p);
        } else if let Some(rest) = raw.split("Go struct field ").nth(1) {
            let tok = rest.split_whitespace().next().unwrap_or("");
            path = tok.split_once('.').map(|(_, p)| p.to_string());
        } else if raw.contains("no matches for kind") {
            key_only = Some("kind");
        } else if raw.contains("apiVersion not set") || raw.contains("kind not set") {
            key_only = Some("");
        } else {
            let body = raw.trim_start_matches("* ");
            let body = body.rsplit_once(" is invalid: ").map(|(_, b)| b).unwrap_or(body);
            let body = body.split_once("error when creating \"STDIN\": ").map(|(_, b)| b).unwrap_or(body);
            if let Some((p, _)) = body.split_once(": ") {
                if !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || ".[]_-".contains(c)) && p.contains(|c: char| c.is_ascii_lowercase()) {
                    path = Some(p.to_string());
                }
            }
        }
        let loc = match (&path, key_only) {
            (Some(p), _) => Some(locate_path(doc_lines, p)),
            (None, Some(k)) if !k.is_empty() => Some(locate_path(doc_lines, k)),
            (None, Some(_)) => Some((0, 1)),
            _ => None,
        };
        if let Some((l, c)) = loc {
            let msg = raw.trim_start_matches("* ").to_string();
            marks.push(ErrorMark { line: s + l + 1, column: c, message: msg });
        }
    }
    if marks.is_empty() {
        let (s, _) = range_for(&doc_name);
        marks.push(ErrorMark { line: s + 1, column: 1, message: full.to_string() });
    } else if marks.len() > 1 || full.lines().count() > 1 {
        // keep whole-output context on the first mark when kubectl printed a header line
        let header = full.lines().next().unwrap_or("");
        if header.ends_with("is invalid: ") || header.ends_with("is invalid:") {
            for m in marks.iter_mut() {
                m.message = format!("{} {}", header.trim_end(), m.message);
            }
        }
    }
    marks.dedup_by(|a, b| a.line == b.line && a.message == b.message);
    marks
}

fn between(s: &str, a: &str, b: &str) -> Option<String> {
    let i = s.find(a)? + a.len();
    let j = s[i..].find(b)? + i;
    Some(s[i..j].to_string())
}

fn quoted_after(s: &str, marker: &str) -> Option<String> {
    let head = &s[..s.find(marker)?];
    let j = head.rfind('"')?;
    let i = head[..j].rfind('"')?;
    Some(head[i + 1..j].to_string())
}

fn indent_of(l: &str) -> usize {
    l.len() - l.trim_start_matches(' ').len()
}

/// Finds a field path (`spec.template.spec.containers[0].image`) in YAML lines. Returns the
/// 0-based line and the 1-based column of the deepest key found.
pub fn locate_path(lines: &[&str], path: &str) -> (usize, usize) {
    // segments: keys and [index]
    let mut segs: Vec<(String, Option<usize>)> = Vec::new();
    for part in path.split('.') {
        let (k, rest) = part.split_once('[').unwrap_or((part, ""));
        let mut idxs: Vec<usize> = rest.split('[').filter_map(|x| x.trim_end_matches(']').parse().ok()).collect();
        if let Some(first) = idxs.first().copied() {
            segs.push((k.to_string(), Some(first)));
            idxs.remove(0);
        } else {
            segs.push((k.to_string(), None));
        }
    }
    let mut lo = 0usize;
    let mut hi = lines.len();
    let mut parent_indent: isize = -1;
    let mut best = (0usize, 1usize);
    for (key, idx) in segs {
        // find `key:` at the shallowest indentation deeper than the parent within [lo, hi)
        let mut found = None;
        let mut min_indent = usize::MAX;
        for (i, l) in lines.iter().enumerate().take(hi).skip(lo) {
            let t = l.trim_start_matches(' ');
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            // list items: "- key: v" counts as key at indent+2
            let (ind, t2) = if let Some(x) = t.strip_prefix("- ") { (indent_of(l) + 2, x) } else { (indent_of(l), t) };
            if (ind as isize) <= parent_indent {
                if i > lo {
                    break;
                }
                continue;
            }
            if ind < min_indent {
                min_indent = ind;
            }
            if ind == min_indent && (t2.starts_with(&format!("{}:", key)) || t2.starts_with(&format!("\"{}\":", key))) {
                found = Some((i, ind));
                break;
            }
        }
        let Some((line, ind)) = found else {
            return best;
        };
        best = (line, ind + 1);
        // the block under this key
        let mut end = line + 1;
        while end < hi {
            let l = lines[end];
            let t = l.trim_start_matches(' ');
            let ends_block = !t.is_empty() && !t.starts_with('#') && indent_of(l) <= ind;
            let sibling_item = indent_of(l) == ind && t.starts_with("- ");
            if ends_block && !sibling_item {
                break;
            }
            end += 1;
        }
        lo = line + 1;
        hi = end;
        parent_indent = ind as isize;
        if let Some(n) = idx {
            // the n-th "- " item in the block
            let mut count = 0;
            let mut item = None;
            let mut item_indent = None;
            for (i, l) in lines.iter().enumerate().take(hi).skip(lo) {
                let t = l.trim_start_matches(' ');
                if t.starts_with("- ") || t == "-" {
                    let ii = indent_of(l);
                    if item_indent.is_none() {
                        item_indent = Some(ii);
                    }
                    if Some(ii) == item_indent {
                        if count == n {
                            item = Some((i, ii));
                            break;
                        }
                        count += 1;
                    }
                }
            }
            let Some((iline, iind)) = item else {
                return best;
            };
            best = (iline, iind + 1);
            let mut iend = iline + 1;
            while iend < hi {
                let l = lines[iend];
                let t = l.trim_start_matches(' ');
                if !t.is_empty() && !t.starts_with('#') && indent_of(l) <= iind {
                    break;
                }
                iend += 1;
            }
            // keys of the item are at iind+2 (first one on the "- " line itself)
            lo = iline;
            hi = iend;
            parent_indent = iind as isize + 1;
        }
    }
    best
}

/// An object of the cluster's own add-ons (CoreDNS and metrics-server in `kube-system`,
/// ingress-nginx in its namespace): the diagram draws them as the components they are, not among
/// the learner's Pods, workloads and Services.
pub fn is_system(o: &Value) -> bool {
    matches!(meta::namespace(o), "kube-system" | "kube-public" | "kube-node-lease" | crate::ingressnginx::NAMESPACE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::presets;

    #[test]
    fn seed_apply_reaches_three_running_pods_and_time_travels() {
        let mut s = Session::new(1);
        let (out, start) = s.apply(presets::SEED_004);
        assert_eq!(out.stdout, "deployment.apps/nginx-deployment created\n");
        assert_eq!(start, 0);
        assert!(s.len() > 100, "{} steps", s.len());
        let end = s.len();
        let pods = s.pod_chips(end);
        assert_eq!(pods.len(), 3);
        assert!(pods.iter().all(|p| p.status == "Running" && p.ready == "1/1" && p.class == "ready"), "{:?}", pods);
        // at the start: nothing
        assert!(s.pod_chips(0).is_empty());
        assert_eq!(s.objects_lines(0)[0].text, "No resources found in default namespace.");
        // the step that first writes a pod
        let first_pod = s.steps.iter().position(|st| matches!(&st.msg.kind, MessageKind::EtcdTxn { key, .. } if key.starts_with("/registry/pods/"))).unwrap();
        assert_eq!(s.pod_chips(first_pod).len(), 0);
        assert_eq!(s.pod_chips(first_pod + 1).len(), 1);
        let ev = s.events_text(end);
        assert!(ev.contains("Scheduled") && ev.contains("Started"), "{}", ev);
        let objs: Vec<String> = s.objects_lines(end).into_iter().map(|l| l.text).collect();
        assert!(objs.iter().filter(|l| l.contains(" Running ")).count() == 3, "{:?}", objs);
        assert!(objs[0].starts_with("NAME"));
        // audit rows: one per request the policy logs, first is kubectl's GET
        let a = s.audit_upto(end);
        assert_eq!(a[0].verb, "get");
        assert_eq!((a[0].level.as_str(), a[0].code), ("Request", 404));
        assert_eq!((a[1].verb.as_str(), a[1].user.as_str(), a[1].level.as_str()), ("create", "kubernetes-admin", "RequestResponse"));
        assert_eq!((a[1].resource.as_str(), a[1].name.as_str(), a[1].kind.as_str()), ("deployments", "nginx-deployment", "Deployment"));
        assert_eq!(a.len() as u64, s.cluster.view().audit_total() - s.base_audit as u64);
        let requests = s.steps.iter().filter(|st| matches!(st.msg.kind, MessageKind::Request { .. }) && st.msg.to == Actor::ApiServer).count();
        assert!(a.len() < requests, "the policy drops core Events and the kubelets' Node reads: {} of {}", a.len(), requests);
        // rows sit on the step of their request
        for r in a {
            assert!(matches!(&s.steps[r.step].msg.kind, MessageKind::Request { uri, .. } if **uri == *r.uri), "{:?}", r);
        }
        // a pod created by the replicaset controller is named by its response
        let pod = a.iter().find(|r| r.resource == "pods" && r.verb == "create" && r.kind == "Pod").expect("pod create");
        assert!(pod.name.starts_with("nginx-deployment-"), "{:?}", pod);
        let (res, verbs, users) = s.audit_filter_options(end);
        assert!(res.contains(&"replicasets".to_string()) && verbs.contains(&"patch".to_string()) && users.contains(&"system:kube-scheduler".to_string()));
        let q = s.audit_query(end, "fields requestObject.kind | filter objectRef.resource = \"pods\" and verb = \"create\" and user.username = \"system:kube-scheduler\" and objectRef.namespace = \"default\"").expect("query");
        assert_eq!(q.rows.len(), 3);
        assert!(q.rows.iter().all(|r| r[0].as_deref() == Some("Binding")));
        // at step 0 the log holds bootstrap's lines (CoreDNS's Pods), none of the learner's
        assert_eq!(s.audit_query(0, "fields verb | filter objectRef.resource = \"pods\" and verb = \"create\" and objectRef.namespace = \"default\"").expect("query").rows.len(), 0);
        assert!(!s.audit_query(0, "fields verb | filter objectRef.resource = \"pods\" and verb = \"create\"").expect("query").rows.is_empty());
        assert!(s.audit_query(end, "fields verb |").is_err());
        // etcd
        let key = s.last_written_key(end).unwrap();
        let e = s.etcd_entry(&key, end).unwrap();
        assert!(e.pretty.contains("\"kind\""));
        // scheduler attempts
        assert_eq!(s.attempts(end).len(), 3);
        assert!(s.attempts(0).is_empty());
        // describe
        let d = s.describe("deployments", "nginx-deployment", end);
        assert!(d.starts_with("Name:"), "{}", d);
    }

    #[test]
    fn replaying_the_log_gives_the_same_trace() {
        let mut s = Session::new(7);
        s.apply(presets::SEED_004);
        s.console("kubectl scale deployment nginx-deployment --replicas=1", "");
        let r = Session::replay(7, &s.log);
        assert_eq!(r.len(), s.len());
        for (a, b) in r.steps.iter().zip(s.steps.iter()) {
            assert_eq!(a.msg, b.msg);
        }
        // and `kubesim run` of the log gives the same trace too
        assert!(s.log.starts_with("kubectl apply -f - <<EOF\n"));
    }

    #[test]
    fn a_second_session_is_not_affected_by_the_first() {
        let run = || {
            let mut s = Session::new(1);
            s.apply(presets::TOO_BIG);
            s.pod_chips(s.len()).into_iter().map(|c| c.node).collect::<Vec<_>>()
        };
        let fresh = run();
        let mut other = Session::new(1);
        other.apply(presets::BAD_IMAGE);
        assert_eq!(run(), fresh);
    }

    /// Pod chips say CrashLoopBackOff and how many restarts, as the RESTARTS column does.
    #[test]
    fn chips_show_restarts() {
        let mut s = Session::new(1);
        s.apply(presets::SCRIPT_CRASH_LOOP);
        let chips = s.pod_chips(s.len());
        assert_eq!(chips.len(), 1);
        assert!(chips[0].status.starts_with("CrashLoopBackOff ↻") || chips[0].status.starts_with("Running ↻") || chips[0].status.starts_with("Error ↻"), "{:?}", chips[0]);
        assert_eq!(chips[0].class, if chips[0].status.starts_with("Running") { "running" } else { "failed" });
    }

    /// The Rollout tab's data half-way through a rolling update and at its end.
    #[test]
    fn rollout_view_follows_the_rolling_update() {
        let mut s = Session::new(1);
        s.apply(presets::SCRIPT_ROLLING_UPDATE);
        let end = s.len();
        let r = s.rollouts(end);
        assert_eq!(r.len(), 1);
        let r = &r[0];
        assert_eq!((r.name.as_str(), r.revision.as_str(), r.replicas, r.max_surge, r.max_unavailable), ("nginx-deployment", "2", 4, 1, 1));
        assert_eq!((r.surge_text.as_str(), r.unavailable_text.as_str()), ("25%", "25%"));
        assert_eq!(r.sets.len(), 2);
        assert!(r.sets[0].is_new && r.sets[0].revision == "2" && r.sets[0].images == "nginx:1.25");
        assert_eq!((r.sets[0].desired, r.sets[0].current, r.sets[0].available), (4, 4, 4));
        assert_eq!((r.sets[1].desired, r.sets[1].current), (0, 0));
        // somewhere in the middle both ReplicaSets hold Pods, and the window always holds:
        // never more than replicas + maxSurge Pods wanted, never fewer than replicas - maxUnavailable available
        let mut both = false;
        for pos in 0..=end {
            for r in s.rollouts(pos) {
                let desired: i64 = r.sets.iter().map(|b| b.desired).sum();
                assert!(desired <= r.replicas + r.max_surge, "pos {}: {} desired", pos, desired);
                if r.sets.len() == 2 && r.sets.iter().all(|b| b.current > 0) {
                    both = true;
                    assert!(r.available >= r.replicas - r.max_unavailable, "pos {}: {} available", pos, r.available);
                }
            }
        }
        assert!(both, "the two ReplicaSets never held Pods at the same time");
    }

    #[test]
    fn failed_apply_does_not_change_the_log() {
        let mut s = Session::new(1);
        let (out, _) = s.apply("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n  labels: app: x\n");
        assert!(out.stderr.contains("mapping values are not allowed"), "{}", out.stderr);
        assert!(s.log.is_empty());
        assert!(s.is_empty());
    }

    #[test]
    fn errors_are_located() {
        let yaml = presets::SEED_004.replace("  replicas: 3\n", "  replicas: -1\n");
        let mut s = Session::new(1);
        let (out, _) = s.apply(&yaml);
        let marks = locate_errors(&yaml, &out.stderr);
        assert_eq!(marks.len(), 1, "{:?}", marks);
        let line = yaml.lines().position(|l| l.contains("replicas: -1")).unwrap() + 1;
        assert_eq!(marks[0].line, line);
        assert_eq!(marks[0].column, 3);
        assert!(marks[0].message.contains("spec.replicas: Invalid value: -1"), "{:?}", marks);

        let yaml = presets::SEED_004.replace("  replicas: 3\n", "  replica: 3\n");
        let (out, _) = s.apply(&yaml);
        let marks = locate_errors(&yaml, &out.stderr);
        let line = yaml.lines().position(|l| l.contains("replica: 3")).unwrap() + 1;
        assert_eq!(marks[0].line, line, "{:?} {}", marks, out.stderr);

        let yaml = presets::SEED_004.replace("        image: nginx:1.14.2\n", "        image: nginx:1.14.2\n          bad: x\n");
        let (out, _) = s.apply(&yaml);
        let marks = locate_errors(&yaml, &out.stderr);
        assert!(out.stderr.starts_with("error: error parsing STDIN"), "{}", out.stderr);
        assert_eq!(marks[0].message, out.stderr.trim_end());
        assert!(marks[0].line >= 20, "{:?}", marks);

        let yaml = presets::SEED_004.replace("        - containerPort: 80\n", "        - containerPort: \"x\"\n");
        let (out, _) = s.apply(&yaml);
        let marks = locate_errors(&yaml, &out.stderr);
        let line = yaml.lines().position(|l| l.contains("containerPort")).unwrap() + 1;
        assert_eq!(marks[0].line, line, "{:?} {}", marks, out.stderr);
    }

    #[test]
    fn locate_path_walks_lists() {
        let y = "spec:\n  template:\n    spec:\n      containers:\n      - name: a\n        image: x\n      - name: b\n        image: y\n";
        let lines: Vec<&str> = y.lines().collect();
        assert_eq!(locate_path(&lines, "spec.template.spec.containers[1].image"), (7, 9));
        assert_eq!(locate_path(&lines, "spec.template.spec.containers[0].name"), (4, 9));
        assert_eq!(locate_path(&lines, "spec.template.spec.containers[0]"), (4, 7));
        assert_eq!(locate_path(&lines, "spec.nothere"), (0, 1));
    }

    #[test]
    fn keys_and_names() {
        assert_eq!(parse_key("/registry/minions/node-1"), ("nodes".into(), "".into(), "node-1".into()));
        assert_eq!(parse_key("/registry/pods/default/a"), ("pods".into(), "default".into(), "a".into()));
        assert_eq!(short_pod_name("nginx-deployment-bf744486c-j5b8n"), "…-j5b8n");
        assert!(is_script("# x\nkubectl get pods\n"));
        assert!(!is_script("apiVersion: v1\n"));
        // a tutorial's script that writes its files first
        assert!(is_script("mkdir -p base\ncat <<EOF > base/kustomization.yaml\nresources: []\nEOF\nkubectl apply -k base\n"));
        assert_eq!(normalize("a\r\nb"), "a\nb\n");
    }

    #[test]
    fn json_diff_reports_changes() {
        let a = serde_json::json!({"a": 1, "b": {"c": [1, 2]}, "d": "x"});
        let b = serde_json::json!({"a": 2, "b": {"c": [1]}, "e": true});
        let d = json_diff(&a, &b);
        let s: Vec<String> = d.iter().map(|l| format!("{}{}", l.op, l.path)).collect();
        assert_eq!(s, vec!["~a", "-b.c[1]", "-d", "+e"]);
    }

    #[test]
    fn apply_in_slices_gives_the_same_timeline() {
        let text = presets::SEED_004.replace("replicas: 3", "replicas: 12");
        let mut whole = Session::new(5);
        whole.apply(&text);
        let mut sliced = Session::new(5);
        let (out, start) = sliced.apply_begin(&text);
        assert_eq!((out.code, start), (0, 0));
        assert!(sliced.settling().is_some());
        let mut slices = 0;
        let mut budget = 0;
        let mut len = 0;
        while !sliced.settle_some(7, &mut || {
            budget += 1;
            budget % 3 != 0
        }) {
            slices += 1;
            assert!(sliced.len() > len, "each slice's steps join the timeline");
            len = sliced.len();
        }
        assert_eq!(sliced.segments.len(), 1, "one command, one segment, however many slices");
        assert!(slices > 10, "{} slices", slices);
        assert!(sliced.settling().is_none());
        assert_eq!(sliced.len(), whole.len());
        assert_eq!(sliced.log, whole.log);
        let ids = |s: &Session| s.steps.iter().map(|st| st.msg.line()).collect::<Vec<_>>();
        assert_eq!(ids(&sliced), ids(&whole));
    }

    /// Seed 004 ran `kubectl get event --watch` before applying its Deployment and printed 19
    /// lines as they arrived: ScalingReplicaSet first, then per Pod SuccessfulCreate, Scheduled,
    /// Pulling, Pulled, Created, Started, each "0s" old. The Events panel's watch order prints the
    /// same lines in the same order (kubesim's names, its own interleaving of the three Pods).
    #[test]
    fn seed_004_events_in_watch_order() {
        let mut s = Session::new(1);
        s.apply(crate::ui::presets::SEED_004);
        let text = s.events_watch_text(s.len());
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("LAST SEEN   TYPE     REASON"), "{}", text);
        let rows: Vec<Vec<&str>> = lines[1..].iter().map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(rows.len(), 19, "{}", text);
        // "0s" (the seed's lines); an event written in the last milliseconds of a second reads
        // "1s" when it arrives, its lastTimestamp being truncated to the second
        assert!(rows.iter().all(|r| r[0] == "0s" || r[0] == "1s"), "{}", text);
        assert_eq!((rows[0][2], rows[0][3]), ("ScalingReplicaSet", "deployment/nginx-deployment"), "{}", text);
        let mut count = std::collections::BTreeMap::new();
        for r in &rows {
            *count.entry(r[2]).or_insert(0) += 1;
        }
        assert_eq!(
            count.into_iter().collect::<Vec<_>>(),
            vec![("Created", 3), ("Pulled", 3), ("Pulling", 3), ("ScalingReplicaSet", 1), ("Scheduled", 3), ("Started", 3), ("SuccessfulCreate", 3)],
            "{}",
            text
        );
        // each Pod's own lines in the seed's order
        let pods: Vec<String> = rows.iter().filter(|r| r[2] == "SuccessfulCreate").map(|r| r.last().unwrap().to_string()).collect();
        for pod in &pods {
            let mine: Vec<&str> = rows.iter().filter(|r| r.last() == Some(&pod.as_str()) || r[3] == format!("pod/{}", pod)).map(|r| r[2]).collect();
            assert_eq!(mine, ["SuccessfulCreate", "Scheduled", "Pulling", "Pulled", "Created", "Started"], "{}: {}", pod, text);
        }
        // list order (kubectl get events) is by name: not the same
        assert_ne!(s.events_text(s.len()).lines().nth(1).map(|l| l.contains("ScalingReplicaSet")), Some(true));
    }
}

/// `kubectl edit …`: the console line whose input is the editor's text.
pub fn is_edit(args: &[String]) -> bool {
    let args = if args.first().map(String::as_str) == Some("kubectl") { &args[1..] } else { args };
    args.first().map(String::as_str) == Some("edit")
}
