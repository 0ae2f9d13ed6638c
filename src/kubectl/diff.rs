//! `kubectl diff -f FILE`: the live objects against what applying the file would make of them,
//! asked of the API server as a dry run (nothing changes), printed as `diff -u -N` prints the
//! two directories kubectl writes.
//!
//! Real counterpart: `staging/src/k8s.io/kubectl/pkg/cmd/diff/diff.go` — for each object of
//! the file, `Live()` is the object the resource builder GETs, `Merged()` is the answer of the
//! apply patch (the same three-way patch `kubectl apply` sends, with the last-applied
//! annotation) sent with `dryRun=All`, or of a dry-run create when the object does not exist;
//! managed fields are omitted, Secret values masked (`Masker`: `***`, or `*** (before)` /
//! `*** (after)` where they differ); both are written as YAML into `LIVE-NNN` and `MERGED-NNN`
//! temporary directories, one file per object named `GROUP.VERSION.KIND.NAMESPACE.NAME`, and
//! `diff -u -N` compares the directories; kubectl exits with diff's status (0: no differences,
//! 1: differences, above 1: an error). kubesim's GNU-diff output is [`unified`] (Myers' algorithm,
//! three lines of context); the directories' numbers and the files' times are derived from the
//! virtual clock, not the host. `--server-side` diffs against a server-side apply dry run. Not
//! modelled: `--prune`, `KUBECTL_EXTERNAL_DIFF`.

use super::*;

