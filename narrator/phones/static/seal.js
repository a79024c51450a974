// The page's side of narrator/phones/crypto.py: this seat's key, sealed requests and replies.
// Why: the Wi-Fi password is shared with every player, so what a seat's phone and the narrator
// say is sealed with a key only they hold. The key is derived here from the seat's code (read
// from the QR code or typed; it never crosses the network) with scrypt (scrypt-js), and every
// request is a NaCl secretbox (tweetnacl-js) with a counter the narrator takes once. No
// cryptography is written here: only the glue. Every POST body has one size (REQUEST_SIZE).
"use strict";

const Seal = (() => {
  const KDF = { N: 16384, r: 8, p: 1, key: 32, id: 16 };  // as crypto.py: KDF_N, KDF_R, KDF_P
  const sizes = { plain: 512, request: 1024 };          // crypto.PLAIN_REQUEST, wire.REQUEST_SIZE
  const enc = new TextEncoder(), dec = new TextDecoder();

  function b64(bytes) { let s = ""; for (const b of bytes) s += String.fromCharCode(b); return btoa(s); }
  function unb64(text) { return Uint8Array.from(atob(text), (c) => c.charCodeAt(0)); }
  function hex(bytes) { return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""); }
  // A typed code as compared: case, spaces and dashes do not matter (seats.normal_code).
  function normal(code) { return code.toUpperCase().replace(/[^A-Z0-9]/g, ""); }
  function padded(obj, bucket) {
    const text = JSON.stringify(obj);
    const size = enc.encode(text).length;
    return text + " ".repeat((bucket - size % bucket) % bucket);
  }

  // The seat's key and its seat id from its code and the table's salt (crypto.derive).
  async function derive(code, salt) {
    const out = await scrypt.scrypt(enc.encode(normal(code)), unb64(salt), KDF.N, KDF.r, KDF.p, KDF.key + KDF.id);
    return { key: out.slice(0, KDF.key), id: hex(out.slice(KDF.key)) };
  }

  function seal(key, obj, bucket) {
    const nonce = nacl.randomBytes(nacl.secretbox.nonceLength);
    const box = nacl.secretbox(enc.encode(padded(obj, bucket || sizes.plain)), nonce, key);
    const out = new Uint8Array(nonce.length + box.length);
    out.set(nonce); out.set(box, nonce.length);
    return b64(out);
  }

  // What the narrator sealed for this phone, or null (forged, damaged, sealed by a phone).
  function open(key, text) {
    try {
      const raw = unb64(text), n = nacl.secretbox.nonceLength;
      const plain = nacl.secretbox.open(raw.subarray(n), raw.subarray(0, n), key);
      const obj = plain && JSON.parse(dec.decode(plain));
      return obj && obj.from === "narrator" ? obj : null;
    } catch (e) { return null; }
  }

  // The host screen's own key pair: the seat codes it shows are sealed to it.
  function hostKeys() { const k = nacl.box.keyPair(); return { pk: b64(k.publicKey), sk: b64(k.secretKey) }; }
  function openForHost(sk, serverKey, text) {
    try {
      const raw = unb64(text), n = nacl.box.nonceLength;
      const plain = nacl.box.open(raw.subarray(n), raw.subarray(0, n), unb64(serverKey), unb64(sk));
      return plain && JSON.parse(dec.decode(plain));
    } catch (e) { return null; }
  }

  // Every POST body has one size: a memo, a decoy, a join, a host's button look alike.
  function body(obj) { return padded(obj, sizes.request); }

  // The host screen's actions (app.js; the one helper a host page posts through), to one door:
  // sealed between its key pair `keys.sk` and the narrator's `serverKey` (nacl.box), with a
  // counter that only grows, kept in `keys.n` (`keep()` saves it: it survives a reload).
  // Resolves to {status, ok, body} as the narrator replied inside its sealed reply
  // (status 0: no sealed reply came back).
  // One host screen's box (its next counter, taken once): a request's, or a stream's proof.
  function hostBox(keys, serverKey, keep, to, payload) {
    keys.n = Math.max((keys.n || 0) + 1, Date.now());
    keep();
    const nonce = nacl.randomBytes(nacl.box.nonceLength);
    const plain = enc.encode(padded({ from: "host", n: keys.n, to, body: payload || {} }, sizes.plain));
    const sealed = nacl.box(plain, nonce, unb64(serverKey), unb64(keys.sk));
    const out = new Uint8Array(nonce.length + sealed.length);
    out.set(nonce); out.set(sealed, nonce.length);
    return b64(out);
  }

  async function hostRequest(door, keys, serverKey, keep, to, payload) {
    const box = hostBox(keys, serverKey, keep, to, payload), n = keys.n;
    try {
      const response = await fetch(door, { method: "POST", headers: { "Content-Type": "application/json" },
                                           body: body({ box }) });
      const inner = response.ok ? openForHost(keys.sk, serverKey, (await response.json()).box) : null;
      if (inner && inner.n === n && inner.from === "narrator") {
        return { status: inner.status, ok: inner.status >= 200 && inner.status < 300, body: inner.body };
      }
      return { status: response.ok ? 0 : response.status, ok: false, body: null };
    } catch (e) { return { status: 0, ok: false, body: null }; }
  }

  return { derive, seal, open, hostKeys, openForHost, hostBox, hostRequest, body, b64, unb64, normal, sizes };
})();
