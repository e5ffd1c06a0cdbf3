// What the orders page needs of the vendored packages, and nothing more:
// SHA-256 (a key's fingerprint), SHA-512 and ed25519 (the SSHSIG
// signature), AES-256-CTR and -GCM with bcrypt-pbkdf (a passphrase-
// protected OpenSSH key) and the YAML reader (an orders file loaded back).
// The same global as galloper-vendor.js (`GalloperVendor`), so that
// site/orders/sign.js runs on either; the page is mailed, so it leaves
// out the audit's BLS12-381 and ChaCha20.
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { ctr, gcm } from '@noble/ciphers/aes.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { parse } from 'yaml';
import bcrypt from 'bcrypt-pbkdf';

globalThis.GalloperVendor = {
  sha256,
  sha512,
  ed25519,
  aes256ctr: ctr,
  aes256gcm: gcm,
  bcryptPbkdf: (pass, salt, keylen, rounds) => {
    const key = new Uint8Array(keylen);
    if (bcrypt.pbkdf(pass, pass.length, salt, salt.length, key, keylen, rounds) !== 0) {
      throw new Error('bcrypt_pbkdf refused its parameters');
    }
    return key;
  },
  parseYaml: (text) => parse(text, { schema: 'core', intAsBigInt: false, uniqueKeys: false }),
};
