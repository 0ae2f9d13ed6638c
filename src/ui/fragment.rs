//! The URL fragment that carries a scenario: `#s=<seed>&speed=<x>&lang=<en|ko>&y=<YAML>&x=<script>&t=<step>`.
//!
//! `y` is the editor's text and `x` the session's log (what was run, as a `kubesim run` script),
//! both base64url without padding. `x` is left out when the log is exactly "apply `y`, settle";
//! an empty `x=` means nothing was run. `t` is the timeline position. `autoplay` (a flag, no
//! value) asks an embed to load and play at once instead of showing its poster.
//!
//! A link is read strictly: a fragment over [`MAX_FRAGMENT`] bytes, an unknown field, or a field
//! that does not decode (bad or truncated base64, text that is not UTF-8, a number or speed or
//! language that is not one) refuses the whole link with a [`LinkError`], which the page shows.

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

/// Length of [`b64_encode`]'s output for `n` bytes.
pub fn b64_len(n: usize) -> usize {
    n / 3 * 4 + [0, 2, 3][n % 3]
}

/// Decodes base64url or standard base64 (see [`crate::api::base64::decode`]).
pub fn b64_decode(s: &str) -> Option<Vec<u8>> {
    crate::api::base64::decode(s)
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
    /// `&autoplay`: an embed skips its poster and plays (the page's loader reads it too).
    pub autoplay: bool,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario { seed: 1, speed: 1.0, lang: None, yaml: None, script: None, step: None, autoplay: false }
    }
}

/// Longest fragment (bytes, with its `#`) the page opens or writes: 64 KiB. Links longer are
/// refused; a scenario that would need a longer one is not mirrored into the address bar, and
/// Share says it is too large.
pub const MAX_FRAGMENT: usize = 64 * 1024;

/// Longest editor text (bytes) the page keeps in localStorage: 48 KiB, whose base64 is 64 KiB.
pub const MAX_STORED_TEXT: usize = 48 * 1024;

/// Why a link was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkError {
    /// The fragment's length in bytes, over [`MAX_FRAGMENT`].
    TooLarge(usize),
    /// A field (its name, shortened) and the translation key of what is wrong with it.
    BadField(String, &'static str),
}

impl Scenario {
    /// Parses `#s=…&…` (with or without the `#`). An empty fragment is the default scenario;
    /// anything malformed refuses the whole link.
    pub fn parse(fragment: &str) -> Result<Scenario, LinkError> {
        let mut sc = Scenario::default();
        let f = fragment.strip_prefix('#').unwrap_or(fragment);
        if f.len() + 1 > MAX_FRAGMENT {
            return Err(LinkError::TooLarge(f.len() + 1));
        }
        for kv in f.split('&').filter(|kv| !kv.is_empty()) {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            let bad = |why: &'static str| LinkError::BadField(k.chars().take(24).collect(), why);
            let text = || -> Result<String, LinkError> {
                let bytes = b64_decode(v).ok_or_else(|| bad("link.why.base64"))?;
                String::from_utf8(bytes).map_err(|_| bad("link.why.utf8"))
            };
            match k {
                "s" => sc.seed = v.parse().map_err(|_| bad("link.why.number"))?,
                "speed" => {
                    let x = v.parse::<f64>().map_err(|_| bad("link.why.speed"))?;
                    sc.speed = SPEEDS.iter().copied().find(|s| (s - x).abs() < 1e-9).ok_or_else(|| bad("link.why.speed"))?;
                }
                "lang" => sc.lang = Some(Lang::from_code(v).ok_or_else(|| bad("link.why.lang"))?),
                "y" => sc.yaml = Some(text()?),
                "x" => sc.script = Some(text()?),
                "t" => sc.step = Some(v.parse().map_err(|_| bad("link.why.number"))?),
                "autoplay" if v.is_empty() || v == "1" => sc.autoplay = true,
                _ => return Err(bad("link.why.field")),
            }
        }
        Ok(sc)
    }

