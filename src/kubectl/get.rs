//! `kubectl get`: lists, selectors, `-o wide|yaml|json|name|jsonpath|custom-columns`, `--show-labels`,
//! `get events` (`staging/src/k8s.io/kubectl/pkg/cmd/get`).

use super::*;

pub(super) fn list_path(info: &meta::ResourceInfo, ns: &str, all: bool, selector: &str) -> String {
    list_path_fields(info, ns, all, selector, "")
}

pub(super) fn list_path_fields(info: &meta::ResourceInfo, ns: &str, all: bool, selector: &str, fields: &str) -> String {
    let enc = crate::api::request::encode_selector;
    let base = info.collection_path(if all { "" } else { ns });
    let mut q = vec!["limit=500".to_string()];
    if !selector.is_empty() {
        q.push(format!("labelSelector={}", enc(selector)));
    }
    if !fields.is_empty() {
        q.push(format!("fieldSelector={}", enc(fields)));
    }
    format!("{}?{}", base, q.join("&"))
}

pub(super) fn get(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let targets = match targets(cluster, &f.positional) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    let wide = f.output == "wide";
    let jsonpath = f.output.strip_prefix("jsonpath=").map(|p| p.trim_matches('\'').to_string());
    // `-o custom-columns=HEADER:PATH,…` (NewCustomColumnsPrinterFromSpec)
    let columns = match f.output.strip_prefix("custom-columns=").map(custom_columns) {
        Some(Ok(c)) => Some(c),
        Some(Err(e)) => return out.err(&format!("error: {}", e)),
        None if f.output == "custom-columns" => return out.err("error: custom-columns format specified but no custom columns given"),
        None => None,
    };
    if jsonpath.is_none() && columns.is_none() && !["", "wide", "yaml", "json", "name"].contains(&f.output.as_str()) {
        return out.err(&format!(
            "error: unable to match a printer suitable for the output format \"{}\", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml",
            f.output
        ));
    }
    let sort_field = match &f.sort_by {
        Some(s) => match relaxed_jsonpath(s) {
            Ok(p) => Some(p),
            Err(e) => return out.err(&format!("error: {}", e)),
        },
        None => None,
    };
    let mut fetched: Vec<(&'static meta::ResourceInfo, Vec<Value>)> = Vec::new();
    let mut single_named = false;
    for (info, names) in &targets {
        let mut objs = Vec::new();
        if names.is_empty() {
            let resp = kubectl(cluster, Method::Get, &list_path_fields(info, ns, f.all_namespaces, &f.selector, &f.field_selector), None);
            if !resp.ok() {
                out.err(&server_error(&enhance_list_error(resp, info, &f.selector, &f.field_selector), None));
                continue;
            }
            objs = resp.body.get("items").and_then(|i| i.as_array()).cloned().unwrap_or_default();
            for o in objs.iter_mut() {
                if let Some(m) = o.as_object_mut() {
                    m.insert("apiVersion".into(), json!(info.api_version()));
                    m.insert("kind".into(), json!(info.kind));
                }
            }
        } else {
            single_named = names.len() == 1 && targets.len() == 1;
            for n in names {
                let resp = kubectl(cluster, Method::Get, &info.object_path(ns, n), None);
                if resp.ok() {
                    objs.push(resp.body);
                } else {
                    out.err(&server_error(&resp, None));
                }
            }
        }
        if let Some(field) = &sort_field {
            if let Err(e) = sort_objects(&mut objs, field) {
                // Tables (the default and wide output): kubectl's TableSorter error leaves the
                // table without rows, so a field no row has prints "No resources found"
                // (kubernetes/kubectl#1343, open); other outputs report the error.
                if f.output.is_empty() || f.output == "wide" {
                    objs.clear();
                } else {
                    return out.err(&format!("error: {}", e));
                }
            }
        }
        fetched.push((*info, objs));
    }
    // multipleGVKsRequested: every requested type yields an info (an empty Table too)
    let with_kind = targets.len() > 1;
    let mut all_objs = Vec::new();
    let mut tables = Vec::new();
    for (info, objs) in fetched {
        if info.kind == "Event" && f.output.is_empty() && sort_field.is_none() {
            tables.push(printers::print_events_owned(objs.clone(), wall_ms(cluster)));
        } else if f.output.is_empty() || wide {
            if !objs.is_empty() {
                let mut table = match cluster.view().crds().version_of(info) {
                    Some(v) if matches!(info.id, meta::Resource::Custom(_)) => printers::print_custom_table(info, &v.columns, &objs, wide, with_kind, wall_ms(cluster)),
                    _ => printers::print_table(info.kind, &objs, wide, with_kind, wall_ms(cluster)),
                };
                if f.show_labels {
                    table = add_labels_column(&table, &objs);
                }
                if f.all_namespaces && info.namespaced {
                    table = printers::add_namespace_column(&table, &objs);
                }
                tables.push(table);
            }
        }
        if f.output == "name" {
            for o in &objs {
                out.out(&format!("{}/{}", info.kubectl_prefix(), meta::name(o)));
            }
        }
        all_objs.extend(objs);
    }
    match f.output.as_str() {
        "yaml" => {
            if single_named && all_objs.len() == 1 {
                out.out(&printers::to_yaml(&all_objs[0]));
            } else if !all_objs.is_empty() || out.stderr.is_empty() {
                out.out(&printers::list_to_yaml(&all_objs));
            }
        }
        "json" => {
            if single_named && all_objs.len() == 1 {
                out.out(&printers::to_json(&all_objs[0]));
            } else if !all_objs.is_empty() || out.stderr.is_empty() {
                out.out(&printers::list_to_json(&all_objs));
            }
        }
        "name" => {}
        _ if columns.is_some() => {
            let columns = columns.unwrap_or_default();
            let mut text = columns.iter().map(|(h, _)| h.as_str()).collect::<Vec<_>>().join("\t");
            text.push('\n');
            for o in &all_objs {
                let mut cells = Vec::new();
                for (_, path) in &columns {
                    let values = match jsonpath_select(o, path) {
                        Ok(v) => v,
                        Err(e) => return out.err(&format!("error: {}", e)),
                    };
                    cells.push(if values.is_empty() { "<none>".to_string() } else { values.iter().map(|v| go_sprint(v)).collect::<Vec<_>>().join(",") });
                }
                text.push_str(&cells.join("\t"));
                text.push('\n');
            }
            if !all_objs.is_empty() {
                out.out(printers::tabwriter::tabwriter(&text, 6, 3).trim_end_matches('\n'));
            } else if out.stderr.is_empty() {
                let scope = if f.all_namespaces || targets.iter().all(|(i, _)| !i.namespaced) { String::new() } else { format!(" in {} namespace", ns) };
                out.note(&format!("No resources found{}.\n", scope));
            }
        }
        _ if jsonpath.is_some() => {
            let expr = jsonpath.unwrap_or_default();
            let target = if single_named && all_objs.len() == 1 {
                all_objs[0].clone()
            } else {
                json!({"apiVersion": "v1", "kind": "List", "items": all_objs, "metadata": {"resourceVersion": ""}})
            };
            match printers_jsonpath(&target, &expr) {
                Ok(s) => out.out_raw(&s),
                Err(e) => out.err(&format!("error: error parsing jsonpath {}, {}", expr, e)),
            }
        }
        _ => {
            let tables: Vec<String> = tables.into_iter().filter(|t| !t.is_empty()).collect();
            if tables.is_empty() {
                if out.stderr.is_empty() {
                    let scope = if f.all_namespaces || targets.iter().all(|(i, _)| !i.namespaced) {
                        String::new()
                    } else {
                        format!(" in {} namespace", ns)
                    };
                    out.note(&format!("No resources found{}.\n", scope));
                }
            } else {
                out.out(&tables.join("\n"));
            }
        }
    }
}

/// The columns of a `custom-columns` spec: (header, relaxed JSONPath).
fn custom_columns(spec: &str) -> Result<Vec<(String, String)>, String> {
    if spec.is_empty() {
        return Err("custom-columns format specified but no custom columns given".into());
    }
    spec.split(',')
        .map(|part| match part.split_once(':') {
            Some((h, p)) => Ok((h.to_string(), relaxed_jsonpath(p)?)),
            None => Err(format!("unexpected custom-columns spec: {}, expected <header>:<json-path-expr>", part)),
        })
        .collect()
}

/// Go's `fmt.Sprint` of an unstructured value: strings bare, maps `map[k:v]`, lists `[a b]`.
fn go_sprint(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "<nil>".into(),
        Value::Array(a) => format!("[{}]", a.iter().map(go_sprint).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            format!("map[{}]", keys.iter().map(|k| format!("{}:{}", k, go_sprint(&m[*k]))).collect::<Vec<_>>().join(" "))
        }
        other => other.to_string(),
    }
}

