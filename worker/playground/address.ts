/**
 * @module IP address rules of the playground proxy: which IPv4 and IPv6 addresses it never connects to.
 * Platform-free. Ranges from the IANA special-purpose registries (RFC 6890 and its updates): loopback, private
 * (RFC 1918), shared/CGNAT (RFC 6598), link-local (cloud metadata 169.254.169.254 included), multicast, reserved,
 * broadcast, "this network", documentation and benchmarking; IPv6 unspecified, loopback, unique-local (RFC 4193,
 * fd00:ec2::254 included), link-local, site-local, multicast, and every form that embeds an IPv4 address
 * (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo), refused outright rather than unpacked.
 */

/** Four bytes of a dotted-quad IPv4 address (exactly `a.b.c.d`, each 0–255 in decimal), else undefined. */
export function parseIPv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((p) => (/^(0|[1-9][0-9]{0,2})$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : undefined;
}

/** Eight 16-bit words of an IPv6 address (RFC 4291 text forms, `::` and a trailing dotted quad included), else undefined. */
export function parseIPv6(text: string): number[] | undefined {
  let s = text.toLowerCase();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  if (s.includes("%")) return undefined; // zone ids never reach a server
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const words = (part: string): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    const groups = part.split(":");
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i];
      if (i === groups.length - 1 && g.includes(".")) {
        const v4 = parseIPv4(g);
        if (!v4) return undefined;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-f]{1,4}$/.test(g)) out.push(parseInt(g, 16));
      else return undefined;
    }
    return out;
  };
  const head = words(halves[0]);
  const tail = halves.length === 2 ? words(halves[1]) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : undefined;
}

/** [first byte, bits, reason] of every IPv4 range the proxy refuses. */
const IPV4_BLOCKED: [number[], number, string][] = [
  [[0, 0, 0, 0], 8, "“this network” (0.0.0.0/8)"],
  [[10, 0, 0, 0], 8, "private (10.0.0.0/8)"],
  [[100, 64, 0, 0], 10, "shared address space / CGNAT (100.64.0.0/10)"],
  [[127, 0, 0, 0], 8, "loopback (127.0.0.0/8)"],
  [[169, 254, 169, 254], 32, "cloud metadata (169.254.169.254)"],
  [[169, 254, 0, 0], 16, "link-local (169.254.0.0/16)"],
  [[172, 16, 0, 0], 12, "private (172.16.0.0/12)"],
  [[192, 0, 0, 0], 24, "IETF protocol assignments (192.0.0.0/24)"],
  [[192, 0, 2, 0], 24, "documentation (192.0.2.0/24)"],
  [[192, 88, 99, 0], 24, "6to4 relay anycast (192.88.99.0/24)"],
  [[192, 168, 0, 0], 16, "private (192.168.0.0/16)"],
  [[198, 18, 0, 0], 15, "benchmarking (198.18.0.0/15)"],
  [[198, 51, 100, 0], 24, "documentation (198.51.100.0/24)"],
  [[203, 0, 113, 0], 24, "documentation (203.0.113.0/24)"],
  [[224, 0, 0, 0], 4, "multicast (224.0.0.0/4)"],
  [[255, 255, 255, 255], 32, "broadcast (255.255.255.255)"],
  [[240, 0, 0, 0], 4, "reserved (240.0.0.0/4)"],
];

function inPrefix(value: number[], prefix: number[], bits: number, width: number): boolean {
  for (let i = 0; i < prefix.length && bits > 0; i++, bits -= width) {
    const take = Math.min(bits, width);
    const mask = ((1 << take) - 1) << (width - take);
    if ((value[i] & mask) !== (prefix[i] & mask)) return false;
  }
  return true;
}

/** Why an IPv4 address (4 bytes) is refused, or undefined when it is a public unicast address. */
export function blockedIPv4(bytes: number[]): string | undefined {
  for (const [prefix, bits, reason] of IPV4_BLOCKED) if (inPrefix(bytes, prefix, bits, 8)) return reason;
  return undefined;
}

/** [prefix words, bits, reason] of every IPv6 range the proxy refuses. */
const IPV6_BLOCKED: [number[], number, string][] = [
  [[0, 0, 0, 0, 0, 0, 0, 0], 128, "unspecified (::)"],
  [[0, 0, 0, 0, 0, 0, 0, 1], 128, "loopback (::1)"],
  [[0, 0, 0, 0, 0, 0xffff], 96, "IPv4-mapped IPv6 (::ffff:0:0/96)"],
  [[0, 0, 0, 0, 0, 0], 96, "IPv4-compatible IPv6 (::/96)"],
  [[0x64, 0xff9b], 32, "NAT64 (64:ff9b::/32 and 64:ff9b:1::/48)"],
  [[0x100, 0, 0, 0], 64, "discard-only (100::/64)"],
  [[0x2001, 0], 32, "Teredo (2001::/32)"],
  [[0x2001, 0xdb8], 32, "documentation (2001:db8::/32)"],
  [[0x2002], 16, "6to4 (2002::/16)"],
  [[0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254], 128, "cloud metadata (fd00:ec2::254)"],
  [[0xfc00], 7, "unique local (fc00::/7)"],
  [[0xfe80], 10, "link-local (fe80::/10)"],
  [[0xfec0], 10, "site-local (fec0::/10)"],
  [[0xff00], 8, "multicast (ff00::/8)"],
];

/** Why an IPv6 address (8 words) is refused, or undefined when it is a public unicast address. */
export function blockedIPv6(words: number[]): string | undefined {
  for (const [prefix, bits, reason] of IPV6_BLOCKED) if (inPrefix(words, prefix, bits, 16)) return reason;
  return undefined;
}

/**
 * Why an address (as text: dotted quad, or IPv6 with or without brackets) is refused; text that is neither is
 * refused too ("not an IP address"), so a malformed resolver answer can never pass.
 */
export function blockedAddress(text: string): string | undefined {
  const v4 = parseIPv4(text);
  if (v4) return blockedIPv4(v4);
  const v6 = parseIPv6(text);
  if (v6) return blockedIPv6(v6);
  return "not an IP address";
}
