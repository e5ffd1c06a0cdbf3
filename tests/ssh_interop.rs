//! Galloper's SSH signatures against the real OpenSSH `ssh-keygen`.

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use galloper::sig::{
    self, KeyPair, ORDERS_NAMESPACE, REPORT_NAMESPACE, SigError, fingerprint, keygen, parse_public,
    sign, verify, verify_bytes,
};
use proptest::prelude::*;
use tempfile::TempDir;

const SSH_KEYGEN: &str = "/usr/bin/ssh-keygen";
const ORDERS: &[u8] =
    b"# turn 3, French orders\n1st Hussars: advance to Hougoumont farm\nGuard: hold\n";

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(SSH_KEYGEN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ssh-keygen must be installed (package openssh-client)");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn run_ok(args: &[&str]) -> String {
    let out = run(args, b"");
    assert!(
        out.status.success(),
        "ssh-keygen {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A key made by ssh-keygen: (private key path, public line).
fn openssh_key(dir: &Path, name: &str, kind: &str) -> (PathBuf, String) {
    let key = dir.join(name);
    let mut args = vec!["-q", "-t", kind, "-N", "", "-C", "player@example.org"];
    if kind == "rsa" {
        args.extend(["-b", "2048"]);
    }
    args.extend(["-f", path_str(&key)]);
    run_ok(&args);
    let public = fs::read_to_string(key.with_extension("pub")).unwrap();
    (key, public.trim().to_owned())
}

/// Write our private key where ssh-keygen will take it (it insists on 0600).
fn write_private(dir: &Path, name: &str, pair: &KeyPair) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, &pair.private_openssh).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    path
}

/// `ssh-keygen -Y sign`, returning the .sig file it wrote.
fn ssh_keygen_sign(dir: &Path, key: &Path, namespace: &str, data: &[u8]) -> String {
    let file = dir.join("orders.txt");
    fs::write(&file, data).unwrap();
    let _ = fs::remove_file(dir.join("orders.txt.sig"));
    run_ok(&[
        "-Y",
        "sign",
        "-f",
        path_str(key),
        "-n",
        namespace,
        path_str(&file),
    ]);
    fs::read_to_string(dir.join("orders.txt.sig")).unwrap()
}

/// `ssh-keygen -Y verify` with `public_line` as the only allowed signer.
fn ssh_keygen_verify(
    dir: &Path,
    public_line: &str,
    namespace: &str,
    data: &[u8],
    sig: &str,
) -> bool {
    let allowed = dir.join("allowed_signers");
    fs::write(&allowed, format!("player {public_line}\n")).unwrap();
    let sig_file = dir.join("ours.sig");
    fs::write(&sig_file, sig).unwrap();
    let out = run(
        &[
            "-Y",
            "verify",
            "-f",
            path_str(&allowed),
            "-I",
            "player",
            "-n",
            namespace,
            "-s",
            path_str(&sig_file),
        ],
        data,
    );
    out.status.success()
}

fn ssh_keygen_fingerprint(dir: &Path, public_line: &str) -> String {
    let file = dir.join("fp.pub");
    fs::write(&file, format!("{public_line}\n")).unwrap();
    let out = run_ok(&["-l", "-f", path_str(&file)]);
    // "256 SHA256:... comment (ED25519)"
    out.split_whitespace().nth(1).unwrap().to_owned()
}

/// The house style for messages that go back to players.
fn assert_readable(err: &SigError) {
    let text = err.to_string();
    let first = text.chars().next().unwrap();
    assert!(!first.is_uppercase(), "message starts in capitals: {text}");
    assert!(
        !text.ends_with('.'),
        "message ends with a full stop: {text}"
    );
    assert!(!text.contains('\n'), "message spans lines: {text}");
}

