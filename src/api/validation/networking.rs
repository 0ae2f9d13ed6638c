//! `pkg/apis/networking/validation/validation.go`: `ValidateIngressCreate`/`Update`
//! (`ValidateIngressSpec`, `validateIngressRules`, `validateHTTPIngressPath`,
//! `validateIngressBackend`) and `ValidateIngressClass`.
//!
//! Simplifications: a rule's `host` is checked as a DNS subdomain with an optional leading `*.`
//! (no IP-address check), a TLS section only for its hosts; `ImplementationSpecific` paths are
//! not checked for the characters ingress-nginx refuses; a `resource` backend only for its kind
//! and name.

use super::*;

const SUPPORTED_PATH_TYPES: &[&str] = &["Exact", "ImplementationSpecific", "Prefix"];

/// `ValidateIngressCreate` (and `ValidateIngressUpdate`: the same rules on the new object).
pub fn validate_ingress(ing: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(ing, true, name_is_dns_subdomain);
    let spec = get(Some(ing), "spec");
    let rules = get_arr(spec, "rules");
    let default_backend = get(spec, "defaultBackend");
    if rules.is_empty() && default_backend.is_none() {
        // (Go prints the nil []IngressRule it was given with %#v)
        errs.push(FieldError::invalid("spec", Value::Array(vec![]), "either `defaultBackend` or `rules` must be specified").with_raw_value("[]networking.IngressRule(nil)".into()));
    }
    if let Some(b) = default_backend {
        errs.extend(validate_ingress_backend(b, "spec.defaultBackend"));
    }
    for (i, rule) in rules.iter().enumerate() {
        let path = format!("spec.rules[{}]", i);
        let host = get_str(Some(rule), "host");
        if !host.is_empty() {
            let bare = host.strip_prefix("*.").unwrap_or(host);
            for msg in dns1123_subdomain_errors(bare) {
                errs.push(FieldError::invalid(&format!("{}.host", path), json!(host), &msg));
            }
        }
        let Some(http) = get(Some(rule), "http") else { continue };
        let paths = get_arr(Some(http), "paths");
        if paths.is_empty() {
            errs.push(FieldError::required(&format!("{}.http.paths", path), ""));
        }
        for (j, p) in paths.iter().enumerate() {
            errs.extend(validate_http_ingress_path(p, &format!("{}.http.paths[{}]", path, j)));
        }
    }
    for (i, tls) in get_arr(spec, "tls").iter().enumerate() {
        for (j, h) in get_arr(Some(tls), "hosts").iter().enumerate() {
            let h = h.as_str().unwrap_or("");
            for msg in dns1123_subdomain_errors(h.strip_prefix("*.").unwrap_or(h)) {
                errs.push(FieldError::invalid(&format!("spec.tls[{}].hosts[{}]", i, j), json!(h), &msg));
            }
        }
    }
    errs
}

/// `validateHTTPIngressPath`.
fn validate_http_ingress_path(p: &Value, path: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let route = get_str(Some(p), "path");
    match get(Some(p), "pathType").and_then(Value::as_str) {
        None => errs.push(FieldError::required(&format!("{}.pathType", path), "pathType must be specified")),
        Some(t) if !SUPPORTED_PATH_TYPES.contains(&t) => errs.push(FieldError::not_supported(&format!("{}.pathType", path), json!(t), SUPPORTED_PATH_TYPES)),
        Some("Exact" | "Prefix") if !route.starts_with('/') => errs.push(FieldError::invalid(&format!("{}.path", path), json!(route), "must be an absolute path")),
        Some(_) => {}
    }
    match get(Some(p), "backend") {
        Some(b) => errs.extend(validate_ingress_backend(b, &format!("{}.backend", path))),
        None => errs.push(FieldError::required(&format!("{}.backend", path), "")),
    }
    errs
}

