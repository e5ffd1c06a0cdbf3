//! The `galloper` command: glue over the library.

fn main() -> std::process::ExitCode {
    galloper::cli::main()
}
