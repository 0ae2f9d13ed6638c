//! `kubectl kustomize DIR` and `kubectl apply -k DIR`: kustomize v5.7.1 (the version kubectl
//! v1.34 vendors) over the console's files.
//!
//! Upstream: `sigs.k8s.io/kustomize/api` — `krusty.Kustomizer.Run` builds a directory:
//! `target.KustTarget.AccumulateTarget` loads its `kustomization.yaml`, accumulates its
//! `resources` (files, and directories built as kustomizations of their own), runs the
//! generators (`configMapGenerator`, `secretGenerator`), then the builtin transformers in
//! kustomize's order (patches, namespace, name prefix and suffix, labels, annotations, JSON 6902
//! patches, replicas, images), fixes name references, and at the top appends the content hash
//! to generated names and sorts the result in the legacy order kubectl asks for.
//!
//! What kubesim simplifies: the fields below only (`components`, `helmCharts`, `replacements`,
//! `vars`, generator and transformer plugins, remote resources and `openapi` are refused with a
//! message saying so); the field specs are kustomize's for the built-in kinds, not extensible
//! with `configurations`; name references cover the references of Pod templates, Ingresses,
//! RBAC bindings, HPAs and StatefulSets.

// the build itself: in the page, in its second module (`kubectl::lazy`)
#[cfg(feature = "lazy-parts")]
mod generators;
#[cfg(feature = "lazy-parts")]
pub mod hasher;
#[cfg(feature = "lazy-parts")]
mod nameref;
#[cfg(feature = "lazy-parts")]
mod patches;
#[cfg(feature = "lazy-parts")]
mod sort;
#[cfg(feature = "lazy-parts")]
mod transformers;

/// What the build reads: a file's text by clean absolute path (`/home/learner/base/x.yaml`),
/// and whether a path is a directory.
#[derive(Clone, Copy)]
pub struct Fs<'a> {
    pub read: &'a dyn Fn(&str) -> Option<String>,
    pub is_dir: &'a dyn Fn(&str) -> bool,
}

#[cfg(feature = "lazy-parts")]
impl Fs<'_> {
    fn read(&self, path: &str) -> Option<String> {
        (self.read)(path)
    }
}

use serde_json::Value;

#[cfg(feature = "lazy-parts")]
pub use imp::*;