    /// The length of [`Scenario::to_fragment`] without making it.
    pub fn fragment_len(&self) -> usize {
        let num = |n: u64| n.checked_ilog10().unwrap_or(0) as usize + 1;
        let mut n = "#s=&speed=".len() + num(self.seed) + speed_text(self.speed).len();
        n += self.lang.map_or(0, |_| "&lang=xx".len());
        n += self.yaml.as_ref().map_or(0, |y| 3 + b64_len(y.len()));
        n += self.script.as_ref().map_or(0, |x| 3 + b64_len(x.len()));
        n += self.step.map_or(0, |t| 3 + num(t as u64));
        n += if self.autoplay { "&autoplay".len() } else { 0 };
        n
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
        if self.autoplay {
            s.push_str("&autoplay");
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
        Scenario { seed, speed, lang: Some(lang), yaml: Some(editor.to_string()), script, step: Some(step), autoplay: false }
    }
}

/// The iframe's height (CSS px) before its page reports one: in a 700 px column the poster is
/// about 910 px tall and the playing page, whose narration box has a fixed height so that it
/// does not change while playing, about 1065 (tests/e2e/embed.mjs measures both), so a host
/// page without [`HOST_SCRIPT`] still shows the whole poster, and the page while it plays.
pub const EMBED_HEIGHT: u32 = 1070;

/// The host page's half of the height reporting: the embedded page posts
/// `{type: "kubesim:height", height}` on load and whenever its height changes (index.html's
/// loader), and this resizes the iframe that sent it (matched by `event.source`, so a message from
/// any other frame or window changes nothing). Once per host page is enough; more do no harm.
pub const HOST_SCRIPT: &str = "<script>addEventListener(\"message\",function(e){var d=e.data,f=document.getElementsByTagName(\"iframe\"),i;if(d&&d.type===\"kubesim:height\"&&d.height>0)for(i=0;i<f.length;i++)if(f[i].contentWindow===e.source)f[i].style.height=Math.min(Math.ceil(d.height),20000)+\"px\"})</script>";

/// The snippet for embedding `url` (which should contain `?embed`): the `<iframe>` and, on the
/// next line, [`HOST_SCRIPT`].
pub fn iframe_snippet(url: &str) -> String {
    let esc = url.replace('&', "&amp;").replace('"', "&quot;");
    format!("<iframe src=\"{}\" width=\"100%\" height=\"{}\" style=\"border:0;display:block\" title=\"kubesim\" loading=\"lazy\"></iframe>\n{}", esc, EMBED_HEIGHT, HOST_SCRIPT)
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
        // cut-off text: a lone last character, non-zero left-over bits, data after padding
        assert!(b64_decode("Zm9vY").is_none());
        assert!(b64_decode("Zm9").is_none());
        assert!(b64_decode("Zm-").is_none());
        assert!(b64_decode("Zm8=Zm8").is_none());
        for n in 0..10 {
            assert_eq!(b64_encode(&vec![7u8; n]).len(), b64_len(n));
        }
    }

    #[test]
    fn fragment_round_trips() {
        let sc = Scenario { seed: 42, speed: 0.25, lang: Some(Lang::Ko), yaml: Some("a: 1\n".into()), script: Some(String::new()), step: Some(17), autoplay: false };
        let f = sc.to_fragment();
        assert!(f.starts_with("#s=42&speed=0.25&lang=ko&y="));
        assert_eq!(Scenario::parse(&f), Ok(sc.clone()));
        assert_eq!(sc.fragment_len(), f.len());
        let other = Scenario { seed: 0, speed: 8.0, lang: None, yaml: Some("한".into()), script: None, step: Some(1000), autoplay: true };
        assert_eq!(other.fragment_len(), other.to_fragment().len());
        assert_eq!(Scenario::parse(""), Ok(Scenario::default()));
        assert_eq!(Scenario::parse("#"), Ok(Scenario::default()));
    }

    #[test]
    fn malformed_or_huge_links_are_refused() {
        let why = |f: &str| match Scenario::parse(f) {
            Err(LinkError::BadField(k, w)) => format!("{} {}", k, w),
            other => format!("{:?}", other),
        };
        assert_eq!(why("#s=x"), "s link.why.number");
        assert_eq!(why("#s=1&speed=3"), "speed link.why.speed");
        assert_eq!(why("#lang=fr"), "lang link.why.lang");
        assert_eq!(why("#y=***"), "y link.why.base64");
        assert_eq!(why("#y=Zm9vY"), "y link.why.base64");
        assert_eq!(why("#x=_w"), "x link.why.utf8");
        assert_eq!(why("#t=-1"), "t link.why.number");
        assert_eq!(why("#s=1&v=2"), "v link.why.field");
        assert_eq!(why("#<img src=x onerror=alert(1)>"), "<img src link.why.field");
        let huge = format!("#s=1&y={}", "A".repeat(MAX_FRAGMENT));
        assert_eq!(Scenario::parse(&huge), Err(LinkError::TooLarge(huge.len())));
        let fits = Scenario { yaml: Some("a".repeat(MAX_STORED_TEXT - 20)), ..Scenario::default() };
        assert!(fits.fragment_len() <= MAX_FRAGMENT);
        assert!(Scenario::parse(&fits.to_fragment()).is_ok());
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
        let snippet = iframe_snippet("http://h/?embed#s=1&y=a");
        let (iframe, script) = snippet.split_once('\n').unwrap();
        assert_eq!(iframe, format!("<iframe src=\"http://h/?embed#s=1&amp;y=a\" width=\"100%\" height=\"{}\" style=\"border:0;display:block\" title=\"kubesim\" loading=\"lazy\"></iframe>", EMBED_HEIGHT));
        assert_eq!(script, HOST_SCRIPT);
        // the host's part stays small (the issue asks for at most 1 KiB)
        assert!(HOST_SCRIPT.len() <= 1024, "{} bytes", HOST_SCRIPT.len());
    }

    #[test]
    fn autoplay_is_a_flag() {
        let sc = Scenario::parse("#s=3&autoplay").unwrap();
        assert!(sc.autoplay && sc.seed == 3);
        assert_eq!(sc.to_fragment(), "#s=3&speed=1&autoplay");
        assert_eq!(sc.fragment_len(), sc.to_fragment().len());
        assert!(Scenario::parse("#autoplay=1").unwrap().autoplay);
        assert!(Scenario::parse("#autoplay=yes").is_err());
    }
}
