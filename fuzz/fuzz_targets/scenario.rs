//! The scenario loader of every ruleset.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| galloper::fuzzing::scenario(data));
