//! SSHSIG verification: `PUBLIC-KEY-LINE 0x00 MESSAGE 0x00 SIGNATURE`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| galloper::fuzzing::sshsig(data));
