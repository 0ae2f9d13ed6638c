//! `kubectl explain RESOURCE[.FIELD…]`: the fields of a kind and their types.
//!
//! Real counterpart: `staging/src/k8s.io/kubectl/pkg/cmd/explain/explain.go` with the OpenAPI v3
//! plaintext template (`pkg/explain/v2/templates/plaintext.tmpl`): the GROUP/KIND/VERSION header,
//! `FIELD: name <type>`, `DESCRIPTION:`, `FIELDS:` with one `  name\t<type>` line each. kubesim
//! simplifies: the schema compiled into kubesim ([`crate::api::schema`]) has field names and
//! types but not the API's descriptions (they would weigh ~100 KiB in the page), so DESCRIPTION is
//! left out and a note says where to read them; `--recursive` and `--api-version` are not offered.

use super::Output;
use crate::api::{meta, schema};
use crate::cluster::Cluster;
use serde_json::Value;

/// A description as the plaintext template wraps it: words to 80 columns, indented.
fn wrapped(text: &str, indent: usize) -> String {
    let mut out = String::new();
    for para in text.split('\n') {
        let mut line = String::new();
        for word in para.split_whitespace() {
            if !line.is_empty() && indent + line.len() + 1 + word.len() > 80 {
                out.push_str(&format!("{}{}\n", " ".repeat(indent), line));
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        out.push_str(&format!("{}{}\n", " ".repeat(indent), line));
    }
    out
}

/// The template's type of a schema node (`<string>`, `<Object>`, `<[]string>`, `<ObjectMeta>`).
fn custom_type(s: &Value) -> String {
    if s.get("x-kubernetes-int-or-string").and_then(Value::as_bool).unwrap_or(false) {
        return "IntOrString".into();
    }
    match s.get("type").and_then(Value::as_str).unwrap_or("") {
        "array" => format!("[]{}", s.get("items").map(custom_type).unwrap_or_else(|| "Object".into())),
        "object" | "" => "Object".into(),
        t => t.to_string(),
    }
}

/// `kubectl explain` of a custom resource: its version's schema as the CRD's OpenAPI v3 document
/// publishes it (with `apiVersion`, `kind` and `metadata` added), descriptions included.
fn explain_custom(info: &meta::ResourceInfo, schema: Option<&Value>, path: &[&str], out: &mut Output) {
    let root = crate::apiextensions::published_schema(schema, serde_json::json!({"type": "ObjectMeta", "description": crate::apiextensions::METADATA_DESCRIPTION}));
    let mut node = &root;
    for (i, seg) in path.iter().enumerate() {
        let next = node.get("properties").and_then(|p| p.get(*seg)).or_else(|| node.get("items").and_then(|it| it.get("properties")).and_then(|p| p.get(*seg)));
        match next {
            Some(n) => node = n,
            None => return out.err(&format!("error: field \"{}\" does not exist", path[..=i].join("."))),
        }
    }
    let mut s = format!("GROUP:      {}\nKIND:       {}\nVERSION:    {}\n\n", info.group, info.kind, info.version);
    if let Some(last) = path.last() {
        let ty = if node.get("type").and_then(Value::as_str) == Some("ObjectMeta") { "ObjectMeta".to_string() } else { custom_type(node) };
        s.push_str(&format!("FIELD: {} <{}>\n\n\n", last, ty));
    }
    s.push_str("DESCRIPTION:\n");
    match node.get("description").and_then(Value::as_str).filter(|d| !d.is_empty()) {
        Some(d) => s.push_str(&wrapped(d, 4)),
        None => s.push_str("    <empty>\n"),
    }
    let container = node.get("properties").or_else(|| node.get("items").and_then(|it| it.get("properties"))).and_then(Value::as_object);
    if let Some(props) = container {
        s.push_str("FIELDS:\n");
        let required: Vec<&str> = meta::get_array(node, &["required"]).iter().filter_map(Value::as_str).collect();
        let mut names: Vec<&String> = props.keys().collect();
        names.sort();
        for name in names {
            let p = &props[name];
            let ty = if p.get("type").and_then(Value::as_str) == Some("ObjectMeta") { "ObjectMeta".to_string() } else { custom_type(p) };
            let req = if required.contains(&name.as_str()) { " -required-" } else { "" };
            s.push_str(&format!("  {}\t<{}>{}\n", name, ty, req));
            match p.get("description").and_then(Value::as_str).filter(|d| !d.is_empty()) {
                Some(d) => s.push_str(&wrapped(d, 4)),
                None => s.push_str("    <no description>\n"),
            }
            s.push('\n');
        }
    }
    out.out_raw(&s);
}

pub(super) fn explain(cluster: &Cluster, positional: &[String], out: &mut Output) {
    let Some(arg) = positional.first() else {
        return out.err("error: You must specify the type of resource to explain. Use \"kubectl api-resources\" for a complete list of supported resources.");
    };
    if positional.len() > 1 {
        return out.err("error: We accept only this format: explain RESOURCE");
    }
    let mut parts = arg.split('.');
    let res = parts.next().unwrap_or("");
    let path: Vec<&str> = parts.collect();
    // `deployments.apps` names a group: take the longest resource.group prefix that resolves
    let (info, path) = match meta::lookup(res) {
        Some(i) => (i, path),
        None => match cluster.view().crds().lookup(res) {
            Some(i) => {
                // a custom resource: `crontabs.stable.example.com.spec` names the group first
                let crds = cluster.view().crds();
                let group_len = i.group.split('.').count();
                let path = if path.len() >= group_len && path[..group_len].join(".") == i.group { path[group_len..].to_vec() } else { path };
                let schema = crds.version_of(i).and_then(|v| v.schema.clone());
                return explain_custom(i, schema.as_deref(), &path, out);
            }
            None => return out.err(&format!("error: the server doesn't have a resource type \"{}\"", res)),
        },
    };
    let (info, path) = match path.first().and_then(|g| meta::RESOURCES.iter().find(|r| r.resource == info.resource && !r.group.is_empty() && r.group.starts_with(g))) {
        Some(i) if !path.is_empty() && i.group.split('.').next() == path.first().copied() => (i, path[i.group.split('.').count().min(path.len())..].to_vec()),
        _ => (info, path),
    };
    let node = match schema::explain(&info.api_version(), info.kind, &path) {
        Ok(n) => n,
        Err(e) => return out.err(&format!("error: {}", e)),
    };
    let mut s = String::new();
    if !info.group.is_empty() {
        s.push_str(&format!("GROUP:      {}\n", info.group));
    }
    s.push_str(&format!("KIND:       {}\nVERSION:    {}\n\n", info.kind, info.version));
    if let Some(last) = path.last() {
        s.push_str(&format!("FIELD: {} <{}>\n\n", last, node.type_name));
    }
    if !node.fields.is_empty() {
        s.push_str("FIELDS:\n");
        for (name, t) in &node.fields {
            s.push_str(&format!("  {}\t<{}>\n", name, t));
        }
    }
    out.out_raw(&s);
    out.note("(kubesim carries the API's field names and types, not its descriptions: `kubectl explain` against `kubesim serve` prints them)");
}

#[cfg(test)]
mod tests {
    use crate::sandbox::default_cluster;

    fn explain(arg: &[&str]) -> (String, String) {
        let mut c = default_cluster(1);
        let args: Vec<String> = std::iter::once("explain").chain(arg.iter().copied()).map(String::from).collect();
        let o = super::super::run(&mut c, &args, None, &|_| None);
        (o.stdout, o.stderr)
    }

    #[test]
    fn explain_prints_kind_field_and_fields() {
        let (out, err) = explain(&["deployment.spec.strategy.rollingUpdate"]);
        assert_eq!(out, "GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n\nFIELD: rollingUpdate <RollingUpdateDeployment>\n\nFIELDS:\n  maxSurge\t<IntOrString>\n  maxUnavailable\t<IntOrString>\n");
        assert!(err.contains("not its descriptions"), "{}", err);
        let (out, _) = explain(&["pods"]);
        assert!(out.starts_with("KIND:       Pod\nVERSION:    v1\n\nFIELDS:\n  apiVersion\t<string>\n"), "{}", out);
        assert_eq!(explain(&["deployments.apps.spec.paused"]).0, "GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n\nFIELD: paused <boolean>\n\n");
        assert_eq!(explain(&["pod.spec.nope"]).1, "error: field \"nope\" does not exist\n");
        assert_eq!(explain(&["foo"]).1, "error: the server doesn't have a resource type \"foo\"\n");
    }
}
