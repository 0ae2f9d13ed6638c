//! `pkg/apis/networking/validation/validation.go`: `ValidateIngressCreate`/`Update`
//! (`ValidateIngressSpec`, `validateIngressRules`, `validateHTTPIngressPath`,
//! `validateIngressBackend`), `ValidateIngressClass` and `ValidateNetworkPolicy`
//! (`ValidateNetworkPolicySpec`, `ValidateNetworkPolicyPort`, `ValidateNetworkPolicyPeer`,
//! `ValidateIPBlock`).
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

/// `ValidateNetworkPolicy` (create; an update validates the new object the same way, without
/// upstream's allowance for CIDRs the old object already had).
pub fn validate_network_policy(np: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(np, true, name_is_dns_subdomain);
    let spec = get(Some(np), "spec");
    let sp = Path::new("spec");
    errs.extend(validate_label_selector(get(spec, "podSelector"), &sp.child("podSelector")));
    for (dir, peers) in [("ingress", "from"), ("egress", "to")] {
        for (i, rule) in get_arr(spec, dir).iter().enumerate() {
            let rp = sp.child(dir).index(i);
            for (j, port) in get_arr(Some(rule), "ports").iter().enumerate() {
                errs.extend(validate_network_policy_port(port, &rp.child("ports").index(j)));
            }
            for (j, peer) in get_arr(Some(rule), peers).iter().enumerate() {
                errs.extend(validate_network_policy_peer(peer, &rp.child(peers).index(j)));
            }
        }
    }
    let types = get_arr(spec, "policyTypes");
    if types.len() > 2 {
        let shown = format!("&[]networking.PolicyType{{{}}}", types.iter().map(|t| format!("{:?}", t.as_str().unwrap_or(""))).collect::<Vec<_>>().join(", "));
        errs.push(FieldError::invalid("spec.policyTypes", json!(""), "may not specify more than two policyTypes").with_raw_value(shown));
        return errs;
    }
    for (i, t) in types.iter().enumerate() {
        if !matches!(t.as_str(), Some("Ingress" | "Egress")) {
            errs.push(FieldError::not_supported(sp.child("policyTypes").index(i).as_str(), t.clone(), &["Ingress", "Egress"]));
        }
    }
    errs
}

/// `ValidateNetworkPolicyPort`.
fn validate_network_policy_port(port: &Value, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(proto) = get(Some(port), "protocol").filter(|v| !v.is_null()) {
        if !matches!(proto.as_str(), Some("TCP" | "UDP" | "SCTP")) {
            errs.push(FieldError::not_supported(path.child("protocol").as_str(), proto.clone(), &["TCP", "UDP", "SCTP"]));
        }
    }
    let end = get_i64(Some(port), "endPort");
    match get(Some(port), "port").filter(|v| !v.is_null()) {
        Some(Value::String(name)) => {
            if let Some(e) = end {
                errs.push(FieldError::invalid(path.child("endPort").as_str(), json!(e), "may not be specified when `port` is non-numeric"));
            }
            for msg in port_name_errors(name) {
                errs.push(FieldError::invalid(path.child("port").as_str(), json!(name), &msg));
            }
        }
        Some(n) => {
            let n = n.as_i64().unwrap_or(0);
            if !(1..=65535).contains(&n) {
                errs.push(FieldError::invalid(path.child("port").as_str(), json!(n), "must be between 1 and 65535, inclusive"));
            }
            if let Some(e) = end {
                if e < n {
                    errs.push(FieldError::invalid(path.child("endPort").as_str(), json!(e), "must be greater than or equal to `port`"));
                }
                if !(1..=65535).contains(&e) {
                    errs.push(FieldError::invalid(path.child("endPort").as_str(), json!(e), "must be between 1 and 65535, inclusive"));
                }
            }
        }
        None => {
            if let Some(e) = end {
                errs.push(FieldError::invalid(path.child("endPort").as_str(), json!(e), "may not be specified when `port` is not specified"));
            }
        }
    }
    errs
}

/// `ValidateNetworkPolicyPeer`: exactly one kind of peer, or pod and namespace selectors
/// together; an `ipBlock` alone.
fn validate_network_policy_peer(peer: &Value, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let present = |k: &str| get(Some(peer), k).filter(|v| !v.is_null());
    let mut n = 0;
    if let Some(s) = present("podSelector") {
        n += 1;
        errs.extend(validate_label_selector(Some(s), &path.child("podSelector")));
    }
    if let Some(s) = present("namespaceSelector") {
        n += 1;
        errs.extend(validate_label_selector(Some(s), &path.child("namespaceSelector")));
    }
    let ip_block = present("ipBlock");
    if let Some(b) = ip_block {
        n += 1;
        errs.extend(validate_ip_block(b, &path.child("ipBlock")));
    }
    if n == 0 {
        errs.push(FieldError::required(path.as_str(), "must specify a peer"));
    } else if n > 1 && ip_block.is_some() {
        errs.push(FieldError::forbidden(path.as_str(), "may not specify both ipBlock and another peer"));
    }
    errs
}

