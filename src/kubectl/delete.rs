//! `kubectl delete` with `--cascade` and `--grace-period` (`staging/src/k8s.io/kubectl/pkg/cmd/delete`).

use super::*;

pub(super) fn delete(cluster: &mut Cluster, f: &Flags, ns: &str, stdin: Option<&str>, read_file: &dyn Fn(&str) -> Option<String>, out: &mut Output) {
    let policy = match f.cascade.as_str() {
        "" | "background" | "true" => "Background",
        "foreground" => "Foreground",
        "orphan" | "false" => "Orphan",
        other => return out.err(&format!("error: invalid cascade value ({}). Must be \"background\", \"foreground\", or \"orphan\"", other)),
    };
    let mut items: Vec<(&'static meta::ResourceInfo, String, String)> = Vec::new();
    if !f.files.is_empty() {
        for file in &f.files {
            let text = if file == "-" { stdin.map(String::from) } else { read_file(file) };
            let Some(text) = text else { return out.err(&format!("error: the path \"{}\" does not exist", file)) };
            match codec::decode_manifest(&text) {
                Ok(docs) => {
                    for d in docs {
                        match resource_mapping(cluster, &d.object, file) {
                            Ok(info) => {
                                let n = meta::namespace(&d.object);
                                items.push((info, if n.is_empty() { ns.to_string() } else { n.to_string() }, meta::name(&d.object).to_string()))
                            }
                            Err(e) => out.err(&e),
                        }
                    }
                }
                Err(e) => return out.err(&format!("error: error parsing {}: {}", file, e.message)),
            }
        }
    } else {
        match targets(cluster, &f.positional) {
            Ok(ts) => {
                for (info, names) in ts {
                    // `-l app=web`: every object the selector matches
                    // the resource builder's checks (Complete runs it before delete.go's Validate)
                    if f.all && !f.selector.is_empty() {
                        return out.err("error: setting 'all' parameter but found a non empty selector. ");
                    }
                    if f.all && !names.is_empty() {
                        return out.err("error: name cannot be provided when a selector is specified");
                    }
                    let names = if names.is_empty() && (!f.selector.is_empty() || f.all) {
                        let found: Vec<String> = list_items(cluster, &list_path(info, ns, false, &f.selector)).iter().map(|o| meta::name(o).to_string()).collect();
                        if found.is_empty() {
                            // delete.go prints this to Out, without the namespace
                            out.out("No resources found");
                        }
                        found
                    } else {
                        names
                    };
                    if names.is_empty() && f.selector.is_empty() && !f.all {
                        return out.err("error: resource(s) were provided, but no name was specified");
                    }
                    for n in names {
                        items.push((info, ns.to_string(), n));
                    }
                }
            }
            Err(e) => return out.err(&e.replace("to get", "to delete")),
        }
    }
    for (info, ns, name) in items {
        let mut opts = json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": policy});
        if let Some(g) = f.grace_period {
            opts["gracePeriodSeconds"] = json!(g);
        }
        let resp = kubectl(cluster, Method::Delete, &info.object_path(&ns, &name), Some(opts));
        if resp.ok() {
            out.out(&format!("{} \"{}\" deleted", info.kubectl_prefix(), name));
        } else {
            out.err(&server_error(&resp, None));
        }
    }
}
