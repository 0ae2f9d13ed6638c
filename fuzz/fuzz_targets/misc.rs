#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kubesim_fuzz::checks::misc(data));
