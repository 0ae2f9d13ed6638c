//! `kubectl patch (-f FILE | TYPE NAME | TYPE/NAME) (-p PATCH | --patch-file FILE)
//! [--type strategic|merge|json] [--subresource status|scale] [--dry-run=server] [-o FORMAT]`
//! (`staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go`).
//!
//! The resource builder GETs the object (its subresource with `--subresource`), the patch goes as
//! given with the content type of its `--type` (strategic merge by default, which the custom
//! resource handler refuses with 415), then the name printer writes `TYPE/NAME patched` — the
//! kind of the answer, so `scale.autoscaling/web` for the scale subresource — or `patched (no
//! change)` when the object came back equal to what was read; with `-o` the answer is
//! printed instead. A dry run (`--dry-run=server`) prints the same line, with no suffix: patch.go
//! does not mark its operation. Malformed JSON is the API server's to refuse (kubectl sends the
//! text as it is); kubesim's kubectl words the refusal as kube-apiserver's decoder does without
//! sending it. What kubesim simplifies: `--dry-run=client` asks the server (dry run) instead of
//! patching locally, `--local` is not modelled.

use super::*;

pub(super) fn patch(cluster: &mut Cluster, f: &Flags, ns: &str, stdin: Option<&str>, read_file: &dyn Fn(&str) -> Option<String>, out: &mut Output) {
    // the target: -f FILE names the object, else TYPE NAME or TYPE/NAME
    let (info, name, ns) = if let Some(file) = f.files.first() {
        let text = if file == "-" { stdin.map(String::from) } else { read_file(file) };
        let Some(text) = text else {
            return out.err(&format!("error: the path \"{}\" does not exist", file));
        };
        let docs = match codec::decode_manifest(&text) {
            Ok(d) => d,
            Err(e) => return out.err(&format!("error: error parsing {}: {}", file, e.message)),
        };
        let Some(doc) = docs.into_iter().next() else {
            return out.err("error: no objects passed to patch");
        };
        let info = match apply::resource_mapping(cluster, &doc.object, file) {
            Ok(i) => i,
            Err(e) => return out.err(&e),
        };
        let obj_ns = meta::namespace(&doc.object);
        let ns = if !info.namespaced { String::new() } else if obj_ns.is_empty() { ns.to_string() } else { obj_ns.to_string() };
        (info, meta::name(&doc.object).to_string(), ns)
    } else {
        match resource_name_args(cluster, &f.positional) {
            Ok((info, name, rest)) => {
                if !rest.is_empty() {
                    return out.err(&format!("error: unexpected arguments: [{}]", rest.join(" ")));
                }
                (info, name, ns.to_string())
            }
            Err(e) => return out.err(&e),
        }
    };
    let text = match (&f.patch, &f.patch_file) {
        (Some(_), Some(_)) => return out.err("error: cannot specify --patch and --patch-file together"),
        (None, None) => return out.err("error: must specify --patch or --patch-file containing the contents of the patch"),
        (Some(p), None) => p.clone(),
        (None, Some(file)) => match read_file(file) {
            Some(t) => t,
            None => return out.err(&format!("error: unable to read patch file: open {}: no such file or directory", file)),
        },
    };
    let patch_type = match f.svc_type.as_deref().unwrap_or("strategic") {
        "strategic" => PatchType::Strategic,
        "merge" => PatchType::Merge,
        "json" => PatchType::Json,
        other => return out.err(&format!("error: --type must be one of [json merge strategic], not {:?}", other)),
    };
    // the patch is YAML or JSON (yaml.ToJSON); what neither parses is sent as it is, and the API
    // server's decoder refuses it
    let body: Value = match serde_yaml::from_str::<Value>(&text) {
        Ok(v) => v,
        Err(_) => {
            let msg = crate::api::gojson::syntax_error(text.as_bytes()).unwrap_or_else(|| "the body of the request was in an unknown format".into());
            return out.err(&format!("Error from server (BadRequest): {}", msg));
        }
    };
    // the server decodes a merge or strategic patch into a map, a JSON patch into a list of operations
    match (patch_type, &body) {
        (PatchType::Json, Value::Array(_)) | (PatchType::Merge | PatchType::Strategic, Value::Object(_)) => {}
        (PatchType::Json, other) => return out.err(&format!("Error from server (BadRequest): error decoding patch: json: cannot unmarshal {} into Go value of type []handlers.jsonPatchOp", crate::api::gojson::json_type_name(other))),
        (_, other) => return out.err(&format!("Error from server (BadRequest): json: cannot unmarshal {} into Go value of type map[string]interface {{}}", crate::api::gojson::json_type_name(other))),
    }
    let sub = f.subresource.clone().unwrap_or_default();
    let mut path = info.object_path(&ns, &name);
    if !sub.is_empty() {
        path = format!("{}/{}", path, sub);
    }
    let before = kubectl(cluster, Method::Get, &path, None);
    if !before.ok() {
        return out.err(&server_error(&before, None));
    }
    let resp = cluster.client_request(&kubectl_identity(), Request { method: Method::Patch, path: format!("{}?fieldManager=kubectl-patch", path), body: Some(body), patch_type });
    if resp.code == 415 && patch_type == PatchType::Strategic {
        // patch.go: a kind without strategic merge support is named with its GVK
        return out.err(&format!("error: application/strategic-merge-patch+json is not supported by {}, Kind={}: {}", info.api_version(), info.kind, meta::get_str(&resp.body, &["message"])));
    }
    if !resp.ok() {
        return out.err(&server_error(&resp, None));
    }
    match f.output.as_str() {
        "" => {}
        "yaml" => return out.out(printers::to_yaml(&resp.body).trim_end()),
        "json" => return out.out(&printers::to_json(&resp.body)),
        "name" => return out.out(&format!("{}/{}", info.kubectl_prefix(), name)),
        o if o.starts_with("jsonpath=") => {
            return match get::printers_jsonpath(&resp.body, &o["jsonpath=".len()..]) {
                Ok(s) => out.out_raw(&s),
                Err(e) => out.err(&format!("error: error parsing jsonpath {}, {}", &o["jsonpath=".len()..], e)),
            };
        }
        other => return out.err(&format!("error: unable to match a printer suitable for the output format \"{}\", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml", other)),
    }
    // patch.go: `didPatch := !reflect.DeepEqual(info.Object, patchedObj)` — a dry run that would
    // change the object says `patched` too
    let unchanged = resp.body == before.body;
    // the name printer names the answer's kind: the scale subresource answers a Scale
    let prefix = if sub == "scale" { "scale.autoscaling".to_string() } else { info.kubectl_prefix() };
    out.out(&format!("{}/{} patched{}", prefix, name, if unchanged { " (no change)" } else { "" }));
}
