//! The `serviceaccounts/token` subresource: a TokenRequest answered with a bound service account
//! token (nothing is stored).
//!
//! Real counterparts: `pkg/registry/core/serviceaccount/storage/token.go` (`TokenREST.Create`:
//! defaults, the bound object's lookup, the projected-token expiry extension) and
//! `pkg/serviceaccount/claims.go` (`Claims`: the JWT's public and private claims), with
//! `pkg/apis/authentication/validation` for the request's checks.
//!
//! What kubesim simplifies: the token is JWT-shaped — a real header and claims, base64url — but
//! its signature is random bytes from the seed, not RS256 over the claims; the key id is fixed.

use super::{err, not_found, ApiServer, Target};
use crate::api::request::{Request, Response};
use crate::api::{base64, meta, time};
use crate::sim::Rng;
use serde_json::{json, Value};

/// minikube's `--service-account-issuer` (and so the default `--api-audiences`).
pub const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";
/// `token.WarnOnlyBoundTokenExpirationSeconds`: what the kubelet asks for a projected token.
pub const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS: i64 = 60 * 60 + 7;
/// `token.ExpirationExtensionSeconds`: how long such a token really lives (a year).
pub const EXPIRATION_EXTENSION_SECONDS: i64 = 24 * 365 * 60 * 60;
/// The signing key's id (`kid`): in a real cluster, the SHA-256 of the public key.
pub const KEY_ID: &str = "kR6Ldq2ybC0oUrFbgQm5zT1s9v4JcWnXaHpYe7iGf3M";

impl ApiServer {
    /// `POST …/serviceaccounts/NAME/token`.
    pub(super) fn create_token(&self, req: &Request, t: &Target, now_ms: i64, rng: &mut Rng) -> Result<Response, Response> {
        let ns = t.ri.namespace.as_str();
        let (sa, _) = self.read_shared(t.info, ns, &t.ri.name).ok_or_else(|| not_found(t.info, &t.ri.name))?;
        let body = req.body.clone().unwrap_or(json!({}));
        let spec = body.get("spec").cloned().unwrap_or(json!({}));
        let expiration = spec.get("expirationSeconds").and_then(Value::as_i64).unwrap_or(3600);
        let invalid = |field: &str, value: Value, msg: &str| {
            err(
                422,
                "Invalid",
                format!("TokenRequest.authentication.k8s.io \"{}\" is invalid: {}: Invalid value: {}: {}", t.ri.name, field, value, msg),
                Some(json!({"name": t.ri.name, "group": "authentication.k8s.io", "kind": "TokenRequest", "causes": [{"reason": "FieldValueInvalid", "message": format!("Invalid value: {}: {}", value, msg), "field": field}]})),
            )
        };
        if expiration < 600 {
            return Err(invalid("spec.expirationSeconds", json!(expiration), "may not specify a duration less than 10 minutes"));
        }
        if expiration > 1 << 32 {
            return Err(invalid("spec.expirationSeconds", json!(expiration), "may not specify a duration larger than 2^32 seconds"));
        }
        let audiences: Vec<Value> = match spec.get("audiences").and_then(Value::as_array) {
            Some(a) if !a.is_empty() => a.clone(),
            _ => vec![json!(ISSUER)],
        };
        // the bound object: a Pod (with its node), a Secret or a Node
        let bound = spec.get("boundObjectRef").filter(|b| b.is_object()).cloned();
        let mut private = serde_json::Map::new();
        private.insert("namespace".into(), json!(ns));
        private.insert("serviceaccount".into(), json!({"name": meta::name(&sa), "uid": meta::uid(&sa)}));
        let mut pod_bound = false;
        if let Some(b) = &bound {
            let (kind, name) = (meta::get_str(b, &["kind"]), meta::get_str(b, &["name"]));
            let (resource, scope) = match kind {
                "Pod" => ("pods", ns),
                "Secret" => ("secrets", ns),
                "Node" => ("nodes", ""),
                _ => return Err(invalid("spec.boundObjectRef.kind", json!(kind), "supported values: \"Pod\", \"Secret\", \"Node\"")),
            };
            let info = meta::lookup(resource).expect("bound resource");
            let (obj, _) = self.read_shared(info, scope, name).ok_or_else(|| not_found(info, name))?;
            let uid = meta::get_str(b, &["uid"]);
            if !uid.is_empty() && uid != meta::uid(&obj) {
                return Err(err(409, "Conflict", format!("Operation cannot be fulfilled on {} \"{}\": the UID in the bound object reference ({}) does not match the UID in record. The object might have been deleted and then recreated", info.qualified(), name, uid), None));
            }
            private.insert(kind.to_lowercase(), json!({"name": name, "uid": meta::uid(&obj)}));
            if kind == "Pod" {
                pod_bound = true;
                let node = meta::get_str(&obj, &["spec", "nodeName"]);
                if !node.is_empty() {
                    if let Some((n, _)) = self.read_shared(meta::lookup("nodes").expect("nodes"), "", node) {
                        private.insert("node".into(), json!({"name": node, "uid": meta::uid(&n)}));
                    }
                }
            }
        }
        let iat = now_ms.div_euclid(1000) + time::EPOCH_MS / 1000;
        let mut exp = iat + expiration;
        if pod_bound && expiration == WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS {
            private.insert("warnafter".into(), json!(exp));
            exp = iat + EXPIRATION_EXTENSION_SECONDS;
        }
        // the claims as go-jose serializes them: one map, keys in order
        let private: serde_json::Map<String, Value> = {
            let mut keys: Vec<_> = private.into_iter().collect();
            keys.sort_by(|a, b| a.0.cmp(&b.0));
            keys.into_iter().collect()
        };
        let claims = json!({
            "aud": audiences,
            "exp": exp,
            "iat": iat,
            "iss": ISSUER,
            "jti": rng.uuid(),
            "kubernetes.io": Value::Object(private),
            "nbf": iat,
            "sub": format!("system:serviceaccount:{}:{}", ns, meta::name(&sa)),
        });
        let header = json!({"alg": "RS256", "kid": KEY_ID});
        let signature: Vec<u8> = (0..256).map(|_| rng.below(256) as u8).collect();
        let token = format!(
            "{}.{}.{}",
            base64::encode_url(serde_json::to_string(&header).unwrap_or_default().as_bytes()),
            base64::encode_url(serde_json::to_string(&claims).unwrap_or_default().as_bytes()),
            base64::encode_url(&signature)
        );
        let mut out_spec = json!({"audiences": audiences, "expirationSeconds": expiration});
        if let Some(b) = bound {
            out_spec["boundObjectRef"] = b;
        }
        Ok(Response {
            code: 201,
            body: json!({
                "kind": "TokenRequest",
                "apiVersion": "authentication.k8s.io/v1",
                "metadata": {"name": meta::name(&sa), "namespace": ns, "creationTimestamp": time::rfc3339(now_ms)},
                "spec": out_spec,
                "status": {"token": token, "expirationTimestamp": time::rfc3339(now_ms + expiration * 1000)},
            }),
        })
    }
}

/// The claims of a JWT-shaped token (its middle part), or None if it is not one.
pub fn claims(token: &str) -> Option<Value> {
    let mid = token.split('.').nth(1)?;
    serde_json::from_slice(&base64::decode(mid)?).ok()
}
