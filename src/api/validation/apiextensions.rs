//! CustomResourceDefinition validation (apiextensions.k8s.io/v1), and the ObjectMeta check of a
//! custom resource.
//!
//! Real counterpart: apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`
//! (`ValidateCustomResourceDefinition`, `validateCustomResourceDefinitionSpec`,
//! `ValidateCustomResourceDefinitionNames`, `validateCustomResourceDefinitionValidation`) and
//! `pkg/apiserver/schema/validation.go` (`ValidateStructural`'s invariants, sorted), run on the
//! internal types the v1 object converts to: when every version has the same schema (always, for
//! one version) the schema is lifted to `spec.validation`, so its errors are reported there.
//!
//! What kubesim simplifies: the value of a `spec.versions` error renders each version's internal
//! struct with its schema, subresources and columns as `null` (exact when they were lifted, as
//! for every single-version CRD); conversion webhooks, `x-kubernetes-list-type` and
//! `x-kubernetes-embedded-resource` rules, CEL cost estimation and the API-approval annotation for
//! `*.k8s.io` groups are not checked.

use super::*;
use crate::api::meta;

use super::service::dns1035_label_errors;

/// A custom resource's metadata (`customResourceValidator.Validate`: the name a DNS subdomain).
pub fn validate_custom_resource_meta(obj: &Value, namespaced: bool) -> Errs {
    validate_object_meta(obj, namespaced, name_is_dns_subdomain)
}

/// Every version's schema is the same (the conversion then lifts it to `spec.validation`).
fn lifted(versions: &[Value], key: &str) -> bool {
    let first = versions.first().and_then(|v| v.get(key));
    !versions.is_empty() && versions.iter().all(|v| v.get(key) == first)
}

/// The internal `[]CustomResourceDefinitionVersion` as `ErrorBody` renders it (Go field names,
/// no omitempty).
fn internal_versions(versions: Option<&Value>) -> String {
    match versions.and_then(Value::as_array) {
        None => "null".into(),
        Some(vs) => {
            let items: Vec<String> = vs
                .iter()
                .map(|v| {
                    let b = |k: &str| v.get(k).and_then(Value::as_bool).unwrap_or(false);
                    let warning = v.get("deprecationWarning").and_then(Value::as_str).map(|w| crate::api::field::go_json(&json!(w))).unwrap_or_else(|| "null".into());
                    format!(
                        "{{\"Name\":{},\"Served\":{},\"Storage\":{},\"Deprecated\":{},\"DeprecationWarning\":{},\"Schema\":null,\"Subresources\":null,\"AdditionalPrinterColumns\":null,\"SelectableFields\":null}}",
                        crate::api::field::go_json(&json!(meta::get_str(v, &["name"]))),
                        b("served"),
                        b("storage"),
                        b("deprecated"),
                        warning
                    )
                })
                .collect();
            format!("[{}]", items.join(","))
        }
    }
}