/// `kubectl diff -f FILE…`.
pub(super) fn diff(cluster: &mut Cluster, f: &Flags, ns: &str, stdin: Option<&str>, read_file: &dyn Fn(&str) -> Option<String>, out: &mut Output) {
    if f.files.is_empty() && f.kustomize.is_none() {
        return out.err("error: must specify one of -f and -k");
    }
    if !f.files.is_empty() && f.kustomize.is_some() {
        return out.err("error: only one of -f or -k can be specified");
    }
    // -k: the kustomization built, diffed as one file
    let mut sources: Vec<(String, Option<String>)> = f.files.iter().map(|file| if file == "-" { ("STDIN".to_string(), stdin.map(String::from)) } else { (file.clone(), read_file(file)) }).collect();
    if let Some(dir) = &f.kustomize {
        let Some(text) = super::kustomize::build_for(cluster, dir, read_file, out) else {
            out.code = 1;
            return;
        };
        sources.push((dir.clone(), Some(text)));
    }
    let mut pairs: Vec<(String, String, String)> = Vec::new();
    let mut errors = Vec::new();
    for (file, (source, text)) in f.files.iter().chain(f.kustomize.iter()).zip(sources) {
        let Some(text) = text else {
            out.code = 1;
            return out.err(&format!("error: the path \"{}\" does not exist", file));
        };
        let docs = match codec::decode_manifest(&text) {
            Ok(d) => d,
            Err(e) => return out.err(&format!("error: error parsing {}: {}", source, e.message)),
        };
        for doc in docs {
            let info = match apply::resource_mapping(cluster, &doc.object, &source) {
                Ok(i) => i,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            let mut obj = doc.object;
            let obj_ns = if info.namespaced {
                let given = meta::namespace(&obj).to_string();
                if given.is_empty() { ns.to_string() } else { given }
            } else {
                String::new()
            };
            if info.namespaced {
                meta::set(&mut obj, &["metadata", "namespace"], json!(obj_ns));
            }
            let merged = if f.server_side { live_and_applied(cluster, info, &obj_ns, obj, f.force_conflicts) } else { live_and_merged(cluster, info, &obj_ns, obj, &source) };
            match merged {
                Ok((name, live, merged)) => {
                    let (live, merged) = mask_secrets(info, live, merged);
                    let file = format!("{}{}.{}.{}.{}", if info.group.is_empty() { String::new() } else { format!("{}.", info.group) }, info.version, info.kind, obj_ns, name);
                    pairs.push((file, live.map(|o| printers::to_yaml(&o)).unwrap_or_default(), printers::to_yaml(&merged)));
                }
                Err(e) => errors.push(e),
            }
        }
    }
    // the temporary directories, numbered as os.MkdirTemp numbers them (here from the clock)
    let now = cluster.now();
    let (live_dir, merged_dir) = (format!("/tmp/LIVE-{}", 1_000_000_000 + (now * 7919) % 999_999_999), format!("/tmp/MERGED-{}", 1_000_000_000 + (now * 104_729 + 17) % 999_999_999));
    let stamp = file_time(crate::api::time::EPOCH_MS + now);
    // `diff -u -N LIVE MERGED` walks the two directories in file-name order
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut differs = false;
    for (file, live, merged) in &pairs {
        if live == merged {
            continue;
        }
        differs = true;
        let (a, b) = (format!("{}/{}", live_dir, file), format!("{}/{}", merged_dir, file));
        out.out_raw(&format!("diff -u -N {} {}\n", a, b));
        out.out_raw(&unified(&a, &b, &stamp, live, merged));
    }
    for e in &errors {
        out.note(e);
    }
    // kubectl exits with diff's status: 1 for differences (an error is 1 too, as cmdutil reports it)
    if !errors.is_empty() || differs {
        out.code = 1;
    }
}

/// The live object (None when it does not exist) and the dry run's answer.
fn live_and_merged(cluster: &mut Cluster, info: &'static meta::ResourceInfo, ns: &str, obj: Value, source: &str) -> Result<(String, Option<Value>, Value), String> {
    let name = meta::name(&obj).to_string();
    let path = info.object_path(ns, &name);
    let got = kubectl(cluster, Method::Get, &path, None);
    if got.code == 404 {
        let resp = kubectl(cluster, Method::Post, &format!("{}?dryRun=All&fieldManager=kubectl-client-side-apply", info.collection_path(ns)), Some(obj));
        if !resp.ok() {
            return Err(server_error(&resp, Some(("creating", source))));
        }
        return Ok((name, None, without_managed_fields(resp.body)));
    }
    if !got.ok() {
        return Err(server_error(&got, None));
    }
    let live = without_managed_fields(got.body.clone());
    // the apply patch, as `kubectl apply` computes it, but from `GetModifiedConfiguration(obj,
    // annotate=false)`: the last-applied annotation is left as it is; then the three-way patch
    // against the last-applied configuration and the current object
    let modified = apply::modified_configuration(&obj);
    // the patcher GETs the object again before it patches
    let current = kubectl(cluster, Method::Get, &path, None);
    if !current.ok() {
        return Err(server_error(&current, None));
    }
    let original: Value = meta::annotation(&current.body, apply::LAST_APPLIED).and_then(|s| serde_json::from_str(s).ok()).unwrap_or(json!({}));
    let patch = patch::three_way_merge_patch(&original, &modified, &current.body);
    if patch.as_object().is_none_or(|p| p.is_empty()) {
        return Ok((name, Some(live.clone()), live));
    }
    let resp = cluster.client_request(&kubectl_identity(), Request { method: Method::Patch, path: format!("{}?dryRun=All&fieldManager=kubectl-client-side-apply", path), body: Some(patch), patch_type: PatchType::Merge });
    if !resp.ok() {
        return Err(server_error(&resp, None));
    }
    Ok((name, Some(live), without_managed_fields(resp.body)))
}

/// `--server-side`: the live object and the answer to a server-side apply of the file's object
/// as a dry run (`InfoObject.Merged`: an apply patch with field manager
/// `kubectl-client-side-apply`, diff's default, and `--force-conflicts`).
fn live_and_applied(cluster: &mut Cluster, info: &'static meta::ResourceInfo, ns: &str, obj: Value, force: bool) -> Result<(String, Option<Value>, Value), String> {
    let name = meta::name(&obj).to_string();
    let path = info.object_path(ns, &name);
    let got = kubectl(cluster, Method::Get, &path, None);
    let live = match got.code {
        404 => None,
        _ if got.ok() => Some(without_managed_fields(got.body)),
        _ => return Err(server_error(&got, None)),
    };
    let query = format!("{}?dryRun=All&fieldManager=kubectl-client-side-apply{}", path, if force { "&force=true" } else { "" });
    let resp = cluster.client_request(&kubectl_identity(), Request { method: Method::Patch, path: query, body: Some(obj), patch_type: PatchType::Apply });
    if !resp.ok() {
        return Err(server_error(&resp, None));
    }
    Ok((name, live, without_managed_fields(resp.body)))
}

/// `omitManagedFields`.
fn without_managed_fields(mut o: Value) -> Value {
    meta::remove(&mut o, &["metadata", "managedFields"]);
    o
}

/// diff.go's `Masker`: a Secret's values become `***`; a key whose value differs between the two
/// becomes `*** (before)` and `*** (after)`, so the diff still shows that it changed.
fn mask_secrets(info: &meta::ResourceInfo, live: Option<Value>, merged: Value) -> (Option<Value>, Value) {
    if info.kind != "Secret" {
        return (live, merged);
    }
    let (mut from, mut to) = (live, merged);
    for field in ["data", "stringData"] {
        let before = from.as_ref().and_then(|o| o.get(field)).and_then(Value::as_object).cloned().unwrap_or_default();
        let after = to.get(field).and_then(Value::as_object).cloned().unwrap_or_default();
        for (k, v) in &after {
            let masked = match before.get(k) {
                Some(b) if b != v => ("*** (before)", "*** (after)"),
                _ => ("***", "***"),
            };
            if let Some(o) = from.as_mut().and_then(|o| o.get_mut(field)).and_then(Value::as_object_mut).filter(|m| m.contains_key(k)) {
                o.insert(k.clone(), json!(masked.0));
            }
            to[field][k] = json!(masked.1);
        }
        for k in before.keys().filter(|k| !after.contains_key(*k)) {
            if let Some(o) = from.as_mut().and_then(|o| o.get_mut(field)).and_then(Value::as_object_mut) {
                o.insert(k.clone(), json!("***"));
            }
        }
    }
    (from, to)
}

/// A file time as GNU diff prints it: `2026-11-29 16:20:01.123000000 +0000`.
fn file_time(unix_ms: i64) -> String {
    let rfc = crate::api::time::unix_rfc3339(unix_ms);
    format!("{} {}.{:03}000000 +0000", &rfc[..10], &rfc[11..19], unix_ms.rem_euclid(1000))
}

/// One edit of the script from `a` to `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Edit {
    Keep,
    Delete,
    Insert,
}

