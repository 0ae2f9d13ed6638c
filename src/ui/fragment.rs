//! The URL fragment that carries a scenario: `#s=<seed>&speed=<x>&lang=<en|ko>&y=<YAML>&x=<script>&t=<step>`.
//!
//! `y` is the editor's text and `x` the session's log (what was run, as a `kubesim run` script),
//! both base64url without padding. `x` is left out when the log is exactly "apply `y`, settle";
//! an empty `x=` means nothing was run. `t` is the timeline position.

use super::i18n::Lang;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url (RFC 4648 §5) without padding.
pub fn b64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes base64url or standard base64, with or without padding. None on bad input.
pub fn b64_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            b'=' => break,
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Speeds offered by the page.
pub const SPEEDS: &[f64] = &[0.25, 0.5, 1.0, 2.0, 4.0, 8.0];

/// Formats a speed the way the fragment and the speed menu write it (`0.25`, `1`, `8`).
pub fn speed_text(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{}", x as i64)
    } else {
        format!("{}", x)
    }
}

/// A scenario as the fragment carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub seed: u64,
    pub speed: f64,
    pub lang: Option<Lang>,
    pub yaml: Option<String>,
    /// None: not given (run `yaml` if given). Some(""): nothing was run.
    pub script: Option<String>,
    pub step: Option<usize>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario { seed: 1, speed: 1.0, lang: None, yaml: None, script: None, step: None }
    }
}

/// Bound on a decoded fragment field (the API server's request limit).
const MAX_FIELD: usize = 3 * 1024 * 1024;

impl Scenario {
    /// Parses `#s=…&…` (with or without the `#`). Unknown or malformed fields are ignored.
    pub fn parse(fragment: &str) -> Scenario {
        let mut sc = Scenario::default();
        let f = fragment.strip_prefix('#').unwrap_or(fragment);
        for kv in f.split('&') {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            let text = || -> Option<String> {
                if v.len() > MAX_FIELD * 4 / 3 + 4 {
                    return None;
                }
                b64_decode(v).and_then(|b| String::from_utf8(b).ok())
            };
            match k {
                "s" => {
                    if let Ok(n) = v.parse::<u64>() {
                        sc.seed = n;
                    }
                }
                "speed" => {
                    if let Ok(x) = v.parse::<f64>() {
                        if let Some(s) = SPEEDS.iter().copied().find(|s| (s - x).abs() < 1e-9) {
                            sc.speed = s;
                        }
                    }
                }
                "lang" => sc.lang = Lang::from_code(v),
                "y" => sc.yaml = text(),
                "x" => sc.script = text(),
                "t" => sc.step = v.parse().ok(),
                _ => {}
            }
        }
        sc
    }

    /// True when the fragment asks for something to be shown (a shared link).
    pub fn has_content(&self) -> bool {
        self.yaml.is_some() || self.script.is_some()
    }

    /// The fragment text, starting with `#`.
    pub fn to_fragment(&self) -> String {
        let mut s = format!("#s={}&speed={}", self.seed, speed_text(self.speed));
        if let Some(l) = self.lang {
            s.push_str(&format!("&lang={}", l.code()));
        }
        if let Some(y) = &self.yaml {
            s.push_str(&format!("&y={}", b64_encode(y.as_bytes())));
        }
        if let Some(x) = &self.script {
            s.push_str(&format!("&x={}", b64_encode(x.as_bytes())));
        }
        if let Some(t) = self.step {
            s.push_str(&format!("&t={}", t));
        }
        s
    }

    /// The script to run when the page opens: `x`, or else "apply `y`".
    pub fn script_to_run(&self) -> Option<String> {
        match (&self.script, &self.yaml) {
            (Some(x), _) => Some(x.clone()),
            (None, Some(y)) => Some(super::model::apply_script(y)),
            _ => None,
        }
    }

    /// Builds a scenario for sharing: leaves `x` out when the log is just "apply the editor's text".
    pub fn for_share(seed: u64, speed: f64, lang: Lang, editor: &str, log: &str, step: usize) -> Scenario {
        let canonical = super::model::apply_script(editor);
        let script = if log == canonical { None } else { Some(log.to_string()) };
        Scenario { seed, speed, lang: Some(lang), yaml: Some(editor.to_string()), script, step: Some(step) }
    }
}

/// `<iframe>` snippet for embedding `url` (which should contain `?embed`).
pub fn iframe_snippet(url: &str) -> String {
    let esc = url.replace('&', "&amp;").replace('"', "&quot;");
    format!("<iframe src=\"{}\" width=\"100%\" height=\"600\" style=\"border:0\" title=\"kubesim\" loading=\"lazy\"></iframe>", esc)
}

/// The page URL without fragment, with or without `?embed` (other query parameters kept).
pub fn page_url(origin_and_path: &str, search: &str, embed: bool) -> String {
    let params: Vec<&str> = search.trim_start_matches('?').split('&').filter(|p| !p.is_empty() && *p != "embed" && !p.starts_with("embed=")).collect();
    let mut params: Vec<String> = params.into_iter().map(String::from).collect();
    if embed {
        params.insert(0, "embed".into());
    }
    if params.is_empty() {
        origin_and_path.to_string()
    } else {
        format!("{}?{}", origin_and_path, params.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for s in ["", "a", "ab", "abc", "abcd", "한국어 ✓", "apiVersion: apps/v1\n"] {
            let e = b64_encode(s.as_bytes());
            assert!(!e.contains('=') && !e.contains('+') && !e.contains('/'));
            assert_eq!(b64_decode(&e).unwrap(), s.as_bytes());
        }
        assert_eq!(b64_encode(b"foobar"), "Zm9vYmFy");
        assert_eq!(b64_encode(b"fo"), "Zm8");
        assert_eq!(b64_decode("Zm8=").unwrap(), b"fo");
        assert_eq!(b64_decode("+/8").unwrap(), b64_decode("-_8").unwrap());
        assert!(b64_decode("a*b").is_none());
    }

    #[test]
    fn fragment_round_trips() {
        let sc = Scenario { seed: 42, speed: 0.25, lang: Some(Lang::Ko), yaml: Some("a: 1\n".into()), script: Some(String::new()), step: Some(17) };
        let f = sc.to_fragment();
        assert!(f.starts_with("#s=42&speed=0.25&lang=ko&y="));
        assert_eq!(Scenario::parse(&f), sc);
        let bad = Scenario::parse("#s=x&speed=3&lang=fr&y=***&t=-1");
        assert_eq!(bad, Scenario::default());
    }

    #[test]
    fn share_leaves_out_the_canonical_log() {
        let y = "apiVersion: v1\n";
        let log = super::super::model::apply_script(y);
        let sc = Scenario::for_share(1, 1.0, Lang::En, y, &log, 3);
        assert_eq!(sc.script, None);
        assert_eq!(sc.script_to_run().unwrap(), log);
        let sc = Scenario::for_share(1, 1.0, Lang::En, y, "", 0);
        assert_eq!(sc.script.as_deref(), Some(""));
    }

    #[test]
    fn urls() {
        assert_eq!(page_url("http://h/p/", "", true), "http://h/p/?embed");
        assert_eq!(page_url("http://h/p/", "?embed&a=1", false), "http://h/p/?a=1");
        assert_eq!(iframe_snippet("http://h/?embed#s=1&y=a"), "<iframe src=\"http://h/?embed#s=1&amp;y=a\" width=\"100%\" height=\"600\" style=\"border:0\" title=\"kubesim\" loading=\"lazy\"></iframe>");
    }
}
