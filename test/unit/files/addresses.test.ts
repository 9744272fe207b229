import {
	ipv6Bytes,
	isForbiddenAddress,
	isForbiddenHost,
} from '../../../nodes/SupportChat/files/addresses';

describe('addresses a name resolves to', () => {
	it.each([
		'127.0.0.1',
		'10.1.2.3',
		'172.31.255.255',
		'100.127.0.1',
		'0.0.0.0',
		'255.255.255.255',
		'::1',
		'::',
		'::ffff:127.0.0.1',
		'::FFFF:7F00:1',
		'0:0:0:0:0:ffff:a00:1',
		'64:ff9b::192.168.0.1',
		'fd12:3456::1',
		'FE80::1',
		'fe80::1%eth0',
		'fec0::1',
		'febf::1',
		'2002:a00:1::',
		'2001::1',
		'2001:db8::1',
		'100::',
		'ff02::1',
		'not an address',
		'1.2.3',
		'1.2.3.256',
		'1:2:3:4:5:6:7:8:9',
		'1::2::3',
		'',
	])('%s is forbidden', (address) => {
		expect(isForbiddenAddress(address)).toBe(true);
	});

	it.each([
		'8.8.8.8',
		'172.32.0.1',
		'100.128.0.1',
		'198.20.0.1',
		'223.255.255.255',
		'2606:4700::1111',
		'::ffff:8.8.8.8',
		'64:ff9b::8.8.8.8',
		'2002:808:808::',
		'2001:4860:4860::8888',
		'fb00::',
	])('%s is allowed', (address) => {
		expect(isForbiddenAddress(address)).toBe(false);
	});
});

it('parses IPv6 to its 16 bytes, with :: anywhere and an IPv4 tail', () => {
	expect(ipv6Bytes('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]);
	expect(ipv6Bytes('1::')).toEqual([0, 1, ...new Array(14).fill(0)]);
	expect(ipv6Bytes('1:2:3:4:5:6:7::')).toHaveLength(16);
	expect(ipv6Bytes('1:2:3:4:5:6:7:8::')).toBeUndefined();
	expect(ipv6Bytes('12345::')).toBeUndefined();
});

it('names: localhost and *.localhost, trailing dots and case aside; other names are judged as resolved', () => {
	expect(isForbiddenHost('localhost.')).toBe(true);
	expect(isForbiddenHost('a.b.LOCALHOST..')).toBe(true);
	expect(isForbiddenHost('localhost.example.com')).toBe(false);
	expect(isForbiddenHost('[::1]')).toBe(true);
	expect(isForbiddenHost('cdn.example.net.')).toBe(false);
});

describe('every IPv6 form that carries an IPv4 address, and every IPv6 range not reachable worldwide (IANA)', () => {
	it.each([
		// IPv4-translated (RFC 2765, SIIT): a stateless translator inside the network hands it to the IPv4 address.
		'::ffff:0:7f00:1',
		'::ffff:0:10.0.0.1',
		'::FFFF:0:C0A8:1',
		'2001:2::1', // benchmarking, in 2001::/23 (IETF protocol assignments)
		'2001:10::1', // ORCHID, in 2001::/23
		'3fff::1', // documentation (RFC 9637)
		'5f00::1', // SRv6 SIDs (RFC 9602)
		'100:0:0:1::1', // dummy prefix (RFC 9780)
	])('%s is forbidden', (address) => {
		expect(isForbiddenAddress(address)).toBe(true);
	});

	it.each(['::ffff:0:808:808', '2001:4860:4860::8888', '2001:200::1'])(
		'%s is allowed',
		(address) => {
			expect(isForbiddenAddress(address)).toBe(false);
		},
	);
});
