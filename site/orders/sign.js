// Signing orders in the page (issue 32, item 4): read the player's OpenSSH
// ed25519 private key file (with its passphrase when it has one), check it is
// the side's key on record, fill in the orders file's entropy, notice and
// revision, and sign it in OpenSSH's SSHSIG framing, byte for byte what
// `ssh-keygen -Y sign -n galloper-orders -f KEY FILE` writes (ed25519 is
// deterministic). Nothing here stores the key or sends anything anywhere:
// every function takes its input and returns its result.
//
// A classic script (Chromium does not load ES modules from file://) on top
// of site/vendor/galloper-vendor.js (`GalloperVendor`): it defines one
// global, `GalloperSign`. tests/orders_sign.rs drives it in Node
// (tests/browser/sign.mjs) and in Chromium (tests/browser/sign-page.mjs).
(function () {
  'use strict';

  const V = () => {
    const v = globalThis.GalloperVendor;
    if (!v) throw new Error('the page is missing its galloper-vendor.js script');
    return v;
  };

  /** The namespace galloper's orders are signed in (src/sig/mod.rs). */
  const NAMESPACE = 'galloper-orders';
  /** More bcrypt rounds than this would keep the page busy for minutes. */
  const MAX_ROUNDS = 1000;
  /** An ed25519 key file is about 400 bytes; anything huge is not one. */
  const MAX_KEY_TEXT = 64 * 1024;

  const BEGIN = '-----BEGIN OPENSSH PRIVATE KEY-----';
  const END = '-----END OPENSSH PRIVATE KEY-----';
  const MAGIC = 'openssh-key-v1\0';

  const NEW_KEY =
    'make a key for your orders with `ssh-keygen -t ed25519 -f orders_key` and ask the game master to register orders_key.pub for your side';

  /** A problem the player can fix, worded for him. */
  class SignError extends Error {
    constructor(message) {
      super(message);
      this.name = 'SignError';
    }
  }
  const fail = (message) => {
    throw new SignError(message);
  };

  const utf8 = (s) => new TextEncoder().encode(s);

  function concat(...parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  // SSH wire encoding (RFC 4251): uint32 big-endian, string = length + bytes.
  function u32(n) {
    return new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
  }
  function sshString(bytes) {
    const b = typeof bytes === 'string' ? utf8(bytes) : bytes;
    return concat(u32(b.length), b);
  }

  /** Reads SSH wire fields; `damaged` says what to tell when the bytes run out. */
  class Reader {
    constructor(bytes, damaged) {
      this.b = bytes;
      this.at = 0;
      this.damaged = damaged;
    }
    need(n) {
      if (n > this.b.length - this.at) fail(this.damaged);
    }
    u32() {
      this.need(4);
      const b = this.b;
      const n = ((b[this.at] << 24) | (b[this.at + 1] << 16) | (b[this.at + 2] << 8) | b[this.at + 3]) >>> 0;
      this.at += 4;
      return n;
    }
    bytes(n) {
      this.need(n);
      const out = this.b.subarray(this.at, this.at + n);
      this.at += n;
      return out;
    }
    string() {
      return this.bytes(this.u32());
    }
    text() {
      return new TextDecoder().decode(this.string());
    }
    left() {
      return this.b.length - this.at;
    }
  }

  function toBase64(bytes) {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(s);
  }
  function fromBase64(text, damaged) {
    let s;
    try {
      s = atob(text.replace(/\s+/g, ''));
    } catch (_) {
      fail(damaged);
    }
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

  /** The plain words for a key type other than ed25519. */
  function otherKeyType(type) {
    if (type.startsWith('sk-')) {
      return `this key (${type}) is held on a hardware token (a security key), and a web page cannot use it: ${NEW_KEY}`;
    }
    const name = type.startsWith('ssh-rsa')
      ? 'an RSA key'
      : type.startsWith('ecdsa-')
        ? 'an ECDSA key'
        : type.startsWith('ssh-dss')
          ? 'a DSA key'
          : `a ${type} key`;
    return `this is ${name}, and galloper takes ed25519 keys only: ${NEW_KEY}`;
  }

  /**
   * Read an OpenSSH private key file, without its passphrase: its type, its
   * public key (a key file carries it in the clear, so the page can check
   * the key is the side's before asking for the passphrase) and how its
   * secret part is protected. Throws a SignError in plain words for anything
   * that is not an ed25519 OpenSSH private key.
   */
  function readKey(text) {
    if (typeof text !== 'string') fail('the key file could not be read as text: drop the private key file itself');
    if (text.length > MAX_KEY_TEXT) fail(`this file is far too large to be an ed25519 key file: ${NEW_KEY}`);
    const t = text.replace(/\r/g, '').trim();
    if (t === '') fail('the key file is empty: drop your private key file (orders_key, not orders_key.pub)');
    if (/^(ssh-|ecdsa-|sk-)\S* AAAA/.test(t)) {
      fail('this is a public key (the .pub file): drop the private key file beside it, the one with the same name without .pub');
    }
    if (t.startsWith('-----BEGIN SSH SIGNATURE-----')) fail('this is a signature, not a key: drop your private key file');
    const pem = /^-----BEGIN (RSA |DSA |EC |ENCRYPTED )?PRIVATE KEY-----/.exec(t);
    if (pem) {
      const what = { 'RSA ': 'an RSA key', 'DSA ': 'a DSA key', 'EC ': 'an ECDSA key' }[pem[1]] || 'a key in another format';
      fail(`this is ${what} (PEM format), and galloper takes OpenSSH ed25519 keys only: ${NEW_KEY}`);
    }
    if (t.startsWith('PuTTY-User-Key-File')) {
      fail(`this is a PuTTY key: export it from PuTTYgen as an OpenSSH key (Conversions, Export OpenSSH key), or ${NEW_KEY}`);
    }
    const begin = t.indexOf(BEGIN);
    const end = t.indexOf(END);
    if (begin !== 0 || end < 0) {
      fail(`this is not an OpenSSH private key file (it does not begin with ${BEGIN}): drop the key file made by ssh-keygen or galloper keygen`);
    }
    const damaged = 'the key file is damaged (its contents do not read as an OpenSSH key): drop the file exactly as ssh-keygen wrote it';
    const blob = fromBase64(t.slice(BEGIN.length, end), damaged);
    if (new TextDecoder().decode(blob.subarray(0, MAGIC.length)) !== MAGIC) fail(damaged);
    const r = new Reader(blob.subarray(MAGIC.length), damaged);
    const cipher = r.text();
    const kdf = r.text();
    const kdfOptions = r.string();
    if (r.u32() !== 1) fail('the key file holds several keys: drop a file with your one orders key');
    const publicBlob = r.string();
    const pub = new Reader(publicBlob, damaged);
    const type = pub.text();
    if (type !== 'ssh-ed25519') fail(otherKeyType(type));
    const publicKey = pub.string();
    if (publicKey.length !== 32) fail(damaged);
    const secret = r.bytes(r.u32());
    // aes256-gcm@openssh.com keeps its 16-byte tag after the secret part.
    const tag = r.bytes(r.left());
    let salt = null;
    let rounds = 0;
    if (kdf === 'bcrypt') {
      const o = new Reader(kdfOptions, damaged);
      salt = o.string();
      rounds = o.u32();
    } else if (kdf !== 'none') {
      fail(`the key's passphrase is protected by "${kdf}", which the page cannot read: ${NEW_KEY}`);
    }
    if (cipher !== 'none' && !CIPHERS[cipher]) {
      fail(`the key is encrypted with "${cipher}", which the page cannot read: change its passphrase with \`ssh-keygen -p -f KEYFILE\` (which uses aes256-ctr) and drop it again`);
    }
    if ((cipher === 'none') !== (kdf === 'none')) fail(damaged);
    return {
      type,
      publicKey,
      publicBlob,
      fingerprint: fingerprintOf(publicBlob),
      encrypted: cipher !== 'none',
      cipher,
      kdf,
      salt,
      rounds,
      secret,
      tag,
    };
  }

  // How each cipher OpenSSH may use for a key file turns the KDF's output
  // into the secret part: key and IV lengths, tag length, decryption.
  const CIPHERS = {
    'aes256-ctr': {
      keyLen: 32,
      ivLen: 16,
      block: 16,
      tagLen: 0,
      open: (key, iv, data) => V().aes256ctr(key, iv).decrypt(data),
    },
    'aes256-gcm@openssh.com': {
      keyLen: 32,
      ivLen: 12,
      block: 16,
      tagLen: 16,
      open: (key, iv, data, tag) => V().aes256gcm(key, iv).decrypt(concat(data, tag)),
    },
  };

  /** `SHA256:...` of a public key's wire form, as `ssh-keygen -l` prints it. */
  function fingerprintOf(publicBlob) {
    return 'SHA256:' + toBase64(V().sha256(publicBlob)).replace(/=+$/, '');
  }

  /**
   * The key ready to sign: its secret opened with `passphrase` (ignored when
   * the key has none). Returns { seed, publicKey, publicBlob, comment,
   * publicLine, fingerprint }. A wrong passphrase is a SignError in plain
   * words.
   */
  function unlockKey(key, passphrase) {
    let plain = key.secret;
    let block = 8;
    if (key.encrypted) {
      if (typeof passphrase !== 'string' || passphrase === '') {
        fail('this key is protected by a passphrase: type it to sign');
      }
      if (key.rounds < 1 || key.rounds > MAX_ROUNDS) {
        fail(`this key's passphrase is stretched over ${key.rounds} bcrypt rounds, which would keep the page busy for minutes: change its passphrase with \`ssh-keygen -p -a 16 -f KEYFILE\` (16 rounds) and drop it again`);
      }
      const c = CIPHERS[key.cipher];
      if (key.tag.length !== c.tagLen || key.secret.length % c.block !== 0) {
        fail('the key file is damaged (its secret part is cut short): drop the file exactly as ssh-keygen wrote it');
      }
      const k = V().bcryptPbkdf(utf8(passphrase), key.salt, c.keyLen + c.ivLen, key.rounds);
      try {
        plain = c.open(k.subarray(0, c.keyLen), k.subarray(c.keyLen), key.secret, key.tag);
      } catch (_) {
        // GCM refuses a wrong key outright, where CTR yields noise that the
        // check numbers below catch.
        plain = null;
      }
      k.fill(0);
      block = c.block;
    }
    if (plain === null) fail(WRONG_PASSPHRASE);
    try {
      return readSecret(plain, key, block);
    } finally {
      // The opened copy of an encrypted key is ours to wipe; an unencrypted
      // key's bytes are the caller's (key.secret), left as they are.
      if (key.encrypted) plain.fill(0);
    }
  }

  const WRONG_PASSPHRASE = 'the passphrase is wrong: type the passphrase of this key (the one ssh-keygen asked you to choose for it)';

  // The opened secret part: check numbers, the key, its comment, padding.
  // Returns copies, so that the caller may wipe `plain`.
  function readSecret(plain, key, block) {
    const damaged = 'the key file is damaged (its secret part does not read): drop the file exactly as ssh-keygen wrote it';
    const r = new Reader(plain, key.encrypted ? WRONG_PASSPHRASE : damaged);
    if (r.u32() !== r.u32()) fail(key.encrypted ? WRONG_PASSPHRASE : damaged);
    if (r.text() !== 'ssh-ed25519') fail(damaged);
    const publicKey = r.string();
    const both = r.string();
    const comment = r.text();
    if (plain.length % block !== 0 || both.length !== 64) fail(damaged);
    const seed = Uint8Array.from(both.subarray(0, 32));
    if (!same(publicKey, key.publicKey) || !same(both.subarray(32), publicKey) || !same(V().ed25519.getPublicKey(seed), publicKey)) {
      fail(damaged);
    }
    return {
      seed,
      publicKey: Uint8Array.from(publicKey),
      publicBlob: key.publicBlob,
      comment,
      publicLine: publicLine(key.publicBlob, comment),
      fingerprint: key.fingerprint,
    };
  }

  function same(a, b) {
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }

  /** The key's line as in its .pub file: `ssh-ed25519 AAAA... comment`. */
  function publicLine(publicBlob, comment) {
    const line = `ssh-ed25519 ${toBase64(publicBlob)}`;
    return comment ? `${line} ${comment}` : line;
  }

  /**
   * Refuse a key (as read by readKey or unlockKey) that is not the side's
   * key on record, whose fingerprint the page carries.
   */
  function requireKey(key, expectedFingerprint, side) {
    const want = String(expectedFingerprint || '').trim();
    if (want === '') fail('the page carries no key on record for your side, so it cannot check yours: ask the game master for a new page');
    if (key.fingerprint !== want) {
      const whose = side ? `the key registered for ${side}` : 'the key registered for your side';
      fail(`this is not ${whose}: this key is ${key.fingerprint}, the one on record is ${want}. Drop the key whose .pub you gave the game master (\`ssh-keygen -l -f KEYFILE\` shows a key's fingerprint)`);
    }
    return key;
  }

  /**
   * Sign `data` (bytes or text, signed as UTF-8) with an unlocked key: the
   * armored SSHSIG text `ssh-keygen -Y sign -n NAMESPACE` writes, SHA-512
   * hashed, its base64 wrapped at 70 columns, ending with a newline.
   */
  function sign(unlocked, data, namespace) {
    const ns = namespace || NAMESPACE;
    const bytes = typeof data === 'string' ? utf8(data) : data;
    const magic = utf8('SSHSIG');
    const signed = concat(magic, sshString(ns), sshString(''), sshString('sha512'), sshString(V().sha512(bytes)));
    const raw = V().ed25519.sign(signed, unlocked.seed);
    const blob = concat(
      magic,
      u32(1),
      sshString(unlocked.publicBlob),
      sshString(ns),
      sshString(''),
      sshString('sha512'),
      sshString(concat(sshString('ssh-ed25519'), sshString(raw))),
    );
    const b64 = toBase64(blob);
    const lines = [];
    for (let i = 0; i < b64.length; i += 70) lines.push(b64.slice(i, i + 70));
    return `-----BEGIN SSH SIGNATURE-----\n${lines.join('\n')}\n-----END SSH SIGNATURE-----\n`;
  }

  // The orders file's top-level lines, as src/envelope.rs's `field` and
  // `with_field` read and write them (Rust's str::lines: split at \n, a
  // \r before it dropped, no last empty line).
  function lines(text) {
    const parts = text.split('\n');
    if (parts[parts.length - 1] === '') parts.pop();
    return parts.map((l, i) => (i < parts.length - 1 || text.endsWith('\n') ? l.replace(/\r$/, '') : l));
  }

  /** The value of the first top-level `key:` line, without a comment. */
  function field(text, key) {
    const prefix = `${key}:`;
    for (const l of lines(text)) {
      if (l.startsWith(prefix)) return l.slice(prefix.length).split(' #')[0].trim();
    }
    return null;
  }

  /**
   * Replace the first top-level `key:` line with `key: value`, or add one
   * before the `orders:` line (at the top when there is none). Every line
   * ends with \n, as with_field writes them.
   */
  function withField(text, key, value) {
    const prefix = `${key}:`;
    let found = false;
    let out = '';
    for (const l of lines(text)) {
      if (!found && l.startsWith(prefix)) {
        out += `${key}: ${value}`;
        found = true;
      } else {
        if (!found && l.startsWith('orders:')) {
          out += `${key}: ${value}\n`;
          found = true;
        }
        out += l;
      }
      out += '\n';
    }
    return found ? out : `${key}: ${value}\n${out}`;
  }

  /** 32 fresh bytes from the browser's CSPRNG, hex. */
  function freshEntropy() {
    const c = globalThis.crypto;
    if (!c || typeof c.getRandomValues !== 'function') {
      fail('this browser gives the page no random numbers (crypto.getRandomValues): use a current browser, or sign with `galloper sign`');
    }
    const b = new Uint8Array(32);
    c.getRandomValues(b);
    return hex(b);
  }

  /**
   * The orders file as it is signed: fresh entropy, the step's notice (a
   * notice already in the file must be this one: a file answering another
   * step's notice is refused, as `galloper sign --notice` does) and the
   * revision the page gives (the next one for the side and step).
   */
  function fillOrders(text, { notice, revision, entropy } = {}) {
    if (typeof text !== 'string' || text.trim() === '') fail('there are no orders to sign yet');
    let out = text;
    if (notice) {
      const has = field(out, 'notice');
      if (has && has.toLowerCase() !== String(notice).toLowerCase()) {
        fail(`these orders answer another notice (${has}) than this step's (${notice}): they are for another step or an older copy of it; start from this step's orders`);
      }
      if (!has) out = withField(out, 'notice', notice);
    }
    if (revision !== undefined && revision !== null) {
      if (!Number.isInteger(revision) || revision < 1) fail(`the revision must be a whole number from 1 up, not ${revision}`);
      out = withField(out, 'revision', String(revision));
    }
    return withField(out, 'entropy', entropy || freshEntropy());
  }

  /**
   * All of item 4 in one call: read the key, refuse it unless it is the
   * side's, open it, fill in the orders and sign them. Returns { orders,
   * signature, publicLine, fingerprint }: the two files to save or share.
   */
  function signOrders({ keyText, passphrase, expectedFingerprint, side, orders, notice, revision }) {
    const key = requireKey(readKey(keyText), expectedFingerprint, side);
    const unlocked = unlockKey(key, passphrase);
    try {
      const filled = fillOrders(orders, { notice, revision });
      return {
        orders: filled,
        signature: sign(unlocked, filled, NAMESPACE),
        publicLine: unlocked.publicLine,
        fingerprint: unlocked.fingerprint,
      };
    } finally {
      // Nothing of the key outlives the call but what the page still holds
      // of the dropped file's text.
      unlocked.seed.fill(0);
    }
  }

  globalThis.GalloperSign = {
    NAMESPACE,
    SignError,
    readKey,
    unlockKey,
    requireKey,
    fingerprintOf,
    publicLine,
    sign,
    field,
    withField,
    freshEntropy,
    fillOrders,
    signOrders,
  };
})();
