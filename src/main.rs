//! The `kubesim` binary: the native CLI on the terminal, the sandbox page in the browser.

/// Native builds allocate with mimalloc (see Cargo.toml: glibc's malloc was a third of the bench).
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn main() {
    let code = kubesim::cli::main(std::env::args().collect());
    std::process::exit(code);
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn main() {
    kubesim::web_start();
}
