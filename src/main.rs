//! The `kubesim` binary: the native CLI on the terminal, the sandbox page in the browser.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let code = kubesim::cli::main(std::env::args().collect());
    std::process::exit(code);
}

#[cfg(target_arch = "wasm32")]
fn main() {
    kubesim::web_start();
}
