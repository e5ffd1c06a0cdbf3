//! Issue 32, item 4: the orders page signs in the browser. `site/orders/sign.js`
//! (on `site/vendor/galloper-vendor.js`) is driven by
//! `tests/browser/sign.mjs`, once in Node and once in Debian's Chromium
//! from `file://` (playwright-core), over keys made by `ssh-keygen -t
//! ed25519`: unencrypted, passphrase-protected at 16 bcrypt rounds
//! (aes256-ctr, ssh-keygen's default) and with aes256-gcm@openssh.com (its
//! passphrase beyond ASCII).
//! For each, the signature the page makes is byte-identical to
//! `ssh-keygen -Y sign -n galloper-orders` over the same filled-in file,
//! `ssh-keygen -Y verify` and galloper's own check accept it, the file
//! parses as an orders envelope with the notice, revision and fresh
//! entropy the page was given, and its public line and fingerprint are the
//! `.pub` file's and `ssh-keygen -l`'s. A key that is not the side's is
//! refused by fingerprint (before any passphrase is asked), a wrong
//! passphrase, RSA (OpenSSH and PEM), ECDSA and PuTTY keys, a public key, a
//! hardware-token key, a key file cut short, a key stretched over minutes
//! of bcrypt rounds and an orders file answering
//! another notice are refused in plain words;
//! fresh entropy is 64 hex digits and never the same twice; the page's
//! `field`/`withField` write lines as src/envelope.rs does. In Chromium no
//! request leaves `file://`, and the passphrase key's opening is timed.
//!
//! Needs node, npm, chromium and ssh-keygen (`.ci/run` installs them); the
//! npm packages of `tests/browser/` are installed with `npm ci` when
//! missing.

#[path = "support/base64.rs"]
mod base64;

use serde_json::{Value, json};
#[path = "support/browser.rs"]
mod browser;
use browser::{node_ready, ok};
use std::path::PathBuf;
use std::process::{Command, Output};

fn ssh_keygen(args: &[&str]) -> Output {
    Command::new("ssh-keygen")
        .args(args)
        .output()
        .expect("ssh-keygen runs (apt-get install openssh-client; .ci/run does)")
}

const NOTICE: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const OTHER_NOTICE: &str = "1111111111111111111111111111111111111111111111111111111111111111";

/// An orders file as `galloper orders template` writes it, but without its
/// notice and revision lines (the page fills them in), with CRLF line ends
/// on one line to show they come out as `with_field` writes them.
const ORDERS: &str = "galloper: 1\ngame: hollowbrook-1\nstep: 3\nside: french\r\nentropy: FILLED-IN-BY-GALLOPER-SIGN\norders:\n  round:\n    moves: []\n";

