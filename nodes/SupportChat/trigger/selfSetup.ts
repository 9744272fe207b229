import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isDataObject, thrownField } from '../shared/json';
import { SecretMask } from '../shared/secrets';
import { cut } from '../shared/text';
import { connect } from '../apis';
import type { SupportChatClient } from '../transport/request';
import type { SetUpRecord, WebhookFields } from './productWebhook';
import {
	earlierOf,
	sealedRecord,
	shownEarlier,
	WEBHOOK_SETTING,
	holdsExactly,
	shownUrl,
	turnedOff,
	webhookFields,
	webhookNamesOf,
	withOurFields,
} from './productWebhook';
import { SELF_SETUP_DEFAULTS, TRIGGER_DEFAULTS } from './triggerSettings';

/**
 * Set Up Webhook in Support Board: the trigger's `webhookMethods`. n8n 2.41 calls `checkExists`, then
 * `create` when it answered false, when a workflow is published and each time n8n starts with it
 * published; `delete` when it is unpublished. It calls them for the Test URL too (mode `manual` to
 * create, and `delete` when the editor stops listening): the Test URL is never written, since Support
 * Board holds one URL and a test would take it from the published workflow.
 *
 * `save-settings` replaces the whole settings row (apis/supportBoard/settings.ts), so each
 * write reads the row right before, changes the webhook entry only, and reads it back after.
 */

/** Where the node's static data keeps what it replaced, until it puts it back. */
const RECORD = 'supportBoardWebhook';

interface Wanted extends Omit<WebhookFields, 'active'> {
	replace: boolean;
}

function enabled(ctx: IHookFunctions): boolean {
	return ctx.getNodeParameter('setUpWebhook', SELF_SETUP_DEFAULTS.setUpWebhook) === true;
}

function refuse(ctx: IHookFunctions, message: string, description?: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { description });
}

/** What the node wants Support Board to hold, from its parameters and the credentials. */
async function wanted(ctx: IHookFunctions): Promise<Wanted> {
	// Support Board sends its Secret key in the body, as `key`: no other check can pass its deliveries.
	if (ctx.getNodeParameter('verification', TRIGGER_DEFAULTS.verification) !== 'bodyField') {
		throw refuse(
			ctx,
			'Set Up Webhook in Support Board needs Verification Secret Field in Body: Support Board sends its Secret key as the body field key',
		);
	}
	const eventsValue = ctx.getNodeParameter('events', []);
	const events = Array.isArray(eventsValue) ? eventsValue.map(String) : [];
	const { names, without } = webhookNamesOf(events);
	if (without.length > 0 || names.length === 0) {
		throw refuse(
			ctx,
			`Support Board sends no webhook for ${without.length > 0 ? cut(without.join(', '), 200) : 'the selected events'}: remove it from Events, or turn off Set Up Webhook in Support Board`,
		);
	}
	const credentials = await ctx.getCredentials<IDataObject>('supportChatApi');
	const key = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
	if (key === '') {
		throw refuse(
			ctx,
			"Set Up Webhook in Support Board writes the Webhook Secret of the credentials as Support Board's Secret key: set one in the credentials",
		);
	}
	return {
		url: ctx.getNodeWebhookUrl('default') ?? '',
		key,
		allowed: names.join(','),
		replace: ctx.getNodeParameter('replaceOtherUrl', SELF_SETUP_DEFAULTS.replaceOtherUrl) === true,
	};
}

async function readRow(client: SupportChatClient): Promise<IDataObject> {
	const { answer } = await client.call('readServiceSettings', {});
	return answer as IDataObject;
}

/** Saves the row, then reads it back: what the product kept, or an error saying it did not. */
async function saveRow(
	ctx: IHookFunctions,
	client: SupportChatClient,
	row: IDataObject,
	kept: (held: WebhookFields) => boolean,
): Promise<void> {
	await client.call('saveServiceSettings', { settings: row });
	if (kept(webhookFields(await readRow(client)))) return;
	throw new NodeApiError(
		ctx.getNode(),
		{},
		{
			message: 'Support Board did not keep the webhook settings the node saved',
			description:
				'Check them in Support Board under Settings → Miscellaneous → Webhooks; another change may have been saved at the same moment.',
		},
	);
}

/**
 * Runs one step with every error masked of the secrets it may hold: the Admin Token (the client masks
 * it), the Webhook Secret and the earlier Secret key, which get-settings answers in the clear.
 */
async function masked<T>(
	ctx: IHookFunctions,
	secrets: string[],
	step: (client: SupportChatClient) => Promise<T>,
): Promise<T> {
	const client = await connect(ctx, 0);
	try {
		return await step(client);
	} catch (error) {
		const mask = new SecretMask([client.token, ...secrets]);
		const message = mask.text(String(thrownField(error, 'message')));
		const found = thrownField(error, 'description');
		const description = typeof found === 'string' ? mask.text(found) : undefined;
		if (error instanceof NodeOperationError) throw refuse(ctx, message, description ?? undefined);
		throw new NodeApiError(ctx.getNode(), {}, { message, description: description ?? undefined });
	}
}

export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	if (!enabled(ctx) || ctx.getMode() === 'manual') return true;
	const want = await wanted(ctx);
	return await masked(ctx, [want.key], async (client) =>
		holdsExactly(webhookFields(await readRow(client)), want),
	);
}

