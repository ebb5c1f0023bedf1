//! Signal numbers (i386), as `dequeue_signal` orders them: lowest first.
pub const SIGINT: u32 = 2;
pub const SIGQUIT: u32 = 3;
pub const SIGABRT: u32 = 6;
pub const SIGSEGV: u32 = 11;
pub const SIGTERM: u32 = 15;
pub const SIGXCPU: u32 = 24;

pub fn number(name: &str) -> u32 {
    match name {
        "SIGINT" => SIGINT,
        "SIGQUIT" => SIGQUIT,
        "SIGABRT" => SIGABRT,
        "SIGSEGV" => SIGSEGV,
        "SIGTERM" => SIGTERM,
        "SIGXCPU" => SIGXCPU,
        _ => 0,
    }
}

pub fn name(number: u32) -> &'static str {
    match number {
        SIGINT => "SIGINT",
        SIGQUIT => "SIGQUIT",
        SIGABRT => "SIGABRT",
        SIGSEGV => "SIGSEGV",
        SIGTERM => "SIGTERM",
        SIGXCPU => "SIGXCPU",
        _ => "a signal",
    }
}

/// `sig_kernel_coredump`: the default action dumps core.
pub fn dumps_core(number: u32) -> bool {
    matches!(number, SIGQUIT | SIGABRT | SIGSEGV | SIGXCPU)
}
