//! `kubectl create secret generic|docker-registry|tls NAME …`
//! (`staging/src/k8s.io/kubectl/pkg/cmd/create/create_secret.go`, `create_secret_docker.go`,
//! `create_secret_tls.go`): the values base64-encoded into `data`, the type set by the
//! subcommand (or `--type` for `generic`).
//!
//! What kubesim simplifies: `tls` checks only that the two files hold PEM blocks (kubectl parses
//! the key pair with `tls.X509KeyPair`); `docker-registry --from-file` is not modelled.

use super::create_configmap::{create_or_print, read_sources};
use super::*;
use crate::api::base64;

/// `addKeyFromLiteralToSecret`'s checks.
fn add_key(data: &mut serde_json::Map<String, Value>, key: &str, value: &[u8]) -> Result<(), String> {
    let errs = crate::api::validation::config_map_key_errors(key);
    if !errs.is_empty() {
        return Err(format!("{} is not valid key name for a Secret {}", crate::api::field::go_quote(key), errs.join(";")));
    }
    if data.contains_key(key) {
        return Err(format!("cannot add key {}, another key by that name already exists", key));
    }
    data.insert(key.to_string(), json!(base64::encode(value)));
    Ok(())
}

fn secret(name: &str, ty: &str, data: serde_json::Map<String, Value>) -> Value {
    let mut s = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name}});
    if !data.is_empty() {
        s["data"] = Value::Object(data);
    }
    if !ty.is_empty() {
        s["type"] = json!(ty);
    }
    s
}

pub(super) fn create_secret(cluster: &mut Cluster, f: &Flags, ns: &str, read_file: &dyn Fn(&str) -> Option<String>, out: &mut Output) {
    let sub = f.positional.get(1).map(String::as_str);
    let name = f.positional.get(2);
    let usage = |sub: &str| format!("error: exactly one NAME is required, got 0\nSee 'kubectl create secret {} -h' for help and examples", sub);
    let result = match sub {
        Some("generic") => {
            let Some(name) = name else { return out.err(&usage("generic")) };
            if !f.from_env_file.is_empty() && (!f.from_file.is_empty() || !f.from_literal.is_empty()) {
                return out.err("error: from-env-file cannot be combined with from-file or from-literal");
            }
            read_sources(f, read_file).and_then(|src| {
                let mut data = serde_json::Map::new();
                for (k, v) in &src {
                    add_key(&mut data, k, v.as_bytes())?;
                }
                Ok(secret(name, f.svc_type.as_deref().unwrap_or(""), data))
            })
        }
        Some("docker-registry") => {
            let Some(name) = name else { return out.err(&usage("docker-registry")) };
            let (user, pass) = (f.docker_username.clone().unwrap_or_default(), f.docker_password.clone().unwrap_or_default());
            if user.is_empty() || pass.is_empty() {
                return out.err("error: either --from-file or the combination of --docker-username, --docker-password and --docker-server is required");
            }
            let server = f.docker_server.clone().unwrap_or_else(|| "https://index.docker.io/v1/".into());
            // DockerConfigJSON{Auths: {server: {Username, Password, Email, Auth}}}, Go field order
            let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
            let mut entry = format!("\"username\":{},\"password\":{}", q(&user), q(&pass));
            if let Some(e) = f.docker_email.as_deref().filter(|e| !e.is_empty()) {
                entry.push_str(&format!(",\"email\":{}", q(e)));
            }
            entry.push_str(&format!(",\"auth\":{}", q(&base64::encode(format!("{}:{}", user, pass).as_bytes()))));
            let cfg = format!("{{\"auths\":{{{}:{{{}}}}}}}", q(&server), entry);
            let mut data = serde_json::Map::new();
            data.insert(".dockerconfigjson".into(), json!(base64::encode(cfg.as_bytes())));
            Ok(secret(name, "kubernetes.io/dockerconfigjson", data))
        }
        Some("tls") => {
            let Some(name) = name else { return out.err(&usage("tls")) };
            let (Some(cert), Some(key)) = (f.cert.clone(), f.key.clone()) else {
                return out.err("error: required flag(s) \"cert\", \"key\" not set");
            };
            let read = |p: &str| read_file(p).ok_or_else(|| format!("open {}: no such file or directory", p));
            (|| {
                let (c, k) = (read(&cert)?, read(&key)?);
                if !c.contains("-----BEGIN") {
                    return Err("failed to load key pair tls: failed to find any PEM data in certificate input".to_string());
                }
                if !k.contains("-----BEGIN") {
                    return Err("failed to load key pair tls: failed to find any PEM data in key input".to_string());
                }
                let mut data = serde_json::Map::new();
                data.insert("tls.crt".into(), json!(base64::encode(c.as_bytes())));
                data.insert("tls.key".into(), json!(base64::encode(k.as_bytes())));
                Ok(secret(name, "kubernetes.io/tls", data))
            })()
        }
        // DefaultSubCommandRun: RequireNoArguments, or the help
        Some(other) => return out.err(&format!("error: unknown command {}\nSee 'kubectl create secret -h' for help and examples", crate::api::field::go_quote(other))),
        None => return out.out("Create a secret with specified type.\n\n A docker-registry type secret is for accessing a container registry.\n\n A generic type secret indicate an Opaque secret type.\n\n A tls type secret holds TLS certificate and its associated key.\n\nAvailable Commands:\n  docker-registry   Create a secret for use with a Docker registry\n  generic           Create a secret from a local file, directory, or literal value\n  tls               Create a TLS secret"),
    };
    match result {
        Ok(s) => create_or_print(cluster, f, ns, s, out),
        Err(e) => out.err(&format!("error: {}", e)),
    }
}
