import type { IHttpRequestOptions } from 'n8n-workflow';

import { cut } from '../shared/text';
import {
	AnswerDeadlineError,
	AnswerTooLargeError,
	discard,
	flattenHeaders,
	readAnswer,
} from '../transport/exchange';
import type { Network, NetworkHelpers, FileOrigin } from './urls';
import { networkOf, pinnedRequest, unreachable, FileRefused, checkFileUrl, shownUrl } from './urls';
import { isSsrfRefusal } from '../transport/errors';
import type { FileHome } from '../transport/request';
import { thrownField } from '../shared/json';
import { MEGABYTE } from '../transport/limits';

/**
 * Downloading a file a message names (an attachment). Its URL is untrusted: a visitor may write any URL
 * into a message. The credentials go only to the Base URL's own origin, outside its API (./urls); a
 * file elsewhere is fetched without them, at an address judged as resolved where n8n resolves names
 * for nodes (./urls), or refused when Download From Other Hosts is off. A redirect is followed here,
 * hop by hop under the same rules, never by n8n's helper (which would carry the credentials along). A
 * file is asked for once: a failure fails its item, and no answer is asked for again.
 */

const MAX_FILE_REDIRECTS = 5;

/**
 * Where the service's own files are, and how a request reaches them with the credentials: what the
 * client gives when asked (`fileHome()`, ../transport/request).
 */
export interface FileSource extends FileOrigin, FileHome {
	mask(text: string): string;
}

export interface FileRules {
	/** Largest file read, counted as received (after decompression): the user's limit for one file. */
	maxBytes: number;
	/**
	 * What the run has left (./fileBudget): the read stops there too, but only bytes received count
	 * against it, never a length the server declares.
	 */
	runBytes?: number;
	/** Deadline for one file, redirects included, from the first request to its last byte. */
	timeoutMs: number;
	otherHosts: boolean;
}

/** What a helper answers with returnFullResponse. */
interface FullResponse {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

/** The helper that sends a request without any credentials. */
export type PlainRequest = (options: IHttpRequestOptions) => Promise<unknown>;

export interface DownloadedFile {
	bytes: Buffer;
	contentType: string | undefined;
	/** Where the bytes came from, after redirects. */
	url: string;
}

const SIZE_HINT = 'Raise Options → Max Attachment Size (MB) to download it.';

/** The size bound in the unit of the option that sets it. */
const tooLarge = (shown: string, rules: FileRules) =>
	new FileRefused(
		`The attachment ${shown} is larger than Max Attachment Size (${rules.maxBytes / MEGABYTE} MB)`,
		SIZE_HINT,
	);

/** More bytes received than the run had left: the run's bound, which ./fileBudget names. */
export class RunShareExceeded extends FileRefused {}

/** The most one read may hold: the file's limit, or less when that is all the run has left. */
const readLimit = (rules: FileRules) => Math.min(rules.maxBytes, rules.runBytes ?? Infinity);

/** One file, by the rules above; throws a FileRefused (or the helper's own error) when it cannot be had. */
export async function downloadFile(
	helpers: NetworkHelpers,
	source: FileSource | undefined,
	raw: string,
	rules: FileRules,
): Promise<DownloadedFile> {
	const deadline = Date.now() + rules.timeoutMs;
	const network = networkOf(helpers);
	let verdict = checkFileUrl(raw, undefined, source, rules.otherHosts);
	for (let hop = 0; ; hop++) {
		if (verdict instanceof FileRefused) throw verdict;
		const { url, withCredentials } = verdict;
		const shown = shownUrl(new URL(url), source);
		const answer = await send(network, source, verdict, deadline, shown);
		const headers = flattenHeaders(answer.headers);
		const status = answer.statusCode;
		const location = headers.location?.trim() ?? '';
		// A redirect that says nowhere to go would be read as this same address again.
		if (status >= 300 && status < 400 && hop < MAX_FILE_REDIRECTS && location !== '') {
			discard(answer.body);
			verdict = checkFileUrl(location, url, source, rules.otherHosts);
			continue;
		}
		if (status < 200 || status >= 300) {
			discard(answer.body);
			throw new FileRefused(
				`The attachment ${shown} could not be downloaded: the server answered ${status}`,
				status >= 300 && status < 400
					? `It redirected more than ${MAX_FILE_REDIRECTS} times, or to nowhere.`
					: 'Check that the file still exists there.',
				status,
			);
		}
		const declared = Number(headers['content-length']);
		if (Number.isFinite(declared) && declared > rules.maxBytes) {
			discard(answer.body);
			throw tooLarge(shown, rules);
		}
		const bytes = await readAnswer(answer.body, readLimit(rules), deadline).catch(
			(error: unknown) => readFailure(error, shown, rules, withCredentials ? source : undefined),
		);
		if (bytes instanceof FileRefused) throw bytes;
		return { bytes, contentType: headers['content-type'], url };
	}
}

/**
 * One request: with the credentials on the Base URL's origin only, no redirect followed by the helper,
 * and on another origin sent to the address its name was checked at (./urls), so that a DNS answer
 * that changes after the check is not used.
 */
async function send(
	network: Network,
	source: FileSource | undefined,
	verdict: { url: string; withCredentials: boolean },
	deadline: number,
	shown: string,
): Promise<FullResponse> {
	const left = deadline - Date.now();
	if (left <= 0)
		throw new FileRefused(`The attachment ${shown} took longer than Timeout`, TIME_HINT);
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: verdict.url,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: left,
	};
	try {
		if (verdict.withCredentials && source)
			return (await source.sendWithCredentials(options)) as FullResponse;
		const pinned = await pinnedRequest(network, options, shown, source?.baseUrl);
		return (await network.send(pinned)) as FullResponse;
	} catch (error) {
		throw sendFailure(error, shown, verdict.withCredentials ? source : undefined);
	}
}

