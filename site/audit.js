// The audit of a game's archive in the browser: the same checks as
// `galloper audit` (src/game/audit/) on the files the page carries, with the
// primitives of @noble/hashes, @noble/ciphers and @noble/curves
// (galloper-vendor.js). It follows the Rust code step by step so that the
// two verdicts agree: the first thing found wrong fails, and names its step.
// What needs the rules engine (the replay of a finished game through the
// ruleset) is left to `galloper audit`, and the verdict says so.
(function () {
  'use strict';
  const V = globalThis.GalloperVendor;
  const enc = new TextEncoder();

  // ---------- bytes ----------
  const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  function unhex(s) {
    if (typeof s !== 'string' || s.length % 2 || /[^0-9a-fA-F]/.test(s)) return null;
    const out = new Uint8Array(s.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(s.substr(2 * i, 2), 16);
    return out;
  }
  // Standard base64, as galloper site writes the binary files.
  function unbase64(s) {
    let b;
    try {
      b = atob(s);
    } catch (e) {
      return null;
    }
    const out = new Uint8Array(b.length);
    for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
    return out;
  }
  function concat(...parts) {
    const bs = parts.map((p) => (typeof p === 'string' ? enc.encode(p) : p));
    const out = new Uint8Array(bs.reduce((n, b) => n + b.length, 0));
    let at = 0;
    for (const b of bs) {
      out.set(b, at);
      at += b.length;
    }
    return out;
  }
  const Z = new Uint8Array([0]);
  const sha256hex = (b) => hex(V.sha256(b));
  const eq = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

  // ---------- failures ----------
  // The step a failure's place names: its first `step-NNNN` or `step N`.
  function stepOf(place) {
    const m = /step[- ]0*(\d+)/.exec(String(place));
    return m ? Number(m[1]) : null;
  }
  class Failure extends Error {
    constructor(place, what) {
      super(`AUDIT FAILED at ${place}: ${what}`);
      this.place = place;
      this.what = what;
      this.step = stepOf(place);
    }
  }
  const fail = (place, what) => {
    throw new Failure(place, what);
  };

  // ---------- the archive the page carries ----------
  class Archive {
    constructor(data) {
      this.text = data.files || {};
      // Binary files (the maps' PNGs), as base64, come from the game's
      // files-NNNN.js, loaded by the page before its audit runs.
      this.binary = data.binary || {};
      const binary = new Set(Object.keys(this.binary).concat(data.binary_paths || []));
      this.binaryPaths = binary;
      this.paths = Object.keys(this.text).concat([...binary]).sort(byPath);
    }
    has(p) {
      return p in this.text || this.binaryPaths.has(p);
    }
    isDir(p) {
      return this.paths.some((x) => x.startsWith(p + '/'));
    }
    bytes(p) {
      if (p in this.text) return enc.encode(this.text[p]);
      if (p in this.binary) return unbase64(this.binary[p]) || fail(p, "cannot read: not base64 in the page's files script");
      if (this.binaryPaths.has(p)) return fail(p, "cannot read: the page's files script did not load");
      return fail(p, 'cannot read: No such file or directory');
    }
    textOf(p) {
      if (p in this.text) return this.text[p];
      if (this.binaryPaths.has(p)) return fail(p, 'not UTF-8 text');
      return fail(p, 'cannot read: No such file or directory');
    }
    yaml(p, what) {
      try {
        return V.parseYaml(this.textOf(p));
      } catch (e) {
        if (e instanceof Failure) throw e;
        return fail(p, `${what || 'does not parse'}: ${e.message}`);
      }
    }
  }
  // Paths compare component by component, as Rust's PathBuf does.
  function byPath(a, b) {
    const x = a.split('/');
    const y = b.split('/');
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return x.length - y.length;
  }

  // ---------- SSHSIG (the OpenSSH signature format; the curve is noble's) ----------
  function b64(s) {
    const bin = atob(s.replace(/\s+/g, ''));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  // A reader of SSH wire strings (uint32 length, then bytes).
  function wire(bytes) {
    let at = 0;
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return {
      u32() {
        if (at + 4 > bytes.length) throw new Error('truncated');
        const v = dv.getUint32(at);
        at += 4;
        return v;
      },
      string() {
        const n = this.u32();
        if (at + n > bytes.length) throw new Error('truncated');
        const s = bytes.subarray(at, at + n);
        at += n;
        return s;
      },
      raw(n) {
        if (at + n > bytes.length) throw new Error('truncated');
        const s = bytes.subarray(at, at + n);
        at += n;
        return s;
      },
      done() {
        return at === bytes.length;
      },
    };
  }
  const sshString = (b) => {
    const out = new Uint8Array(4 + b.length);
    new DataView(out.buffer).setUint32(0, b.length);
    out.set(b, 4);
    return out;
  };
  const dec = new TextDecoder();

  function publicKey(line) {
    const parts = String(line).trim().split(/\s+/);
    if (parts[0] !== 'ssh-ed25519' || !parts[1]) throw new Error('not an ssh-ed25519 public key line');
    const blob = b64(parts[1]);
    const r = wire(blob);
    if (dec.decode(r.string()) !== 'ssh-ed25519') throw new Error('the key blob is not ssh-ed25519');
    const pk = r.string();
    if (pk.length !== 32) throw new Error('an ed25519 key is 32 bytes');
    return { blob, pk };
  }
  function fingerprint(line) {
    try {
      const b = btoa(String.fromCharCode(...V.sha256(publicKey(line).blob)));
      return 'SHA256:' + b.replace(/=+$/, '');
    } catch (e) {
      return '';
    }
  }
  // Verify an armored SSHSIG over `data`, as src/sig/signature.rs does.
  function sshsigVerify(line, namespace, data, armored) {
    const key = publicKey(line);
    const text = String(armored).replace(/\r/g, '').trim();
    const m = /^-----BEGIN SSH SIGNATURE-----\n([\s\S]*?)\n-----END SSH SIGNATURE-----$/.exec(text);
    if (!m) throw new Error('it is not an armored SSH signature');
    const r = wire(b64(m[1]));
    if (dec.decode(r.raw(6)) !== 'SSHSIG') throw new Error('not an SSHSIG blob');
    if (r.u32() !== 1) throw new Error('unknown SSHSIG version');
    const signer = r.string();
    const ns = dec.decode(r.string());
    const reserved = r.string();
    const halg = dec.decode(r.string());
    const sigBlob = r.string();
    if (!r.done()) throw new Error('trailing bytes after the signature');
    if (!eq(signer, key.blob)) throw new Error('signed by another key than the registered one');
    if (ns !== namespace) throw new Error(`made in namespace ${ns}, not ${namespace}`);
    const h = halg === 'sha512' ? V.sha512 : halg === 'sha256' ? V.sha256 : null;
    if (!h) throw new Error(`unknown hash ${halg}`);
    const s = wire(sigBlob);
    if (dec.decode(s.string()) !== 'ssh-ed25519') throw new Error('not an ed25519 signature');
    const sig = s.string();
    const signed = concat(
      'SSHSIG',
      sshString(enc.encode(namespace)),
      sshString(reserved),
      sshString(enc.encode(halg)),
      sshString(h(data)),
    );
    if (!V.ed25519.verify(sig, signed, key.pk)) throw new Error('the signature does not match the data');
  }

  // ---------- the dice (docs/DICE.md) ----------
  function commit(kind, game, step, secret) {
    return V.sha256(concat(`galloper-commit-${kind}-v1`, Z, game, Z, String(step), Z, secret));
  }
  function seedOf(kind, secret, mix, beacon) {
    return beacon
      ? V.sha256(concat(`galloper-${kind}-v2`, Z, secret, mix, beacon))
      : V.sha256(concat(`galloper-${kind}-v1`, Z, secret, mix));
  }
  // The ChaCha20 keystream of a seed (nonce 0, counter from 0) as
  // little-endian 32-bit words, made in blocks as they are needed.
  class Stream {
    constructor(seed) {
      this.seed = seed;
      this.words = new Uint32Array(0);
      this.pos = 0;
    }
    word(i) {
      while (i >= this.words.length) {
        const n = Math.max(1024, this.words.length * 2);
        const ks = V.chacha20orig(this.seed, new Uint8Array(8), new Uint8Array(n * 4));
        const dv = new DataView(ks.buffer, ks.byteOffset, ks.byteLength);
        const w = new Uint32Array(n);
        for (let k = 0; k < n; k++) w[k] = dv.getUint32(4 * k, true);
        this.words = w;
      }
      return this.words[i];
    }
    // dN: words at or above floor(2^32 / N) * N are rejected.
    roll(sides) {
      const limit = Math.floor(4294967296 / sides) * sides;
      for (;;) {
        const w = this.word(this.pos++);
        if (w < limit) return (w % sides) + 1;
      }
    }
  }
  // As src/dice/audit.rs: each record starts where the last die stopped and
  // shows what the stream gives.
  function checkStream(seed, kind, records) {
    const s = new Stream(seed);
    records.forEach((r, record) => {
      if (r.stream !== kind)
        throw new Error(`record ${record} is from the ${r.stream} stream, but the ${kind} stream was checked`);
      if (!(r.sides >= 1)) throw new Error(`record ${record} claims a die of ${r.sides} sides, which cannot be rolled`);
      if (r.index !== s.pos)
        throw new Error(`record ${record} claims ${kind} word ${r.index}, but the replay is at word ${s.pos}`);
      const v = s.roll(r.sides);
      if (r.value !== v)
        throw new Error(`record ${record} (${kind} word ${r.index}, d${r.sides}) shows ${r.value}, but the stream gives ${v}`);
    });
  }

  // ---------- drand quicknet (docs/DICE.md, protocol version 2) ----------
  const QUICKNET = {
    name: 'quicknet',
    hash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
    key: '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
    genesis: 1692803367,
    period: 3,
    dst: 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_',
  };
  const roundTime = (r) => QUICKNET.genesis + (r - 1) * QUICKNET.period;
  const firstRoundAfter = (t) =>
    t < QUICKNET.genesis ? 1 : Math.floor((t - QUICKNET.genesis) / QUICKNET.period) + 2;
  const utc = (secs) => new Date(secs * 1000).toISOString().replace('.000Z', 'Z');
  function verifyRound(round, sig) {
    const msg = new Uint8Array(8);
    new DataView(msg.buffer).setBigUint64(0, BigInt(round));
    const bls = V.bls12_381.shortSignatures;
    const point = bls.hash(V.sha256(msg), QUICKNET.dst);
    if (!bls.verify(sig, point, unhex(QUICKNET.key))) throw new Error('the signature does not verify');
    return V.sha256(sig);
  }
  function auditedRound(A, sdir, listed, game, notice, place) {
    const gb = game.beacon;
    const nb = notice.beacon;
    if (!gb && !nb) {
      if ('beacon.yaml' in listed.files) fail(place, 'a beacon round in a step whose notice names none');
      return null;
    }
    if (gb && !nb) fail(place, `the game takes its dice from the ${gb.chain} beacon, but this step's notice names no round`);
    if (!gb && nb) fail(place, 'the notice names a beacon round, but game.yaml names no beacon');
    if (gb.chain !== QUICKNET.name) fail('game.yaml', `unknown beacon ${JSON.stringify(gb.chain)}`);
    if (gb.chain_hash !== QUICKNET.hash)
      fail('game.yaml', `the quicknet chain hash is ${QUICKNET.hash}, not ${gb.chain_hash}`);
    if (nb.chain !== QUICKNET.name || nb.protocol !== 2)
      fail(place, 'the notice names another beacon or protocol than game.yaml');
    const close = Date.parse(nb.orders_close);
    if (Number.isNaN(close)) fail(place, "the notice's orders_close is not a time");
    if (nb.round !== firstRoundAfter(Math.floor(close / 1000)) || nb.round_time !== utc(roundTime(nb.round)))
      fail(place, `round ${nb.round} is not the first quicknet round after the close of orders (${nb.orders_close})`);
    if (!('beacon.yaml' in listed.files)) fail(place, "the step's manifest lists no beacon.yaml");
    const file = A.yaml(`${sdir}/beacon.yaml`);
    if (file.protocol !== 2 || file.chain !== QUICKNET.name || file.round !== nb.round)
      fail(place, `beacon.yaml holds ${file.chain} round ${file.round}, the notice named ${nb.chain} round ${nb.round}`);
    const sig = unhex(file.signature);
    if (!sig) fail(place, 'beacon.yaml: the signature is not hex');
    let randomness;
    try {
      randomness = verifyRound(file.round, sig);
    } catch (e) {
      fail(place, `quicknet round ${file.round}: ${e.message}`);
    }
    if (hex(randomness) !== file.randomness)
      fail(place, 'beacon.yaml: the randomness is not the SHA-256 of the signature');
    return { round: file.round, randomness };
  }

  // ---------- the archive's checks (src/game/audit/mod.rs) ----------
  const sigOf = (p) => p + '.sig';
  function signed(A, path, key) {
    const bytes = A.bytes(path);
    const signature = A.textOf(sigOf(path));
    try {
      sshsigVerify(key, 'galloper-report', bytes, signature);
    } catch (e) {
      fail(path, `server signature refused: ${e.message}`);
    }
    return bytes;
  }
  const parseBytes = (bytes, place, what) => {
    try {
      return V.parseYaml(dec.decode(bytes));
    } catch (e) {
      return fail(place, `${what} does not parse: ${e.message}`);
    }
  };
  const join = (a, b) => (a ? `${a}/${b}` : b);
  const parent = (p) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
  function unhex32(s, place) {
    const b = unhex(s);
    if (!b || b.length !== 32) fail(place, 'not 32 bytes of hex');
    return b;
  }

  function manifest(A, rel, key, named) {
    const bytes = signed(A, join(rel, 'manifest.yaml'), key);
    const m = parseBytes(bytes, rel, 'manifest');
    if (!m || typeof m.files !== 'object') fail(rel, 'manifest does not parse: no files');
    for (const [name, h] of Object.entries(m.files)) {
      if (name.includes('/') || name.startsWith('.'))
        fail(rel, `the manifest names ${JSON.stringify(name)}, which is not a file of its folder`);
      const got = sha256hex(A.bytes(join(rel, name)));
      if (got !== h) fail(join(rel, name), `file changed after signing: sha256 ${got}, manifest says ${h}`);
      named.add(join(rel, name));
    }
    named.add(join(rel, 'manifest.yaml'));
    named.add(join(rel, 'manifest.yaml.sig'));
    return m;
  }

  // A time as RFC 3339 writes it (UTC or an offset), in whole unix
  // seconds; null when it is not one.
  function rfc3339(text) {
    const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(String(text));
    if (!m) return null;
    const t = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[8].toUpperCase()}`);
    return Number.isNaN(t) ? null : Math.floor(t / 1000);
  }

  // In a beacon step, every file a player sent was received, by the
  // server's signed word (orders.yaml's `received`), no later than the
  // notice's close of orders: none was chosen knowing the round
  // (src/game/beacon.rs, audited_receipts). The server's applied files
  // follow from public values and need none.
  function receipts(index, notice, place) {
    const b = notice && notice.beacon;
    if (!b) return;
    const close = rfc3339(b.orders_close);
    if (close == null) fail(place, "the notice's orders_close is not a time");
    for (const e of (index && index.sides) || []) {
      if (e.applied != null) continue;
      const at = e.received;
      if (at == null)
        fail(place, `orders.yaml gives no receipt time for ${e.side}'s orders: a beacon step must show that each file came before its close of orders`);
      const t = rfc3339(at);
      if (t == null) fail(place, `${e.side}'s receipt time ${JSON.stringify(String(at))} is not a time`);
      if (t > close)
        fail(place, `${e.side}'s orders were received at ${at}, after the close of orders at ${b.orders_close}: they could have been chosen knowing round ${b.round}`);
    }
  }

  function publicPart(A, sdir, listed, game, step, notice, place) {
    const reveal = A.yaml(`${sdir}/reveal.yaml`);
    const p = unhex32(reveal.public_secret, place);
    if (hex(commit('public', game.game, step, p)) !== notice.public_commitment)
      fail(place, 'the revealed public secret does not match its commitment');
    const index = A.yaml(`${sdir}/orders.yaml`);
    receipts(index, notice, place);
    const hashes = (index.sides || []).map((e) => unhex32(e.sha256, place));
    const mix = concat(...hashes);
    if (hex(mix) !== reveal.mix) fail(place, "the mix is not the orders' hashes in side order");
    const beacon = auditedRound(A, sdir, listed, game, notice, place);
    const seed = seedOf('public', p, mix, beacon && beacon.randomness);
    if (hex(seed) !== reveal.public_seed) fail(place, 'the public seed does not follow from the secret and the mix');
    const dice = A.yaml(`${sdir}/dice.yaml`) || [];
    dice.forEach((d, i) => {
      if (d.n !== i)
        fail(place, `public die ${i} is numbered ${d.n}: public dice are numbered among themselves from 0`);
    });
    try {
      checkStream(seed, 'public', dice);
    } catch (e) {
      fail(place, `public dice: ${e.message}`);
    }
    const state = A.textOf(`${sdir}/state.commitment`).trim();
    return { secret: p, mix, index, dice, state, beacon, seed };
  }

  function role(rel) {
    const parts = rel.split('/');
    const stepDir = (s) => /^step-\d{4}$/.test(s);
    const runDir = (s) => /^rollback-\d+$/.test(s);
    if (parts.length === 1 && parts[0] === 'end.yaml') return 'end';
    if (parts.length === 2 && stepDir(parts[0])) {
      if (parts[1] === 'notice.yaml') return 'notice';
      if (parts[1] === 'manifest.yaml') return 'manifest';
    }
    if (parts.length === 3 && stepDir(parts[0]) && runDir(parts[1])) {
      if (parts[2] === 'notice.yaml' || parts[2] === 'next-notice.yaml') return 'notice';
      if (parts[2] === 'manifest.yaml') return 'manifest';
      if (parts[2] === 'rollback.yaml') return 'rollback';
    }
    return null;
  }

  // src/game/audit/chain.rs: the signed links in one line from game.yaml.
  function chainLinks(A, game, gameBytes) {
    const key = game.server_key;
    const found = [{ link: { kind: 'game' }, path: 'game.yaml', hash: sha256hex(gameBytes), follows: null }];
    for (const rel of A.paths) {
      const kind = role(rel);
      if (!kind) continue;
      const bytes = signed(A, rel, key);
      let link;
      let follows;
      if (kind === 'notice') {
        const n = parseBytes(bytes, rel, 'the notice');
        link = { kind, path: rel, notice: n };
        follows = n.follows;
      } else if (kind === 'manifest') {
        const m = parseBytes(bytes, rel, 'the manifest');
        follows = m && m.files && m.files['notice.yaml'];
        if (!follows) fail(rel, 'the manifest names no notice.yaml: it is outside the chain');
        link = { kind, folder: parent(rel) };
      } else if (kind === 'rollback') {
        const r = parseBytes(bytes, rel, 'rollback.yaml');
        link = { kind, folder: parent(rel), note: r };
        follows = r.follows;
      } else {
        const e = parseBytes(bytes, rel, 'end.yaml');
        link = { kind, end: e };
        follows = e.last_link;
      }
      found.push({ link, path: rel, hash: sha256hex(bytes), follows });
    }
    const byHash = new Map();
    found.forEach((f, i) => {
      if (byHash.has(f.hash)) fail(f.path, `the same link as ${found[byHash.get(f.hash)].path}: a copy`);
      byHash.set(f.hash, i);
    });
    const next = new Map();
    found.forEach((f, i) => {
      if (f.follows == null) return;
      const p = byHash.get(f.follows);
      if (p === undefined)
        fail(f.path, `follows the signed file with SHA-256 ${f.follows}, which is not in the archive: a piece of the game was removed or replaced`);
      if (next.has(p))
        fail(f.path, `follows ${found[p].path}, as ${found[next.get(p)].path} does: the game's chain forks (a piece was added or kept twice)`);
      next.set(p, i);
    });
    const line = [0];
    while (next.has(line[line.length - 1])) line.push(next.get(line[line.length - 1]));
    if (line.length !== found.length) {
      const off = found.filter((_, i) => !line.includes(i)).map((f) => f.path);
      fail(off.join(', '), "not on the game's chain from game.yaml");
    }
    const files = new Set();
    for (const f of found) {
      files.add(f.path);
      files.add(sigOf(f.path));
    }
    return { links: line.map((i) => found[i].link), files };
  }
  function describe(link) {
    switch (link.kind) {
      case 'game':
        return 'game.yaml';
      case 'notice':
        return link.path;
      case 'manifest':
        return join(link.folder, 'manifest.yaml');
      case 'rollback':
        return join(link.folder, 'rollback.yaml');
      default:
        return 'end.yaml';
    }
  }
  const pad4 = (n) => String(n).padStart(4, '0');
  function noticeInPlace(path, n) {
    const parts = path.split('/');
    const step = `step-${pad4(n.step)}`;
    const before = `step-${pad4(Math.max(0, n.step - 1))}`;
    if (parts.length === 2 && parts[1] === 'notice.yaml') return parts[0] === step;
    if (parts.length === 3 && parts[2] === 'notice.yaml') return parts[0] === step && parts[1] === `rollback-${n.run}`;
    if (parts.length === 3 && parts[2] === 'next-notice.yaml') return parts[0] === before;
    return false;
  }
  function stateCommitment(game, step, salt, state) {
    return sha256hex(concat('galloper-state-v1', Z, game, Z, String(step), Z, salt, state));
  }

  function scenarioCommitment(game, salt, scenario) {
    return sha256hex(concat('galloper-scenario-v1', Z, game, Z, salt, scenario));
  }

  // start: the commitment to the start state, or null for a hidden
  // scenario, whose first notice gives it (checked once sealed/start/ opens).
  function walkChain(A, game, start, links, named, v) {
    const w = { startCommitment: start, current: new Map(), undone: [], lastResolved: 0, open: null, end: null };
    const after = new Map(start == null ? [] : [[0, start]]);
    const rollbacks = new Map();
    let open = null;
    let prev = links[0];
    for (const link of links.slice(1)) {
      const place = describe(link);
      if (w.end) fail(place, "comes after the game's signed end");
      if (link.kind === 'game') fail(place, 'a second game.yaml on the chain');
      if (link.kind === 'notice') {
        const n = link.notice;
        let expected;
        if (prev.kind === 'game') expected = 1;
        else if (prev.kind === 'manifest') expected = w.lastResolved + 1;
        else if (prev.kind === 'rollback') expected = prev.note.step;
        else fail(place, 'a notice must follow game.yaml, a manifest or a rollback note');
        const run = (rollbacks.get(n.step) || 0) + 1;
        if (n.game !== game.game || n.step !== expected || n.run !== run)
          fail(place, `the notice names game ${n.game} step ${n.step} run ${n.run}, where the chain expects game ${game.game} step ${expected} run ${run}`);
        if (!noticeInPlace(link.path, n))
          fail(place, "the notice is not in its step's folder: folders were renamed or swapped");
        if (n.step === 1 && !after.has(0)) {
          after.set(0, n.state_before_commitment);
          w.startCommitment = n.state_before_commitment;
        }
        if (after.get(n.step - 1) !== n.state_before_commitment)
          fail(place, 'the state this step starts from is not the state the last step ended with');
        open = { path: link.path, notice: n, hash: sha256hex(A.bytes(link.path)) };
        w.open = n.step;
      } else if (link.kind === 'manifest') {
        if (!open) fail(place, 'a manifest with no open step before it');
        const { path: npath, notice, hash: noticeSha256 } = open;
        open = null;
        if (parent(npath) !== link.folder) fail(place, "the manifest is not in its notice's folder");
        const step = notice.step;
        const rolled = link.folder.includes('/');
        const splace = rolled ? `step ${step} rolled-back run ${notice.run}` : `step ${step}`;
        const listed = manifest(A, link.folder, game.server_key, named);
        const pub = publicPart(A, link.folder, listed, game, step, notice, splace);
        after.set(step, pub.state);
        v.publicDice += pub.dice.length;
        w.current.set(step, { step, run: notice.run, dir: link.folder, notice, noticeSha256, pub });
        w.lastResolved = step;
        w.open = null;
        if (!rolled) {
          const beacon = pub.beacon ? `; beacon round ${pub.beacon.round} verified and mixed in` : '';
          v.line(step, `step ${step}: signatures, commitment, seed and ${pub.dice.length} public dice check${beacon}`);
        }
      } else if (link.kind === 'rollback') {
        const r = link.note;
        if (!open) fail(place, 'a rollback with no open step before it');
        const { path: npath, notice } = open;
        open = null;
        const run = (rollbacks.get(r.step) || 0) + 1;
        const expectedDir = `step-${pad4(r.step)}/rollback-${run}`;
        if (r.manifest_sha256 === '') {
          // A beacon step whose orders closed unanswered, opened again:
          // the note withdraws the run's own notice, and no die of it exists.
          if (r.game !== game.game || notice.step !== r.step || notice.run !== run || r.run !== run ||
              link.folder !== expectedDir || npath !== join(link.folder, 'notice.yaml') || notice.beacon == null)
            fail(place, `a note withdrawing an unresolved run names game ${r.game} step ${r.step} run ${r.run}, where the chain expects game ${game.game} step ${notice.step} run ${run} of a beacon step in ${expectedDir}`);
          v.line(r.step, `step ${r.step}: run ${run} was opened again unresolved (${r.reason}); it rolled no dice`);
          rollbacks.set(r.step, run);
          w.open = null;
          prev = link;
          continue;
        }
        if (r.game !== game.game || r.step !== w.lastResolved || r.run !== run || link.folder !== expectedDir ||
            notice.step !== r.step + 1 || npath !== join(link.folder, 'next-notice.yaml'))
          fail(place, `rollback.yaml names game ${r.game} step ${r.step} run ${r.run}, where the chain expects game ${game.game} step ${w.lastResolved} run ${run} in ${expectedDir}`);
        const undone = w.current.get(r.step);
        if (!undone) fail(place, 'the rolled-back run is not on the chain');
        w.current.delete(r.step);
        const m = sha256hex(A.bytes(join(undone.dir, 'manifest.yaml')));
        if (undone.dir !== link.folder || m !== r.manifest_sha256)
          fail(place, "the rolled-back run's manifest is not the one this note names");
        v.line(r.step, `step ${r.step}: run ${run} was rolled back (${r.reason}); its signatures, commitment, seed and ${undone.pub.dice.length} public dice check`);
        w.undone.push(undone);
        rollbacks.set(r.step, run);
        for (const s of [...after.keys()]) if (s >= r.step) after.delete(s);
        w.lastResolved = r.step - 1;
        w.open = null;
      } else if (link.kind === 'end') {
        if (link.end.game !== game.game) fail(place, 'end.yaml names another game');
        w.end = link.end;
      }
      prev = link;
    }
    v.steps = w.lastResolved;
    return w;
  }

  function keyHistory(A, game, named) {
    const out = [];
    for (let n = 1; ; n++) {
      const rel = `keys/change-${String(n).padStart(3, '0')}.yaml`;
      if (!A.has(rel)) break;
      const change = parseBytes(signed(A, rel, game.server_key), rel, 'the key change');
      if (change.game !== game.game) fail(rel, 'names another game');
      named.add(sigOf(rel));
      named.add(rel);
      out.push(change);
    }
    return out;
  }
  function keyAt(game, keys, side, step) {
    for (let i = keys.length - 1; i >= 0; i--) {
      if (keys[i].side === side && keys[i].from_step <= step) return keys[i].key;
    }
    return (game.players || {})[side];
  }

  // src/game/audit/sealed.rs, less the replay through the ruleset.
  function hiddenPart(A, sd, game, run, splace) {
    const hidden = A.yaml(`${sd}/hidden.yaml`);
    const h = unhex32(hidden.hidden_secret, splace);
    if (hex(commit('hidden', game.game, run.step, h)) !== run.notice.hidden_commitment)
      fail(splace, 'the revealed hidden secret does not match its commitment');
    const seed = seedOf('hidden', h, run.pub.mix, run.pub.beacon && run.pub.beacon.randomness);
    if (hex(seed) !== hidden.hidden_seed) fail(splace, 'the hidden seed does not follow from the secret and the mix');
    const salt = V.sha256(concat('galloper-state-salt-v1', Z, game.game, Z, String(run.step), Z, h));
    if (hex(salt) !== hidden.state_salt) fail(splace, 'the state salt does not follow from the hidden secret');
    if (stateCommitment(game.game, run.step, salt, A.bytes(`${sd}/state.yaml`)) !== run.pub.state)
      fail(splace, 'the sealed state is not the one the published state commitment names');
    let full;
    try {
      full = V.parseYaml(A.textOf(`${sd}/dice.yaml`)) || [];
    } catch (e) {
      if (e instanceof Failure) throw e;
      fail(splace, `dice.yaml does not parse: ${e.message}`);
    }
    const pub = full.filter((d) => d.stream === 'public');
    const same = pub.length === run.pub.dice.length &&
      pub.every((d, i) => {
        const p = run.pub.dice[i];
        return p.n === i && d.index === p.index && d.sides === p.sides && d.value === p.value && d.purpose === p.purpose;
      });
    if (!same) fail(splace, "the full dice log's public dice are not the ones published");
    const hiddenDice = full.filter((d) => d.stream === 'hidden');
    try {
      checkStream(seed, 'hidden', hiddenDice);
    } catch (e) {
      fail(splace, `hidden dice: ${e.message}`);
    }
    return { h, hiddenDice: hiddenDice.length };
  }

  // A hidden scenario opened at the end: the one game.yaml committed to,
  // and its start the one the first notice committed to. (That the public
  // part and the start state are what the rules make of it is galloper
  // audit's to say, as the replay is.)
  const archiveStart = 'sealed/start';
  function sealedStart(A, game, start, w, named) {
    if (!A.isDir(archiveStart))
      fail(archiveStart, 'missing: game.yaml commits to a hidden scenario, which must be opened here when the game ends');
    manifest(A, archiveStart, game.server_key, named);
    const reveal = parseBytes(A.bytes(`${archiveStart}/salt.yaml`), `${archiveStart}/salt.yaml`, 'salt');
    const salt = unhex32(reveal && reveal.salt, `${archiveStart}/salt.yaml`);
    if (scenarioCommitment(game.game, salt, A.bytes(`${archiveStart}/scenario.yaml`)) !== game.sealed_scenario)
      fail(`${archiveStart}/scenario.yaml`, 'is not the scenario game.yaml committed to');
    if (stateCommitment(game.game, 0, salt, start) !== w.startCommitment)
      fail('step 1', 'the state the first notice committed to is not the start of the scenario opened in sealed/start/');
  }

  // ---------- sealed orders files (src/game/audit/orders.rs) ----------
  // JSON read with its numbers as written, to be written again as
  // docs/DICE.md ("Applied orders") writes J: null when it is not JSON.
  function jsonTree(text) {
    let at = 0;
    const ws = () => {
      while (at < text.length && ' \t\n\r'.includes(text[at])) at++;
    };
    const value = () => {
      ws();
      const c = text[at];
      if (c === '{') {
        at++;
        const entries = [];
        ws();
        if (text[at] === '}') {
          at++;
          return { t: 'obj', entries };
        }
        for (;;) {
          ws();
          if (text[at] !== '"') throw new Error('a key');
          const k = string();
          ws();
          if (text[at++] !== ':') throw new Error('a colon');
          entries.push([k, value()]);
          ws();
          const d = text[at++];
          if (d === '}') return { t: 'obj', entries };
          if (d !== ',') throw new Error('a comma');
        }
      }
      if (c === '[') {
        at++;
        const items = [];
        ws();
        if (text[at] === ']') {
          at++;
          return { t: 'arr', items };
        }
        for (;;) {
          items.push(value());
          ws();
          const d = text[at++];
          if (d === ']') return { t: 'arr', items };
          if (d !== ',') throw new Error('a comma');
        }
      }
      if (c === '"') return { t: 'str', v: string() };
      const lit = /^(true|false|null)/.exec(text.slice(at));
      if (lit) {
        at += lit[1].length;
        return { t: 'lit', v: lit[1] };
      }
      const num = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
      if (num && num[0]) {
        at += num[0].length;
        return { t: 'num', lex: num[0], int: !num[2] && !num[3] };
      }
      throw new Error('a value');
    };
    const string = () => {
      const m = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(text.slice(at));
      if (!m) throw new Error('a string');
      at += m[0].length;
      return JSON.parse(m[0]);
    };
    try {
      const v = value();
      ws();
      return at === text.length ? v : null;
    } catch (e) {
      return null;
    }
  }
  // A float as Python's repr writes it (docs/DICE.md, "Applied orders"):
  // shortest digits, plain from 1e-4 up to below 1e16 (`12.0`, `0.0001`),
  // else `1e+16`, `1.5e-07` (tests/site_orders.rs holds it to the server).
  function floatText(x) {
    if (!Number.isFinite(x)) return null;
    if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
    const sign = x < 0 ? '-' : '';
    const [mant, e] = Math.abs(x).toExponential().split('e');
    const exp = Number(e);
    if (exp < -4 || exp >= 16) {
      const a = Math.abs(exp);
      return `${sign}${mant}e${exp < 0 ? '-' : '+'}${a < 10 ? '0' : ''}${a}`;
    }
    const digits = mant.replace('.', '');
    const point = exp + 1;
    if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
    if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const byCodePoint = (a, b) => {
    const x = enc.encode(a);
    const y = enc.encode(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  };
  // J: one line, keys sorted by code point, `, ` and `: `, non-ASCII as is.
  function jsonLine(tree) {
    switch (tree.t) {
      case 'obj':
        return `{${[...tree.entries].sort((a, b) => byCodePoint(a[0], b[0])).map(([k, v]) => `${JSON.stringify(k)}: ${jsonLine(v)}`).join(', ')}}`;
      case 'arr':
        return `[${tree.items.map(jsonLine).join(', ')}]`;
      case 'str':
        return JSON.stringify(tree.v);
      case 'lit':
        return tree.v;
      default: {
        if (tree.int) {
          const b = BigInt(tree.lex);
          if (b >= -(2n ** 63n) && b < 2n ** 64n) return b.toString();
        }
        return floatText(Number(tree.lex));
      }
    }
  }
  // A parsed YAML value as a tree for jsonLine. The YAML reader does not
  // tell 12 from 12.0, so a whole float is written 12 here (only in the
  // words of a failure: the checks compare values).
  function treeOf(v) {
    if (v === null || v === undefined) return { t: 'lit', v: 'null' };
    if (typeof v === 'boolean') return { t: 'lit', v: String(v) };
    if (typeof v === 'number') return { t: 'num', lex: String(v), int: Number.isInteger(v) };
    if (typeof v === 'string') return { t: 'str', v };
    if (Array.isArray(v)) return { t: 'arr', items: v.map(treeOf) };
    if (v instanceof Map) return { t: 'obj', entries: [...v].map(([k, x]) => [String(k), treeOf(x)]) };
    return { t: 'obj', entries: Object.entries(v).map(([k, x]) => [k, treeOf(x)]) };
  }
  // Two orders values alike as JSON values.
  function sameValue(a, b) {
    if (a === b) return true;
    if (a == null || b == null || typeof a !== 'object' || typeof b !== 'object') return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue(a[k], b[k]));
  }
  function appliedEntropy(game, step, side, notice) {
    return sha256hex(concat('galloper-applied-v1', Z, game, Z, String(step), Z, side, Z, notice));
  }
  const APPLIED_HEAD = '# galloper applied orders: ';
  // The applied file docs/DICE.md builds from public values and J.
  function appliedText(game, step, side, notice, policy, j) {
    return `${APPLIED_HEAD}${policy}\ngalloper: 1\ngame: ${game}\nstep: ${step}\nside: ${side}\nnotice: ${notice}\nrevision: 0\nentropy: ${appliedEntropy(game, step, side, notice)}\norders: ${j}\n`;
  }

  // One sealed orders file of `run` (f: { place, text: its bytes, entry:
  // its orders.yaml entry }): it answers the notice of the run it was mixed
  // into, with a revision the rules for revisions allow; a file the server
  // applied is the one docs/DICE.md builds, under a policy the notice
  // allows. `standing` keeps each side's own latest orders, for the steps
  // after. What needs the rules (that standing orders still pass them, and
  // the default orders' value) is galloper audit's.
  function sealedOrders(f, game, run, standing) {
    const textOf = dec.decode(f.text);
    let env;
    try {
      env = V.parseYaml(textOf);
    } catch (e) {
      fail(f.place, `does not parse: ${e.message}`);
    }
    if (!env || typeof env !== 'object') fail(f.place, 'does not parse: not an orders file');
    const side = f.entry.side;
    if (String(env.game) !== game.game || env.step !== run.step || String(env.side) !== side)
      fail(f.place, `names game ${env.game} step ${env.step} side ${env.side}, where it was mixed into game ${game.game} step ${run.step} for ${side}`);
    const named = env.notice == null ? null : String(env.notice).trim();
    if (named == null || named.toLowerCase() !== run.noticeSha256.toLowerCase())
      fail(f.place, `answers notice ${named == null ? '(none)' : named}, but it was mixed into run ${run.run} of step ${run.step}, whose notice is ${run.noticeSha256}: orders must be written after the commitments they meet`);
    const r = env.revision;
    if (r != null && !(Number.isInteger(r) && r >= 0 && r <= 4294967295))
      fail(f.place, `does not parse: revision ${JSON.stringify(r)} is not a whole number`);
    const rev = r == null ? 'none' : String(r);
    if (f.entry.applied != null) {
      if (r !== 0) fail(f.place, `orders the server applied carry revision 0, not ${rev}`);
      appliedOrders(f, textOf, game, run, env.orders, standing);
    } else {
      if (!(r >= 1)) fail(f.place, `a player's orders carry a revision of 1 or more, not ${rev}: revision 0 is the server's`);
      standing.set(side, env.orders);
    }
  }
  function appliedOrders(f, textOf, game, run, body, standing) {
    const first = textOf.split('\n')[0].replace(/\r$/, '');
    const policy = first.startsWith(APPLIED_HEAD) ? first.slice(APPLIED_HEAD.length) : null;
    if (policy !== 'default' && policy !== 'standing')
      fail(f.place, `an applied file starts \`${APPLIED_HEAD}default\` or \`${APPLIED_HEAD}standing\``);
    const missed = run.notice.missed == null ? null : String(run.notice.missed);
    if (missed == null || missed === 'wait')
      fail(f.place, `the server applied orders in a step whose notice names ${missed == null ? 'no rule for missed orders' : `the rule \`${missed}\``}: it may apply none`);
    if (missed === 'default' && policy === 'standing')
      fail(f.place, 'standing orders applied in a step whose notice names the rule `default`');
    // J, read as JSON and written again, is the same line, and the whole
    // file the nine lines DICE.md gives.
    const last = textOf.replace(/\n$/, '').split('\n').pop();
    const tree = last.startsWith('orders: ') ? jsonTree(last.slice('orders: '.length)) : null;
    const j = tree ? jsonLine(tree) : null;
    if (j == null || textOf !== appliedText(game.game, run.step, f.entry.side, run.noticeSha256, policy, j))
      fail(f.place, 'is not the applied file docs/DICE.md builds from its policy, notice and orders: the server wrote bytes of its own choosing');
    if (policy === 'standing') {
      if (!standing.has(f.entry.side))
        fail(f.place, 'standing orders applied, but the side has no earlier orders of its own that the rules still take');
      const own = standing.get(f.entry.side);
      if (!sameValue(own, body))
        fail(f.place, `the applied orders are not the standing orders the rules give: orders: ${jsonLine(treeOf(own))}`);
    }
  }

  function sealedCheck(A, game, keys, w, named, v) {
    const standing = new Map();
    const inForce = [...w.current].sort((a, b) => a[0] - b[0]);
    for (const [step, run] of inForce) {
      const rel = `sealed/step-${pad4(step)}`;
      const splace = `sealed step ${step}`;
      manifest(A, rel, game.server_key, named);
      const hp = hiddenPart(A, rel, game, run, splace);
      let applied = '';
      for (const e of run.pub.index.sides || []) {
        const name = `orders-${e.side}.yaml`;
        const text = A.bytes(`${rel}/${name}`);
        if (sha256hex(text) !== e.sha256)
          fail(`${splace}: ${name}`, 'the orders are not the ones whose hash was published');
        const key = e.applied ? game.server_key : keyAt(game, keys, e.side, step);
        if (!key) fail(splace, `no key for side ${e.side}`);
        try {
          sshsigVerify(key, e.applied ? 'galloper-applied' : 'galloper-orders', text, e.signature);
        } catch (err) {
          fail(`${splace}: ${name}`, `${e.applied ? 'server' : 'player'} signature refused: ${err.message}`);
        }
        sealedOrders({ place: `${splace}: ${name}`, text, entry: e }, game, run, standing);
        if (e.applied) applied += `; ${e.side} orders applied by the server (${e.applied})`;
      }
      v.line(step, `step ${step}: hidden secret, state commitment, ${hp.hiddenDice} hidden dice and ${(run.pub.index.sides || []).length} signed orders match${applied}`);
    }
    for (const run of w.undone) {
      const rel = `sealed/step-${pad4(run.step)}/rollback-${run.run}`;
      const splace = `sealed step ${run.step} rolled-back run ${run.run}`;
      manifest(A, rel, game.server_key, named);
      hiddenPart(A, rel, game, run, splace);
      v.line(run.step, `step ${run.step}: rolled-back run ${run.run}: its hidden secret, hidden dice and state commitment check`);
    }
  }

  // The server key's fingerprint the site's maker pinned, or null.
  function pinnedKey(data) {
    const p = data.built && data.built.pinned;
    return typeof p === 'string' && p ? p.trim() : null;
  }

  // The whole audit: a verdict with a line per step, or the first failure.
  function audit(data) {
    const A = new Archive(data);
    const v = {
      lines: [],
      steps: 0,
      publicDice: 0,
      over: null,
      open: null,
      line(step, text) {
        this.lines.push({ step, text });
      },
    };
    const named = new Set();
    const gameBytes = A.bytes('game.yaml');
    const game = parseBytes(gameBytes, 'game.yaml', 'game.yaml');
    const fp = fingerprint(game.server_key);
    // The key the site's maker pinned (galloper site --server-key), as
    // `galloper audit --server-key` does.
    const pin = pinnedKey(data);
    if (pin != null && (!fp || fp !== pin))
      fail('game.yaml', `the archive is signed by server key ${fp}, not by the pinned key ${pin}: it is not the server you trust`);
    signed(A, 'game.yaml', game.server_key);
    v.line(null, `game ${game.game} (${game.ruleset}), server key ${fp}${pin != null ? ': the pinned key' : ': compare it with the one the server publishes'}`);
    const scenario = A.bytes('scenario.yaml');
    if (sha256hex(scenario) !== game.scenario_sha256) fail('scenario.yaml', 'does not match the hash in game.yaml');
    ['game.yaml', 'game.yaml.sig', 'scenario.yaml'].forEach((p) => named.add(p));
    const keys = keyHistory(A, game, named);
    const chain = chainLinks(A, game, gameBytes);
    chain.files.forEach((p) => named.add(p));
    // The state before step 1 is the ruleset's making from the scenario:
    // galloper site puts it in the page (src/site/start.rs). A scenario
    // with hidden troops is public only in part: its start is known once
    // the game ends and sealed/start/ opens the whole.
    const hidden = game.sealed_scenario != null;
    const sealed = A.isDir('sealed');
    if (hidden) v.line(null, 'scenario: its hidden part is committed with a salt in game.yaml, opened in sealed/start/ when the game ends');
    if (typeof data.start_state !== 'string' && (!hidden || sealed))
      fail(hidden ? archiveStart : 'scenario.yaml', `the page carries no start state: ruleset ${game.ruleset} is unknown to the galloper that made it, or its scenario does not start`);
    const startCommitment = hidden ? null : stateCommitment(game.game, 0, new Uint8Array(32), enc.encode(data.start_state));
    const w = walkChain(A, game, startCommitment, chain.links, named, v);
    if (w.end) {
      if (w.end.last_step !== w.lastResolved)
        fail('end.yaml', `names step ${w.end.last_step} as the last resolved, but the chain's is step ${w.lastResolved}`);
      if (w.end.key_changes !== keys.length)
        fail('end.yaml', `names ${w.end.key_changes} key change(s), but keys/ holds ${keys.length}`);
      if (!sealed) fail('sealed/', "missing: the game's signed end says it is over, and its secrets must be sealed here");
      v.over = w.end.outcome;
    } else {
      if (sealed) fail('end.yaml', "missing, but sealed/ is there: the game's signed end was removed");
      if (w.open != null) {
        v.open = w.open;
        v.line(w.open, `step ${w.open}: open; commitments published, nothing to reveal yet`);
      } else {
        fail(`step ${w.lastResolved}`, "the chain ends after this step with neither the next step's notice nor a signed end.yaml: the archive is cut");
      }
    }
    if (sealed && hidden) sealedStart(A, game, enc.encode(data.start_state), w, named);
    if (sealed) sealedCheck(A, game, keys, w, named, v);
    if (w.lastResolved === 0 && w.undone.length === 0 && v.over == null) fail('.', 'no resolved step in this archive');
    const unnamed = A.paths.filter((p) => !named.has(p));
    if (unnamed.length)
      fail(unnamed.join(', '), 'no signed file of the archive names this: added to the archive (or left by a crash)');
    const keyWords = pin != null
      ? 'signed by the pinned server key'
      : "server key not pinned (compare the fingerprint above with the server's)";
    v.summary = v.over != null
      ? `AUDIT PASSED: the game is over (${v.over}); ${v.steps} step(s), ${v.publicDice} public dice re-derived, every hidden secret, hidden die and signed order checked (the start state from the scenario and the replay through the rules are galloper audit's); ${keyWords}`
      : `AUDIT PASSED SO FAR: a game in progress, not over: ${v.steps} step(s) resolved${v.open != null ? `, step ${v.open} open` : ''}, ${v.publicDice} public dice re-derived; hidden dice and orders stay sealed until a signed end; ${keyWords}`;
    return v;
  }

  // The archive whole, for the audit, from what the page carries itself
  // (the game's own files) and its steps' scripts (`GalloperStep`'s) and
  // files scripts (`GalloperFiles`'s), as galloper site splits it.
  function assemble(data, steps, binaries) {
    const files = Object.assign({}, data.files || {});
    const binaryPaths = (data.binary_paths || []).slice();
    for (const d of steps) {
      Object.assign(files, d.files || {});
      binaryPaths.push(...(d.binary_paths || []));
    }
    const binary = Object.assign({}, ...binaries);
    return Object.assign({}, data, { files, binary, binary_paths: binaryPaths });
  }

  // The verdict when some of the page's own files did not load: the audit
  // cannot run on a part of the archive.
  function notLoaded(scripts, step) {
    const failure = {
      place: step == null ? scripts[0] : `step ${step}`,
      what: `the page's file${scripts.length > 1 ? 's' : ''} ${scripts.join(', ')} did not load: put the whole site where this page is, and audit again`,
      step: step == null ? null : step,
    };
    failure.message = `AUDIT FAILED at ${failure.place}: ${failure.what}`;
    return { passed: false, summary: failure.message, lines: [], failure };
  }

  // Run the audit, never throwing: { passed, summary, lines, failure }.
  function run(data) {
    try {
      const v = audit(data);
      return { passed: true, over: v.over != null, summary: v.summary, lines: v.lines, failure: null };
    } catch (e) {
      const failure = e instanceof Failure
        ? { place: e.place, what: e.what, step: e.step, message: e.message }
        : { place: '?', what: String(e && e.stack || e), step: null, message: `AUDIT FAILED: ${e}` };
      return { passed: false, summary: failure.message, lines: [], failure };
    }
  }

  globalThis.GalloperAudit = { run, assemble, notLoaded, stepOf, receipts, sealedOrders, jsonTree, jsonLine, floatText, appliedText, appliedEntropy, checkStream, seedOf, commit, sshsigVerify, fingerprint, Stream, hex, unhex, verifyRound };
})();
