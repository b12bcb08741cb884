//! Lines typed while a command runs. The terminal holds them (it is in line mode then),
//! but the line editor reads ahead and drops what follows the first line, so before each
//! prompt the REPL takes every complete line waiting on the terminal itself and runs them
//! in order, as python does.

use std::collections::VecDeque;

/// The complete lines waiting on standard input (a terminal in line mode), without
/// blocking. Empty when standard input is not a terminal or nothing waits.
pub fn waiting_lines() -> VecDeque<String> {
    let mut lines = VecDeque::new();
    if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        return lines;
    }
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let mut fds = libc::pollfd {
            fd: libc::STDIN_FILENO,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, no wait.
        let ready = unsafe { libc::poll(&mut fds, 1, 0) };
        if ready <= 0 || fds.revents & libc::POLLIN == 0 {
            break;
        }
        // In line mode a read returns at most one line, and only a complete one.
        // SAFETY: buf is valid for its length.
        let n = unsafe { libc::read(libc::STDIN_FILENO, buf.as_mut_ptr().cast(), buf.len()) };
        if n <= 0 {
            break;
        }
        let text = String::from_utf8_lossy(&buf[..n as usize]);
        for l in text.split_inclusive('\n') {
            lines.push_back(l.trim_end_matches(['\n', '\r']).to_string());
        }
    }
    lines
}
