//! `kubectl edit TYPE/NAME` (`staging/src/k8s.io/kubectl/pkg/cmd/util/editor/editoptions.go`):
//! the object as YAML under kubectl's header comment, edited, then sent as a strategic merge PATCH
//! of the difference (field manager `kubectl-edit`). The difference leaves out the server's fields
//! (`status`, `resourceVersion`, …): the page's editor may stay open while the cluster moves on.
//!
//! kubesim has no terminal editor: the edited text comes from the command's standard input (a
//! script's heredoc, `kubectl edit deploy/web <<EOF … EOF`), and the page opens the object in its
//! editor and runs the same command with the editor's text when you apply ([`edit_text`]).

use super::*;

/// The comment kubectl writes above the object.
pub const HEADER: &str = "# Please edit the object below. Lines beginning with a '#' will be ignored,\n# and an empty file will abort the edit. If an error occurs while saving this file will be\n# reopened with the relevant failures.\n#\n";

/// The one object `kubectl edit` names: its resource and name.
fn target(cluster: &Cluster, f: &Flags) -> Result<(&'static meta::ResourceInfo, String), String> {
    if f.positional.is_empty() {
        return Err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into());
    }
    let ts = targets(cluster, &f.positional)?;
    match ts.as_slice() {
        [(info, names)] if names.len() == 1 => Ok((*info, names[0].clone())),
        [(info, names)] if names.is_empty() => Err(format!("error: kubesim's kubectl edit edits one object: name one {}", info.singular)),
        _ => Err("error: kubesim's kubectl edit edits one object at a time".into()),
    }
}

/// What the editor opens with: the header and the object as YAML.
pub fn edit_text(cluster: &mut Cluster, args: &[String]) -> Result<String, String> {
    let f = parse_flags(args.get(1..).unwrap_or(&[])).map_err(|e| format!("error: {}", e))?;
    let context_ns = super::config::resolve(cluster.kubeconfig(), f.context.as_deref())?;
    let ns = f.namespace.clone().or(context_ns).unwrap_or_else(|| "default".into());
    let (info, name) = target(cluster, &f)?;
    let got = kubectl(cluster, Method::Get, &info.object_path(&ns, &name), None);
    if !got.ok() {
        return Err(server_error(&got, None));
    }
    Ok(format!("{}{}", HEADER, printers::to_yaml(&got.body)))
}

/// The edited text without kubectl's comment lines.
fn strip_comments(text: &str) -> String {
    text.lines().filter(|l| !l.trim_start().starts_with('#')).map(|l| format!("{}\n", l)).collect()
}