/// The keys and files the cases use, in a temporary folder.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        let f = Fixture {
            dir: tempfile::tempdir().unwrap(),
        };
        let key = |name: &str, extra: &[&str]| {
            let path = f.path(name);
            let mut args = vec!["-q", "-f", path.to_str().unwrap(), "-C", name];
            args.extend_from_slice(extra);
            ok(&format!("ssh-keygen for {name}"), &ssh_keygen(&args));
        };
        key("plain", &["-t", "ed25519", "-N", ""]);
        key(
            "pass",
            &["-t", "ed25519", "-a", "16", "-N", "horse and musket"],
        );
        key(
            "gcm",
            &[
                "-t",
                "ed25519",
                "-a",
                "16",
                "-Z",
                "aes256-gcm@openssh.com",
                "-N",
                "gcm pässe",
            ],
        );
        key("rsa", &["-t", "rsa", "-b", "2048", "-N", ""]);
        key(
            "rsa-pem",
            &["-t", "rsa", "-b", "2048", "-m", "PEM", "-N", ""],
        );
        key("ecdsa", &["-t", "ecdsa", "-N", ""]);
        std::fs::write(f.path("sk"), hardware_key()).unwrap();
        let (slow, slow_pub) = slow_key(5000);
        std::fs::write(f.path("slow"), slow).unwrap();
        std::fs::write(f.path("slow.pub"), format!("{slow_pub}\n")).unwrap();
        std::fs::write(
            f.path("putty.ppk"),
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: player\n",
        )
        .unwrap();
        let plain = std::fs::read_to_string(f.path("plain")).unwrap();
        let mut cut: Vec<&str> = plain.lines().collect();
        cut.remove(3);
        std::fs::write(f.path("cut"), cut.join("\n")).unwrap();
        // Saved on Windows, or passed through a mail program.
        std::fs::write(f.path("crlf"), plain.replace('\n', "\r\n")).unwrap();
        std::fs::write(f.path("orders.yaml"), ORDERS).unwrap();
        std::fs::write(
            f.path("answered.yaml"),
            ORDERS.replace("entropy:", &format!("notice: {OTHER_NOTICE}\nentropy:")),
        )
        .unwrap();
        f
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn public_line(&self, key: &str) -> String {
        std::fs::read_to_string(self.path(&format!("{key}.pub")))
            .unwrap()
            .trim()
            .to_string()
    }

    /// The fingerprint as `ssh-keygen -l` prints it.
    fn fingerprint(&self, key: &str) -> String {
        let pubfile = self.path(&format!("{key}.pub"));
        let out = ok(
            "ssh-keygen -l",
            &ssh_keygen(&["-l", "-f", pubfile.to_str().unwrap()]),
        );
        out.split_whitespace().nth(1).unwrap().to_string()
    }

    fn plan(&self) -> Value {
        let case = |name: &str, key: &str, pass: &str, fp_of: &str, orders: &str| {
            json!({
                "name": name,
                "key_file": self.path(key),
                "passphrase": pass,
                "fingerprint": if fp_of.is_empty() { String::new() } else { self.fingerprint(fp_of) },
                "side": "french",
                "orders_file": self.path(orders),
                "notice": NOTICE,
                "revision": 2,
            })
        };
        json!({
            "work": self.dir.path(),
            "cases": [
                case("plain", "plain", "", "plain", "orders.yaml"),
                case("pass", "pass", "horse and musket", "pass", "orders.yaml"),
                case("gcm", "gcm", "gcm pässe", "gcm", "orders.yaml"),
                case("wrong key", "plain", "", "pass", "orders.yaml"),
                case("wrong key, no passphrase asked", "pass", "", "plain", "orders.yaml"),
                case("wrong passphrase", "pass", "horse and muskets", "pass", "orders.yaml"),
                case("wrong passphrase, gcm", "gcm", "nope", "gcm", "orders.yaml"),
                case("no passphrase", "pass", "", "pass", "orders.yaml"),
                case("rsa", "rsa", "", "rsa", "orders.yaml"),
                case("rsa pem", "rsa-pem", "", "rsa", "orders.yaml"),
                case("ecdsa", "ecdsa", "", "ecdsa", "orders.yaml"),
                case("public key", "plain.pub", "", "plain", "orders.yaml"),
                case("hardware key", "sk", "", "", "orders.yaml"),
                case("putty key", "putty.ppk", "", "", "orders.yaml"),
                case("cut key", "cut", "", "plain", "orders.yaml"),
                case("crlf key", "crlf", "", "plain", "orders.yaml"),
                case("slow key", "slow", "any", "slow", "orders.yaml"),
                case("no key on record", "plain", "", "", "orders.yaml"),
                case("another notice", "plain", "", "plain", "answered.yaml"),
            ],
            "fields": [
                { "text": ORDERS, "key": "notice", "value": NOTICE },
                { "text": ORDERS, "key": "entropy", "value": "ab" },
                { "text": "galloper: 1\nrevision: 1 # first\norders: {}", "key": "revision", "value": "3" },
                { "text": "galloper: 1\n", "key": "revision", "value": "1" },
                { "text": "  entropy: nested\norders:\n  entropy: x\n", "key": "entropy", "value": "cd" },
                { "text": "a: 1\r\nb: 2\r", "key": "c", "value": "3" },
            ],
        })
    }
}

