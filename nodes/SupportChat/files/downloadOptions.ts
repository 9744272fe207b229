import type { FunctionsBase, IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FileRules } from './download';
import type { RunBounds } from './fileBudget';
import { MEGABYTE } from '../transport/limits';

export interface AttachmentSettings extends FileRules {
	/** Binary properties are named this plus the attachment's place, from 0. */
	prefix: string;
	/** Most files one input item (or one event) may bring. */
	maxFiles: number;
	/** What one webhook delivery, one poll or one execution downloads in all. */
	run: RunBounds;
}

/**
 * The options that download a message's attachments, the same in Message → Get Many, Conversation →
 * Get and both triggers. The defaults are literals, as n8n's editor and linter read them; they match
 * DEFAULT_ATTACHMENTS and DEFAULT_RUN_BOUNDS (a unit test checks).
 */

const DEFAULT_ATTACHMENTS = {
	prefix: 'attachment_',
	maxSizeMb: 16,
	maxFiles: 20,
	otherHosts: false,
};

/**
 * What one webhook delivery, one poll or one execution downloads in all (./fileBudget.ts).
 * A delivery usually holds one event of a few files: 100 files and 256 MB leave such events whole
 * (one at Max Attachments × Max Attachment Size, 20 × 16 MB, would pass the 256 MB) while stopping a
 * batch of many events at a few hundred MB of memory. 120 s: the run starts only once its files are in (the
 * webhook's answer went out before), and a poll has 4 of n8n's 5 minutes for its requests too.
 */
const DEFAULT_RUN_BOUNDS = { files: 100, megabytes: 256, seconds: 120 };

/**
 * Download Attachments as a parameter path. Every caller reads it before it enters files/ (./runs.ts),
 * so that with it off none of the feature's code runs (STYLE habit 23).
 */
export const DOWNLOAD_ATTACHMENTS_PATH = 'options.downloadAttachments';

export const attachmentOptions: INodeProperties[] = [
	{
		displayName: 'Download Attachments',
		name: 'downloadAttachments',
		type: 'boolean',
		default: false,
		description:
			"Whether to download the files attached to the messages into binary properties (attachment_0, attachment_1, …). A file that cannot be downloaded fails the item, or the event's item carries attachmentError.",
	},
	{
		displayName: 'Attachment Prefix',
		name: 'attachmentPrefix',
		type: 'string',
		default: 'attachment_',
		description:
			"With Download Attachments: the binary properties' names are this followed by the attachment's place, from 0",
	},
	{
		displayName: 'Max Attachment Size (MB)',
		name: 'maxAttachmentSize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1024 },
		default: 16,
		description:
			'With Download Attachments: the largest file downloaded, counted as received. A larger one fails the item instead of filling the memory of n8n.',
	},
	{
		displayName: 'Max Attachments',
		name: 'maxAttachments',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1000 },
		default: 20,
		description:
			'With Download Attachments: most files downloaded for one input item (or one event). More fails the item before any download.',
	},
	{
		displayName: 'Download From Other Hosts',
		name: 'attachmentsFromOtherHosts',
		type: 'boolean',
		default: false,
		description:
			"Whether to download attachments stored on another host than the Base URL's (a cloud storage, a CDN). A visitor chooses these URLs. They are fetched without the API token, never from another port of the Base URL's host, nor from a loopback, private, link-local or reserved address: on n8n 2.x every address the name resolves to is checked and the request goes to the address checked; on n8n 1.x only the name as written is. n8n's own SSRF protection (N8N_SSRF_PROTECTION_ENABLED) closes the rest. Off: such an attachment fails the item.",
	},
	{
		displayName: 'Max Attachments per Run',
		name: 'maxAttachmentsPerRun',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10000 },
		default: 100,
		description:
			"With Download Attachments: most files downloaded in one webhook delivery, one poll, or one execution of the node over all its items. Past it, an event's item carries attachmentError, or the item fails.",
	},
	{
		displayName: 'Max Attachment Total per Run (MB)',
		name: 'maxAttachmentTotalPerRun',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10240 },
		default: 256,
		description:
			'With Download Attachments: most bytes downloaded in one webhook delivery, one poll, or one execution of the node, counted as received. Each file may use only what is left.',
	},
	{
		displayName: 'Max Download Time per Run (Seconds)',
		name: 'maxDownloadTimePerRun',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 3600 },
		default: 120,
		description:
			"With Download Attachments: longest time spent downloading in one webhook delivery, one poll, or one execution of the node. Each file's Timeout is cut to the time left; a poll also stops within the time n8n gives it.",
	},
];