/// Myers' O(ND) shortest edit script, deletions before insertions where both are possible.
fn myers(a: &[&str], b: &[&str]) -> Vec<Edit> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    let off = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    'outer: for d in 0..=max as isize {
        trace.push(v.clone());
        let mut k = -d;
        while k <= d {
            let down = k == -d || (k != d && v[(off + k - 1) as usize] < v[(off + k + 1) as usize]);
            let mut x = if down { v[(off + k + 1) as usize] } else { v[(off + k - 1) as usize] + 1 };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[(off + k) as usize] = x;
            if x >= n && y >= m {
                break 'outer;
            }
            k += 2;
        }
    }
    // walk back through the saved frontiers
    let mut edits = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (0..trace.len() as isize).rev() {
        let v = &trace[d as usize];
        let k = x - y;
        let down = k == -d || (k != d && v[(off + k - 1) as usize] < v[(off + k + 1) as usize]);
        let prev_k = if down { k + 1 } else { k - 1 };
        let prev_x = v[(off + prev_k) as usize];
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            edits.push(Edit::Keep);
            x -= 1;
            y -= 1;
        }
        if d > 0 {
            edits.push(if down { Edit::Insert } else { Edit::Delete });
        }
        x = prev_x;
        y = prev_y;
    }
    edits.reverse();
    edits
}