/// An OpenSSH private key file whose key is `sk-ssh-ed25519@openssh.com`
/// (a FIDO token's handle), as `ssh-keygen -t ed25519-sk` writes one: no
/// token is needed to make the file, only to use it.
fn hardware_key() -> String {
    let kind = b"sk-ssh-ed25519@openssh.com";
    let mut public = Vec::new();
    string(&mut public, kind);
    string(&mut public, &[7u8; 32]);
    string(&mut public, b"ssh:");
    let mut private = Vec::new();
    private.extend_from_slice(&[1, 2, 3, 4, 1, 2, 3, 4]);
    string(&mut private, kind);
    string(&mut private, &[7u8; 32]);
    string(&mut private, b"ssh:");
    private.push(1);
    string(&mut private, &[9u8; 64]);
    string(&mut private, b"");
    string(&mut private, b"token");
    let mut pad = 1;
    while private.len() % 8 != 0 {
        private.push(pad);
        pad += 1;
    }
    key_file(b"none", b"none", b"", &public, &private)
}

/// A passphrase-protected ed25519 key file stretched over `rounds` bcrypt
/// rounds, and its public line. Its secret part is noise: the page must
/// refuse the key before spending minutes on it.
fn slow_key(rounds: u32) -> (String, String) {
    let pk = ed25519_dalek::SigningKey::from_bytes(&[5u8; 32])
        .verifying_key()
        .to_bytes();
    let mut public = Vec::new();
    string(&mut public, b"ssh-ed25519");
    string(&mut public, &pk);
    let mut options = Vec::new();
    string(&mut options, &[3u8; 16]);
    options.extend_from_slice(&rounds.to_be_bytes());
    let file = key_file(b"aes256-ctr", b"bcrypt", &options, &public, &[8u8; 48]);
    (
        file,
        format!("ssh-ed25519 {}", base64::b64(&public).trim_end()),
    )
}

/// SSH wire encoding: a string is its length then its bytes.
fn string(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_be_bytes());
    out.extend_from_slice(b);
}

/// An OpenSSH private key file ("openssh-key-v1") holding one key.
fn key_file(cipher: &[u8], kdf: &[u8], options: &[u8], public: &[u8], secret: &[u8]) -> String {
    let mut blob = b"openssh-key-v1\0".to_vec();
    string(&mut blob, cipher);
    string(&mut blob, kdf);
    string(&mut blob, options);
    blob.extend_from_slice(&1u32.to_be_bytes());
    string(&mut blob, public);
    string(&mut blob, secret);
    format!(
        "-----BEGIN OPENSSH PRIVATE KEY-----\n{}\n-----END OPENSSH PRIVATE KEY-----\n",
        base64::b64(&blob).trim_end()
    )
}

/// Run tests/browser/sign.mjs over the fixture's plan, in Node or Chromium.
fn run(f: &Fixture, browser: bool) -> Value {
    let dir = node_ready();
    let plan = f.path("plan.json");
    std::fs::write(&plan, f.plan().to_string()).unwrap();
    let mut cmd = Command::new("node");
    cmd.arg(dir.join("sign.mjs")).arg(&plan);
    if browser {
        cmd.arg("--browser");
    }
    let out = cmd.output().expect("node runs");
    let stdout = ok("tests/browser/sign.mjs", &out);
    serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("sign.mjs printed no JSON ({e}):\n{stdout}"))
}

fn case<'r>(result: &'r Value, name: &str) -> &'r Value {
    result["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no case {name} in {result}"))
}

fn text<'v>(v: &'v Value, k: &str) -> &'v str {
    v[k].as_str()
        .unwrap_or_else(|| panic!("{k} missing in {v}"))
}

