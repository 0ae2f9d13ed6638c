//! Manifest decoding: YAML or JSON text to objects, the way kubectl reads `-f` files.
//!
//! Real counterparts: `k8s.io/apimachinery/pkg/util/yaml` (`NewYAMLOrJSONDecoder`, the `---`
//! document splitter) and `sigs.k8s.io/yaml` (`YAMLToJSON`), which uses go-yaml — itself a port
//! of libyaml. serde_yaml is built on unsafe-libyaml, another port of the same C library, so the
//! scanner and parser messages ("mapping values are not allowed in this context", "did not find
//! expected key") are the same words kubectl prints.
//!
//! kubectl splits a stream into documents first and parses each alone, so the `line N` it reports
//! is counted from the start of that document. [`DecodeError`] keeps both that line (for the
//! kubectl message) and the absolute line and column (for the editor's inline marker).

use serde_json::{Map, Number, Value};

/// Bound on one manifest (kubectl has none, but the API server rejects requests over 3 MiB and a
/// page should not try to parse 100 MB of YAML).
pub const MAX_MANIFEST_BYTES: usize = 3 * 1024 * 1024;
/// Bound on documents in one manifest.
pub const MAX_DOCUMENTS: usize = 1000;
/// Bound on nesting depth (protects the recursive converters).
pub const MAX_DEPTH: usize = 64;

#[derive(Clone, Debug, PartialEq)]
pub struct DecodeError {
    /// The message in kubectl's words, without the `error: error parsing FILE: ` prefix.
    pub message: String,
    /// 1-based line within the whole text, if known.
    pub line: Option<usize>,
    /// 1-based column, if known.
    pub column: Option<usize>,
}

/// One document of a manifest with the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    pub object: Value,
    pub start_line: usize,
}

/// Splits on lines that are exactly `---` (optionally followed by spaces or a comment), like
/// `yaml.NewDocumentDecoder`; returns (text, first line number).
fn split_documents(text: &str) -> Vec<(String, usize)> {
    let mut docs = Vec::new();
    let mut cur = String::new();
    let mut start = 1;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim_end();
        if t == "---" || t.starts_with("--- ") || t.starts_with("---\t") {
            docs.push((std::mem::take(&mut cur), start));
            start = i + 2;
            continue;
        }
        cur.push_str(line);
    }
    docs.push((cur, start));
    docs
}

fn is_blank_yaml(s: &str) -> bool {
    s.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    })
}

