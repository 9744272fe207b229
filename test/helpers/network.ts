/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * A make-believe network inside the test process, for the downloads' address checks: names resolve
 * as a test says (node:dns's `promises.lookup`, which n8n 2.x's DnsResolver calls, and the callback
 * `lookup` a socket calls for a name it connects to), and a connection to a name or an address the
 * test routes goes to a port on 127.0.0.1 instead. Every connection n8n opens is logged with the host
 * it was asked for, so a test sees whether the node connected at all, and to which address. Nothing
 * leaves the machine (a host neither routed nor loopback meets a closed port), and the machine's
 * resolver is never changed.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';

export interface Connection {
	host: string;
	port: number;
	/** https only: the TLS server name, which the certificate is verified against. */
	servername?: string;
}

export interface FakeNetwork {
	/** Connections opened through node:http and node:https agents since the last reset, with the host asked for. */
	connections: Connection[];
	/** `name` resolves to these addresses (through n8n's lookup and a socket's alike). */
	resolve(name: string, addresses: string[]): void;
	/** n8n's lookup of `name` answers only after `ms` (a file host's own name server may be that slow). */
	stall(name: string, ms: number): void;
	/** A connection to this name or address goes to 127.0.0.1:port. */
	route(host: string, port: number): void;
	reset(): void;
	restore(): void;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
/** The discard port: nothing listens there on a test machine, so a connection is refused at once. */
const CLOSED_PORT = 9;

type LookupCallback = (error: Error | null, address: unknown, family?: number) => void;

export function fakeNetwork(): FakeNetwork {
	const names = new Map<string, string[]>();
	const stalls = new Map<string, number>();
	const routes = new Map<string, number>();
	const connections: Connection[] = [];
	const originalPromise = dns.promises.lookup;
	const originalLookup = dns.lookup;
	const originalConnect = http.Agent.prototype.createConnection;
	const originalTlsConnect = https.Agent.prototype.createConnection;

	const records = (name: string) =>
		names.get(name)?.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

	(dns.promises as { lookup: unknown }).lookup = async (name: string, options?: any) => {
		const found = records(name);
		const stall = stalls.get(name);
		if (stall) await new Promise((resolve) => setTimeout(resolve, stall));
		if (!found) return await originalPromise(name, options);
		return options?.all ? found : found[0];
	};
	(dns as { lookup: unknown }).lookup = (name: string, options: any, callback?: LookupCallback) => {
		const done = (typeof options === 'function' ? options : callback) as LookupCallback;
		const found = records(name);
		if (!found) return (originalLookup as any)(name, options, callback);
		const all = typeof options === 'object' && options?.all;
		process.nextTick(() =>
			all ? done(null, found) : done(null, found[0].address, found[0].family),
		);
	};
	const routed = (original: any, tls: boolean) =>
		function (this: http.Agent, options: any, ...rest: any[]) {
			const host = String(options.host ?? options.hostname);
			connections.push({
				host,
				port: Number(options.port),
				...(tls ? { servername: options.servername } : {}),
			});
			// Nothing leaves the machine: a host neither routed nor loopback meets a closed port.
			const address = names.get(host)?.[0] ?? host;
			const port =
				routes.get(host) ??
				routes.get(address) ??
				(LOOPBACK.has(address) ? undefined : CLOSED_PORT);
			const target = port === undefined ? options : { ...options, host: '127.0.0.1', port };
			return original.call(this, target, ...rest);
		};
	http.Agent.prototype.createConnection = routed(originalConnect, false) as any;
	(https.Agent.prototype as any).createConnection = routed(originalTlsConnect, true);

	return {
		connections,
		resolve: (name, addresses) => names.set(name, addresses),
		stall: (name, ms) => stalls.set(name, ms),
		route: (host, port) => routes.set(host, port),
		reset: () => {
			names.clear();
			stalls.clear();
			routes.clear();
			connections.length = 0;
		},
		restore: () => {
			(dns.promises as { lookup: unknown }).lookup = originalPromise;
			(dns as { lookup: unknown }).lookup = originalLookup;
			http.Agent.prototype.createConnection = originalConnect;
			(https.Agent.prototype as any).createConnection = originalTlsConnect;
		},
	};
}
