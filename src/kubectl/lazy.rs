//! The parts of kubectl the page loads on first use: kustomize's build and the long `--help`
//! texts, which the page's main module is built without (`lazy-parts` off) and asks its second
//! module for (`src/bin/kubesim_lazy.rs`).
//!
//! No upstream counterpart: kubectl is one binary. The call is synchronous — the page loads the
//! second module before it runs a command that needs it (`needs`) — and its answer is the same
//! deterministic code's, so a run is the same in the page as natively. The shell registers how
//! to reach the module ([`set_hook`]); without a hook, or before the module is loaded, the
//! command says so.

use std::cell::Cell;

/// How the shell reaches the second module: (function, JSON input) → its JSON answer, or None
/// when it is not loaded.
pub type Hook = fn(&str, &str) -> Option<String>;

thread_local! {
    static HOOK: Cell<Option<Hook>> = const { Cell::new(None) };
}

/// The page registers its loader's entry point.
pub fn set_hook(hook: Hook) {
    HOOK.with(|h| h.set(Some(hook)));
}

/// Calls the second module (`kustomize_build`, `help`).
#[cfg_attr(feature = "lazy-parts", allow(dead_code))]
pub(crate) fn call(name: &str, input: &str) -> Option<String> {
    HOOK.with(|h| h.get()).and_then(|f| f(name, input))
}

/// Whether a command line (or a script) may need the second module: `kustomize`, `-k`,
/// `--kustomize`, `--help`/`-h`, `help`.
pub fn needs(text: &str) -> bool {
    text.lines().any(|l| {
        let words: Vec<&str> = l.split_whitespace().collect();
        matches!(words.first(), Some(&"kubectl") | Some(&"k"))
            && words.iter().any(|w| matches!(*w, "kustomize" | "-k" | "--help" | "-h" | "help") || w.starts_with("--kustomize") || w.starts_with("-k="))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn commands_that_need_the_second_module() {
        assert!(super::needs("kubectl apply -k overlays/dev"));
        assert!(super::needs("mkdir base\nkubectl kustomize base"));
        assert!(super::needs("kubectl cp --help"));
        assert!(!super::needs("kubectl get pods\nsim settle"));
        assert!(!super::needs("echo kustomize"));
    }
}
