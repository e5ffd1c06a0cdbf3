//! The socket under the IMAP client: a bare TCP stream (loopback only) or
//! rustls over it, with implicit TLS or the STARTTLS upgrade, and the read
//! timeout that the `imap` crate's IDLE would otherwise clear.

use super::{ImapError, Result, fail};
use imap::extensions::idle::SetReadTimeout;
use rustls::{ClientConnection, StreamOwned};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// Connects to the first of `addrs` that answers within `timeout`.
pub(super) fn connect_any(addrs: &[SocketAddr], timeout: Duration) -> io::Result<TcpStream> {
    let mut last = io::Error::new(io::ErrorKind::NotFound, "the host has no address");
    for a in addrs {
        match TcpStream::connect_timeout(a, timeout) {
            Ok(s) => return Ok(s),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Reads the greeting and upgrades with STARTTLS, line by line on the bare
/// socket, so that no byte of the TLS handshake is read as IMAP.
pub(super) fn starttls(tcp: TcpStream, at: &str) -> Result<TcpStream> {
    let e = |x: io::Error| ImapError(format!("STARTTLS with {at}: {x} (check imap.port)"));
    let mut reader = BufReader::with_capacity(1, tcp);
    let mut line = String::new();
    reader.read_line(&mut line).map_err(e)?;
    if !line.starts_with("* OK") {
        return fail(format!(
            "{at} did not greet as an IMAP server ({}) (check imap.port and imap.security)",
            line.trim()
        ));
    }
    reader.get_mut().write_all(b"g0 STARTTLS\r\n").map_err(e)?;
    loop {
        line.clear();
        if reader.read_line(&mut line).map_err(e)? == 0 {
            return fail(format!("{at} closed the connection on STARTTLS"));
        }
        if let Some(status) = line.strip_prefix("g0 ") {
            if status.starts_with("OK") {
                return Ok(reader.into_inner());
            }
            return fail(format!(
                "{at} refused STARTTLS ({}) (check imap.security: use tls on port 993 if the server has no STARTTLS)",
                status.trim()
            ));
        }
    }
}

/// The socket under the IMAP client: bare (loopback only) or TLS.
pub(super) struct Stream {
    io: Io,
    /// The read timeout outside IDLE; the `imap` crate clears the timeout
    /// after an IDLE, and this puts it back instead.
    timeout: Duration,
}

enum Io {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

impl Stream {
    pub(super) fn plain(tcp: TcpStream, timeout: Duration) -> Stream {
        Stream {
            io: Io::Plain(tcp),
            timeout,
        }
    }

    /// TLS with the web's root certificates; the handshake is done here so
    /// that its failure is reported as such.
    pub(super) fn tls(
        mut tcp: TcpStream,
        host: &str,
        at: &str,
        timeout: Duration,
    ) -> Result<Stream> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| ImapError(format!("TLS setup: {e}")))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let name = rustls::pki_types::ServerName::try_from(host.to_string())
            .map_err(|e| ImapError(format!("imap.host {host:?} is not a TLS server name: {e}")))?;
        let mut conn = ClientConnection::new(Arc::new(config), name)
            .map_err(|e| ImapError(format!("TLS setup for {at}: {e}")))?;
        while conn.is_handshaking() {
            conn.complete_io(&mut tcp).map_err(|e| {
                ImapError(format!(
                    "TLS handshake with {at} failed: {e} (check imap.host and imap.security: \
                     tls is implicit TLS, usually port 993; starttls is usually port 143)"
                ))
            })?;
        }
        Ok(Stream {
            io: Io::Tls(Box::new(StreamOwned::new(conn, tcp))),
            timeout,
        })
    }

    fn tcp(&self) -> &TcpStream {
        match &self.io {
            Io::Plain(t) => t,
            Io::Tls(s) => &s.sock,
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.io {
            Io::Plain(t) => t.read(buf),
            Io::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.io {
            Io::Plain(t) => t.write(buf),
            Io::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.io {
            Io::Plain(t) => t.flush(),
            Io::Tls(s) => s.flush(),
        }
    }
}

impl SetReadTimeout for Stream {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> imap::Result<()> {
        // Never without a timeout: a dead server must not hang the daemon.
        let t = timeout
            .unwrap_or(self.timeout)
            .max(Duration::from_millis(1));
        self.tcp()
            .set_read_timeout(Some(t))
            .map_err(imap::Error::Io)
    }
}
