// Several devices at one table with no server (issue 32): the WebRTC data channels between the
// host (the device that runs the game) and each guest (one seat each), the pairing codes they
// swap as QR codes or text, and the camera that reads them. No rule and no check of a move
// lives here: the host's Python judges every code and message (engine/core/devices.py).
//
// A code is the description of one end of the connection once every local address is known
// (no ICE server: only this network's addresses), with the game, the table's token and the
// seat: JSON, compressed by the browser (deflate-raw), in base64url.

const CHANNEL = "gamebook";
// how long a connection may take before it is judged impossible (different networks, a guest
// Wi-Fi that keeps devices apart): ICE says « failed » by itself, this is the longest wait
export const CONNECT_TIMEOUT_MS = 10000;

const toB64 = (bytes) => {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const fromB64 = (text) => {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
};

async function through(stream, bytes) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

// the longest code read (a real one is well under 2,000 characters)
export const MAX_CODE = 8000;

export async function encodeCode(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return toB64(await through(new CompressionStream("deflate-raw"), bytes));
}

// The JSON text a code carries, or null when it is not a code (the host's Python judges it).
export async function decodeCode(code) {
  const text = String(code || "").trim();
  if (!text || text.length > MAX_CODE || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const bytes = await through(new DecompressionStream("deflate-raw"), fromB64(text));
    if (bytes.length > 4 * MAX_CODE) return null;
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (err) {
    return null;
  }
}

// A session description cut to what differs between two connections (the ICE credentials,
// the certificate's fingerprint, the DTLS role, the addresses), so that the code fits a QR code
// a phone reads at arm's length; `grow` writes the rest back as every browser writes it for
// one data channel.
const KEPT = ["a=ice-ufrag:", "a=ice-pwd:", "a=fingerprint:", "a=setup:", "a=candidate:"];

export function shrink(sdp) {
  const out = [];
  for (const line of sdp.split(/\r?\n/)) {
    if (!KEPT.some((k) => line.startsWith(k))) continue;
    if (line.startsWith("a=fingerprint:sha-256 ")) {
      const hex = line.slice(22).replace(/:/g, "");
      out.push(`f${toB64(Uint8Array.from(hex.match(/../g), (b) => parseInt(b, 16)))}`);
    } else if (line.startsWith("a=candidate:")) {
      out.push(`c${line.slice(12).replace(/ generation \d+| network-id \d+| network-cost \d+/g, "")}`);
    } else {
      out.push(line.slice(2));
    }
  }
  return out.join("\n");
}

export function grow(short) {
  const lines = String(short).split("\n");
  const pick = (prefix) => lines.filter((l) => l.startsWith(prefix));
  const fp = pick("f").map((l) => [...fromB64(l.slice(1))].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":"));
  const sdp = [
    "v=0", `o=- ${Date.now()}${Math.floor(Math.random() * 1e6)} 2 IN IP4 127.0.0.1`, "s=-", "t=0 0",
    "a=group:BUNDLE 0", "a=extmap-allow-mixed", "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
    ...pick("c").map((l) => `a=candidate:${l.slice(1)}`),
    ...pick("ice-ufrag:").map((l) => `a=${l}`), ...pick("ice-pwd:").map((l) => `a=${l}`),
    ...fp.map((f) => `a=fingerprint:sha-256 ${f}`), ...pick("setup:").map((l) => `a=${l}`),
    "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144",
  ];
  return `${sdp.join("\r\n")}\r\n`;
}

// Every local address gathered (no trickle: the code carries them all).
function gathered(pc) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (pc.iceGatheringState !== "complete") return;
      pc.removeEventListener("icegatheringstatechange", done);
      resolve();
    };
    pc.addEventListener("icegatheringstatechange", done);
  });
}

// how long a connection that stopped hearing the other device (a Wi-Fi blip, a screen that
// sleeps) may take to come back by itself before it is judged lost
export const UNSTEADY_MS = 15000;

// One connection, either end. `events`: open(link), message(text, link), closed(link),
// failed(link); unsteady(link) when the other device stops answering (the channel stays open,
// the browser keeps trying), steady(link) when it answers again.
class Link {
  constructor(events) {
    this.events = events;
    this.pc = new RTCPeerConnection({ iceServers: [] });
    this.channel = null;
    this.gone = false;
    this.timer = null;
    this.shaky = null;
    const changed = () => {
      const ice = this.pc.iceConnectionState, state = this.pc.connectionState;
      if (ice === "failed" || state === "failed" || state === "closed") {
        // nothing goes through any more: a channel that was open is lost
        if (this.open) this.close();
        else this.fail();
      } else if (state === "disconnected" || ice === "disconnected") {
        if (this.open && !this.shaky) {
          this.shaky = setTimeout(() => this.close(), UNSTEADY_MS);
          this.events.unsteady?.(this);
        }
      } else if (this.shaky && (state === "connected" || ice === "connected" || ice === "completed")) {
        clearTimeout(this.shaky);
        this.shaky = null;
        if (this.open) this.events.steady?.(this);
      }
    };
    this.pc.addEventListener("iceconnectionstatechange", changed);
    this.pc.addEventListener("connectionstatechange", changed);
  }

