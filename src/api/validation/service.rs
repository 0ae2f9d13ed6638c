//! `pkg/apis/core/validation/validation.go`: `ValidateService`, `validateServicePort`,
//! `ValidateServiceClusterIPsRelatedFields`, `ValidateServiceCreate`/`ValidateServiceUpdate`,
//! `ValidateEndpoints` and, from `pkg/apis/discovery/validation/validation.go`,
//! `ValidateEndpointSlice`.
//!
//! Simplifications: LoadBalancer fields (`loadBalancerSourceRanges`, `loadBalancerClass`),
//! `externalIPs` beyond their address format, `appProtocol` and topology annotations are not
//! validated; the cluster is single-stack IPv4, so `ipFamilies` may only hold `IPv4` (and
//! `IPv6` for a headless Service without a selector).

use super::*;

const SUPPORTED_SERVICE_TYPES: &[&str] = &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
const SUPPORTED_SESSION_AFFINITY: &[&str] = &["ClientIP", "None"];
const SUPPORTED_PORT_PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];
const SUPPORTED_IP_FAMILY_POLICIES: &[&str] = &["PreferDualStack", "RequireDualStack", "SingleStack"];
const SUPPORTED_TRAFFIC_POLICIES: &[&str] = &["Cluster", "Local"];
/// `core.MaxClientIPServiceAffinitySeconds`: one day.
const MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS: i64 = 86400;
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_ERR_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/// `IsDNS1035Label`.
pub(super) fn dns1035_label_errors(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    let b = s.as_bytes();
    let ok = !b.is_empty() && b[0].is_ascii_lowercase() && is_lower_alnum(b[b.len() - 1]) && b.iter().all(|&c| is_lower_alnum(c) || c == b'-');
    if !ok {
        errs.push(regex_error(DNS1035_LABEL_ERR_MSG, DNS1035_LABEL_FMT, &["my-name", "abc-123"]));
    }
    errs
}

/// `ValidateServiceName` (`NameIsDNS1035Label`).
fn name_is_dns1035_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        dns1035_label_errors(&mask_trailing_dash(name))
    } else {
        dns1035_label_errors(name)
    }
}

fn is_headless(svc: &Value) -> bool {
    get_str(get(Some(svc), "spec"), "clusterIP") == "None"
}

/// `IsValidIP` as `ValidateServiceClusterIPsRelatedFields` reports it.
const INVALID_IP_MSG: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

/// The address checks of `ValidateServiceClusterIPsRelatedFields` that must pass before the
/// allocator reads `clusterIP`/`clusterIPs` (the Service storage runs them first).
pub fn validate_service_cluster_ips(svc: &Value) -> Vec<FieldError> {
    let spec = get(Some(svc), "spec");
    let mut errs = Vec::new();
    let ip = get_str(spec, "clusterIP");
    let ips: Vec<&str> = get_arr(spec, "clusterIPs").iter().map(|v| v.as_str().unwrap_or("")).collect();
    let path = Path::new("spec").child("clusterIPs");
    if !ip.is_empty() && !ips.is_empty() && ips[0] != ip {
        errs.push(FieldError::invalid(path.as_str(), json!(ips), "first value must match `clusterIP`").json_rendered());
        return errs;
    }
    let all: Vec<&str> = if ips.is_empty() && !ip.is_empty() { vec![ip] } else { ips.clone() };
    let ty = get_str(spec, "type");
    if ty == "ExternalName" {
        if !all.is_empty() {
            errs.push(FieldError::forbidden(path.as_str(), "may not be set for ExternalName services"));
        }
        return errs;
    }
    for (i, a) in all.iter().enumerate() {
        if *a == "None" {
            if i > 0 || all.len() > 1 {
                errs.push(FieldError::invalid(path.as_str(), json!(all), "'None' must be the first and only value").json_rendered());
            }
            continue;
        }
        if crate::api::net::parse_ipv4(a).is_none() {
            errs.push(FieldError::invalid(path.index(i).as_str(), json!(a), INVALID_IP_MSG));
        }
    }
    if all.len() > 1 && errs.is_empty() {
        errs.push(FieldError::invalid(path.as_str(), json!(all), "may only hold one address on this single-stack IPv4 cluster").json_rendered());
    }
    errs
}

