//! Email addresses where they enter Galloper (`galloper new --player`, the
//! game master's `replace_address`, the daemon's configuration). An address
//! stored unchecked fails later, when a mail to it is composed, and then in
//! the middle of a step: so each is checked once, by the parser that sending
//! uses (lettre's `Address`), and refused with what to write instead.

use lettre::address::AddressError;

/// The longest address SMTP carries (RFC 5321: a 256-octet path, brackets included).
const MAX_LEN: usize = 254;

/// Why a text is not an address Galloper can send to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{value:?} is not an email address: {reason}; write it as name@domain, such as player@example.org"
)]
pub struct BadAddress {
    /// The text as given.
    pub value: String,
    /// What is wrong with it.
    pub reason: String,
}

/// The address, trimmed, if mail can be sent to it; else why not.
pub fn check(text: &str) -> Result<String, BadAddress> {
    let value = text.trim();
    let bad = |reason: &str| BadAddress {
        value: value.to_string(),
        reason: reason.to_string(),
    };
    if value.is_empty() {
        return Err(bad("it is empty"));
    }
    if !value.contains('@') {
        return Err(bad("it has no @ between a name and a domain"));
    }
    if value.contains('<') || value.contains('>') {
        return Err(bad(
            "give the bare address, without a name or angle brackets",
        ));
    }
    if value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad("it holds spaces or control characters"));
    }
    if value.len() > MAX_LEN {
        return Err(bad(&format!("it is longer than {MAX_LEN} characters")));
    }
    match value.parse::<lettre::Address>() {
        Ok(_) => Ok(value.to_string()),
        Err(AddressError::MissingParts) => Err(bad("it has no @ between a name and a domain")),
        Err(AddressError::InvalidUser) => Err(bad("the part before the @ is not valid")),
        Err(AddressError::InvalidDomain) => Err(bad("the domain after the @ is not valid")),
        Err(e) => Err(bad(&e.to_string().to_lowercase())),
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn addresses_are_checked_by_the_parser_that_sends() {
        assert_eq!(
            check(" alice@example.org ").as_deref(),
            Ok("alice@example.org")
        );
        assert!(check("club+g1@pbem.test").is_ok());
        for bad in [
            "alice at example",
            "",
            "alice@",
            "@example.org",
            "alice@exa mple.org",
            "Alice <alice@example.org>",
            "alice@example.org\r\nBcc: x@y.z",
            "a@b@c.org",
        ] {
            let e = check(bad).expect_err(bad);
            assert!(e.to_string().contains("such as player@example.org"), "{e}");
        }
        assert!(
            check("alice at example")
                .unwrap_err()
                .to_string()
                .contains("no @")
        );
    }
}

/// The mailbox an address reaches, for counting what one person gets:
/// lower case, and a `+tag` after the local part dropped (`Bob+1@x.org`,
/// `bob+12@X.org` and `bob@x.org` are one mailbox at nearly every mail
/// host), so that a stranger cannot multiply a recipient's reply allowance
/// by tagging the address he forges.
pub fn mailbox(address: &str) -> String {
    let a = address.trim().to_lowercase();
    match a.rsplit_once('@') {
        Some((local, domain)) => {
            let local = local.split_once('+').map_or(local, |(l, _)| l);
            format!("{local}@{domain}")
        }
        None => a,
    }
}

#[cfg(test)]
mod mailbox_tests {
    #[test]
    fn tagged_addresses_reach_one_mailbox() {
        for a in [
            "bob@x.org",
            "Bob+1@x.org",
            "bob+12@X.ORG",
            " bob+a+b@x.org ",
        ] {
            assert_eq!(super::mailbox(a), "bob@x.org", "{a}");
        }
        assert_ne!(super::mailbox("bobby@x.org"), super::mailbox("bob@x.org"));
    }
}