#[cfg(feature = "lazy-parts")]
mod imp {
use super::{generators, hasher, nameref, sort, transformers, Fs};
use serde_json::{Map, Value};

/// Bound on how deep kustomizations may refer to each other.
const MAX_DEPTH: usize = 16;
/// Bound on the resources one build may produce.
const MAX_RESOURCES: usize = 2_000;

/// One resource of a build, with the names it had before (name references follow them).
#[derive(Clone, Debug)]
pub struct Resource {
    pub obj: Value,
    /// Earlier names, the original first.
    pub prior_names: Vec<String>,
    /// Earlier namespaces, as the names.
    pub prior_namespaces: Vec<String>,
    /// A generated ConfigMap or Secret whose name gets the content hash.
    pub needs_hash: bool,
    /// A generator's `behavior` (create, merge or replace) while the generators run.
    pub(super) behavior: Option<String>,
}

impl Resource {
    pub(super) fn new(obj: Value) -> Resource {
        Resource { obj, prior_names: Vec::new(), prior_namespaces: Vec::new(), needs_hash: false, behavior: None }
    }
    pub fn kind(&self) -> &str {
        self.obj.get("kind").and_then(Value::as_str).unwrap_or("")
    }
    pub fn name(&self) -> &str {
        self.obj.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("")
    }
    pub fn namespace(&self) -> &str {
        self.obj.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or("")
    }
    /// `apps/v1` → ("apps", "v1"); `v1` → ("", "v1").
    pub fn group_version(&self) -> (&str, &str) {
        let av = self.obj.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        av.split_once('/').unwrap_or(("", av))
    }
    /// Renames, remembering the old name.
    pub fn set_name(&mut self, name: &str) {
        let old = self.name().to_string();
        if old != name {
            self.prior_names.push(old);
            set_path(&mut self.obj, &["metadata", "name"], Value::String(name.to_string()));
        }
    }
    pub fn set_namespace(&mut self, ns: &str) {
        let old = self.namespace().to_string();
        if old != ns {
            self.prior_namespaces.push(old);
            set_path(&mut self.obj, &["metadata", "namespace"], Value::String(ns.to_string()));
        }
    }
    /// Whether this resource was ever called `name`.
    pub fn was_named(&self, name: &str) -> bool {
        self.name() == name || self.prior_names.iter().any(|n| n == name)
    }
    /// kustomize's resource id, as its messages print it: `ConfigMap.v1.[noGrp]/x.[noNs]`.
    pub(super) fn id(&self) -> String {
        let (g, v) = self.group_version();
        let g = if g.is_empty() { "[noGrp]" } else { g };
        let ns = if self.namespace().is_empty() { "[noNs]" } else { self.namespace() };
        format!("{}.{}.{}/{}.{}", self.kind(), v, g, self.name(), ns)
    }
}

/// Sets `obj[path]`, making the maps on the way.
pub(crate) fn set_path(obj: &mut Value, path: &[&str], v: Value) {
    let mut cur = obj;
    for (i, p) in path.iter().enumerate() {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        let m = cur.as_object_mut().expect("object");
        if i == path.len() - 1 {
            m.insert(p.to_string(), v);
            return;
        }
        cur = m.entry(p.to_string()).or_insert_with(|| Value::Object(Map::new()));
    }
}

/// A build's result: the resources in output order and kustomize's warnings.
#[derive(Debug, Default)]
pub struct Build {
    pub resources: Vec<Value>,
    pub warnings: Vec<String>,
}

impl Build {
    /// The build as `kubectl kustomize` prints it: documents joined by `---`.
    pub fn to_yaml(&self) -> String {
        self.resources.iter().map(crate::kubectl::printers::to_yaml).collect::<Vec<_>>().join("---\n")
    }
}

/// The fields of a Kustomization (`api/types/kustomization.go`) kubesim reads, and the ones it
/// refuses.
const KNOWN_FIELDS: &[&str] = &[
    "apiVersion", "kind", "metadata", "resources", "bases", "namePrefix", "nameSuffix", "namespace", "commonLabels", "labels", "commonAnnotations", "images", "replicas", "configMapGenerator", "secretGenerator", "generatorOptions", "patches", "patchesStrategicMerge", "patchesJson6902", "sortOptions", "buildMetadata",
];
const REFUSED_FIELDS: &[&str] = &["components", "helmCharts", "helmGlobals", "helmChartInflationGenerator", "replacements", "vars", "generators", "transformers", "validators", "configurations", "crds", "openapi", "images_from", "labelsFrom"];
pub(super) const KUSTOMIZATION_FILES: &[&str] = &["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// Builds the kustomization in `dir` (as the user typed it; `~`-relative paths are the console's).
pub fn build(fs: Fs, dir: &str) -> Result<Build, String> {
    let abs = crate::client::workstation::clean(dir);
    if fs.read(&abs).is_some() {
        return Err(format!("must build at directory: '{}': file is not directory", abs));
    }
    if !KUSTOMIZATION_FILES.iter().any(|f| fs.read(&format!("{}/{}", abs, f)).is_some()) && !(fs.is_dir)(&abs) {
        return Err(format!("must build at directory: not a valid directory: evalsymlink failure on '{}' : lstat {}: no such file or directory", dir, abs));
    }
    let mut warnings = Vec::new();
    let (mut resources, top) = accumulate(fs, &abs, 0, &mut warnings)?;
    // the top kustomization appends the content hashes, then fixes references to the new names
    for r in resources.iter_mut().filter(|r| r.needs_hash) {
        let name = format!("{}-{}", r.name(), hasher::hash(&r.obj));
        r.set_name(&name);
    }
    nameref::fix(&mut resources);
    // kubectl asks for the legacy order unless the kustomization chose one
    let fifo = top.pointer("/sortOptions/order").and_then(Value::as_str) == Some("fifo");
    if !fifo {
        sort::legacy(&mut resources);
    }
    Ok(Build { resources: resources.into_iter().map(|r| r.obj).collect(), warnings })
}

/// `AccumulateTarget`: the kustomization in `dir`, built; and the kustomization itself.
pub(super) fn accumulate(fs: Fs, dir: &str, depth: usize, warnings: &mut Vec<String>) -> Result<(Vec<Resource>, Value), String> {
    if depth > MAX_DEPTH {
        return Err(format!("kustomizations refer to each other more than {} deep (kubesim's limit): is there a cycle at '{}'?", MAX_DEPTH, dir));
    }
    let Some(text) = KUSTOMIZATION_FILES.iter().find_map(|f| fs.read(&format!("{}/{}", dir, f))) else {
        return Err(format!("unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '{}'", dir));
    };
    let k: Value = match serde_yaml::from_str::<Value>(&text) {
        Ok(Value::Null) => Value::Object(Map::new()),
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => return Err("invalid Kustomization: json: cannot unmarshal array into Go value of type types.Kustomization".into()),
        Err(e) => return Err(format!("invalid Kustomization: {}", yaml_error(&e))),
    };
    let km = k.as_object().expect("object");
    for key in km.keys() {
        if REFUSED_FIELDS.contains(&key.as_str()) {
            return Err(format!("kubesim's kustomize does not implement '{}' (it builds resources, generators, namePrefix/nameSuffix, namespace, labels, commonLabels, commonAnnotations, images, replicas and patches)", key));
        }
        if !KNOWN_FIELDS.contains(&key.as_str()) {
            return Err(format!("invalid Kustomization: json: unknown field \"{}\"", key));
        }
    }
    if let Some(kind) = k.get("kind").and_then(Value::as_str) {
        if kind != "Kustomization" {
            return Err(format!("kind should be Kustomization, not {}", kind));
        }
    }
    // `CheckDeprecatedFields`, in its order
    for (old, new) in [("bases", "resources"), ("commonLabels", "labels"), ("patchesJson6902", "patches"), ("patchesStrategicMerge", "patches")] {
        if km.contains_key(old) {
            warnings.push(format!("# Warning: '{}' is deprecated. Please use '{}' instead. Run 'kustomize edit fix' to update your Kustomization automatically.", old, new));
        }
    }
    let strings = |key: &str| -> Result<Vec<String>, String> {
        match k.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(a)) => a.iter().map(|v| v.as_str().map(String::from).ok_or_else(|| format!("invalid Kustomization: json: cannot unmarshal {} into Go struct field Kustomization.{} of type string", crate::api::gojson::json_type_name(v), key))).collect(),
            Some(v) => Err(format!("invalid Kustomization: json: cannot unmarshal {} into Go struct field Kustomization.{} of type []string", crate::api::gojson::json_type_name(v), key)),
        }
    };
    // resources (and the deprecated bases) in order
    let mut acc: Vec<Resource> = Vec::new();
    for entry in strings("bases")?.into_iter().chain(strings("resources")?) {
        if entry.contains("://") || entry.starts_with("github.com/") {
            return Err(format!("accumulating resources: kubesim's kustomize reads the console's files only, not remote resources ('{}')", entry));
        }
        let path = crate::client::workstation::join(dir, &entry);
        let loaded = if let Some(text) = fs.read(&path) {
            // `LoadRestrictionsRootOnly`: a file must be in or below the kustomization's directory
            within(dir, &path).map_err(|e| format!("accumulating resources: accumulation err='accumulating resources from '{}': {}': must build at directory: '{}': file is not directory", entry, e, path))?;
            load_documents(&text).map_err(|e| format!("accumulating resources: accumulation err='accumulating resources from '{}': {}': must build at directory: '{}': file is not directory", entry, e, path))?
        } else if KUSTOMIZATION_FILES.iter().any(|f| fs.read(&format!("{}/{}", path, f)).is_some()) {
            accumulate(fs, &path, depth + 1, warnings).map(|(r, _)| r).map_err(|e| format!("accumulating resources: accumulation err='accumulating resources from '{}': {}'", entry, e))?
        } else {
            return Err(format!(
                "accumulating resources: accumulation err='accumulating resources from '{}': evalsymlink failure on '{}' : lstat {}: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on '{}' : lstat {}: no such file or directory",
                entry, path, path, path, path
            ));
        };
        for r in loaded {
            if let Some(dup) = acc.iter().find(|a| a.id() == r.id()) {
                return Err(format!("accumulating resources: accumulation err='accumulating resources from '{}': may not add resource with an already registered id: {}': must build at directory: '{}': file is not directory", entry, dup.id(), path));
            }
            acc.push(r);
        }
        if acc.len() > MAX_RESOURCES {
            return Err(format!("the build has more than {} resources (kubesim's limit)", MAX_RESOURCES));
        }
    }
    generators::run(fs, dir, &k, &mut acc)?;
    transformers::run(fs, dir, &k, &mut acc)?;
    Ok((acc, k))
}