/// `validateIngressBackend`: a service (name, and a port by name or number) or a resource.
fn validate_ingress_backend(b: &Value, path: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let (service, resource) = (get(Some(b), "service"), get(Some(b), "resource"));
    match (service, resource) {
        (Some(_), Some(_)) => errs.push(FieldError::invalid(path, json!(""), "cannot set both resource and service backends")),
        (None, None) => errs.push(FieldError::invalid(path, json!(""), "resource or service backend is required")),
        (Some(s), None) => {
            let name = get_str(Some(s), "name");
            if name.is_empty() {
                errs.push(FieldError::required(&format!("{}.service.name", path), ""));
            } else {
                for msg in super::service::dns1035_label_errors(name) {
                    errs.push(FieldError::invalid(&format!("{}.service.name", path), json!(name), &msg));
                }
            }
            let port = get(Some(s), "port");
            let (pname, pnum) = (get_str(port, "name"), get_i64(port, "number").unwrap_or(0));
            match (pname.is_empty(), pnum == 0) {
                (false, false) => errs.push(FieldError::invalid(&format!("{}.service.port", path), json!(""), "cannot set both port name & port number")),
                (true, true) => errs.push(FieldError::invalid(&format!("{}.service.port", path), json!(""), "port name or number is required")),
                (true, false) if !(1..=65535).contains(&pnum) => {
                    errs.push(FieldError::invalid(&format!("{}.service.port.number", path), json!(pnum), "must be between 1 and 65535, inclusive"))
                }
                _ => {}
            }
        }
        (None, Some(r)) => {
            for f in ["kind", "name"] {
                if get_str(Some(r), f).is_empty() {
                    errs.push(FieldError::required(&format!("{}.resource.{}", path, f), ""));
                }
            }
        }
    }
    errs
}

/// `ValidateIngressClass`: a controller name is required.
pub fn validate_ingress_class(ic: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(ic, false, name_is_dns_subdomain);
    if get_str(get(Some(ic), "spec"), "controller").is_empty() {
        errs.push(FieldError::required("spec.controller", ""));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ingress(spec: Value) -> Value {
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "web", "namespace": "default"}, "spec": spec})
    }

    fn backend() -> Value {
        json!({"service": {"name": "web", "port": {"number": 80}}})
    }

    /// Cases from `TestValidateIngressCreate`/`TestValidateIngress` (validation_test.go).
    #[test]
    fn ingress_validation_table() {
        let cases: Vec<(&str, Value, Vec<&str>)> = vec![
            ("valid", ingress(json!({"rules": [{"host": "foo.bar.com", "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": backend()}]}}]})), vec![]),
            ("default backend only", ingress(json!({"defaultBackend": backend()})), vec![]),
            ("wildcard host", ingress(json!({"rules": [{"host": "*.bar.com", "http": {"paths": [{"path": "/", "pathType": "Exact", "backend": backend()}]}}]})), vec![]),
            ("neither rules nor default backend", ingress(json!({})), vec!["spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified"]),
            ("pathType missing", ingress(json!({"rules": [{"http": {"paths": [{"path": "/", "backend": backend()}]}}]})), vec!["spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified"]),
            ("pathType unknown", ingress(json!({"rules": [{"http": {"paths": [{"path": "/", "pathType": "Regex", "backend": backend()}]}}]})), vec!["spec.rules[0].http.paths[0].pathType: Unsupported value: \"Regex\": supported values: \"Exact\", \"ImplementationSpecific\", \"Prefix\""]),
            ("relative Prefix path", ingress(json!({"rules": [{"http": {"paths": [{"path": "foo", "pathType": "Prefix", "backend": backend()}]}}]})), vec!["spec.rules[0].http.paths[0].path: Invalid value: \"foo\": must be an absolute path"]),
            ("both port name and number", ingress(json!({"defaultBackend": {"service": {"name": "web", "port": {"name": "http", "number": 80}}}})), vec!["spec.defaultBackend.service.port: Invalid value: \"\": cannot set both port name & port number"]),
        ];
        for (name, obj, want) in cases {
            let got: Vec<String> = validate_ingress(&obj).iter().map(|e| e.to_string()).collect();
            assert_eq!(got, want, "{}", name);
        }
    }
}