/// `RelaxedJSONPathExpression`: `.a.b`, `a.b`, `{.a.b}` or `{a.b}` -> `.a.b`.
pub(super) fn relaxed_jsonpath(s: &str) -> Result<String, String> {
    let inner = s.strip_prefix('{').and_then(|x| x.strip_suffix('}')).unwrap_or(s);
    let inner = inner.strip_prefix('.').unwrap_or(inner);
    if inner.is_empty() || inner.contains(['{', '}']) {
        return Err("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'".into());
    }
    Ok(format!(".{}", inner))
}

/// `--sort-by`: kubectl's TableSorter on one resource type's rows. Objects without the field
/// sort first; numbers compare as numbers, everything else as strings (RFC 3339 timestamps
/// in one format sort by time). Ties come out as Go's `sort.Sort` leaves them ([`super::gosort`]).
fn sort_objects(objs: &mut [Value], field: &str) -> Result<(), String> {
    if objs.is_empty() {
        return Ok(());
    }
    let key = |o: &Value| -> Result<Option<Value>, String> { Ok(jsonpath_select(o, field)?.first().map(|v| (*v).clone())) };
    let mut keyed: Vec<(Option<Value>, Value)> = Vec::new();
    for o in objs.iter() {
        keyed.push((key(o)?, o.clone()));
    }
    if keyed.iter().all(|(k, _)| k.is_none()) {
        return Err(format!("couldn't find any field with path \"{{{}}}\" in the list of objects", field));
    }
    // TableSorter.Less: a row without the field sorts before anything; then isLess
    let less = |x: &(Option<Value>, Value), y: &(Option<Value>, Value)| -> bool {
        match (&x.0, &y.0) {
            (None, _) => true,
            (_, None) => false,
            (Some(a), Some(b)) => match (a.as_f64(), b.as_f64()) {
                (Some(p), Some(q)) => p < q,
                _ => {
                    let s = |v: &Value| match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    s(a) < s(b)
                }
            },
        }
    };
    super::gosort::sort(&mut keyed, &less);
    for (slot, (_, o)) in objs.iter_mut().zip(keyed) {
        *slot = o;
    }
    Ok(())
}

