//! Orders mails as a player's mail program sends them: a text part and the
//! orders file with its `.sig`, both attached base64.

/// Standard base64 with padding, lines of 76 characters.
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    let mut wrapped = String::with_capacity(out.len() + out.len() / 38);
    for (i, c) in out.chars().enumerate() {
        if i > 0 && i % 76 == 0 {
            wrapped.push_str("\r\n");
        }
        wrapped.push(c);
    }
    wrapped
}

/// A raw orders mail from `from` to `to` carrying `name` and `name.sig`.
pub fn orders_mail(
    from: &str,
    to: &str,
    message_id: &str,
    name: &str,
    orders: &[u8],
    signature: &str,
) -> Vec<u8> {
    format!(
        "From: Player <{from}>\r\nTo: {to}\r\nSubject: orders\r\nMessage-ID: <{message_id}>\r\n\
Date: Sun, 22 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"galloper-bench\"\r\n\r\n\
--galloper-bench\r\nContent-Type: text/plain\r\n\r\nMy orders.\r\n\
--galloper-bench\r\nContent-Type: application/yaml; name=\"{name}\"\r\n\
Content-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n\
--galloper-bench\r\nContent-Type: application/octet-stream; name=\"{name}.sig\"\r\n\
Content-Disposition: attachment; filename=\"{name}.sig\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n\
--galloper-bench--\r\n",
        base64(orders),
        base64(signature.as_bytes())
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_the_standard_vectors() {
        assert_eq!(super::base64(b""), "");
        assert_eq!(super::base64(b"f"), "Zg==");
        assert_eq!(super::base64(b"fo"), "Zm8=");
        assert_eq!(super::base64(b"foobar"), "Zm9vYmFy");
    }
}