/// The internal `core.ServicePort` as a `Duplicate` value renders it.
fn service_port_go_json(protocol: &str, port: i64) -> String {
    format!("{{\"Name\":\"\",\"Protocol\":{},\"AppProtocol\":null,\"Port\":{},\"TargetPort\":0,\"NodePort\":0}}", go_json(&json!(protocol)), port)
}

/// `validateServicePort`.
fn validate_service_port(sp: &Value, require_name: bool, names: &mut BTreeSet<String>, path: &Path) -> Errs {
    let mut errs = Vec::new();
    let name = get_str(Some(sp), "name");
    if require_name && name.is_empty() {
        errs.push(FieldError::required(path.child("name").as_str(), ""));
    } else if !name.is_empty() {
        for m in dns1123_label_errors(name) {
            errs.push(FieldError::invalid(path.child("name").as_str(), json!(name), &m));
        }
        if !names.insert(name.to_string()) {
            errs.push(FieldError::duplicate(path.child("name").as_str(), json!(name)));
        }
    }
    let port = get_i64(Some(sp), "port").unwrap_or(0);
    for m in port_num_errors(port) {
        errs.push(FieldError::invalid(path.child("port").as_str(), json!(port), &m));
    }
    let proto = get_str(Some(sp), "protocol");
    if proto.is_empty() {
        errs.push(FieldError::required(path.child("protocol").as_str(), ""));
    } else if !SUPPORTED_PORT_PROTOCOLS.contains(&proto) {
        errs.push(FieldError::not_supported(path.child("protocol").as_str(), json!(proto), SUPPORTED_PORT_PROTOCOLS).json_rendered());
    }
    errs.extend(pod::validate_port_num_or_name(get(Some(sp), "targetPort"), &path.child("targetPort")));
    errs
}

