//! Scenario transcripts shared by the native tests (`tests/transcripts.rs`) and the browser tests
//! (`tests/web.rs`): each scenario is a script in `tests/scenarios/NAME.sh` and its expected
//! transcript `NAME.out`, both compiled in with `include_str!` so wasm needs no file system.
//!
//! A script may start with `# seed: N` (default 1). Set `UPDATE_EXPECT=1` when running the native
//! tests to rewrite the `.out` files after an intended change (then review the diff).

/// (name, script, expected transcript)
pub const SCENARIOS: &[(&str, &str, &str)] = &[
    scenario!("seed004_apply"),
    scenario!("seed004_chain"),
    scenario!("seed000_audit"),
    scenario!("seed000_queries"),
    scenario!("apply_update"),
    scenario!("multi_document"),
    scenario!("conflict"),
    scenario!("roundtrip"),
    scenario!("bad_input"),
    scenario!("pending_then_scheduled"),
    scenario!("scheduling_affinity"),
    scenario!("anti_affinity"),
    scenario!("dry_run"),
    scenario!("rc_and_ingress"),
    scenario!("image_pull_backoff"),
    scenario!("scale_up_down"),
    scenario!("cascading_delete"),
    scenario!("kubectl_commands"),
    scenario!("kubectl_console"),
    scenario!("kubectl_config"),
    scenario!("kubectl_wait"),
    scenario!("kubectl_diff"),
    scenario!("kubectl_patch"),
    scenario!("kustomize"),
    scenario!("port_forward"),
    scenario!("attach_cp"),
    scenario!("server_side_apply"),
    scenario!("kubectl_debug"),
    scenario!("kubectl_delete_all"),
    scenario!("trace"),
    scenario!("rolling_update"),
    scenario!("node_failure"),
    scenario!("rollout_undo"),
    scenario!("recreate"),
    scenario!("rollout_pause_restart"),
    scenario!("crash_loop"),
    scenario!("probes"),
    scenario!("teaching_app"),
    scenario!("init_containers"),
    scenario!("sidecars"),
    scenario!("prestop"),
    scenario!("pod_network"),
    scenario!("services"),
    scenario!("dns"),
    scenario!("net_tools"),
    scenario!("pdb_drain"),
    scenario!("hpa"),
    scenario!("autoscale"),
    scenario!("ingress"),
    scenario!("netpol"),
    scenario!("net_expose"),
    scenario!("net_selector_typo"),
    scenario!("net_readiness_rollout"),
    scenario!("net_nodeport"),
    scenario!("service_errors"),
    scenario!("daemonset"),
    scenario!("job"),
    scenario!("cronjob"),
    scenario!("crd"),
    scenario!("crd_operator"),
    scenario!("job_indexed"),
    scenario!("job_retries"),
    scenario!("statefulset"),
    scenario!("statefulset_errors"),
    scenario!("priority_preemption"),
    scenario!("namespace_delete"),
    scenario!("resource_quota"),
    scenario!("fault_restart"),
    scenario!("fault_api_errors"),
    scenario!("fault_watches"),
    scenario!("fault_leader_election"),
    scenario!("fault_partition"),
    scenario!("fault_kubelet_restart"),
    scenario!("chaos"),
    scenario!("stuck_statefulset_docs"),
    scenario!("stuck_workloads"),
    scenario!("any_image"),
    scenario!("kubectl_run"),
    scenario!("configmap_secret"),
    scenario!("configmap_missing"),
    scenario!("configmap_errors"),
    scenario!("rbac_read_only"),
    scenario!("rbac_errors"),
    scenario!("kubectl_set_env"),
    scenario!("event_ttl"),
];

/// Reads the `# seed: N` header.
pub fn seed_of(script: &str) -> u64 {
    script
        .lines()
        .find_map(|l| l.trim().strip_prefix("# seed:").and_then(|s| s.trim().parse().ok()))
        .unwrap_or(1)
}

/// Runs a scenario and returns its transcript.
pub fn run(script: &str) -> String {
    crate::run_script(seed_of(script), script)
}

/// Runs a scenario: its transcript, and the requests of control-plane components that
/// authorization refused (the bootstrap RBAC policy must allow every one).
pub fn run_checked(script: &str) -> (String, Vec<String>) {
    crate::run_script_checked(seed_of(script), script)
}

/// A readable first difference between two transcripts.
pub fn first_difference(want: &str, got: &str) -> Option<String> {
    if want == got {
        return None;
    }
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    for i in 0..w.len().max(g.len()) {
        let (a, b) = (w.get(i).copied().unwrap_or("<end>"), g.get(i).copied().unwrap_or("<end>"));
        if a != b {
            return Some(format!("line {}:\n  want: {}\n  got:  {}", i + 1, a, b));
        }
    }
    Some("transcripts differ in trailing whitespace".into())
}