/// A small subset of kubectl's JSONPath (`k8s.io/client-go/util/jsonpath`): `{.a.b[0].c}`,
/// `{.items[*].metadata.name}`, filters such as `{.status.conditions[?(@.type=="Ready")].status}`
/// (`==`, `!=`, `<`, `>`, `<=`, `>=` against a quoted string or a number, or `?(@.key)` for
/// presence), `{range .items[*]}…{end}` and string literals such as `{"\t"}` and `{"\n"}`, with
/// literal text between actions. Values print as kubectl prints them (strings bare, others JSON;
/// several matches joined by a space).
pub(super) fn printers_jsonpath(obj: &Value, expr: &str) -> Result<String, String> {
    let mut actions = Vec::new();
    let mut rest = expr;
    while let Some(start) = rest.find('{') {
        if start > 0 {
            actions.push(Action::Text(rest[..start].to_string()));
        }
        let end = action_end(&rest[start..]).ok_or("unclosed action")? + start;
        actions.push(Action::parse(rest[start + 1..end].trim())?);
        rest = &rest[end + 1..];
    }
    if !rest.is_empty() {
        actions.push(Action::Text(rest.to_string()));
    }
    let mut out = String::new();
    let mut pos = 0;
    run_actions(obj, &actions, &mut pos, &mut out, false)?;
    if pos < actions.len() {
        return Err("unexpected {end}".into());
    }
    Ok(out)
}

enum Action {
    Text(String),
    Field(String),
    Range(String),
    End,
}

impl Action {
    fn parse(a: &str) -> Result<Action, String> {
        if a == "end" {
            return Ok(Action::End);
        }
        if let Some(p) = a.strip_prefix("range ") {
            return Ok(Action::Range(p.trim().to_string()));
        }
        if a.len() >= 2 && (a.starts_with('"') && a.ends_with('"') || a.starts_with('\'') && a.ends_with('\'')) {
            let inner = &a[1..a.len() - 1];
            return Ok(Action::Text(inner.replace("\\n", "\n").replace("\\t", "\t").replace("\\\"", "\"")));
        }
        Ok(Action::Field(a.to_string()))
    }
}

/// The index of the `}` closing the action that `s` opens, skipping quoted text.
fn action_end(s: &str) -> Option<usize> {
    let mut quote = None;
    for (i, ch) in s.char_indices().skip(1) {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"') => quote = Some(ch),
            (None, '}') => return Some(i),
            _ => {}
        }
    }
    None
}