/// Decodes a YAML or JSON manifest (several documents allowed) into objects.
/// Empty documents are skipped, as kubectl does. A `kind: List` is expanded into its items.
pub fn decode_manifest(text: &str) -> Result<Vec<Document>, DecodeError> {
    if text.len() > MAX_MANIFEST_BYTES {
        return Err(DecodeError {
            message: format!("manifest is {} bytes, over kubesim's limit of {} bytes", text.len(), MAX_MANIFEST_BYTES),
            line: None,
            column: None,
        });
    }
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        // JSON stream: one or more objects.
        let mut out = Vec::new();
        let mut de = serde_json::Deserializer::from_str(text).into_iter::<Value>();
        loop {
            let offset = de.byte_offset();
            match de.next() {
                None => break,
                Some(Ok(v)) => {
                    let start_line = text[..offset.min(text.len())].matches('\n').count() + 1;
                    push_object(&mut out, v, start_line)?;
                }
                Some(Err(e)) => {
                    return Err(DecodeError {
                        message: format!("error converting YAML to JSON: yaml: line {}: {}", e.line(), json_error_text(&e)),
                        line: Some(e.line()),
                        column: Some(e.column()),
                    })
                }
            }
            if out.len() > MAX_DOCUMENTS {
                return Err(too_many());
            }
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for (doc, start_line) in split_documents(text) {
        if is_blank_yaml(&doc) {
            continue;
        }
        if let Some(line) = flow_too_deep(&doc) {
            return Err(DecodeError { message: depth_message(), line: Some(start_line + line - 1), column: None });
        }
        let yv: serde_yaml::Value = match serde_yaml::from_str(&doc) {
            Ok(v) => v,
            Err(e) => return Err(yaml_error(&e, start_line)),
        };
        let v = yaml_to_json(&yv, 0).map_err(|m| DecodeError { message: m, line: Some(start_line), column: None })?;
        if v.is_null() {
            continue;
        }
        push_object(&mut out, v, start_line)?;
        if out.len() > MAX_DOCUMENTS {
            return Err(too_many());
        }
    }
    Ok(out)
}

fn too_many() -> DecodeError {
    DecodeError { message: format!("manifest has more than {} documents, kubesim's limit", MAX_DOCUMENTS), line: None, column: None }
}

fn push_object(out: &mut Vec<Document>, v: Value, start_line: usize) -> Result<(), DecodeError> {
    if !v.is_object() {
        return Err(DecodeError {
            message: format!(
                "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                json_type_name(&v)
            ),
            line: Some(start_line),
            column: None,
        });
    }
    if v.get("kind").and_then(|k| k.as_str()) == Some("List") {
        if let Some(items) = v.get("items").and_then(|i| i.as_array()) {
            for it in items {
                out.push(Document { object: it.clone(), start_line });
            }
            return Ok(());
        }
    }
    out.push(Document { object: v, start_line });
    Ok(())
}

pub fn json_type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn json_error_text(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

fn yaml_error(e: &serde_yaml::Error, doc_start_line: usize) -> DecodeError {
    let raw = e.to_string();
    // serde_yaml: "<problem> at line L column C[, while <context> at line L2 column C2]".
    // go-yaml (kubectl) prints "yaml: line N: <problem>", where N is the 1-based problem line for
    // scanner errors but the 0-based one for parser errors (the ones "while parsing …"): a quirk of
    // yaml.v2's parser.fail, reproduced here so the numbers match what kubectl prints.
    let (head, context) = match raw.split_once(", while ") {
        Some((h, c)) => (h.to_string(), c.to_string()),
        None => (raw.clone(), String::new()),
    };
    let problem = match head.rfind(" at line ") {
        Some(i) => head[..i].to_string(),
        None => head.clone(),
    };
    let problem = problem.strip_prefix("yaml: ").unwrap_or(&problem).to_string();
    let parser_error = context.starts_with("parsing");
    match e.location() {
        Some(loc) => {
            let rel_line = loc.line();
            let shown = if parser_error { rel_line.saturating_sub(1) } else { rel_line };
            DecodeError {
                message: format!("error converting YAML to JSON: yaml: line {}: {}", shown, problem),
                line: Some(doc_start_line + rel_line - 1),
                column: Some(loc.column()),
            }
        }
        None => DecodeError { message: format!("error converting YAML to JSON: yaml: {}", problem), line: None, column: None },
    }
}

fn depth_message() -> String {
    format!("error converting YAML to JSON: nesting deeper than {} levels, kubesim's limit", MAX_DEPTH)
}

/// The line (1-based) where flow collections (`[`, `{`) nest deeper than [`MAX_DEPTH`], if they
/// do. Checked before parsing: the YAML scanner's time grows with the flow depth times the
/// tokens (half a megabyte of `[` took hours), while the converter's own bound comes after it.
/// Quoted scalars and comments are skipped; brackets inside plain or block scalars count, so a
/// very deep bracketed text there is refused too (never a real manifest).
fn flow_too_deep(doc: &str) -> Option<usize> {
    let (mut depth, mut line, mut prev) = (0usize, 1usize, ' ');
    let mut chars = doc.chars().peekable();
    while let Some(c) = chars.next() {
        let token_start = prev.is_whitespace() || "[{,:-?".contains(prev);
        match c {
            '\n' => line += 1,
            '#' if prev.is_whitespace() => {
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
            }
            '\'' | '"' if token_start => {
                // to the closing quote: `''` inside single quotes, `\x` inside double quotes
                while let Some(q) = chars.next() {
                    match q {
                        '\n' => line += 1,
                        '\\' if c == '"' => {
                            if chars.next() == Some('\n') {
                                line += 1;
                            }
                        }
                        '\'' if c == '\'' && chars.peek() == Some(&'\'') => {
                            chars.next();
                        }
                        q if q == c => break,
                        _ => {}
                    }
                }
            }
            '[' | '{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(line);
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        prev = c;
    }
    None
}

/// YAML → JSON the way `sigs.k8s.io/yaml.YAMLToJSON` does: non-string keys become strings,
/// integers stay integers, `.inf`/`.nan` are rejected.
fn yaml_to_json(v: &serde_yaml::Value, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("error converting YAML to JSON: nesting deeper than {} levels, kubesim's limit", MAX_DEPTH));
    }
    Ok(match v {
        serde_yaml::Value::Null => Value::Null,
        serde_yaml::Value::Bool(b) => Value::Bool(*b),
        serde_yaml::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Number(i.into())
            } else if let Some(u) = n.as_u64() {
                Value::Number(u.into())
            } else {
                let f = n.as_f64().unwrap_or(0.0);
                match Number::from_f64(f) {
                    Some(num) => Value::Number(num),
                    None => return Err(format!("error converting YAML to JSON: json: unsupported value: {}", f)),
                }
            }
        }
        // YAML 1.1 (go-yaml, kubectl) reads `0644` as an octal integer; serde_yaml follows YAML 1.2
        // and gives the string "0644". Manifests use this for volume `defaultMode`.
        serde_yaml::Value::String(s) if s.len() > 1 && s.starts_with('0') && s.bytes().all(|b| (b'0'..=b'7').contains(&b)) => {
            Value::Number(i64::from_str_radix(&s[1..], 8).unwrap_or(0).into())
        }
        serde_yaml::Value::String(s) => Value::String(s.clone()),
        serde_yaml::Value::Sequence(seq) => {
            Value::Array(seq.iter().map(|x| yaml_to_json(x, depth + 1)).collect::<Result<Vec<_>, _>>()?)
        }
        serde_yaml::Value::Mapping(m) => {
            let mut out = Map::new();
            for (k, val) in m {
                let key = match k {
                    serde_yaml::Value::String(s) => s.clone(),
                    serde_yaml::Value::Number(n) => n.to_string(),
                    serde_yaml::Value::Bool(b) => b.to_string(),
                    serde_yaml::Value::Null => "null".into(),
                    _ => return Err("error converting YAML to JSON: unsupported map key type".into()),
                };
                out.insert(key, yaml_to_json(val, depth + 1)?);
            }
            Value::Object(out)
        }
        serde_yaml::Value::Tagged(t) => yaml_to_json(&t.value, depth + 1)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multi_document_and_list() {
        let docs = decode_manifest("a: 1\n---\n# only a comment\n---\nkind: List\nitems:\n- b: 2\n- c: 3\n").unwrap();
        assert_eq!(docs.len(), 3);
        assert_eq!(docs[0].object, serde_json::json!({"a": 1}));
        assert_eq!(docs[1].start_line, 5);
    }

    #[test]
    fn json_input() {
        let docs = decode_manifest("{\"kind\":\"Pod\"}\n{\"kind\":\"Node\"}").unwrap();
        assert_eq!(docs.len(), 2);
    }

    #[test]
    fn yaml_errors_name_the_line_within_the_document() {
        struct Case {
            name: &'static str,
            text: &'static str,
            message: &'static str,
            line: usize,
        }
        // Expected messages were checked against the real kubectl (go-yaml) on this machine.
        let cases = [
            Case {
                name: "mapping value in plain scalar",
                text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a: b\n",
                message: "error converting YAML to JSON: yaml: line 4: mapping values are not allowed in this context",
                line: 4,
            },
            Case {
                name: "bad indentation of a sibling key",
                text: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n    labels: x\n",
                message: "error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context",
                line: 5,
            },
            Case {
                name: "tab indentation",
                text: "kind: Pod\nmetadata:\n\tname: a\n",
                message: "error converting YAML to JSON: yaml: line 3: found character that cannot start any token",
                line: 3,
            },
            Case {
                name: "unclosed flow sequence",
                text: "kind: Pod\nspec:\n  args: [a, b\n",
                message: "error converting YAML to JSON: yaml: line 3: did not find expected ',' or ']'",
                line: 4,
            },
            Case {
                name: "error in the second document counts lines from that document",
                text: "kind: Pod\n---\nkind: Pod\nmetadata:\n  name: a: b\n",
                message: "error converting YAML to JSON: yaml: line 3: mapping values are not allowed in this context",
                line: 5,
            },
            Case {
                name: "dedented key (kubectl: did not find expected key)",
                text: "kind: Pod\nmetadata:\n  name: a\n labels: x\n",
                message: "error converting YAML to JSON: yaml: line 3: did not find expected key",
                line: 4,
            },
            Case {
                name: "mapping entry after a sequence item",
                text: "kind: Pod\nmetadata:\n  - a\n  b: c\n",
                message: "error converting YAML to JSON: yaml: line 3: did not find expected '-' indicator",
                line: 4,
            },
            Case {
                name: "unclosed quote",
                text: "kind: Pod\nmetadata:\n  name: \"abc\n",
                message: "error converting YAML to JSON: yaml: line 4: found unexpected end of stream",
                line: 4,
            },
        ];
        for c in cases {
            let e = decode_manifest(c.text).unwrap_err();
            assert_eq!(e.message, c.message, "{}", c.name);
            assert_eq!(e.line, Some(c.line), "{}", c.name);
        }
    }

    #[test]
    fn limits() {
        let big = "a: ".to_string() + &"x".repeat(MAX_MANIFEST_BYTES);
        assert!(decode_manifest(&big).unwrap_err().message.contains("limit"));
        let scalar = decode_manifest("just a string\n").unwrap_err();
        assert!(scalar.message.contains("cannot unmarshal string"), "{}", scalar.message);
    }

    /// Found by fuzzing: deep flow nesting made the YAML scanner quadratic (20 000 `[` took 4.5 s,
    /// a 3 MiB manifest of them would take hours). Refused before parsing, at the line it happens.
    #[test]
    fn deep_flow_nesting_is_refused_before_parsing() {
        let deep = format!("kind: X\na: {}{}\n", "[".repeat(200_000), "]".repeat(200_000));
        let t = std::time::Instant::now();
        let e = decode_manifest(&format!("a: 1\n---\n{}", deep)).unwrap_err();
        assert!(t.elapsed() < std::time::Duration::from_secs(2), "{:?}", t.elapsed());
        assert_eq!((e.message.as_str(), e.line), ("error converting YAML to JSON: nesting deeper than 64 levels, kubesim's limit", Some(4)));
        // at the limit it still parses; quoted and commented brackets do not count
        let ok = format!("a: {}{}\nb: '[[[[{}'\nc: \"{{{{\\\"{}\" # {}\n", "[".repeat(MAX_DEPTH - 1), "]".repeat(MAX_DEPTH - 1), "[".repeat(100), "{".repeat(100), "[".repeat(100));
        let docs = decode_manifest(&ok).unwrap();
        assert_eq!(docs[0].object["b"].as_str().map(|s| s.len()), Some(104));
        assert_eq!(decode_manifest("a: it's [x]\nb: 'don''t [' \n").unwrap()[0].object["a"], "it's [x]");
    }
}