#[test]
fn keygen_sign_verify_round_trip() {
    let pair = keygen("marshal ney").unwrap();
    assert!(
        pair.private_openssh
            .starts_with("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    );
    assert!(pair.public_line.starts_with("ssh-ed25519 AAAA"));
    assert!(pair.public_line.ends_with(" marshal ney"));
    for namespace in [ORDERS_NAMESPACE, REPORT_NAMESPACE] {
        let signature = sign(&pair.private_openssh, namespace, ORDERS).unwrap();
        assert!(signature.starts_with("-----BEGIN SSH SIGNATURE-----\n"));
        assert!(signature.ends_with("-----END SSH SIGNATURE-----\n"));
        verify(&pair.public_line, namespace, ORDERS, &signature).unwrap();
        verify_bytes(&pair.public_line, namespace, ORDERS, signature.as_bytes()).unwrap();
    }
    // Two keys from the OS generator are never the same.
    let other = keygen("marshal ney").unwrap();
    assert_ne!(pair.public_line, other.public_line);
    // Debug output must not leak the secret.
    assert!(!format!("{pair:?}").contains("OPENSSH PRIVATE KEY"));
}

#[test]
fn keygen_keeps_comment_on_one_line() {
    let pair = keygen("evil\ncomment\r\n").unwrap();
    assert!(!pair.public_line.contains('\n'));
    assert!(pair.public_line.ends_with(" evil comment"));
    parse_public(&pair.public_line).unwrap();
}

#[test]
fn fingerprint_matches_ssh_keygen() {
    let dir = TempDir::new().unwrap();
    let ours = keygen("fp test").unwrap();
    let (_, theirs) = openssh_key(dir.path(), "id", "ed25519");
    for line in [&ours.public_line, &theirs] {
        let fp = fingerprint(line).unwrap();
        assert!(fp.starts_with("SHA256:"));
        assert_eq!(fp, ssh_keygen_fingerprint(dir.path(), line));
    }
}

#[test]
fn parse_public_normalises_whitespace() {
    let pair = keygen("a comment").unwrap();
    let padded = format!("  {}\r\n", pair.public_line);
    let key = parse_public(&padded).unwrap();
    assert_eq!(key.to_openssh().unwrap(), pair.public_line);
    assert_eq!(
        fingerprint(&padded).unwrap(),
        fingerprint(&pair.public_line).unwrap()
    );
}

#[test]
fn ssh_keygen_key_and_signature_verify() {
    let dir = TempDir::new().unwrap();
    let (key, public) = openssh_key(dir.path(), "id", "ed25519");
    let signature = ssh_keygen_sign(dir.path(), &key, ORDERS_NAMESPACE, ORDERS);
    verify(&public, ORDERS_NAMESPACE, ORDERS, &signature).unwrap();
    // A mail client that turned the .sig into CRLF has not changed its meaning.
    let crlf = signature.replace('\n', "\r\n");
    verify(&public, ORDERS_NAMESPACE, ORDERS, &crlf).unwrap();
}

#[test]
fn our_signature_is_what_ssh_keygen_makes() {
    // Ed25519 and SSHSIG are both deterministic, so for the same key and file
    // our armored signature must be byte for byte ssh-keygen's.
    let dir = TempDir::new().unwrap();
    let (key, _) = openssh_key(dir.path(), "id", "ed25519");
    let private = fs::read_to_string(&key).unwrap();
    let theirs = ssh_keygen_sign(dir.path(), &key, ORDERS_NAMESPACE, ORDERS);
    let ours = sign(&private, ORDERS_NAMESPACE, ORDERS).unwrap();
    assert_eq!(ours, theirs);
}

#[test]
fn ssh_keygen_accepts_our_signature() {
    let dir = TempDir::new().unwrap();
    let pair = keygen("player").unwrap();
    let signature = sign(&pair.private_openssh, ORDERS_NAMESPACE, ORDERS).unwrap();
    assert!(ssh_keygen_verify(
        dir.path(),
        &pair.public_line,
        ORDERS_NAMESPACE,
        ORDERS,
        &signature
    ));
    // ssh-keygen also refuses it where it should, so the check above means something.
    assert!(!ssh_keygen_verify(
        dir.path(),
        &pair.public_line,
        REPORT_NAMESPACE,
        ORDERS,
        &signature
    ));
    assert!(!ssh_keygen_verify(
        dir.path(),
        &pair.public_line,
        ORDERS_NAMESPACE,
        b"altered",
        &signature
    ));
}

#[test]
fn ssh_keygen_uses_our_private_key() {
    let dir = TempDir::new().unwrap();
    let pair = keygen("server").unwrap();
    let key = write_private(dir.path(), "server_key", &pair);
    // ssh-keygen derives the same public key from our private key file.
    let derived = run_ok(&["-y", "-f", path_str(&key)]);
    assert_eq!(derived.trim(), pair.public_line);
    let signature = ssh_keygen_sign(dir.path(), &key, REPORT_NAMESPACE, ORDERS);
    verify(&pair.public_line, REPORT_NAMESPACE, ORDERS, &signature).unwrap();
    assert_eq!(
        signature,
        sign(&pair.private_openssh, REPORT_NAMESPACE, ORDERS).unwrap()
    );
}

#[test]
fn refuses_altered_data() {
    let pair = keygen("p").unwrap();
    let signature = sign(&pair.private_openssh, ORDERS_NAMESPACE, ORDERS).unwrap();
    let mut altered = ORDERS.to_vec();
    altered[10] ^= 0x01;
    let err = verify(&pair.public_line, ORDERS_NAMESPACE, &altered, &signature).unwrap_err();
    assert!(matches!(err, SigError::BadSignature), "{err:?}");
    assert_readable(&err);
    // LF to CRLF is the classic way mail breaks a signed file.
    let crlf = String::from_utf8(ORDERS.to_vec())
        .unwrap()
        .replace('\n', "\r\n");
    let err = verify(
        &pair.public_line,
        ORDERS_NAMESPACE,
        crlf.as_bytes(),
        &signature,
    )
    .unwrap_err();
    assert!(matches!(err, SigError::BadSignature), "{err:?}");
}

#[test]
fn refuses_forged_signature_bytes() {
    // Change the raw ed25519 signature itself, keeping key and namespace.
    let dir = TempDir::new().unwrap();
    let (key, public) = openssh_key(dir.path(), "id", "ed25519");
    let signature = ssh_keygen_sign(dir.path(), &key, ORDERS_NAMESPACE, ORDERS);
    let mut lines: Vec<String> = signature.lines().map(str::to_owned).collect();
    // The 64 signature bytes end the blob, so the last base64 line before the
    // footer is all signature; change a character clear of the padding.
    let last = lines.len() - 2;
    let mut body = lines[last].clone().into_bytes();
    let i = body.len().saturating_sub(8);
    body[i] = if body[i] == b'A' { b'B' } else { b'A' };
    lines[last] = String::from_utf8(body).unwrap();
    let forged = lines.join("\n") + "\n";
    let err = verify(&public, ORDERS_NAMESPACE, ORDERS, &forged).unwrap_err();
    assert!(matches!(err, SigError::BadSignature), "{err:?}");
}

#[test]
fn refuses_another_key() {
    let dir = TempDir::new().unwrap();
    let registered = keygen("registered").unwrap();
    let (key, other_public) = openssh_key(dir.path(), "other", "ed25519");
    let signature = ssh_keygen_sign(dir.path(), &key, ORDERS_NAMESPACE, ORDERS);
    let err = verify(
        &registered.public_line,
        ORDERS_NAMESPACE,
        ORDERS,
        &signature,
    )
    .unwrap_err();
    let signer_fp = fingerprint(&other_public).unwrap();
    let registered_fp = fingerprint(&registered.public_line).unwrap();
    match &err {
        SigError::WrongKey { signer, registered } => {
            assert_eq!(signer, &signer_fp);
            assert_eq!(registered, &registered_fp);
        }
        other => panic!("expected WrongKey, got {other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains(&signer_fp), "{text}");
    assert!(text.contains(&registered_fp), "{text}");
    assert_readable(&err);
}

#[test]
fn refuses_wrong_namespace() {
    let pair = keygen("p").unwrap();
    let signature = sign(&pair.private_openssh, REPORT_NAMESPACE, ORDERS).unwrap();
    let err = verify(&pair.public_line, ORDERS_NAMESPACE, ORDERS, &signature).unwrap_err();
    match &err {
        SigError::WrongNamespace { expected, found } => {
            assert_eq!(expected, ORDERS_NAMESPACE);
            assert_eq!(found, REPORT_NAMESPACE);
        }
        other => panic!("expected WrongNamespace, got {other:?}"),
    }
    assert_readable(&err);
    // The same for a signature made by ssh-keygen in its stock "file" namespace.
    let dir = TempDir::new().unwrap();
    let (key, public) = openssh_key(dir.path(), "id", "ed25519");
    let signature = ssh_keygen_sign(dir.path(), &key, "file", ORDERS);
    let err = verify(&public, ORDERS_NAMESPACE, ORDERS, &signature).unwrap_err();
    assert!(matches!(err, SigError::WrongNamespace { .. }), "{err:?}");
}

#[test]
fn refuses_truncated_signature() {
    let pair = keygen("p").unwrap();
    let signature = sign(&pair.private_openssh, ORDERS_NAMESPACE, ORDERS).unwrap();
    // Cut mid-armor: the footer is gone.
    let half = &signature[..signature.len() / 2];
    // Cut the blob but keep the armor intact: the binary comes up short.
    let lines: Vec<&str> = signature.lines().collect();
    let short = format!("{}\n{}\n{}\n", lines[0], lines[1], lines[lines.len() - 1]);
    for bad in [
        half,
        short.as_str(),
        "",
        "   \n",
        "-----BEGIN SSH SIGNATURE-----",
    ] {
        let err = verify(&pair.public_line, ORDERS_NAMESPACE, ORDERS, bad).unwrap_err();
        assert!(
            matches!(err, SigError::MalformedSignature(_)),
            "{bad:?}: {err:?}"
        );
        assert_readable(&err);
    }
    // Something enormous is refused before any decoding.
    let huge = format!(
        "-----BEGIN SSH SIGNATURE-----\n{}\n-----END SSH SIGNATURE-----\n",
        "A".repeat(1 << 20)
    );
    let err = verify(&pair.public_line, ORDERS_NAMESPACE, ORDERS, &huge).unwrap_err();
    assert!(matches!(err, SigError::MalformedSignature(_)), "{err:?}");
    // A .pub line or a private key attached instead of the .sig.
    for wrong_file in [&pair.public_line, &pair.private_openssh] {
        let err = verify(&pair.public_line, ORDERS_NAMESPACE, ORDERS, wrong_file).unwrap_err();
        assert!(matches!(err, SigError::MalformedSignature(_)), "{err:?}");
    }
}

#[test]
fn refuses_garbage_key_line() {
    let pair = keygen("p").unwrap();
    let signature = sign(&pair.private_openssh, ORDERS_NAMESPACE, ORDERS).unwrap();
    let truncated_key = &pair.public_line[..30];
    let huge = "ssh-ed25519 ".to_owned() + &"A".repeat(1 << 20);
    for garbage in [
        "not a key at all",
        "",
        "ssh-ed25519",
        "ssh-ed25519 !!!!",
        truncated_key,
        huge.as_str(),
        pair.private_openssh.as_str(),
    ] {
        let err = verify(garbage, ORDERS_NAMESPACE, ORDERS, &signature).unwrap_err();
        assert!(
            matches!(err, SigError::MalformedKey(_)),
            "{garbage:.40?}: {err:?}"
        );
        assert_readable(&err);
        assert!(matches!(
            fingerprint(garbage),
            Err(SigError::MalformedKey(_))
        ));
    }
}

#[test]
fn refuses_other_key_types() {
    let dir = TempDir::new().unwrap();
    let pair = keygen("p").unwrap();
    let signature = sign(&pair.private_openssh, ORDERS_NAMESPACE, ORDERS).unwrap();
    for (kind, type_name) in [("rsa", "ssh-rsa"), ("ecdsa", "ecdsa-sha2-nistp256")] {
        let (key, public) = openssh_key(dir.path(), kind, kind);
        let err = verify(&public, ORDERS_NAMESPACE, ORDERS, &signature).unwrap_err();
        match &err {
            SigError::UnsupportedKey(found) => assert_eq!(found, type_name),
            other => panic!("expected UnsupportedKey, got {other:?}"),
        }
        assert_readable(&err);
        assert!(matches!(
            parse_public(&public),
            Err(SigError::UnsupportedKey(_))
        ));
        // Nor will we sign with one.
        let private = fs::read_to_string(&key).unwrap();
        let err = sign(&private, ORDERS_NAMESPACE, ORDERS).unwrap_err();
        assert!(matches!(err, SigError::UnsupportedKey(_)), "{err:?}");
    }
    // A key type that cannot even be decoded is still named as unsupported.
    let err = parse_public("ssh-ed25519-cert-v01@openssh.com AAAAIHNzaC1lZDI1NTE5 x").unwrap_err();
    assert!(matches!(err, SigError::UnsupportedKey(_)), "{err:?}");
}

#[test]
fn refuses_passphrase_protected_or_garbage_private_key() {
    let dir = TempDir::new().unwrap();
    let key = dir.path().join("locked");
    run_ok(&["-q", "-t", "ed25519", "-N", "secret", "-f", path_str(&key)]);
    let locked = fs::read_to_string(&key).unwrap();
    let err = sign(&locked, ORDERS_NAMESPACE, ORDERS).unwrap_err();
    assert!(matches!(err, SigError::MalformedKey(_)), "{err:?}");
    assert!(err.to_string().contains("passphrase"), "{err}");
    assert_readable(&err);
    for garbage in [
        "",
        "hello",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
    ] {
        let err = sign(garbage, ORDERS_NAMESPACE, ORDERS).unwrap_err();
        assert!(matches!(err, SigError::MalformedKey(_)), "{err:?}");
        assert_readable(&err);
    }
    let pair = keygen("p").unwrap();
    assert!(sign(&pair.private_openssh, "", ORDERS).is_err());
}

#[test]
fn namespaces_are_the_agreed_ones() {
    assert_eq!(sig::ORDERS_NAMESPACE, "galloper-orders");
    assert_eq!(sig::REPORT_NAMESPACE, "galloper-report");
}

/// One key and one good signature shared by the property tests.
fn fixture() -> &'static (KeyPair, String) {
    static FIXTURE: std::sync::OnceLock<(KeyPair, String)> = std::sync::OnceLock::new();
    FIXTURE.get_or_init(|| {
        let pair = keygen("fuzz").unwrap();
        let signature = sign(&pair.private_openssh, ORDERS_NAMESPACE, ORDERS).unwrap();
        (pair, signature)
    })
}

const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn verify_never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let (pair, _) = fixture();
        let result = verify_bytes(&pair.public_line, ORDERS_NAMESPACE, ORDERS, &bytes);
        prop_assert!(matches!(result, Err(SigError::MalformedSignature(_))));
    }

    #[test]
    fn verify_never_panics_on_random_text(text in ".{0,600}") {
        let (pair, signature) = fixture();
        prop_assert!(verify(&pair.public_line, ORDERS_NAMESPACE, ORDERS, &text).is_err());
        // Random text as the key line, too.
        prop_assert!(verify(&text, ORDERS_NAMESPACE, ORDERS, signature).is_err());
        prop_assert!(fingerprint(&text).is_err());
    }

    #[test]
    fn verify_never_panics_on_damaged_armor(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0..BASE64.len()), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        // Keep the armor but scramble the blob inside it, so the SSHSIG
        // decoder itself sees hostile input rather than only the PEM parser.
        let (pair, signature) = fixture();
        let lines: Vec<&str> = signature.lines().collect();
        let mut body: Vec<u8> = lines[1..lines.len() - 1].concat().into_bytes();
        for (at, replacement) in edits {
            let i = at.index(body.len());
            body[i] = BASE64[replacement];
        }
        body.truncate(cut.index(body.len() + 1).max(1));
        let mut armored = String::from("-----BEGIN SSH SIGNATURE-----\n");
        for chunk in body.chunks(70) {
            armored.push_str(std::str::from_utf8(chunk).unwrap());
            armored.push('\n');
        }
        armored.push_str("-----END SSH SIGNATURE-----\n");
        let result = verify(&pair.public_line, ORDERS_NAMESPACE, ORDERS, &armored);
        // Base64 leaves a few bits unused at the end: an edit there
        // changes the text but not the signature it decodes to.
        let blob = |pem: &str| {
            ssh_key::SshSig::from_pem(pem)
                .ok()
                .and_then(|s| s.to_pem(ssh_key::LineEnding::LF).ok())
        };
        if blob(&armored).is_none() || blob(&armored) != blob(signature) {
            prop_assert!(result.is_err(), "accepted {armored}");
        }
    }
}