/// kustomize's root-only load restriction: `path` must be in or below `dir`.
pub(crate) fn within(dir: &str, path: &str) -> Result<(), String> {
    if path.starts_with(&format!("{}/", dir)) {
        Ok(())
    } else {
        Err(format!("security; file '{}' is not in or below '{}'", path, dir))
    }
}

/// The documents of a resource file.
fn load_documents(text: &str) -> Result<Vec<Resource>, String> {
    let docs = crate::api::codec::decode_manifest(text).map_err(|e| e.message)?;
    let mut out = Vec::new();
    for d in docs {
        // a List's items are resources of their own
        if d.object.get("kind").and_then(Value::as_str).is_some_and(|k| k.ends_with("List")) {
            for item in d.object.get("items").and_then(Value::as_array).cloned().unwrap_or_default() {
                out.push(Resource::new(item));
            }
        } else {
            out.push(Resource::new(d.object));
        }
    }
    Ok(out)
}

/// go-yaml's message for a syntax error (`yaml: line 1: did not find expected node content`).
pub(super) fn yaml_error(e: &serde_yaml::Error) -> String {
    let line = e.location().map(|l| l.line()).unwrap_or(1);
    let msg = e.to_string();
    let what = msg.split(" at line ").next().unwrap_or(&msg).to_string();
    format!("yaml: line {}: {}", line, what)
}

