// The audit's primitives and a YAML reader, gathered as one global
// (`GalloperVendor`) so that a page opened from file:// can load them with a
// classic <script src>: Chromium does not load ES modules from file://.
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { chacha20orig } from '@noble/ciphers/chacha.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { parse } from 'yaml';

globalThis.GalloperVendor = {
  sha256,
  sha512,
  chacha20orig,
  ed25519,
  bls12_381,
  parseYaml: (text) => parse(text, { schema: 'core', intAsBigInt: false, uniqueKeys: false }),
};
