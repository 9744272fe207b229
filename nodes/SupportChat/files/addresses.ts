/**
 * Which addresses a file from another host may never be fetched from: loopback, unspecified, private,
 * shared (CGNAT), link-local, documentation, benchmarking, multicast and reserved ranges, n8n's own
 * default blocked list (@n8n/config's SSRF_DEFAULT_BLOCKED_IP_RANGES) among them. Judged on the
 * address's bytes, so that no spelling slips through; node code may not use `net`, hence a parser of
 * our own.
 */

type Range = readonly [prefix: readonly number[], bits: number];

const V4_FORBIDDEN: readonly Range[] = [
	[[0], 8], // "this network"
	[[10], 8],
	[[100, 64], 10], // shared address space (CGNAT)
	[[127], 8],
	[[169, 254], 16],
	[[172, 16], 12],
	[[192, 0, 0], 24], // IETF protocol assignments
	[[192, 0, 2], 24], // documentation
	[[192, 168], 16],
	[[198, 18], 15], // benchmarking
	[[198, 51, 100], 24],
	[[203, 0, 113], 24],
	[[224], 4], // multicast
	[[240], 4], // reserved, and the broadcast address
];

/** The IPv6 ranges IANA's special-purpose registry marks as not reachable worldwide, and multicast. */
const V6_FORBIDDEN: readonly Range[] = [
	[[0xfc], 7], // unique local
	[[0xfe, 0x80], 10], // link-local
	[[0xfe, 0xc0], 10], // site-local (deprecated, still routed inside some networks)
	[[0xff], 8], // multicast
	[[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
	[[0x3f, 0xff], 20], // documentation (RFC 9637)
	[[0x5f, 0x00], 16], // segment routing SIDs (RFC 9602)
	[[0x01, 0, 0, 0, 0, 0, 0, 0], 63], // discard-only and the dummy prefix (RFC 9780)
	// Local-use NAT64 (RFC 8215): a prefix of the network's own, where the IPv4 address may sit anywhere.
	[[0, 0x64, 0xff, 0x9b, 0, 1], 48],
	// IETF protocol assignments, the IPv6 192.0.0.0/24: Teredo (whose IPv4 addresses are obfuscated),
	// benchmarking, ORCHID and a few anycast services, none a file server.
	[[0x20, 0x01, 0, 0], 23],
];

/**
 * IPv6 forms that carry an IPv4 address: judged by that address, so that `[::ffff:7f00:1]` is
 * 127.0.0.1 and a public host reached through NAT64 (DNS64 answers `64:ff9b::a.b.c.d`) still works.
 * `at` is where the IPv4 address starts.
 */
const V6_EMBEDDING: readonly (readonly [prefix: readonly number[], bits: number, at: number])[] = [
	[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96, 12], // IPv4-mapped
	// IPv4-translated (RFC 2765): a stateless translator (SIIT) in the network hands it to the IPv4 address.
	[[0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0], 96, 12],
	[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 96, 12], // IPv4-compatible, :: and ::1 among them
	[[0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96, 12], // NAT64
	[[0x20, 0x02], 16, 2], // 6to4
];

function within(bytes: readonly number[], [prefix, bits]: Range): boolean {
	for (let bit = 0; bit < bits; bit += 8) {
		const index = bit / 8;
		const mask = bits - bit >= 8 ? 0xff : (0xff << (8 - (bits - bit))) & 0xff;
		if ((bytes[index] & mask) !== ((prefix[index] ?? 0) & mask)) return false;
	}
	return true;
}

/** A dotted IPv4 address (as the URL parser writes any form of one, and as DNS answers): its bytes. */
function ipv4Bytes(text: string): number[] | undefined {
	const parts = text.split('.');
	if (parts.length !== 4) return undefined;
	const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
	return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

function groupsOf(text: string): number[] | undefined {
	if (text === '') return [];
	const groups: number[] = [];
	const parts = text.split(':');
	for (const [index, part] of parts.entries()) {
		const v4 = index === parts.length - 1 && part.includes('.') ? ipv4Bytes(part) : undefined;
		if (v4) groups.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
		else if (/^[\da-f]{1,4}$/i.test(part)) groups.push(parseInt(part, 16));
		else return undefined;
	}
	return groups;
}

/** An IPv6 address without brackets (`::`, an IPv4 tail and any case allowed): its 16 bytes. */
export function ipv6Bytes(text: string): number[] | undefined {
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const head = groupsOf(halves[0]);
	const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
	if (!head || !tail) return undefined;
	const missing = 8 - head.length - tail.length;
	if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
	const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
	return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

function isForbiddenV4(bytes: readonly number[]): boolean {
	return V4_FORBIDDEN.some((range) => within(bytes, range));
}

function isForbiddenV6(bytes: readonly number[]): boolean {
	for (const [prefix, bits, at] of V6_EMBEDDING)
		if (within(bytes, [prefix, bits])) return isForbiddenV4(bytes.slice(at, at + 4));
	return V6_FORBIDDEN.some((range) => within(bytes, range));
}

/** A host name as written in a URL, without the trailing dots that name the same host. */
export function bareName(hostname: string): string {
	let end = hostname.length;
	while (end > 0 && hostname[end - 1] === '.') end--;
	return hostname.slice(0, end).toLowerCase();
}

/** A URL's host as an address: an IPv6 one without its brackets. */
export const unbracketed = (hostname: string) =>
	hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;

/**
 * Whether a URL's host (IPv4 as the URL parser writes it, IPv6 in brackets, or a name) is an address,
 * or a name, that a file from another host may never come from. A name is judged as written: what it
 * resolves to is judged with isForbiddenAddress.
 */
export function isForbiddenHost(hostname: string): boolean {
	const host = bareName(hostname);
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	if (host.startsWith('[')) return isForbiddenAddress(unbracketed(host));
	const v4 = ipv4Bytes(host);
	return v4 !== undefined && isForbiddenV4(v4);
}

/** Whether an address a name resolved to (IPv4 dotted, IPv6 bare) is forbidden; what is not an address is. */
export function isForbiddenAddress(address: string): boolean {
	const v4 = ipv4Bytes(address);
	if (v4) return isForbiddenV4(v4);
	const v6 = ipv6Bytes(address);
	return v6 === undefined || isForbiddenV6(v6);
}

/**
 * An address as one key whatever its spelling (an IPv4-mapped IPv6 address as its IPv4 one), so that
 * two answers naming the same machine meet; undefined for what is no address.
 */
export function addressKey(address: string): string | undefined {
	const v4 = ipv4Bytes(address);
	if (v4) return v4.join('.');
	const v6 = ipv6Bytes(address);
	if (v6 === undefined) return undefined;
	return within(v6, [V6_EMBEDDING[0][0], 96]) ? v6.slice(12).join('.') : v6.join(':');
}

/** Whether a URL's host is an address rather than a name. */
export function isAddressLiteral(hostname: string): boolean {
	return hostname.startsWith('[') || ipv4Bytes(hostname) !== undefined;
}