/// `IsValidCIDR` as `ParseCIDRSloppy` reads it: IPv4 `a.b.c.d/n` (kubesim's network is IPv4).
fn parse_cidr(s: &str) -> Option<crate::api::net::Cidr> {
    crate::api::net::Cidr::parse(s)
}

/// `ValidateIPBlock`: a CIDR, and `except` entries strictly inside it.
fn validate_ip_block(b: &Value, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let cidr = get_str(Some(b), "cidr");
    if cidr.is_empty() {
        errs.push(FieldError::required(path.child("cidr").as_str(), ""));
        return errs;
    }
    const BAD: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
    let Some(outer) = parse_cidr(cidr) else {
        errs.push(FieldError::invalid(path.child("cidr").as_str(), json!(cidr), BAD));
        return errs;
    };
    for (i, e) in get_arr(Some(b), "except").iter().enumerate() {
        let ep = path.child("except").index(i);
        let es = e.as_str().unwrap_or("");
        match parse_cidr(es) {
            None => errs.push(FieldError::invalid(ep.as_str(), json!(es), BAD)),
            Some(inner) => {
                if !outer.contains(inner.base) || outer.prefix >= inner.prefix {
                    errs.push(FieldError::invalid(ep.as_str(), json!(es), "must be a strict subset of `cidr`"));
                }
            }
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cases from `TestValidateNetworkPolicy` (validation_test.go): the failures, by message.
    #[test]
    fn validate_network_policy_table() {
        let np = |spec: Value| json!({"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {"name": "np", "namespace": "default"}, "spec": spec});
        let cases: &[(&str, Value, &[&str])] = &[
            ("default deny", json!({"podSelector": {}}), &[]),
            ("allow from a namespace's pods", json!({"podSelector": {"matchLabels": {"a": "b"}}, "ingress": [{"from": [{"namespaceSelector": {"matchLabels": {"c": "d"}}, "podSelector": {"matchLabels": {"e": "f"}}}]}]}), &[]),
            ("a port range", json!({"podSelector": {}, "egress": [{"ports": [{"protocol": "TCP", "port": 32000, "endPort": 32768}]}], "policyTypes": ["Egress"]}), &[]),
            ("missing from types", json!({"podSelector": {}, "ingress": [{"from": [{}]}]}), &["spec.ingress[0].from[0]: Required value: must specify a peer"]),
            ("invalid from ipBlock and another peer", json!({"podSelector": {}, "ingress": [{"from": [{"ipBlock": {"cidr": "192.168.0.0/16"}, "podSelector": {}}]}]}), &["spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer"]),
            ("invalid cidr", json!({"podSelector": {}, "ingress": [{"from": [{"ipBlock": {"cidr": "192.168.5.6"}}]}]}), &[r#"spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "192.168.5.6": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"#]),
            ("missing cidr", json!({"podSelector": {}, "ingress": [{"from": [{"ipBlock": {"cidr": ""}}]}]}), &["spec.ingress[0].from[0].ipBlock.cidr: Required value"]),
            ("except not inside", json!({"podSelector": {}, "egress": [{"to": [{"ipBlock": {"cidr": "192.168.8.0/24", "except": ["192.168.9.1/24"]}}]}]}), &[r#"spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "192.168.9.1/24": must be a strict subset of `cidr`"#]),
            ("bad protocol", json!({"podSelector": {}, "ingress": [{"ports": [{"protocol": "HTTP", "port": 80}]}]}), &[r#"spec.ingress[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "TCP", "UDP", "SCTP""#]),
            ("endPort smaller", json!({"podSelector": {}, "egress": [{"ports": [{"port": 35000, "endPort": 32768}]}]}), &["spec.egress[0].ports[0].endPort: Invalid value: 32768: must be greater than or equal to `port`"]),
            ("endPort with a named port", json!({"podSelector": {}, "egress": [{"ports": [{"port": "https", "endPort": 32768}]}]}), &["spec.egress[0].ports[0].endPort: Invalid value: 32768: may not be specified when `port` is non-numeric"]),
            ("endPort without port", json!({"podSelector": {}, "egress": [{"ports": [{"endPort": 32768}]}]}), &["spec.egress[0].ports[0].endPort: Invalid value: 32768: may not be specified when `port` is not specified"]),
            ("bad policy type", json!({"podSelector": {}, "policyTypes": ["foo"]}), &[r#"spec.policyTypes[0]: Unsupported value: "foo": supported values: "Ingress", "Egress""#]),
        ];
        for (name, spec, want) in cases {
            let got: Vec<String> = validate_network_policy(&np(spec.clone())).iter().map(|e| e.to_string()).collect();
            assert_eq!(got, *want, "{}", name);
        }
    }

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