/// `diff -u` of two texts: the `---`/`+++` header and hunks with three lines of context (GNU's
/// range format: `-L` for one line, `-L,0` after line L for none).
pub(super) fn unified(a_name: &str, b_name: &str, stamp: &str, a: &str, b: &str) -> String {
    const CONTEXT: usize = 3;
    let al: Vec<&str> = a.lines().collect();
    let bl: Vec<&str> = b.lines().collect();
    let edits = myers(&al, &bl);
    // positions of each edit in a and b
    let mut rows: Vec<(Edit, usize, usize)> = Vec::with_capacity(edits.len());
    let (mut i, mut j) = (0, 0);
    for e in &edits {
        rows.push((*e, i, j));
        match e {
            Edit::Keep => {
                i += 1;
                j += 1;
            }
            Edit::Delete => i += 1,
            Edit::Insert => j += 1,
        }
    }
    let changed: Vec<usize> = rows.iter().enumerate().filter(|(_, r)| r.0 != Edit::Keep).map(|(k, _)| k).collect();
    let mut out = format!("--- {}\t{}\n+++ {}\t{}\n", a_name, stamp, b_name, stamp);
    let mut k = 0;
    while k < changed.len() {
        // a hunk: changes with at most 2 × CONTEXT unchanged lines between them join (their
        // contexts would touch)
        let start = changed[k].saturating_sub(CONTEXT);
        let mut end = changed[k];
        while k + 1 < changed.len() && changed[k + 1] - end - 1 <= 2 * CONTEXT {
            k += 1;
            end = changed[k];
        }
        let end = (end + CONTEXT).min(rows.len() - 1);
        let hunk = &rows[start..=end];
        let a_count = hunk.iter().filter(|r| r.0 != Edit::Insert).count();
        let b_count = hunk.iter().filter(|r| r.0 != Edit::Delete).count();
        let range = |first: usize, count: usize| match count {
            0 => format!("{},0", first),
            1 => format!("{}", first + 1),
            _ => format!("{},{}", first + 1, count),
        };
        out.push_str(&format!("@@ -{} +{} @@\n", range(hunk[0].1, a_count), range(hunk[0].2, b_count)));
        for (e, i, j) in hunk {
            match e {
                Edit::Keep => out.push_str(&format!(" {}\n", al[*i])),
                Edit::Delete => out.push_str(&format!("-{}\n", al[*i])),
                Edit::Insert => out.push_str(&format!("+{}\n", bl[*j])),
            }
        }
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_as_gnu_diff_prints_it() {
        let a = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let b = "a\nb\nc\nD\ne\nf\ng\nh\n";
        assert_eq!(unified("x", "y", "T", a, b), "--- x\tT\n+++ y\tT\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n");
        // a new file against an empty one (-N)
        assert_eq!(unified("x", "y", "T", "", "k: v\n"), "--- x\tT\n+++ y\tT\n@@ -0,0 +1 @@\n+k: v\n");
        // six unchanged lines between two changes: the contexts touch, one hunk (GNU diff 3.8)
        let a = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n";
        let b = "a\nB\nc\nd\ne\nf\ng\nh\nI\nj\nk\nl\n";
        assert_eq!(unified("x", "y", "T", a, b), "--- x\tT\n+++ y\tT\n@@ -1,12 +1,12 @@\n a\n-b\n+B\n c\n d\n e\n f\n g\n h\n-i\n+I\n j\n k\n l\n");
        // changes far apart make two hunks
        let a: String = (1..=20).map(|i| format!("{}\n", i)).collect();
        let b: String = (1..=20).map(|i| match i { 2 => "two\n".to_string(), 19 => "nineteen\n".to_string(), _ => format!("{}\n", i) }).collect();
        let u = unified("x", "y", "T", &a, &b);
        assert_eq!(u.matches("@@ -").count(), 2, "{}", u);
        assert!(u.contains("@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"), "{}", u);
        assert!(u.contains("@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20\n"), "{}", u);
    }
}