function recordOf(staticData: IDataObject): SetUpRecord | undefined {
	const record = staticData[RECORD];
	if (!isDataObject(record) || typeof record.url !== 'string') return undefined;
	const { shown, sealed, earlier, sealedKey } = record;
	return {
		url: record.url,
		shown: typeof shown === 'string' ? shown : undefined,
		sealed,
		earlier,
		sealedKey,
	};
}

/**
 * Ours already, with a record (Events changed, n8n restarted, a secret rotated): what to put back stays
 * the first one, sealed again under the Admin Token and the Webhook Secret of now. Support Board is
 * about to hold the new Webhook Secret in place of the one sealed under, so a record left as it was
 * would open with neither after the Admin Token's next rotation. One that opens with nothing is kept as
 * it is: never replaced by our own entry.
 */
async function resealed(
	record: SetUpRecord,
	token: string,
	key: string,
	heldKey: string,
	secrets: string[],
): Promise<SetUpRecord> {
	const earlier = await earlierOf(record, [token, key, heldKey], token);
	if (earlier === undefined) return record;
	const before = webhookFields({ [WEBHOOK_SETTING]: earlier.entry });
	secrets.push(before.key, before.url);
	return await sealedRecord(record.url, earlier.entry, [token, key]);
}

export async function create(ctx: IHookFunctions): Promise<boolean> {
	if (!enabled(ctx) || ctx.getMode() === 'manual') return true;
	const want = await wanted(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const secrets = [want.key];
	await masked(ctx, secrets, async (client) => {
		const row = await readRow(client);
		const held = webhookFields(row);
		secrets.push(held.key);
		if (held.url !== '' && held.url !== want.url && !want.replace) {
			throw refuse(
				ctx,
				`Support Board already sends its webhooks to another URL (${shownUrl(held.url)}) and holds only one, so the node did not replace it: to replace it, turn on Replace Another URL (it is put back when this workflow is unpublished), or use the Poll Trigger`,
				'Or leave Set Up Webhook in Support Board off and use the Poll Trigger, which needs no URL.',
			);
		}
		const entry = Object.hasOwn(row, WEBHOOK_SETTING) ? row[WEBHOOK_SETTING] : null;
		const kept = recordOf(staticData);
		const record =
			held.url === want.url && kept?.url === want.url
				? await resealed(kept, client.token, want.key, held.key, secrets)
				: await sealedRecord(want.url, entry, [client.token, want.key]);
		staticData[RECORD] = record;
		row[WEBHOOK_SETTING] = withOurFields(entry, want);
		await saveRow(ctx, client, row, (now) => holdsExactly(now, want));
	});
	return true;
}

/**
 * Puts back what the node replaced, when Support Board still sends to the URL it wrote; when someone
 * has changed the URL since, their settings are left as they are. Whatever the option says now: a
 * workflow unpublished after the option was turned off still puts back what it replaced.
 *
 * What cannot be opened (the Admin Token and the Webhook Secret both changed since) is not put back as
 * something else: the earlier URL with our key would send our secret to whoever is there. The webhooks
 * are turned off instead, and the error says so. n8n 2.41 only logs an error thrown here
 * (`ActiveWorkflowManager.remove`: "Could not remove webhooks of workflow …") and unpublishes anyway.
 */
export async function deleteWebhook(ctx: IHookFunctions): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	const record = recordOf(staticData);
	// The Test URL's removal comes here too, with the published workflow's record: it is not ours to undo.
	if (record === undefined || ctx.getNodeWebhookUrl('default') !== record.url) return true;
	const credentials = await ctx.getCredentials<IDataObject>('supportChatApi');
	const secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
	const secrets = [secret];
	const restored = await masked(ctx, secrets, async (client) => {
		const row = await readRow(client);
		const held = webhookFields(row);
		if (held.url !== record.url) return true;
		// Support Board holds the Webhook Secret written at publishing, even when the credentials' changed.
		const earlier = await earlierOf(record, [client.token, secret, held.key], client.token);
		if (earlier === undefined) {
			row[WEBHOOK_SETTING] = turnedOff(row[WEBHOOK_SETTING]);
			await saveRow(ctx, client, row, (now) => !now.active && now.url === '');
			return false;
		}
		const before = webhookFields({ [WEBHOOK_SETTING]: earlier.entry });
		secrets.push(before.key, before.url);
		if (earlier.entry === null) delete row[WEBHOOK_SETTING];
		else row[WEBHOOK_SETTING] = earlier.entry;
		await saveRow(ctx, client, row, (now) => now.url === before.url && now.key === before.key);
		return true;
	});
	delete staticData[RECORD];
	if (!restored) throw refuse(ctx, notPutBack(record));
	return true;
}

function notPutBack(record: SetUpRecord): string {
	const shown = shownEarlier(record);
	const sealedUnder =
		record.sealed === undefined
			? 'the Admin Token held when the workflow was published, which no longer opens it'
			: 'the Admin Token and the Webhook Secret held when the workflow was published, and neither opens it now';
	return `The earlier webhook URL${shown === '' ? '' : ` (${shown})`} was not put back in Support Board: it was sealed under ${sealedUnder}. Support Board's webhooks are now off, so this workflow's Webhook Secret is sent nowhere: set the earlier URL and its Secret key again in Support Board under Settings → Miscellaneous → Webhooks`;
}
