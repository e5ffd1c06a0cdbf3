//! The orders envelope parser (and the command-file parser beside it).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| galloper::fuzzing::envelope(data));