/** The attachment settings of the Options collection; undefined while Download Attachments is off. */
export function attachmentSettings(
	options: IDataObject,
	timeoutMs: number,
): AttachmentSettings | undefined {
	if (options.downloadAttachments !== true) return undefined;
	const number = (value: unknown, fallback: number) =>
		typeof value === 'number' && Number.isFinite(value) ? value : fallback;
	const prefix =
		typeof options.attachmentPrefix === 'string' ? options.attachmentPrefix.trim() : '';
	return {
		prefix: prefix === '' ? DEFAULT_ATTACHMENTS.prefix : prefix.slice(0, 100),
		maxBytes:
			Math.max(1, number(options.maxAttachmentSize, DEFAULT_ATTACHMENTS.maxSizeMb)) * MEGABYTE,
		maxFiles: Math.max(1, Math.floor(number(options.maxAttachments, DEFAULT_ATTACHMENTS.maxFiles))),
		otherHosts:
			typeof options.attachmentsFromOtherHosts === 'boolean'
				? options.attachmentsFromOtherHosts
				: DEFAULT_ATTACHMENTS.otherHosts,
		timeoutMs,
		run: runBounds(options),
	};
}

function runBounds(options: IDataObject): RunBounds {
	const at = (value: unknown, fallback: number) =>
		typeof value === 'number' && Number.isFinite(value) ? Math.max(1, value) : fallback;
	const files = Math.floor(at(options.maxAttachmentsPerRun, DEFAULT_RUN_BOUNDS.files));
	const megabytes = at(options.maxAttachmentTotalPerRun, DEFAULT_RUN_BOUNDS.megabytes);
	const seconds = at(options.maxDownloadTimePerRun, DEFAULT_RUN_BOUNDS.seconds);
	return {
		files,
		bytes: Math.floor(megabytes * MEGABYTE),
		ms: seconds * 1000,
		shown: { megabytes, seconds },
	};
}

/**
 * A trigger's Download Attachments under n8n's execution engine 2.0 (a workflow's setting `engineType`
 * `v2`, n8n 2.41): the engine refuses a trigger's items that carry files ("Engine 2.0 cannot receive
 * files from a trigger yet.", "… from a webhook yet."). The webhook trigger answers the service before
 * n8n refuses, so the event would be lost; a poll would fail on it at every poll and never move past it.
 * The triggers therefore refuse the option on that engine where a user sees it: when the workflow is
 * published (and when its test event is listened for or fetched). Undefined where it is fine. Asked
 * only with the option on: its callers read it first (DOWNLOAD_ATTACHMENTS_PATH), so that with the
 * option off no code of this feature runs.
 */
export function engineV2FilesRefusal(
	ctx: Pick<FunctionsBase, 'getNode' | 'getWorkflowSettings'>,
): NodeOperationError | undefined {
	if (ctx.getWorkflowSettings().engineType !== 'v2') return undefined;
	return new NodeOperationError(
		ctx.getNode(),
		"Download Attachments does not work in a trigger on n8n's engine v2",
		{
			description:
				'This workflow runs on engine v2 (its setting engineType is v2), and n8n\'s engine v2 refuses files from triggers ("Engine 2.0 cannot receive files from a trigger yet."). Turn off Download Attachments under Options, or run the workflow on the default engine (remove engineType from its settings).',
		},
	);
}