/// A signed case: byte-identical to ssh-keygen, verified by ssh-keygen and
/// galloper, over an orders file filled in as `galloper sign` would.
fn check_signed(f: &Fixture, result: &Value, name: &str, key: &str, passphrase: &str) {
    let c = case(result, name);
    assert_eq!(c["ok"], true, "{name}: the page signed: {c}");
    let orders = text(c, "orders");
    let signature = text(c, "signature");

    // The file: notice, revision and fresh entropy, as src/envelope.rs writes them.
    let entropy = galloper::envelope::field(orders, "entropy").unwrap();
    assert!(
        entropy.len() == 64 && entropy.bytes().all(|b| b.is_ascii_hexdigit()),
        "{name}: the entropy is 32 bytes in hex: {entropy}"
    );
    let rust = galloper::envelope::with_entropy(
        &galloper::envelope::with_field(
            &galloper::envelope::with_field(ORDERS, "notice", NOTICE),
            "revision",
            "2",
        ),
        entropy,
    );
    assert_eq!(
        orders, rust,
        "{name}: filled in as galloper sign fills a file"
    );
    let env = galloper::envelope::parse("orders.yaml", orders.as_bytes())
        .unwrap_or_else(|e| panic!("{name}: the filled file is a valid envelope: {e}"));
    assert_eq!(env.notice.as_deref(), Some(NOTICE));
    assert_eq!(env.revision, Some(2));

    // ssh-keygen signs the same bytes with the same key: the same signature.
    let file = f.path(&format!("{name}.yaml"));
    std::fs::write(&file, orders).unwrap();
    let keyfile = f.path(key);
    let mut args = vec!["-Y", "sign", "-n", "galloper-orders", "-f"];
    args.push(keyfile.to_str().unwrap());
    if !passphrase.is_empty() {
        args.extend(["-P", passphrase]);
    }
    args.push(file.to_str().unwrap());
    ok("ssh-keygen -Y sign", &ssh_keygen(&args));
    let sig_file = f.path(&format!("{name}.yaml.sig"));
    let theirs = std::fs::read_to_string(&sig_file).unwrap();
    assert_eq!(
        signature, theirs,
        "{name}: the page's signature is byte-identical to ssh-keygen -Y sign's"
    );
    // signOrders, the one call the page makes, signs its own freshly
    // filled file: the same file but for the entropy, and a good signature.
    let again = text(c, "again_orders");
    assert_eq!(
        again,
        galloper::envelope::with_entropy(
            orders,
            galloper::envelope::field(again, "entropy").unwrap()
        ),
        "{name}: signOrders fills the file as the steps do"
    );
    galloper::sig::verify(
        &f.public_line(key),
        galloper::sig::ORDERS_NAMESPACE,
        again.as_bytes(),
        text(c, "again_signature"),
    )
    .unwrap_or_else(|e| panic!("{name}: signOrders' signature is good: {e}"));

    // ...and ssh-keygen and galloper accept the page's own signature.
    std::fs::write(&sig_file, signature).unwrap();
    let allowed = f.path("allowed_signers");
    std::fs::write(&allowed, format!("x {}\n", f.public_line(key))).unwrap();
    let verify = Command::new("sh")
        .arg("-c")
        .arg("ssh-keygen -Y verify -n galloper-orders -I x -f \"$1\" -s \"$2\" < \"$3\"")
        .args(["sh", allowed.to_str().unwrap(), sig_file.to_str().unwrap()])
        .arg(&file)
        .output()
        .unwrap();
    ok(&format!("{name}: ssh-keygen -Y verify"), &verify);
    galloper::sig::verify(
        &f.public_line(key),
        galloper::sig::ORDERS_NAMESPACE,
        orders.as_bytes(),
        signature,
    )
    .unwrap_or_else(|e| panic!("{name}: galloper accepts the signature: {e}"));

    // The key named as its .pub and `ssh-keygen -l` name it.
    assert_eq!(text(c, "public_line"), f.public_line(key), "{name}");
    assert_eq!(text(c, "fingerprint"), f.fingerprint(key), "{name}");
}

/// A refused case: a SignError (the page's plain words, not a crash)
/// saying `words`.
fn check_refused(result: &Value, name: &str, words: &[&str]) {
    let c = case(result, name);
    assert_eq!(c["ok"], false, "{name} is refused: {c}");
    assert_eq!(c["error_name"], "SignError", "{name}: a plain error: {c}");
    let error = text(c, "error");
    for w in words {
        assert!(error.contains(w), "{name}: the error says {w:?}: {error}");
    }
}