/// Runs `actions` from `*pos` on `obj` until the `{end}` closing a range (when `in_range`).
fn run_actions(obj: &Value, actions: &[Action], pos: &mut usize, out: &mut String, in_range: bool) -> Result<(), String> {
    while *pos < actions.len() {
        match &actions[*pos] {
            Action::Text(t) => out.push_str(t),
            Action::End if in_range => return Ok(()),
            Action::End => return Err("not in range, nothing to end".into()),
            Action::Field(path) => {
                let parts: Vec<String> = jsonpath_select(obj, path)?
                    .iter()
                    .map(|v| match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect();
                out.push_str(&parts.join(" "));
            }
            Action::Range(path) => {
                let items = jsonpath_select(obj, path)?;
                let body = *pos + 1;
                let mut after = None;
                for item in &items {
                    let mut p = body;
                    run_actions(item, actions, &mut p, out, true)?;
                    after = Some(p);
                }
                *pos = match after {
                    Some(p) => p,
                    None => {
                        // no items: skip to the matching {end}
                        let mut scratch = String::new();
                        let mut p = body;
                        run_actions(&Value::Null, actions, &mut p, &mut scratch, true)?;
                        p
                    }
                };
                if *pos >= actions.len() {
                    return Err("range without {end}".into());
                }
            }
        }
        *pos += 1;
    }
    if in_range {
        return Err("range without {end}".into());
    }
    Ok(())
}

/// Splits `.a.b[?(@.x.y=="1.2")].c` at the dots outside brackets and quotes.
fn jsonpath_segments(path: &str) -> Vec<&str> {
    let (mut segs, mut depth, mut quote, mut from) = (Vec::new(), 0i32, None::<char>, 0usize);
    for (i, ch) in path.char_indices() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(ch),
            (None, '[') => depth += 1,
            (None, ']') => depth -= 1,
            (None, '.') if depth == 0 => {
                segs.push(&path[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    segs.push(&path[from..]);
    segs.into_iter().filter(|s| !s.is_empty()).collect()
}

pub(super) fn jsonpath_select<'a>(obj: &'a Value, path: &str) -> Result<Vec<&'a Value>, String> {
    let mut cur: Vec<&Value> = vec![obj];
    for seg in jsonpath_segments(path.trim_start_matches('@')) {
        let (name, idx) = match seg.find('[') {
            Some(i) => (&seg[..i], Some(seg[i + 1..].strip_suffix(']').ok_or_else(|| format!("unterminated array {}", seg))?)),
            None => (seg, None),
        };
        let mut next = Vec::new();
        for v in cur {
            let v = if name.is_empty() { Some(v) } else { v.get(name) };
            match (v, idx) {
                (Some(v), None) => next.push(v),
                (Some(Value::Array(a)), Some("*")) => next.extend(a.iter()),
                (Some(Value::Array(a)), Some(f)) if f.starts_with('?') => {
                    let cond = f[1..].trim().strip_prefix('(').and_then(|c| c.strip_suffix(')')).ok_or_else(|| format!("unclosed filter {}", f))?;
                    for item in a {
                        if jsonpath_filter(item, cond)? {
                            next.push(item);
                        }
                    }
                }
                (Some(Value::Array(a)), Some(i)) => {
                    let i: usize = i.parse().map_err(|_| format!("invalid array index {}", i))?;
                    if let Some(x) = a.get(i) {
                        next.push(x);
                    } else {
                        return Err("array index out of bounds".into());
                    }
                }
                _ => {}
            }
        }
        cur = next;
    }
    Ok(cur)
}

/// One filter condition `@.path OP literal`, or `@.path` (present).
fn jsonpath_filter(item: &Value, cond: &str) -> Result<bool, String> {
    let ops = ["==", "!=", "<=", ">=", "<", ">"];
    let Some((at, op)) = ops.iter().filter_map(|op| cond.find(op).map(|i| (i, *op))).min_by_key(|(i, _)| *i) else {
        return Ok(!jsonpath_select(item, cond.trim())?.is_empty());
    };
    let left = jsonpath_select(item, cond[..at].trim())?;
    let lit = cond[at + op.len()..].trim();
    let right: Value = if let Some(s) = lit.strip_prefix('"').and_then(|s| s.strip_suffix('"')).or_else(|| lit.strip_prefix('\'').and_then(|s| s.strip_suffix('\''))) {
        Value::String(s.to_string())
    } else {
        serde_json::from_str(lit).map_err(|_| format!("unrecognized filter literal {}", lit))?
    };
    Ok(left.iter().any(|l| match (op, l.as_f64(), right.as_f64()) {
        ("==", ..) => **l == right || matches!((l.as_f64(), right.as_f64()), (Some(a), Some(b)) if a == b),
        ("!=", ..) => **l != right,
        ("<", Some(a), Some(b)) => a < b,
        (">", Some(a), Some(b)) => a > b,
        ("<=", Some(a), Some(b)) => a <= b,
        (">=", Some(a), Some(b)) => a >= b,
        _ => false,
    }))
}

/// `--show-labels`: a LABELS column after the others (`k=v,k2=v2` or `<none>`).
pub(super) fn add_labels_column(table: &str, objs: &[Value]) -> String {
    let lines: Vec<&str> = table.lines().collect();
    let width = lines.iter().map(|l| l.trim_end().chars().count()).max().unwrap_or(0) + 3;
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        let l = l.trim_end();
        let label = if i == 0 {
            "LABELS".to_string()
        } else {
            let m = objs.get(i - 1).map(meta::labels).unwrap_or_default();
            if m.is_empty() {
                "<none>".to_string()
            } else {
                m.iter().map(|(k, v)| format!("{}={}", k, v.as_str().unwrap_or(""))).collect::<Vec<_>>().join(",")
            }
        };
        out.push_str(&format!("{:<w$}{}\n", l, label, w = width));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::printers_jsonpath;
    use serde_json::json;

    /// JSONPath as `kubectl get -o jsonpath=…` evaluates it, on a Pod's status.
    #[test]
    fn jsonpath_table() {
        let pod = json!({
            "metadata": {"name": "web", "labels": {"app.kubernetes.io/name": "web"}},
            "status": {
                "conditions": [
                    {"type": "Initialized", "status": "True"},
                    {"type": "Ready", "status": "False", "reason": "ContainersNotReady"}
                ],
                "containerStatuses": [{"name": "a", "restartCount": 3}, {"name": "b", "restartCount": 0}]
            }
        });
        let cases = [
            ("field", "{.metadata.name}", Ok("web")),
            ("literal text around", "name={.metadata.name};", Ok("name=web;")),
            ("index", "{.status.conditions[1].type}", Ok("Ready")),
            ("wildcard", "{.status.conditions[*].type}", Ok("Initialized Ready")),
            ("filter ==", r#"{.status.conditions[?(@.type=="Ready")].status}"#, Ok("False")),
            ("filter single quotes", "{.status.conditions[?(@.type=='Initialized')].status}", Ok("True")),
            ("filter !=", r#"{.status.conditions[?(@.type!="Ready")].type}"#, Ok("Initialized")),
            ("filter number", "{.status.containerStatuses[?(@.restartCount>0)].name}", Ok("a")),
            ("filter presence", "{.status.conditions[?(@.reason)].type}", Ok("Ready")),
            ("filter no match", r#"{.status.conditions[?(@.type=="Nope")].status}"#, Ok("")),
            ("bad index", "{.status.conditions[x].type}", Err("invalid array index x")),
            ("out of bounds", "{.status.conditions[5].type}", Err("array index out of bounds")),
            ("unclosed", "{.metadata.name", Err("unclosed action")),
            ("range", r#"{range .status.containerStatuses[*]}{.name}{"\t"}{.restartCount}{"\n"}{end}"#, Ok("a\t3\nb\t0\n")),
            ("range over nothing", "{range .spec.containers[*]}{.name}{end}done", Ok("done")),
            ("string literal with a brace", r#"{"}"}"#, Ok("}")),
            ("range without end", "{range .status.conditions[*]}{.type}", Err("range without {end}")),
            ("end without range", "{.metadata.name}{end}", Err("not in range, nothing to end")),
        ];
        for (name, expr, want) in cases {
            let got = printers_jsonpath(&pod, expr);
            assert_eq!(got.as_deref().map_err(|e| e.as_str()), want, "{}", name);
        }
    }
}

/// cli-runtime's `EnhanceListError`: a 400 or 404 to a LIST names what was listed, and with
/// which selectors (`Unable to find "/v1, Resource=pods" that match label selector "", field
/// selector "foo=bar": field label not supported: foo`).
pub(super) fn enhance_list_error(mut resp: crate::api::request::Response, info: &meta::ResourceInfo, selector: &str, fields: &str) -> crate::api::request::Response {
    if resp.code == 400 || resp.code == 404 {
        let subject = format!("{}/{}, Resource={}", info.group, info.version, info.resource);
        let msg = if selector.is_empty() && fields.is_empty() {
            format!("Unable to list {:?}: {}", subject, resp.message())
        } else {
            format!("Unable to find {:?} that match label selector {:?}, field selector {:?}: {}", subject, selector, fields, resp.message())
        };
        resp.body["message"] = json!(msg);
    }
    resp
}
