// Which network an IP address belongs to, for outbound calls to URLs a customer gives (webhooks): the server must not
// be made to reach the installation's private network. Pure parsing (no node:net) so the web form refuses the same.

export type AddressScope = 'public' | 'loopback' | 'private';

function ipv4Bytes(text: string): number[] | null {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!parts) return null;
  const bytes = parts.slice(1).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

function ipv6Bytes(text: string): number[] | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    const parts = half.split(':');
    for (const [i, part] of parts.entries()) {
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = ipv4Bytes(part);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(part)) out.push(parseInt(part, 16));
      else return null;
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<number>(missing).fill(0), ...tail];
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

function scopeOfIpv4(bytes: number[]): AddressScope {
  const [a = 0, b = 0] = bytes;
  if (a === 127) return 'loopback';
  if (a === 0 || a === 10 || a >= 224) return 'private'; // "this network", RFC 1918, multicast and reserved
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT
  if (a === 169 && b === 254) return 'private'; // link-local, where cloud metadata services answer
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  return 'public';
}

function scopeOfIpv6(bytes: number[]): AddressScope {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 15) && bytes[15] === 1) return 'loopback';
  if (zeros(0, 16)) return 'private'; // unspecified
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach the IPv4 inside.
  const mapped = zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff;
  const compatible = zeros(0, 12);
  const nat64 = bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12);
  if (mapped || compatible || nat64) return scopeOfIpv4(bytes.slice(12));
  if ((bytes[0]! & 0xfe) === 0xfc) return 'private'; // unique local fc00::/7
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return 'private'; // link-local fe80::/10
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return 'private'; // site-local fec0::/10 (deprecated)
  if (bytes[0] === 0xff) return 'private'; // multicast
  return 'public';
}

/** The scope of an IP address (IPv6 with or without brackets and zone), or null when the text is not an IP address. */
export function addressScope(text: string): AddressScope | null {
  const bare = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const v4 = ipv4Bytes(bare);
  if (v4) return scopeOfIpv4(v4);
  const v6 = bare.includes(':') ? ipv6Bytes(bare) : null;
  return v6 ? scopeOfIpv6(v6) : null;
}