/// `ValidateService` (+ `ValidateServiceCreate`).
pub fn validate_service(svc: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(svc, true, name_is_dns1035_label);
    let spec = get(Some(svc), "spec");
    let spec_path = Path::new("spec");
    let ty = get_str(spec, "type");
    let ports = get_arr(spec, "ports");
    if ports.is_empty() && !is_headless(svc) && ty != "ExternalName" {
        errs.push(FieldError::required(spec_path.child("ports").as_str(), ""));
    }
    if ty == "ExternalName" {
        let ext = get_str(spec, "externalName");
        if ext.is_empty() {
            errs.push(FieldError::required(spec_path.child("externalName").as_str(), ""));
        } else {
            for m in dns1123_subdomain_errors(ext.trim_end_matches('.')) {
                errs.push(FieldError::invalid(spec_path.child("externalName").as_str(), json!(ext), &m));
            }
        }
    }
    let mut names = BTreeSet::new();
    for (i, sp) in ports.iter().enumerate() {
        errs.extend(validate_service_port(sp, ports.len() > 1, &mut names, &spec_path.child("ports").index(i)));
    }
    if let Some(sel) = get(spec, "selector") {
        errs.extend(validate_labels(Some(sel), &spec_path.child("selector")));
    }
    let affinity = get_str(spec, "sessionAffinity");
    if affinity.is_empty() {
        errs.push(FieldError::required(spec_path.child("sessionAffinity").as_str(), ""));
    } else if !SUPPORTED_SESSION_AFFINITY.contains(&affinity) {
        errs.push(FieldError::not_supported(spec_path.child("sessionAffinity").as_str(), json!(affinity), SUPPORTED_SESSION_AFFINITY).json_rendered());
    }
    let cfg = get(spec, "sessionAffinityConfig");
    if affinity == "ClientIP" {
        let p = spec_path.child("sessionAffinityConfig").child("clientIP").child("timeoutSeconds");
        match get(get(cfg, "clientIP"), "timeoutSeconds").and_then(Value::as_i64) {
            None => errs.push(FieldError::required(p.as_str(), "")),
            Some(t) if !(1..=MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS).contains(&t) => {
                errs.push(FieldError::invalid(p.as_str(), json!(t), &inclusive_range_error(1, MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS).replace("must be between", "must be greater than 0 and less than")))
            }
            _ => {}
        }
    } else if affinity == "None" && cfg.is_some() {
        errs.push(FieldError::forbidden(spec_path.child("sessionAffinityConfig").as_str(), "must not be set when session affinity is None"));
    }
    errs.extend(validate_service_cluster_ips(svc));
    errs.extend(validate_ip_families(svc));
    for (i, ip) in get_arr(spec, "externalIPs").iter().enumerate() {
        let s = ip.as_str().unwrap_or("");
        if crate::api::net::parse_ipv4(s).is_none() {
            errs.push(FieldError::invalid(spec_path.child("externalIPs").index(i).as_str(), json!(s), INVALID_IP_MSG));
        }
    }
    if ty.is_empty() {
        errs.push(FieldError::required(spec_path.child("type").as_str(), ""));
    } else if !SUPPORTED_SERVICE_TYPES.contains(&ty) {
        errs.push(FieldError::not_supported(spec_path.child("type").as_str(), json!(ty), SUPPORTED_SERVICE_TYPES).json_rendered());
    }
    if ty == "ClusterIP" {
        for (i, sp) in ports.iter().enumerate() {
            if get_i64(Some(sp), "nodePort").unwrap_or(0) != 0 {
                errs.push(FieldError::forbidden(spec_path.child("ports").index(i).child("nodePort").as_str(), "may not be used when `type` is 'ClusterIP'"));
            }
        }
    }
    // duplicate node ports, then duplicate (protocol, port) pairs
    let mut node_ports = BTreeSet::new();
    for (i, sp) in ports.iter().enumerate() {
        let np = get_i64(Some(sp), "nodePort").unwrap_or(0);
        if np != 0 && !node_ports.insert((get_str(Some(sp), "protocol").to_string(), np)) {
            errs.push(FieldError::duplicate(spec_path.child("ports").index(i).child("nodePort").as_str(), json!(np)));
        }
    }
    let mut seen = BTreeSet::new();
    for (i, sp) in ports.iter().enumerate() {
        let proto = get_str(Some(sp), "protocol").to_string();
        let port = get_i64(Some(sp), "port").unwrap_or(0);
        if !seen.insert((proto.clone(), port)) {
            errs.push(FieldError::duplicate(spec_path.child("ports").index(i).as_str(), json!(null)).with_raw_value(service_port_go_json(&proto, port)));
        }
    }
    // traffic policies
    let etp = get_str(spec, "externalTrafficPolicy");
    let external = ty == "NodePort" || ty == "LoadBalancer" || (ty == "ClusterIP" && !get_arr(spec, "externalIPs").is_empty());
    if !external && !etp.is_empty() {
        errs.push(FieldError::invalid(spec_path.child("externalTrafficPolicy").as_str(), json!(etp), "may only be set for externally-accessible services").json_rendered());
    } else if external && etp.is_empty() {
        errs.push(FieldError::required(spec_path.child("externalTrafficPolicy").as_str(), ""));
    } else if !etp.is_empty() && !SUPPORTED_TRAFFIC_POLICIES.contains(&etp) {
        errs.push(FieldError::not_supported(spec_path.child("externalTrafficPolicy").as_str(), json!(etp), SUPPORTED_TRAFFIC_POLICIES).json_rendered());
    }
    let itp = get_str(spec, "internalTrafficPolicy");
    if ty != "ExternalName" {
        if itp.is_empty() {
            errs.push(FieldError::required(spec_path.child("internalTrafficPolicy").as_str(), ""));
        } else if !SUPPORTED_TRAFFIC_POLICIES.contains(&itp) {
            errs.push(FieldError::not_supported(spec_path.child("internalTrafficPolicy").as_str(), json!(itp), SUPPORTED_TRAFFIC_POLICIES).json_rendered());
        }
    }
    errs
}

/// The `ipFamilyPolicy`/`ipFamilies` part of `ValidateServiceClusterIPsRelatedFields`.
fn validate_ip_families(svc: &Value) -> Errs {
    let spec = get(Some(svc), "spec");
    let mut errs = Vec::new();
    if get_str(spec, "type") == "ExternalName" {
        return errs;
    }
    let policy = get_str(spec, "ipFamilyPolicy");
    let path = Path::new("spec");
    if !policy.is_empty() && !SUPPORTED_IP_FAMILY_POLICIES.contains(&policy) {
        errs.push(FieldError::not_supported(path.child("ipFamilyPolicy").as_str(), json!(policy), SUPPORTED_IP_FAMILY_POLICIES).json_rendered());
    }
    let fams = get_arr(spec, "ipFamilies");
    let mut seen = BTreeSet::new();
    for (i, f) in fams.iter().enumerate() {
        let f = f.as_str().unwrap_or("");
        let p = path.child("ipFamilies").index(i);
        if f != "IPv4" && f != "IPv6" {
            errs.push(FieldError::not_supported(p.as_str(), json!(f), &["IPv4", "IPv6"]).json_rendered());
        } else if !seen.insert(f) {
            errs.push(FieldError::duplicate(p.as_str(), json!(f)).json_rendered());
        }
    }
    if policy == "SingleStack" && fams.len() > 1 {
        errs.push(FieldError::invalid(path.child("ipFamilies").as_str(), json!(fams), "when spec.ipFamilyPolicy is SingleStack, ipFamilies may only contain one value").json_rendered());
    }
    errs
}