/// `ValidateStructural` and the OpenAPI checks of one schema node (`path` ends at the node).
fn schema_errors(s: &Value, path: &str, root: bool, errs: &mut Vec<FieldError>, openapi: &mut Vec<FieldError>) {
    let ty = s.get("type").and_then(Value::as_str).unwrap_or("");
    let preserve = s.get("x-kubernetes-preserve-unknown-fields").and_then(Value::as_bool);
    let int_or_string = s.get("x-kubernetes-int-or-string").and_then(Value::as_bool).unwrap_or(false);
    if root {
        if ty.is_empty() {
            errs.push(FieldError::required(&format!("{}.type", path), "must not be empty at the root"));
        } else if ty != "object" {
            errs.push(FieldError::invalid(&format!("{}.type", path), json!(ty), "must be object at the root"));
        }
        if s.get("additionalProperties").is_some() && s.get("properties").is_none() && !preserve.unwrap_or(false) {
            // upstream: additionalProperties at the root is forbidden
            errs.push(FieldError::forbidden(&format!("{}.additionalProperties", path), "must not be used at the root"));
        }
        if s.get("nullable").and_then(Value::as_bool).unwrap_or(false) {
            openapi.push(FieldError::forbidden(&format!("{}.nullable", path), "nullable cannot be true at the root"));
        }
    }
    if !ty.is_empty() && !["array", "boolean", "integer", "number", "object", "string"].contains(&ty) {
        openapi.push(FieldError::not_supported(&format!("{}.type", path), json!(ty), &["array", "boolean", "integer", "number", "object", "string"]));
    }
    if preserve == Some(false) {
        openapi.push(FieldError::invalid(&format!("{}.x-kubernetes-preserve-unknown-fields", path), json!(false), "must be true or undefined"));
    }
    for k in ["$ref", "id", "definitions", "dependencies", "patternProperties", "additionalItems"] {
        if s.get(k).is_some() {
            openapi.push(FieldError::forbidden(&format!("{}.{}", path, k), &format!("{} is not supported", k)));
        }
    }
    if s.get("uniqueItems").and_then(Value::as_bool).unwrap_or(false) {
        openapi.push(FieldError::forbidden(&format!("{}.uniqueItems", path), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
    }
    if s.get("additionalProperties").is_some() && s.get("properties").is_some() {
        openapi.push(FieldError::forbidden(&format!("{}.additionalProperties", path), "additionalProperties and properties are mutual exclusive"));
    }
    if let Some(p) = s.get("pattern").and_then(Value::as_str) {
        if let Err(e) = crate::api::regexp::Regexp::compile(p) {
            openapi.push(FieldError::invalid(&format!("{}.pattern", path), json!(p), &e));
        }
    }
    for (i, rule) in meta::get_array(s, &["x-kubernetes-validations"]).iter().enumerate() {
        let rp = format!("{}.x-kubernetes-validations[{}].rule", path, i);
        match rule.get("rule").and_then(Value::as_str) {
            None | Some("") => openapi.push(FieldError::required(&rp, "rule is not specified")),
            Some(r) => {
                if let Err(e) = crate::apiextensions::cel::compile(r) {
                    openapi.push(FieldError::invalid(&rp, json!(r), &format!("compilation failed: ERROR: <input>:1:1: {}", e)));
                }
            }
        }
    }
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        for (k, sub) in props {
            let sp = format!("{}.properties[{}]", path, k);
            let sub_ty = sub.get("type").and_then(Value::as_str).unwrap_or("");
            let sub_free = sub.get("x-kubernetes-int-or-string").and_then(Value::as_bool).unwrap_or(false) || sub.get("x-kubernetes-preserve-unknown-fields").and_then(Value::as_bool).unwrap_or(false);
            if sub_ty.is_empty() && !sub_free {
                errs.push(FieldError::required(&format!("{}.type", sp), "must not be empty for specified object fields"));
            }
            if root && k == "metadata" {
                if !sub_ty.is_empty() && sub_ty != "object" {
                    errs.push(FieldError::invalid(&format!("{}.type", sp), json!(sub_ty), "must be object"));
                }
                let extra = sub.as_object().map(|m| m.keys().any(|k| k != "type" && k != "properties")).unwrap_or(false)
                    || sub.get("properties").and_then(Value::as_object).map(|p| p.keys().any(|k| k != "name" && k != "generateName")).unwrap_or(false);
                if extra {
                    errs.push(FieldError::forbidden(&sp, "must not specify anything other than name and generateName, but metadata is implicitly specified"));
                }
                continue;
            }
            schema_errors(sub, &sp, false, errs, openapi);
        }
    }
    if ty == "array" {
        match s.get("items").filter(|i| i.is_object()) {
            None => errs.push(FieldError::required(&format!("{}.items", path), "must be specified")),
            Some(items) => {
                let it_ty = items.get("type").and_then(Value::as_str).unwrap_or("");
                let free = items.get("x-kubernetes-int-or-string").and_then(Value::as_bool).unwrap_or(false) || items.get("x-kubernetes-preserve-unknown-fields").and_then(Value::as_bool).unwrap_or(false);
                if it_ty.is_empty() && !free {
                    errs.push(FieldError::required(&format!("{}.items.type", path), "must not be empty for specified array items"));
                }
                schema_errors(items, &format!("{}.items", path), false, errs, openapi);
            }
        }
    }
    if let Some(a) = s.get("additionalProperties").filter(|a| a.is_object()) {
        schema_errors(a, &format!("{}.additionalProperties", path), false, errs, openapi);
    }
    let _ = int_or_string;
}

/// `validateCustomResourceDefinitionValidation` of one schema: the structural errors (sorted by
/// their text, as `ValidateStructuralWithOptions` sorts them), then the OpenAPI ones.
fn validation_errors(schema: &Value, base: &str) -> Errs {
    let path = format!("{}.openAPIV3Schema", base);
    let mut structural = Vec::new();
    let mut openapi = Vec::new();
    schema_errors(schema, &path, true, &mut structural, &mut openapi);
    structural.sort_by_key(|e| e.to_string());
    structural.extend(openapi);
    structural
}

const COLUMN_TYPES: &[&str] = &["boolean", "date", "integer", "number", "string"];

fn column_errors(cols: &[Value], base: &str) -> Errs {
    let mut errs = Vec::new();
    for (i, c) in cols.iter().enumerate() {
        let p = format!("{}[{}]", base, i);
        if meta::get_str(c, &["name"]).is_empty() {
            errs.push(FieldError::required(&format!("{}.name", p), ""));
        }
        let t = meta::get_str(c, &["type"]);
        if t.is_empty() {
            errs.push(FieldError::required(&format!("{}.type", p), ""));
        } else if !COLUMN_TYPES.contains(&t) {
            errs.push(FieldError::invalid(&format!("{}.type", p), json!(t), "must be one of boolean,date,integer,number,string"));
        }
        if meta::get_str(c, &["jsonPath"]).is_empty() {
            errs.push(FieldError::required(&format!("{}.JSONPath", p), ""));
        }
    }
    errs
}

/// `ValidateCustomResourceDefinition` (on create; `old` for an update adds the immutable fields).
pub fn validate_custom_resource_definition(obj: &Value, old: Option<&Value>) -> Errs {
    let mut errs = validate_object_meta(obj, false, name_is_dns_subdomain);
    let spec = obj.get("spec").cloned().unwrap_or(Value::Null);
    let group = meta::get_str(&spec, &["group"]);
    let plural = meta::get_str(&spec, &["names", "plural"]);
    let name = meta::name(obj);
    if !name.is_empty() && name != format!("{}.{}", plural, group) {
        errs.push(FieldError::invalid("metadata.name", json!(name), "must be spec.names.plural+\".\"+spec.group"));
    }
    // spec.group
    if group.is_empty() {
        errs.push(FieldError::required("spec.group", ""));
    } else {
        let e = dns1123_subdomain_errors(group);
        if !e.is_empty() {
            errs.push(FieldError::invalid("spec.group", json!(group), &e.join(",")));
        } else if group.split('.').count() < 2 {
            errs.push(FieldError::invalid("spec.group", json!(group), "should be a domain with at least one dot"));
        }
    }
    // spec.scope
    match meta::get_str(&spec, &["scope"]) {
        "" => errs.push(FieldError::required("spec.scope", "")),
        "Cluster" | "Namespaced" => {}
        s => errs.push(FieldError::not_supported("spec.scope", json!(s), &["Cluster", "Namespaced"])),
    }
    let versions = meta::get_array(&spec, &["versions"]).to_vec();
    let lift_schema = lifted(&versions, "schema") && versions.first().and_then(|v| v.get("schema")).is_some();
    let lift_columns = lifted(&versions, "additionalPrinterColumns");
    // a schema for every version (v1 requires one)
    if !lift_schema {
        for (i, v) in versions.iter().enumerate() {
            if meta::get(v, &["schema", "openAPIV3Schema"]).map(Value::is_null).unwrap_or(true) {
                errs.push(FieldError::required(&format!("spec.versions[{}].schema.openAPIV3Schema", i), ""));
            }
        }
    }
    let mut storage = 0;
    let mut seen = std::collections::BTreeSet::new();
    let mut unique = true;
    for (i, v) in versions.iter().enumerate() {
        let vname = meta::get_str(v, &["name"]);
        let e = dns1035_label_errors(vname);
        if !e.is_empty() {
            errs.push(FieldError::invalid(&format!("spec.versions[{}].name", i), json!(vname), &e.join(",")));
        }
        if !lift_schema {
            if let Some(s) = meta::get(v, &["schema", "openAPIV3Schema"]).filter(|s| !s.is_null()) {
                errs.extend(validation_errors(s, &format!("spec.versions[{}].schema", i)));
            }
        }
        if !lift_columns {
            errs.extend(column_errors(meta::get_array(v, &["additionalPrinterColumns"]), &format!("spec.versions[{}].additionalPrinterColumns", i)));
        }
        if meta::get(v, &["storage"]).and_then(Value::as_bool).unwrap_or(false) {
            storage += 1;
        }
        if !seen.insert(vname.to_string()) {
            unique = false;
        }
    }
    let versions_value = internal_versions(spec.get("versions"));
    if !unique {
        errs.push(FieldError::invalid("spec.versions", Value::Null, "must contain unique version names").with_raw_value(versions_value.clone()));
    }
    if storage != 1 {
        errs.push(FieldError::invalid("spec.versions", Value::Null, "must have exactly one version marked as storage version").with_raw_value(versions_value));
    }
    // names
    let names = spec.get("names").cloned().unwrap_or(Value::Null);
    let kind = meta::get_str(&names, &["kind"]);
    let singular = meta::get_str(&names, &["singular"]);
    let list_kind = meta::get_str(&names, &["listKind"]);
    for (field, v) in [("plural", plural), ("singular", singular), ("kind", kind), ("listKind", list_kind)] {
        if v.is_empty() {
            errs.push(FieldError::required(&format!("spec.names.{}", field), ""));
        }
    }
    for (field, v) in [("plural", plural), ("singular", singular)] {
        if !v.is_empty() {
            let e = dns1035_label_errors(v);
            if !e.is_empty() {
                errs.push(FieldError::invalid(&format!("spec.names.{}", field), json!(v), &e.join(",")));
            }
        }
    }
    for (i, s) in meta::get_array(&names, &["shortNames"]).iter().enumerate() {
        let s = s.as_str().unwrap_or("");
        let e = dns1035_label_errors(s);
        if !e.is_empty() {
            errs.push(FieldError::invalid(&format!("spec.names.shortNames[{}]", i), json!(s), &e.join(",")));
        }
    }
    for (field, v) in [("kind", kind), ("listKind", list_kind)] {
        if !v.is_empty() {
            let e = dns1035_label_errors(&v.to_ascii_lowercase());
            if !e.is_empty() {
                errs.push(FieldError::invalid(&format!("spec.names.{}", field), json!(v), &format!("may have mixed case, but should otherwise match: {}", e.join(","))));
            }
        }
    }
    if !kind.is_empty() && kind == list_kind {
        errs.push(FieldError::invalid("spec.names.listKind", json!(list_kind), "kind and listKind may not be the same"));
    }
    for (i, c) in meta::get_array(&names, &["categories"]).iter().enumerate() {
        let c = c.as_str().unwrap_or("");
        let e = dns1035_label_errors(c);
        if !e.is_empty() {
            errs.push(FieldError::invalid(&format!("spec.names.categories[{}]", i), json!(c), &e.join(",")));
        }
    }
    // the lifted schema and columns
    if lift_schema {
        if let Some(s) = versions.first().and_then(|v| meta::get(v, &["schema", "openAPIV3Schema"])).filter(|s| !s.is_null()) {
            errs.extend(validation_errors(s, "spec.validation"));
        } else if versions.first().and_then(|v| meta::get(v, &["schema", "openAPIV3Schema"])).map(Value::is_null).unwrap_or(true) {
            for (i, _) in versions.iter().enumerate() {
                errs.push(FieldError::required(&format!("spec.versions[{}].schema.openAPIV3Schema", i), ""));
            }
        }
    }
    if lift_columns {
        if let Some(v) = versions.first() {
            errs.extend(column_errors(meta::get_array(v, &["additionalPrinterColumns"]), "spec.additionalPrinterColumns"));
        }
    }
    match meta::get_str(&spec, &["conversion", "strategy"]) {
        "" | "None" | "Webhook" => {}
        s => errs.push(FieldError::not_supported("spec.conversion.strategy", json!(s), &["None", "Webhook"])),
    }
    if storage == 0 && old.is_none() {
        errs.push(FieldError::invalid("status.storedVersions", Value::Null, "must have at least one stored version"));
    }
    if let Some(old) = old {
        for (path, keys) in [("spec.scope", &["spec", "scope"][..]), ("spec.names.kind", &["spec", "names", "kind"][..]), ("spec.group", &["spec", "group"][..]), ("spec.names.plural", &["spec", "names", "plural"][..])] {
            let (n, o) = (meta::get_str(obj, keys), meta::get_str(old, keys));
            if n != o {
                errs.push(FieldError::invalid(path, json!(n), "field is immutable"));
            }
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crd(patch: Value) -> Value {
        let mut v = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "crontabs.stable.example.com"}, "spec": {
            "group": "stable.example.com", "scope": "Namespaced",
            "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab", "listKind": "CronTabList", "shortNames": ["ct"]},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {"cronSpec": {"type": "string"}, "replicas": {"type": "integer"}}}}}}}]}});
        crate::api::patch::merge_patch(&mut v, &patch);
        v
    }

    /// Named table: `ValidateCustomResourceDefinition`'s messages for the mistakes a learner makes
    /// with the documentation's CronTab CRD.
    #[test]
    fn custom_resource_definition_validation() {
        let one_version = |v: Value| json!({"spec": {"versions": [v]}});
        let rows: Vec<(&str, Value, Vec<&str>)> = vec![
            ("the documentation's CRD", json!({}), vec![]),
            ("name not plural.group", json!({"metadata": {"name": "crontab.stable.example.com"}}), vec![r#"metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group"#]),
            ("group without a dot", json!({"metadata": {"name": "crontabs.example"}, "spec": {"group": "example"}}), vec![r#"spec.group: Invalid value: "example": should be a domain with at least one dot"#]),
            ("scope", json!({"spec": {"scope": "Global"}}), vec![r#"spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced""#]),
            ("no schema", one_version(json!({"name": "v1", "served": true, "storage": true})), vec!["spec.versions[0].schema.openAPIV3Schema: Required value"]),
            (
                "no storage version",
                one_version(json!({"name": "v1", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}})),
                vec![
                    r#"spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version"#,
                    "status.storedVersions: Invalid value: null: must have at least one stored version",
                ],
            ),
            ("root not an object", one_version(json!({"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "string"}}})), vec![r#"spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root"#]),
            (
                "a field without type (not structural)",
                one_version(json!({"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {"foo": {"description": "x"}}}}}}})),
                vec!["spec.validation.openAPIV3Schema.properties[spec].properties[foo].type: Required value: must not be empty for specified object fields"],
            ),
            ("version name", one_version(json!({"name": "V1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}})), vec![r#"spec.versions[0].name: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"#]),
            ("printer column type", one_version(json!({"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}, "additionalPrinterColumns": [{"name": "Spec", "type": "text", "jsonPath": ".spec.cronSpec"}]})), vec![r#"spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string"#]),
            ("kind equals listKind", json!({"spec": {"names": {"listKind": "CronTab"}}}), vec![r#"spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same"#]),
        ];
        for (name, patch, want) in rows {
            let got: Vec<String> = validate_custom_resource_definition(&crd(patch), None).iter().map(|e| e.to_string()).collect();
            assert_eq!(got, want, "{}", name);
        }
    }
}
