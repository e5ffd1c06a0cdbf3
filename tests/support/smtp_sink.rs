//! A minimal SMTP server for tests that need no mail lab.
#![allow(dead_code)]

/// A minimal SMTP server on loopback that records every message's bytes.
pub fn smtp_sink(
    listener: std::net::TcpListener,
    got: std::sync::Arc<std::sync::Mutex<Vec<Vec<u8>>>>,
) {
    use std::io::{BufRead, BufReader, Write};
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut out) = stream else { continue };
            let Ok(clone) = out.try_clone() else { continue };
            let mut reader = BufReader::new(clone);
            let _ = out.write_all(b"220 sink ESMTP\r\n");
            let mut line = String::new();
            let mut data: Option<Vec<u8>> = None;
            loop {
                line.clear();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                if let Some(buf) = data.as_mut() {
                    if line == ".\r\n" {
                        got.lock().unwrap().push(data.take().unwrap_or_default());
                        let _ = out.write_all(b"250 queued\r\n");
                    } else {
                        buf.extend_from_slice(line.strip_prefix('.').unwrap_or(&line).as_bytes());
                    }
                    continue;
                }
                let cmd = line.to_ascii_uppercase();
                let reply: &[u8] = if cmd.starts_with("EHLO") || cmd.starts_with("HELO") {
                    b"250 sink\r\n"
                } else if cmd.starts_with("DATA") {
                    data = Some(Vec::new());
                    b"354 go on\r\n"
                } else if cmd.starts_with("QUIT") {
                    let _ = out.write_all(b"221 bye\r\n");
                    break;
                } else {
                    b"250 ok\r\n"
                };
                let _ = out.write_all(reply);
            }
        }
    });
}