/// `ValidateServiceUpdate`: the address may not change (`clusterIP` is immutable once set).
pub fn validate_service_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(new, old);
    let old_ip = meta_str(old, "clusterIP");
    let new_ip = meta_str(new, "clusterIP");
    let old_needs = meta_str(old, "type") != "ExternalName";
    let new_needs = meta_str(new, "type") != "ExternalName";
    if old_needs && new_needs && !old_ip.is_empty() && old_ip != new_ip {
        errs.push(FieldError::invalid("spec.clusterIPs[0]", json!(new_ip), FIELD_IMMUTABLE_ERROR_MSG));
    }
    errs.extend(validate_service(new));
    errs
}

fn meta_str<'a>(svc: &'a Value, f: &str) -> &'a str {
    get_str(get(Some(svc), "spec"), f)
}

/// `ValidateEndpoints`: the object meta (a DNS subdomain name, as `ValidateEndpointsName`) and
/// each subset's addresses and ports.
pub fn validate_endpoints(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    for (i, s) in get_arr(Some(obj), "subsets").iter().enumerate() {
        let sp = Path::new("subsets").index(i);
        for field in ["addresses", "notReadyAddresses"] {
            for (j, a) in get_arr(Some(s), field).iter().enumerate() {
                let ip = get_str(Some(a), "ip");
                if crate::api::net::parse_ipv4(ip).is_none() {
                    errs.push(FieldError::invalid(sp.child(field).index(j).child("ip").as_str(), json!(ip), INVALID_IP_MSG));
                }
            }
        }
        for (j, p) in get_arr(Some(s), "ports").iter().enumerate() {
            let port = get_i64(Some(p), "port").unwrap_or(0);
            for m in port_num_errors(port) {
                errs.push(FieldError::invalid(sp.child("ports").index(j).child("port").as_str(), json!(port), &m));
            }
        }
    }
    errs
}

/// `ValidateEndpointSlice`: name, `addressType`, at most 1000 endpoints with 1–100 addresses
/// each, at most 100 ports.
pub fn validate_endpoint_slice(obj: &Value) -> Vec<FieldError> {
    let mut errs = validate_object_meta(obj, true, name_is_dns_subdomain);
    let at = get_str(Some(obj), "addressType");
    if at.is_empty() {
        errs.push(FieldError::required("addressType", ""));
    } else if !["FQDN", "IPv4", "IPv6"].contains(&at) {
        errs.push(FieldError::not_supported("addressType", json!(at), &["FQDN", "IPv4", "IPv6"]).json_rendered());
    }
    let eps = get_arr(Some(obj), "endpoints");
    if eps.len() > 1000 {
        errs.push(FieldError::too_many("endpoints", eps.len() as i64, 1000));
    }
    for (i, e) in eps.iter().enumerate() {
        let p = Path::new("endpoints").index(i).child("addresses");
        let addrs = get_arr(Some(e), "addresses");
        if addrs.is_empty() {
            errs.push(FieldError::required(p.as_str(), "must contain at least 1 address"));
        } else if addrs.len() > 100 {
            errs.push(FieldError::too_many(p.as_str(), addrs.len() as i64, 100));
        }
        for (j, a) in addrs.iter().enumerate() {
            let s = a.as_str().unwrap_or("");
            if at == "IPv4" && crate::api::net::parse_ipv4(s).is_none() {
                errs.push(FieldError::invalid(p.index(j).as_str(), json!(s), INVALID_IP_MSG));
            }
        }
    }
    let ports = get_arr(Some(obj), "ports");
    if ports.len() > 100 {
        errs.push(FieldError::too_many("ports", ports.len() as i64, 100));
    }
    errs
}
