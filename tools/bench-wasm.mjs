// The same `kubesim bench` compiled to WebAssembly (wasm32-wasip1) and run in Node's WASI, next
// to the native build, so the figures compare the engine on both targets:
//
//   cargo build --release --bin kubesim                                  # native
//   cargo build --release --bin kubesim --target wasm32-wasip1          # WebAssembly
//   node tools/bench-wasm.mjs --nodes 100 --pods 1000
//
// Prints one JSON line per target and the wasm/native ratio of wall time. Memory: native is the
// peak resident set; WebAssembly is the size of linear memory (it only grows).
import { readFile } from 'node:fs/promises';
import { openSync, closeSync, readFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import { WASI } from 'node:wasi';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const benchArgs = ['bench', ...(args.length ? args : ['--nodes', '100', '--pods', '1000'])];

const native = JSON.parse(execFileSync(path.join(root, 'target/release/kubesim'), benchArgs, { encoding: 'utf8' }).trim());
console.log(JSON.stringify({ target: 'native', ...native }));

const wasmPath = path.join(root, 'target/wasm32-wasip1/release/kubesim.wasm');
const outFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'kubesim-wasm-')), 'stdout');
const fd = openSync(outFile, 'w');
const wasi = new WASI({ version: 'preview1', args: ['kubesim', ...benchArgs], env: {}, returnOnExit: true, stdout: fd });
const module = await WebAssembly.compile(await readFile(wasmPath));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
const code = wasi.start(instance);
closeSync(fd);
const out = readFileSync(outFile, 'utf8');
const line = out.trim().split('\n').pop();
let wasm;
try {
  wasm = JSON.parse(line);
} catch {
  console.error(`wasm bench printed no result (exit ${code}): ${out}`);
  process.exit(1);
}
console.log(JSON.stringify({ target: 'wasm32-wasip1', ...wasm }));
console.log(JSON.stringify({ wasm_over_native_wall: +(wasm.wall_s / native.wall_s).toFixed(2) }));