  // connected now, and not waiting for the other device to answer again
  get steady() {
    return this.open && !this.shaky && this.pc.connectionState === "connected";
  }

  bind(channel) {
    this.channel = channel;
    channel.addEventListener("open", () => {
      clearTimeout(this.timer);
      this.events.open?.(this);
    });
    channel.addEventListener("message", (e) => { if (!this.gone) this.events.message?.(e.data, this); });
    channel.addEventListener("close", () => this.close());
  }

  // both ends known: the connection has CONNECT_TIMEOUT_MS to open
  arm() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fail(), CONNECT_TIMEOUT_MS);
  }

  send(value) {
    if (this.channel && this.channel.readyState === "open") this.channel.send(typeof value === "string" ? value : JSON.stringify(value));
  }

  get open() {
    return !this.gone && !!this.channel && this.channel.readyState === "open";
  }

  fail() {
    if (this.gone || this.open) return;
    this.shut();
    this.events.failed?.(this);
  }

  close() {
    if (this.gone) return;
    this.shut();
    this.events.closed?.(this);
  }

  shut() {
    this.gone = true;
    clearTimeout(this.timer);
    clearTimeout(this.shaky);
    try { this.pc.close(); } catch (err) { /* already closed */ }
  }
}

// The host's end for one seat: `offer` is the code to show; `accept(sdp)` takes the answer's.
export async function hostLink(meta, events) {
  const link = new Link(events);
  link.bind(link.pc.createDataChannel(CHANNEL, { ordered: true }));
  await link.pc.setLocalDescription(await link.pc.createOffer());
  await gathered(link.pc);
  link.offer = await encodeCode({ v: 1, kind: "offer", ...meta, sdp: shrink(link.pc.localDescription.sdp) });
  link.accept = async (sdp) => {
    await link.pc.setRemoteDescription({ type: "answer", sdp: grow(sdp) });
    link.arm();
  };
  return link;
}

// The guest's end, from the host's offer (its decoded JSON): `answer` is the code to show.
export async function guestLink(offer, events) {
  const link = new Link(events);
  link.pc.addEventListener("datachannel", (e) => link.bind(e.channel));
  await link.pc.setRemoteDescription({ type: "offer", sdp: grow(offer.sdp) });
  await link.pc.setLocalDescription(await link.pc.createAnswer());
  await gathered(link.pc);
  const { game, token, seat } = offer;
  link.answer = await encodeCode({ v: 1, kind: "answer", game, token, seat, sdp: shrink(link.pc.localDescription.sdp) });
  return link;
}

// ------------------------------------------------------------------ QR codes

let qrModule = null;

// A QR code of `text` drawn on a canvas (qrcode-generator, vendored from npm into
// assets/vendor/), with its version; null when the module is missing.
export async function drawQR(text, root) {
  try {
    qrModule ||= (await import(new URL("assets/vendor/qrcode.mjs", root).href)).default;
  } catch (err) {
    return null;
  }
  const qr = qrModule(0, "L");
  qr.addData(text, "Byte");
  qr.make();
  const n = qr.getModuleCount();
  const cell = Math.max(2, Math.floor(360 / (n + 8)));
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = (n + 8) * cell;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = "#000";
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) ctx.fillRect((c + 4) * cell, (r + 4) * cell, cell, cell);
  return { canvas, version: (n - 17) / 4, modules: n };
}

// ------------------------------------------------------------------ the camera

let jsqrLoaded = null;

function loadJsQR(root) {
  jsqrLoaded ||= new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = new URL("assets/vendor/jsqr.js", root).href;
    s.onload = () => resolve(window.jsQR);
    s.onerror = reject;
    document.head.append(s);
  });
  return jsqrLoaded;
}

// Reads QR codes from the camera into `video` until one is found (its text) or `stop()`:
// the browser's BarcodeDetector where it exists, else jsQR (vendored from npm).
export async function scanCamera(video, root) {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  video.srcObject = stream;
  await video.play();
  const stopAll = () => stream.getTracks().forEach((t) => t.stop());
  let detector = null;
  if ("BarcodeDetector" in window) {
    try { detector = new window.BarcodeDetector({ formats: ["qr_code"] }); } catch (err) { detector = null; }
  }
  const decode = detector ? null : await loadJsQR(root);
  const canvas = document.createElement("canvas");
  let stopped = false;
  const found = new Promise((resolve) => {
    const tick = async () => {
      if (stopped) return resolve(null);
      if (video.readyState >= 2) {
        if (detector) {
          const codes = await detector.detect(video).catch(() => []);
          if (codes.length) return resolve(codes[0].rawValue);
        } else {
          canvas.width = video.videoWidth;
          canvas.height = video.videoHeight;
          const ctx = canvas.getContext("2d", { willReadFrequently: true });
          ctx.drawImage(video, 0, 0);
          const img = ctx.getImageData(0, 0, canvas.width, canvas.height);
          const code = decode(img.data, img.width, img.height, { inversionAttempts: "dontInvert" });
          if (code && code.data) return resolve(code.data);
        }
      }
      setTimeout(tick, 150);
    };
    tick();
  });
  return {
    found: found.finally(stopAll),
    stop: () => { stopped = true; },
  };
}