/** A failure on the Base URL's origin, as its message quotes it: masked, then cut. */
const quoted = (error: unknown, home: FileSource) =>
	cut(home.mask(String(thrownField(error, 'message') ?? '')), 200);

/**
 * Why a request failed, as a message may say it. On another origin (no `home`) every failure reads
 * the same, so that no message tells a resolved address, or whether a port is open, to whoever chose
 * the URL.
 */
function sendFailure(error: unknown, shown: string, home: FileSource | undefined): FileRefused {
	if (error instanceof FileRefused) return error;
	if (!home) return unreachable(shown);
	if (isSsrfRefusal(error))
		return new FileRefused(
			`n8n's SSRF protection refused the attachment ${shown}`,
			'n8n does not reach private or loopback addresses while N8N_SSRF_PROTECTION_ENABLED is on; an administrator may allow a host with N8N_SSRF_ALLOWED_HOSTNAMES.',
		);
	return new FileRefused(
		`The attachment ${shown} could not be downloaded: ${quoted(error, home)}`,
		REACH_HINT,
	);
}

const REACH_HINT = 'Check that its server is reachable from n8n.';

const TIME_HINT = 'Raise Options → Timeout (Seconds), or check that the file server answers.';

function readFailure(
	error: unknown,
	shown: string,
	rules: FileRules,
	home: FileSource | undefined,
): FileRefused {
	if (error instanceof AnswerTooLargeError)
		return readLimit(rules) < rules.maxBytes
			? new RunShareExceeded(`The attachment ${shown} is larger than the run has left`, SIZE_HINT)
			: tooLarge(shown, rules);
	if (error instanceof AnswerDeadlineError)
		return new FileRefused(
			`The attachment ${shown} did not arrive in full within ${rules.timeoutMs / 1000} s`,
			TIME_HINT,
		);
	if (!home) return unreachable(shown);
	return new FileRefused(
		`The attachment ${shown} could not be read: ${quoted(error, home)}`,
		REACH_HINT,
	);
}
