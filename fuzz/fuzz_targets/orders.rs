//! Each ruleset's orders parser and check, on states of its shipped scenario.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    for (ruleset, _) in galloper::fuzzing::SCENARIOS {
        galloper::fuzzing::orders(ruleset, data);
    }
});