/// A map of strings from a kustomization field (`commonLabels`, `generatorOptions.labels`).
pub(crate) fn string_map(v: Option<&Value>, field: &str) -> Result<Vec<(String, String)>, String> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                Value::Number(n) => Ok((k.clone(), n.to_string())),
                Value::Bool(b) => Ok((k.clone(), b.to_string())),
                other => Err(format!("invalid Kustomization: json: cannot unmarshal {} into Go struct field {} of type string", crate::api::gojson::json_type_name(other), field)),
            })
            .collect(),
        Some(other) => Err(format!("invalid Kustomization: json: cannot unmarshal {} into Go struct field {} of type map[string]string", crate::api::gojson::json_type_name(other), field)),
    }
}

}

/// Builds `dir` over the console's files for `apply -k`/`create -k`/`delete -k`: the YAML, or
/// None after printing kustomize's error (and its warnings either way).
pub(super) fn build_for(cluster: &crate::cluster::Cluster, dir: &str, read_file: &dyn Fn(&str) -> Option<String>, out: &mut super::Output) -> Option<String> {
    match build_text(cluster, dir, read_file) {
        Ok((yaml, warnings)) => {
            for w in &warnings {
                out.note(w);
            }
            Some(yaml)
        }
        Err(e) => {
            out.err(&format!("error: {}", e));
            None
        }
    }
}

/// The build as (YAML, warnings), here.
#[cfg(feature = "lazy-parts")]
fn build_text(cluster: &crate::cluster::Cluster, dir: &str, read_file: &dyn Fn(&str) -> Option<String>) -> Result<(String, Vec<String>), String> {
    let ws = cluster.workstation();
    let is_dir = |p: &str| ws.is_dir(p);
    build(Fs { read: read_file, is_dir: &is_dir }, dir).map(|b| (b.to_yaml(), b.warnings))
}

/// The build as (YAML, warnings), by the page's second module, over the console's files.
#[cfg(not(feature = "lazy-parts"))]
fn build_text(cluster: &crate::cluster::Cluster, dir: &str, _read_file: &dyn Fn(&str) -> Option<String>) -> Result<(String, Vec<String>), String> {
    let input = serde_json::json!({"dir": dir, "files": cluster.workstation().export()}).to_string();
    let answer = super::lazy::call("kustomize_build", &input).ok_or("kubesim's kustomize is in the page's second module, which is not loaded (reload the page to try again)")?;
    decode_answer(&answer)
}

/// The second module's answer: `{"yaml": …, "warnings": […]}` or `{"error": …}`.
pub fn decode_answer(answer: &str) -> Result<(String, Vec<String>), String> {
    let v: Value = serde_json::from_str(answer).map_err(|e| format!("the second module's answer: {}", e))?;
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Err(e.to_string());
    }
    let warnings = v.get("warnings").and_then(Value::as_array).map(|a| a.iter().filter_map(|w| w.as_str().map(String::from)).collect()).unwrap_or_default();
    Ok((v.get("yaml").and_then(Value::as_str).unwrap_or("").to_string(), warnings))
}

/// The second module's side: builds `{"dir", "files"}` (the console's files as
/// [`crate::client::workstation::Workstation::export`] gives them) into its answer.
#[cfg(feature = "lazy-parts")]
pub fn answer(input: &str) -> String {
    let result = (|| -> Result<(String, Vec<String>), String> {
        let v: Value = serde_json::from_str(input).map_err(|e| e.to_string())?;
        let ws = crate::client::workstation::Workstation::import(v.get("files").unwrap_or(&Value::Null));
        let dir = v.get("dir").and_then(Value::as_str).unwrap_or(".");
        let read = |p: &str| ws.read(p).map(String::from);
        let is_dir = |p: &str| ws.is_dir(p);
        build(Fs { read: &read, is_dir: &is_dir }, dir).map(|b| (b.to_yaml(), b.warnings))
    })();
    match result {
        Ok((yaml, warnings)) => serde_json::json!({"yaml": yaml, "warnings": warnings}).to_string(),
        Err(e) => serde_json::json!({"error": e}).to_string(),
    }
}

/// `kubectl kustomize [DIR]`: the build printed, as kubectl does (warnings on stderr).
pub(super) fn kustomize_cmd(cluster: &crate::cluster::Cluster, f: &super::Flags, read_file: &dyn Fn(&str) -> Option<String>, out: &mut super::Output) {
    if f.positional.len() > 1 {
        return out.err("error: specify one path to kustomization.yaml");
    }
    let dir = f.positional.first().cloned().unwrap_or_else(|| ".".into());
    if let Some(text) = build_for(cluster, &dir, read_file, out) {
        out.out(text.trim_end_matches('\n'));
    }
}
