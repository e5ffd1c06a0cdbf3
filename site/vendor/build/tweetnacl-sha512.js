// bcrypt-pbkdf asks tweetnacl for one function, SHA-512 in tweetnacl's
// low-level calling convention. The bundle already carries @noble/hashes'
// SHA-512, so build.mjs points `tweetnacl` here instead of bundling a second
// copy of the hash (and the rest of tweetnacl with it).
import { sha512 } from '@noble/hashes/sha2.js';

export const lowlevel = {
  // crypto_hash(out, m, n): the SHA-512 of m's first n bytes into out.
  crypto_hash(out, m, n) {
    out.set(sha512(m.subarray(0, n)));
    return 0;
  },
};
export default { lowlevel };
