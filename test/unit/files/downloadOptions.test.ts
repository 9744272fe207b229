import type { IWorkflowSettings } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	DOWNLOAD_ATTACHMENTS_PATH,
	attachmentOptions,
	attachmentSettings,
	engineV2FilesRefusal,
} from '../../../nodes/SupportChat/files/downloadOptions';

const MB = 1024 * 1024;
const shown = Object.fromEntries(attachmentOptions.map((p) => [p.name, p.default]));

it('is off by default, and off is no settings at all', () => {
	expect(shown.downloadAttachments).toBe(false);
	expect(attachmentSettings({}, 60_000)).toBeUndefined();
	expect(attachmentSettings({ downloadAttachments: 'true' }, 60_000)).toBeUndefined();
});

it('the path its callers read before they enter files/ is Options → Download Attachments, the switch attachmentSettings reads', () => {
	const [collection, name] = DOWNLOAD_ATTACHMENTS_PATH.split('.');
	expect(collection).toBe('options');
	expect(attachmentOptions[0]).toMatchObject({ name, type: 'boolean', default: false });
	expect(attachmentSettings({ [name]: true }, 60_000)).toBeDefined();
});

it('falls back to the defaults the editor shows', () => {
	expect(attachmentSettings({ downloadAttachments: true }, 5_000)).toEqual({
		prefix: shown.attachmentPrefix,
		maxBytes: (shown.maxAttachmentSize as number) * MB,
		maxFiles: shown.maxAttachments,
		otherHosts: shown.attachmentsFromOtherHosts,
		timeoutMs: 5_000,
		run: {
			files: shown.maxAttachmentsPerRun,
			bytes: (shown.maxAttachmentTotalPerRun as number) * MB,
			ms: (shown.maxDownloadTimePerRun as number) * 1000,
			shown: {
				megabytes: shown.maxAttachmentTotalPerRun,
				seconds: shown.maxDownloadTimePerRun,
			},
		},
	});
});

it('reads what the user set, bounded', () => {
	expect(
		attachmentSettings(
			{
				downloadAttachments: true,
				attachmentPrefix: '  file_ ',
				maxAttachmentSize: 0,
				maxAttachments: 2.7,
				attachmentsFromOtherHosts: false,
				maxAttachmentsPerRun: 0,
				maxAttachmentTotalPerRun: 0.5,
				maxDownloadTimePerRun: Number.NaN,
			},
			1_000,
		),
	).toEqual({
		prefix: 'file_',
		maxBytes: MB,
		maxFiles: 2,
		otherHosts: false,
		timeoutMs: 1_000,
		run: {
			files: 1,
			bytes: MB,
			ms: (shown.maxDownloadTimePerRun as number) * 1000,
			shown: { megabytes: 1, seconds: shown.maxDownloadTimePerRun },
		},
	});
	expect(
		attachmentSettings({ downloadAttachments: true, attachmentPrefix: 'p'.repeat(500) }, 1)?.prefix,
	).toHaveLength(100);
	expect(
		attachmentSettings({ downloadAttachments: true, attachmentPrefix: '   ' }, 1)?.prefix,
	).toBe('attachment_');
});

describe('engineV2FilesRefusal: a trigger with Download Attachments on engine v2', () => {
	const node = {
		id: 'n1',
		name: 'Trigger',
		type: 't',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: {},
	};
	const ctx = (settings: IWorkflowSettings) => ({
		getNode: () => node,
		getWorkflowSettings: () => settings,
	});

	it("refuses on engine v2, naming the option, the setting and n8n's own refusal", () => {
		const refusal = engineV2FilesRefusal(ctx({ engineType: 'v2' }));
		expect(refusal).toBeInstanceOf(NodeOperationError);
		expect(refusal?.message).toBe(
			"Download Attachments does not work in a trigger on n8n's engine v2",
		);
		expect(refusal?.description).toContain('engineType is v2');
		expect(refusal?.description).toContain('"Engine 2.0 cannot receive files from a trigger yet."');
		expect(refusal?.description).toContain('Turn off Download Attachments');
		expect(refusal?.node).toBe(node);
	});

	// With the option off the callers ask nothing of files/ (the trigger's and the poll's own tests).
	it.each<[string, IWorkflowSettings]>([
		['v1', { engineType: 'v1' }],
		['the default engine', {}],
	])('lets %s through', (_, settings) => {
		expect(engineV2FilesRefusal(ctx(settings))).toBeUndefined();
	});
});
