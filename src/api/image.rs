//! Container image references: `nginx`, `nginx:1.14.2`, `registry.k8s.io/pause:3.10`,
//! `nginx@sha256:…`.
//!
//! Real counterparts: `ParseImageName` in `pkg/util/parsers/parsers.go` (what the API server's
//! defaulting uses to pick `imagePullPolicy`) over `github.com/distribution/reference`
//! (`ParseNormalizedNamed`: the grammar, `splitDockerDomain`, `docker.io/library/` normalization),
//! which containerd also applies before a pull. One parser for both: the defaulting reads the
//! tag, the kubelet and the runtime the normalized name.
//!
//! What kubesim simplifies: error texts are the two the kubelet shows learners (invalid
//! reference format, and the lowercase rule); the 255-character limit applies to the whole name.

/// A parsed, normalized image reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageRef {
    /// `docker.io/library/nginx`
    pub repo: String,
    /// `1.14.2`; `latest` when neither tag nor digest is given; "" for a digest-only reference.
    pub tag: String,
    pub digest: Option<String>,
}

impl ImageRef {
    /// `docker.io/library/nginx:1.14.2` (or `…@sha256:…` with a digest).
    pub fn full(&self) -> String {
        match &self.digest {
            Some(d) => format!("{}@{}", self.repo, d),
            None => format!("{}:{}", self.repo, self.tag),
        }
    }
}

/// Parses and normalizes an image reference; the error is the one the kubelet reports.
pub fn parse_image(image: &str) -> Result<ImageRef, String> {
    let invalid = || format!("couldn't parse image name \"{}\": invalid reference format", image);
    if image.is_empty() {
        return Err(invalid());
    }
    // A bare 64-hex-digit string is refused ("cannot specify 64-byte hexadecimal strings").
    if image.len() == 64 && image.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err(invalid());
    }
    let (name_tag, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    if let Some(d) = digest {
        if !valid_digest(d) {
            return Err(invalid());
        }
    }
    // The tag follows the last ':' that comes after the last '/' (a ':' before it is a port).
    let last_slash = name_tag.rfind('/');
    let (name, tag) = match name_tag.rfind(':') {
        Some(i) if last_slash.is_none_or(|s| i > s) => (&name_tag[..i], Some(&name_tag[i + 1..])),
        _ => (name_tag, None),
    };
    if let Some(t) = tag {
        if !valid_tag(t) {
            return Err(invalid());
        }
    }
    if name.len() > 255 || !valid_repository(name) {
        let (domain, path) = split_docker_domain(name);
        if domain.is_none() && path.chars().any(|c| c.is_ascii_uppercase()) {
            let repo = if path.contains('/') { path.to_string() } else { format!("library/{}", path) };
            return Err(format!("couldn't parse image name \"{}\": invalid reference format: repository name ({}) must be lowercase", image, repo));
        }
        return Err(invalid());
    }
    let repo = match split_docker_domain(name) {
        (Some(_), _) => name.to_string(),
        (None, path) if path.contains('/') => format!("docker.io/{}", path),
        (None, path) => format!("docker.io/library/{}", path),
    };
    let tag = match (tag, digest) {
        (Some(t), _) => t.to_string(),
        (None, Some(_)) => String::new(),
        (None, None) => "latest".to_string(),
    };
    Ok(ImageRef { repo, tag, digest: digest.map(str::to_string) })
}

/// `splitDockerDomain`: the first component is a registry when it has a '.' or ':', is
/// `localhost`, or has an uppercase letter.
fn split_docker_domain(name: &str) -> (Option<&str>, &str) {
    match name.split_once('/') {
        Some((first, rest)) if first.contains('.') || first.contains(':') || first == "localhost" || first.to_lowercase() != first => (Some(first), rest),
        _ => (None, name),
    }
}

