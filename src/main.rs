//! The `kubesim` binary: the native CLI on the terminal, the sandbox page in the browser.

/// Native builds allocate with mimalloc (see Cargo.toml: glibc's malloc was a third of the bench).
/// `RUSTFLAGS="--cfg kubesim_system_alloc"` builds with the system allocator instead, for heap
/// profilers that hook malloc (heaptrack).
#[cfg(all(not(target_arch = "wasm32"), not(kubesim_system_alloc)))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    #[cfg(not(kubesim_system_alloc))]
    if args.get(1).map(String::as_str) == Some("serve") {
        // a long-running server: freed memory goes back to the system at once (mimalloc's
        // `purge_delay` 0) and arenas are committed as used (`arena_eager_commit` 0); with
        // mimalloc's defaults, tuned for throughput, a server with 20 watch streams, each on its
        // own thread, kept about twice as much resident (tools/serve-load.py: 328-379 MB against
        // 187 MB over 10,800 revisions)
        const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
        const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
        // (mimalloc's own MIMALLOC_* environment variables still win)
        for (option, env, value) in [(MI_OPTION_ARENA_EAGER_COMMIT, "MIMALLOC_ARENA_EAGER_COMMIT", 0), (MI_OPTION_PURGE_DELAY, "MIMALLOC_PURGE_DELAY", 0)] {
            if std::env::var_os(env).is_none() {
                // SAFETY: sets one of mimalloc's global options before any thread is started
                unsafe { libmimalloc_sys::mi_option_set(option, value) };
            }
        }
    }
    let code = kubesim::cli::main(args);
    std::process::exit(code);
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn main() {
    kubesim::web_start();
}