fn check_all(f: &Fixture, result: &Value) {
    check_signed(f, result, "plain", "plain", "");
    check_signed(f, result, "pass", "pass", "horse and musket");
    check_signed(f, result, "gcm", "gcm", "gcm pässe");
    let (plain, pass) = (f.fingerprint("plain"), f.fingerprint("pass"));
    check_refused(
        result,
        "wrong key",
        &["not the key registered for french", &plain, &pass],
    );
    check_refused(
        result,
        "wrong key, no passphrase asked",
        &["not the key registered for french", &plain, &pass],
    );
    check_refused(result, "wrong passphrase", &["the passphrase is wrong"]);
    check_refused(
        result,
        "wrong passphrase, gcm",
        &["the passphrase is wrong"],
    );
    check_refused(result, "no passphrase", &["protected by a passphrase"]);
    check_refused(result, "rsa", &["this is an RSA key", "ed25519 keys only"]);
    check_refused(result, "rsa pem", &["RSA key (PEM format)"]);
    check_refused(result, "ecdsa", &["this is an ECDSA key"]);
    check_refused(
        result,
        "public key",
        &["this is a public key (the .pub file)"],
    );
    check_refused(
        result,
        "hardware key",
        &["held on a hardware token", "cannot use it"],
    );
    let crlf = case(result, "crlf key");
    assert_eq!(
        crlf["ok"], true,
        "a key file with CRLF line ends signs: {crlf}"
    );
    galloper::sig::verify(
        &f.public_line("plain"),
        galloper::sig::ORDERS_NAMESPACE,
        text(crlf, "orders").as_bytes(),
        text(crlf, "signature"),
    )
    .unwrap_or_else(|e| panic!("the CRLF key's signature is the plain key's: {e}"));
    check_refused(result, "putty key", &["this is a PuTTY key"]);
    check_refused(result, "no key on record", &["no key on record"]);
    check_refused(
        result,
        "slow key",
        &["5000 bcrypt rounds", "ssh-keygen -p -a 16"],
    );
    check_refused(result, "cut key", &["the key file is damaged"]);
    check_refused(
        result,
        "another notice",
        &["answer another notice", OTHER_NOTICE, NOTICE],
    );

    // Two fresh entropies: 32 bytes each, in hex, never the same.
    let e = result["entropy"].as_array().unwrap();
    for v in e {
        let v = v.as_str().unwrap();
        assert!(
            v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()),
            "{v}"
        );
    }
    assert_ne!(e[0], e[1], "fresh entropy differs between two draws");
    assert_ne!(
        galloper::envelope::field(text(case(result, "plain"), "orders"), "entropy"),
        galloper::envelope::field(text(case(result, "plain"), "again_orders"), "entropy"),
        "signing the same orders twice draws new entropy"
    );

    // The page reads and writes an orders file's lines as src/envelope.rs does.
    let plan = f.plan();
    for (asked, got) in plan["fields"]
        .as_array()
        .unwrap()
        .iter()
        .zip(result["fields"].as_array().unwrap())
    {
        let (t, k, v) = (
            text(asked, "text"),
            text(asked, "key"),
            text(asked, "value"),
        );
        assert_eq!(
            text(got, "text"),
            galloper::envelope::with_field(t, k, v),
            "withField({t:?}, {k}) as with_field"
        );
        assert_eq!(
            got["field"].as_str(),
            galloper::envelope::field(t, k),
            "field({t:?}, {k}) as field"
        );
    }
}

#[test]
fn node_signs_orders_as_ssh_keygen_does() {
    let f = Fixture::new();
    let result = run(&f, false);
    check_all(&f, &result);
}

#[test]
fn chromium_signs_orders_from_file_url_as_ssh_keygen_does() {
    let f = Fixture::new();
    let result = run(&f, true);
    check_all(&f, &result);
    assert_eq!(
        result["outside"],
        json!([]),
        "no request leaves file:// while the page signs"
    );
    let ms = case(&result, "pass")["unlock_ms"].as_f64().unwrap();
    let gcm = case(&result, "gcm")["unlock_ms"].as_f64().unwrap();
    println!(
        "Chromium opened the passphrase key (bcrypt-pbkdf, 16 rounds) in {ms:.0} ms (aes256-ctr), {gcm:.0} ms (aes256-gcm)"
    );
}
