// The audit's primitives, what the orders page needs to read a
// passphrase-protected OpenSSH key (AES-256-CTR and -GCM, bcrypt-pbkdf) and
// a YAML reader, gathered as one global (`GalloperVendor`) so that a page
// opened from file:// can load them with a classic <script src>: Chromium
// does not load ES modules from file://.
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { chacha20orig } from '@noble/ciphers/chacha.js';
import { ctr, gcm } from '@noble/ciphers/aes.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { parse } from 'yaml';
import bcrypt from 'bcrypt-pbkdf';

globalThis.GalloperVendor = {
  sha256,
  sha512,
  chacha20orig,
  ed25519,
  bls12_381,
  aes256ctr: ctr,
  aes256gcm: gcm,
  // OpenSSH's bcrypt_pbkdf (the KDF of its passphrase-protected keys):
  // keylen bytes from the passphrase's bytes, the salt and the rounds.
  bcryptPbkdf: (pass, salt, keylen, rounds) => {
    const key = new Uint8Array(keylen);
    if (bcrypt.pbkdf(pass, pass.length, salt, salt.length, key, keylen, rounds) !== 0) {
      throw new Error('bcrypt_pbkdf refused its parameters');
    }
    return key;
  },
  parseYaml: (text) => parse(text, { schema: 'core', intAsBigInt: false, uniqueKeys: false }),
};