pub(super) fn edit(cluster: &mut Cluster, f: &Flags, ns: &str, stdin: Option<&str>, out: &mut Output) {
    let (info, name) = match target(cluster, f) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    let path = info.object_path(ns, &name);
    let got = kubectl(cluster, Method::Get, &path, None);
    if !got.ok() {
        return out.err(&server_error(&got, None));
    }
    let Some(edited) = stdin else {
        return out.err(&format!("error: kubesim's kubectl has no terminal editor: give the edited object as the command's input (kubectl edit {}/{} <<EOF … EOF); in the page, kubectl edit opens it in the editor", info.singular, name));
    };
    let original = got.body;
    let edited = strip_comments(edited);
    if edited.trim().is_empty() || edited == strip_comments(&printers::to_yaml(&original)) {
        return out.err("Edit cancelled, no changes made.");
    }
    let obj = match crate::api::codec::decode_manifest(&edited) {
        Ok(docs) if docs.len() == 1 => docs.into_iter().next().map(|d| d.object).unwrap_or(Value::Null),
        Ok(_) => return out.err("error: kubesim's kubectl edit takes exactly one object back"),
        Err(e) => return out.err(&format!("error: {}\nerror: Edit cancelled, no valid changes were saved.", e.message)),
    };
    for field in [&["apiVersion"][..], &["kind"], &["metadata", "name"]] {
        if meta::get(&obj, field) != meta::get(&original, field) {
            return out.err("error: At least one of apiVersion, kind and name was changed\nerror: Edit cancelled, no valid changes were saved.");
        }
    }
    // the difference in what the user owns: the server's fields (status, resourceVersion, …)
    // may have moved on since the editor opened, and are not the editor's to send
    let owned = |v: &Value| {
        let mut v = v.clone();
        if let Some(m) = v.as_object_mut() {
            m.remove("status");
        }
        for f in ["resourceVersion", "uid", "creationTimestamp", "generation", "managedFields"] {
            meta::remove(&mut v, &["metadata", f]);
        }
        v
    };
    let (original, obj) = (owned(&original), owned(&obj));
    let patch = crate::api::patch::three_way_merge_patch(&original, &obj, &original);
    if patch.as_object().map(|p| p.is_empty()).unwrap_or(true) {
        return out.err("Edit cancelled, no changes made.");
    }
    // a kind kubectl has no Go type for (a custom resource) is patched with a JSON merge patch
    let patch_type = if matches!(info.id, meta::Resource::Custom(_)) { PatchType::Merge } else { PatchType::Strategic };
    let resp = cluster.client_request(&kubectl_identity(), Request { method: Method::Patch, path: format!("{}?fieldManager=kubectl-edit", path), body: Some(patch), patch_type });
    if resp.ok() {
        out.out(&format!("{}/{} edited", info.kubectl_prefix(), name));
    } else {
        out.err(&format!("{}\nerror: Edit cancelled, no valid changes were saved.", server_error(&resp, None)));
    }
}

#[cfg(test)]
mod tests {
    use crate::kubectl::run;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn an_edit_sends_what_changed_and_nothing_else() {
        let mut c = crate::sandbox::default_cluster(1);
        let none = |_: &str| None;
        run(&mut c, &args("create deployment web --image=nginx"), None, &none);
        c.run_until_settled();
        let text = super::edit_text(&mut c, &args("edit deployment/web")).expect("the object");
        assert!(text.starts_with(super::HEADER) && text.contains("replicas: 1\n"), "{}", text);
        // unchanged, empty: nothing is sent
        let out = run(&mut c, &args("edit deployment/web"), Some(&text), &none);
        assert_eq!((out.stderr.as_str(), out.code), ("Edit cancelled, no changes made.\n", 1));
        let out = run(&mut c, &args("edit deployment/web"), Some("# nothing\n"), &none);
        assert_eq!(out.stderr, "Edit cancelled, no changes made.\n");
        // one field changed: a PATCH of that field, the rest of the object kept
        let out = run(&mut c, &args("edit deployment/web"), Some(&text.replace("replicas: 1\n", "replicas: 3\n")), &none);
        assert_eq!(out.stdout, "deployment.apps/web edited\n", "{}", out.stderr);
        let got = run(&mut c, &args("get deployment web -o jsonpath={.spec.replicas}/{.spec.template.spec.containers[0].image}"), None, &none);
        assert_eq!(got.stdout, "3/nginx");
        // the name is not the editor's to change; a bad value is the server's 422
        let out = run(&mut c, &args("edit deployment/web"), Some(&text.replace("name: web\n", "name: other\n")), &none);
        assert!(out.stderr.starts_with("error: At least one of apiVersion, kind and name was changed"), "{}", out.stderr);
        let out = run(&mut c, &args("edit deployment/web"), Some(&text.replace("replicas: 1\n", "replicas: -1\n")), &none);
        assert!(out.stderr.contains("spec.replicas: Invalid value: -1") && out.stderr.ends_with("error: Edit cancelled, no valid changes were saved.\n"), "{}", out.stderr);
        // no input in a script: said plainly
        let out = run(&mut c, &args("edit deployment/web"), None, &none);
        assert!(out.stderr.contains("has no terminal editor"), "{}", out.stderr);
    }
}
