//! `kubectl create token SERVICE_ACCOUNT` (`staging/src/k8s.io/kubectl/pkg/cmd/create/create_token.go`):
//! a TokenRequest to the `serviceaccounts/token` subresource; the token is printed bare.

use super::*;

/// `boundObjectKinds`.
const BOUND_OBJECT_KINDS: &[(&str, &str)] = &[("Node", "v1"), ("Pod", "v1"), ("Secret", "v1")];

pub(super) fn create_token(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let Some(sa) = f.positional.get(1) else {
        return out.err("error: exactly one NAME is required, got 0\nSee 'kubectl create token -h' for help and examples");
    };
    let mut spec = json!({});
    if let Some(d) = &f.duration {
        let Some(ms) = crate::api::time::parse_go_duration(d) else {
            return out.err(&format!("error: invalid argument \"{}\" for \"--duration\" flag: time: invalid duration \"{}\"", d, d));
        };
        if ms < 0 {
            return out.err("error: --duration must be positive");
        }
        if ms % 1000 != 0 {
            return out.err("error: --duration cannot be expressed in units less than seconds");
        }
        if ms > 0 {
            spec["expirationSeconds"] = json!(ms / 1000);
        }
    }
    if f.audience.iter().any(String::is_empty) {
        return out.err("error: --audience must not be an empty string");
    }
    if !f.audience.is_empty() {
        spec["audiences"] = json!(f.audience);
    }
    match (&f.bound_object_kind, &f.bound_object_name) {
        (None, Some(_)) => return out.err("error: --bound-object-name can only be set if --bound-object-kind is provided"),
        (Some(k), n) => {
            let Some((_, version)) = BOUND_OBJECT_KINDS.iter().find(|(kind, _)| kind == k) else {
                return out.err("error: supported --bound-object-kind values are Node, Pod, Secret");
            };
            let Some(n) = n else {
                return out.err("error: --bound-object-name is required if --bound-object-kind is provided");
            };
            spec["boundObjectRef"] = json!({"kind": k, "apiVersion": version, "name": n});
        }
        (None, None) => {}
    }
    let body = json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "metadata": {"creationTimestamp": null}, "spec": spec, "status": {"expirationTimestamp": null, "token": ""}});
    let resp = kubectl(cluster, Method::Post, &format!("/api/v1/namespaces/{}/serviceaccounts/{}/token", ns, sa), Some(body));
    if !resp.ok() {
        return out.err(&format!("error: failed to create token: {}", resp.message()));
    }
    let token = meta::get_str(&resp.body, &["status", "token"]);
    if token.is_empty() {
        return out.err("error: failed to create token: no token in server response");
    }
    out.out(token);
}
