// The pairing codes of site/assets/devices.js, run by tests/test_device_codes.py in Node: a code
// decodes to the JSON it was made from, junk is no code, and a session description cut by
// `shrink` grows back with every line that differs between two connections.
// Prints one JSON line: the checks that failed, and the sizes measured.
import { decodeCode, encodeCode, grow, MAX_CODE, shrink } from "../../site/assets/devices.js";

const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); };

// a data channel's offer as Chromium writes it (two host candidates, mDNS names)
const SDP = [
  "v=0", "o=- 4611731400430051336 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
  "a=extmap-allow-mixed", "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
  "c=IN IP4 0.0.0.0",
  "a=candidate:1467250027 1 udp 2122260223 4b2c1a8e-8f3d-4c53-9d7b-2f6f0c1e9a11.local 54321 typ host generation 0 network-id 1",
  "a=candidate:1467250027 1 tcp 1518280447 4b2c1a8e-8f3d-4c53-9d7b-2f6f0c1e9a11.local 9 typ host tcptype active generation 0 network-id 1",
  "a=ice-ufrag:Zx9q", "a=ice-pwd:kq1L3x7sD0p9uJw2Yt6bQe4R", "a=ice-options:trickle",
  "a=fingerprint:sha-256 3A:1F:00:9B:C4:55:E2:77:10:AB:CD:EF:01:23:45:67:89:98:76:54:32:10:FE:DC:BA:0F:1E:2D:3C:4B:5A:69",
  "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", "",
].join("\r\n");

const short = shrink(SDP);
const back = grow(short);
const lines = new Set(back.split("\r\n"));
for (const line of SDP.split("\r\n")) {
  if (!line || line.startsWith("o=") || line === "a=ice-options:trickle") continue;
  const want = line.replace(/ generation \d+| network-id \d+/g, "");
  check(lines.has(want), `grown back: ${want}`);
}
check(short.length < SDP.length / 2, `shrunk: ${short.length} of ${SDP.length}`);

const value = { v: 1, kind: "offer", game: "complots", token: "abc", seat: 2, sdp: short };
const code = await encodeCode(value);
check(/^[A-Za-z0-9_-]+$/.test(code), "base64url");
check(JSON.stringify(JSON.parse(await decodeCode(code))) === JSON.stringify(value), "round trip");
check(JSON.stringify(JSON.parse(await decodeCode(`  ${code}\n`))) === JSON.stringify(value), "spaces around");
for (const junk of ["", "pas un code !", "AAAA", "x".repeat(MAX_CODE + 1), code.slice(0, code.length >> 1)]) {
  check((await decodeCode(junk)) === null, `junk is no code: ${junk.slice(0, 20)}`);
}
console.log(JSON.stringify({ failures, sdp: SDP.length, short: short.length, code: code.length }));