/// `splitDockerDomain` + the path-component grammar: `[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*`,
/// optional domain `host(.host)*(:port)?`. The repository part must be lowercase.
fn valid_repository(name: &str) -> bool {
    let (domain, remainder) = split_docker_domain(name);
    if let Some(d) = domain {
        if !valid_domain(d) {
            return false;
        }
    }
    !remainder.is_empty() && remainder.split('/').all(valid_path_component)
}

fn valid_domain(d: &str) -> bool {
    let (host, port) = match d.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (d, None),
    };
    if let Some(p) = port {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    !host.is_empty()
        && host.split('.').all(|label| {
            let b = label.as_bytes();
            !b.is_empty()
                && b[0].is_ascii_alphanumeric()
                && b[b.len() - 1].is_ascii_alphanumeric()
                && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
        })
}

fn valid_path_component(c: &str) -> bool {
    let b = c.as_bytes();
    if b.is_empty() {
        return false;
    }
    let alnum = |x: u8| x.is_ascii_lowercase() || x.is_ascii_digit();
    if !alnum(b[0]) || !alnum(b[b.len() - 1]) {
        return false;
    }
    // Separators between alphanumeric runs: '.', '_', "__", or one or more '-'.
    let mut i = 0;
    while i < b.len() {
        if alnum(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !alnum(b[i]) {
            i += 1;
        }
        let sep = &c[start..i];
        let ok = sep == "." || sep == "_" || sep == "__" || sep.bytes().all(|x| x == b'-');
        if !ok {
            return false;
        }
    }
    true
}

/// `[\w][\w.-]{0,127}`.
fn valid_tag(t: &str) -> bool {
    let b = t.as_bytes();
    let word = |x: u8| x.is_ascii_alphanumeric() || x == b'_';
    !b.is_empty()
        && b.len() <= 128
        && word(b[0])
        && b.iter().all(|&x| word(x) || x == b'.' || x == b'-')
}

/// `algorithm:hex` with `algorithm = [A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*` and at
/// least 32 hex digits.
fn valid_digest(d: &str) -> bool {
    let Some((alg, hex)) = d.split_once(':') else {
        return false;
    };
    let alg_ok = !alg.is_empty()
        && alg.split(['-', '_', '+', '.']).all(|part| {
            let b = part.as_bytes();
            !b.is_empty()
                && b[0].is_ascii_alphabetic()
                && b.iter().all(|x| x.is_ascii_alphanumeric())
        });
    alg_ok && hex.len() >= 32 && hex.bytes().all(|b| b.is_ascii_hexdigit())
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_references_table() {
        let cases = [
            ("short name", "nginx", Ok("docker.io/library/nginx:latest")),
            ("tag", "nginx:1.14.2", Ok("docker.io/library/nginx:1.14.2")),
            ("user repo", "bitnami/redis:7", Ok("docker.io/bitnami/redis:7")),
            ("registry", "registry.k8s.io/pause:3.10", Ok("registry.k8s.io/pause:3.10")),
            ("registry with port", "localhost:5000/app", Ok("localhost:5000/app:latest")),
            ("digest", "nginx@sha256:0123456789abcdef0123456789abcdef", Ok("docker.io/library/nginx@sha256:0123456789abcdef0123456789abcdef")),
            ("uppercase", "NGINX", Err("couldn't parse image name \"NGINX\": invalid reference format: repository name (library/NGINX) must be lowercase")),
            ("empty tag", "nginx:", Err("couldn't parse image name \"nginx:\": invalid reference format")),
            ("space", "nginx 1", Err("couldn't parse image name \"nginx 1\": invalid reference format")),
            ("double dot", "a..b", Err("couldn't parse image name \"a..b\": invalid reference format")),
        ];
        for (name, input, want) in cases {
            assert_eq!(parse_image(input).map(|r| r.full()), want.map(str::to_string).map_err(str::to_string), "{}", name);
        }
        assert_eq!(parse_image("nginx@sha256:0123456789abcdef0123456789abcdef").unwrap().tag, "");
    }
}
