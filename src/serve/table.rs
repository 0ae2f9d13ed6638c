//! Server-side printing: `Accept: application/json;as=Table;v=v1;g=meta.k8s.io` answers a
//! `meta.k8s.io/v1` `Table`, which is what the real `kubectl get` asks for and prints.
//!
//! The cells come from kubesim's own printers ([`crate::kubectl::printers::print_table`]), the
//! same code the simulated kubectl prints with. Their per-kind column definitions and row
//! functions are private to that module (which this slice may not edit), so this module renders
//! the text table and cuts it back into cells: with `-o wide` columns (all of them) and without
//! (the columns missing there are priority 1), splitting each line at the positions where the
//! header's columns start (the tabwriter aligns every cell of a column at the same position;
//! headers are separated by at least two spaces, while multi-word headers such as
//! `NOMINATED NODE` contain single ones).

use crate::api::meta::ResourceInfo;
use crate::kubectl::printers::print_table;
use serde_json::{json, Value};

/// Character positions where each header column starts.
fn column_starts(header: &str) -> Vec<usize> {
    let chars: Vec<char> = header.chars().collect();
    let mut starts = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != ' ' && (i == 0 || (i >= 2 && chars[i - 1] == ' ' && chars[i - 2] == ' ')) {
            starts.push(i);
        }
        i += 1;
    }
    starts
}

/// Cuts a line into cells at `starts`.
fn cut(line: &str, starts: &[usize]) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    (0..starts.len())
        .map(|k| {
            let a = starts[k].min(chars.len());
            let b = if k + 1 < starts.len() { starts[k + 1].min(chars.len()) } else { chars.len() };
            chars[a..b].iter().collect::<String>().trim().to_string()
        })
        .collect()
}

/// `UP-TO-DATE` → `Up-to-date`, `NOMINATED NODE` → `Nominated node`.
fn column_name(header: &str) -> String {
    let lower = header.to_lowercase();
    let mut c = lower.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The row's `object`, as `includeObject` asks: `None`, `Object`, or (default) `Metadata`.
fn row_object(obj: &Value, include: &str) -> Option<Value> {
    match include {
        "None" => None,
        "Object" => Some(obj.clone()),
        _ => Some(json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": obj.get("metadata").cloned().unwrap_or(json!({}))})),
    }
}

/// A `Table` of `objs` (of resource `info`) at virtual time `now_ms`; `resource_version` goes in
/// the Table's metadata.
pub fn table(info: &ResourceInfo, objs: &[Value], now_ms: i64, include: &str, resource_version: &str) -> Value {
    let mut t = json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {}, "columnDefinitions": [], "rows": []});
    if !resource_version.is_empty() {
        t["metadata"]["resourceVersion"] = json!(resource_version);
    }
    if objs.is_empty() {
        return t;
    }
    let wide = print_table(info.kind, objs, true, false, now_ms);
    let narrow = print_table(info.kind, objs, false, false, now_ms);
    let narrow_headers: Vec<String> = narrow.lines().next().map(|h| {
        let s = column_starts(h);
        cut(h, &s)
    }).unwrap_or_default();
    let mut lines = wide.lines();
    let Some(header) = lines.next() else { return t };
    let starts = column_starts(header);
    let headers = cut(header, &starts);
    let defs: Vec<Value> = headers
        .iter()
        .map(|h| {
            let mut d = json!({
                "name": column_name(h),
                "type": "string",
                "format": "",
                "description": "",
                "priority": if narrow_headers.contains(h) { 0 } else { 1 },
            });
            if h == "NAME" {
                d["format"] = json!("name");
            }
            d
        })
        .collect();
    let rows: Vec<Value> = lines
        .zip(objs.iter())
        .map(|(line, obj)| {
            let mut r = json!({"cells": cut(line, &starts)});
            if let Some(o) = row_object(obj, include) {
                r["object"] = o;
            }
            r
        })
        .collect();
    t["columnDefinitions"] = json!(defs);
    t["rows"] = json!(rows);
    t
}

/// A custom resource's `Table`, as apiextensions-apiserver's `tableconvertor` builds it: `Name`,
/// then the printer columns with their types, formats, descriptions and priorities; `integer`
/// and `number` cells as JSON numbers, `boolean` as booleans, `date` as an age, a missing value
/// `null`.
pub fn custom_table(columns: &[crate::apiextensions::Column], objs: &[Value], now_ms: i64, include: &str, resource_version: &str) -> Value {
    let mut t = json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {}, "columnDefinitions": [], "rows": []});
    if !resource_version.is_empty() {
        t["metadata"]["resourceVersion"] = json!(resource_version);
    }
    let mut defs = vec![json!({"name": "Name", "type": "string", "format": "name", "description": "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", "priority": 0})];
    for c in columns {
        defs.push(json!({"name": c.name, "type": c.type_, "format": "", "description": "", "priority": c.priority}));
    }
    let rows: Vec<Value> = objs
        .iter()
        .map(|o| {
            let mut cells = vec![json!(crate::api::meta::name(o))];
            for c in columns {
                let v = c.value(o).cloned().unwrap_or(Value::Null);
                cells.push(match (c.type_.as_str(), &v) {
                    ("date", Value::String(s)) => json!(crate::kubectl::printers::translate_timestamp_since(s, now_ms)),
                    ("integer", Value::Number(n)) if n.is_i64() || n.is_u64() => v.clone(),
                    ("number", Value::Number(_)) | ("boolean", Value::Bool(_)) | ("string", Value::String(_)) => v.clone(),
                    ("string", Value::Null) => Value::Null,
                    ("string", other) => json!(other.to_string()),
                    _ => Value::Null,
                });
            }
            let mut r = json!({"cells": cells});
            if let Some(obj) = row_object(o, include) {
                r["object"] = obj;
            }
            r
        })
        .collect();
    t["columnDefinitions"] = json!(defs);
    t["rows"] = json!(rows);
    t
}

/// Whether an `Accept` header asks for a `Table`.
pub fn wants_table(accept: &str) -> bool {
    accept.split(',').any(|a| a.contains("as=Table") && a.contains("g=meta.k8s.io"))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn cuts_at_header_positions() {
        let h = "NAME     READY   NOMINATED NODE   AGE";
        let s = column_starts(h);
        assert_eq!(cut(h, &s), vec!["NAME", "READY", "NOMINATED NODE", "AGE"]);
        assert_eq!(cut("web-1    1/1     <none>           5s", &s), vec!["web-1", "1/1", "<none>", "5s"]);
    }
}
