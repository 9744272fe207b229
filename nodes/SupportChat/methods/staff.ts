import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isDataObject } from '../shared/json';
import { connect } from '../apis';
import { INTERACTIVE_CLIENT_SETTINGS } from '../transport/limits';

/**
 * The pickers of Support Board's own lists: its agents (Assign) and its departments (Update
 * Department). Both lists are short and have no search of their own: read whole, filtered here.
 * With the REST API the wire refuses them, saying so; By ID still works there.
 */

function filtered(items: INodeListSearchItems[], filter?: string): INodeListSearchResult {
	const needle = filter?.trim().toLowerCase() ?? '';
	return {
		results: items.filter(
			(item) => needle === '' || `${item.name} ${item.value}`.toLowerCase().includes(needle),
		),
	};
}

async function answerOf(
	ctx: ILoadOptionsFunctions,
	call: 'listAgents' | 'listDepartments',
): Promise<unknown> {
	const client = await connect(ctx, 0, { settings: INTERACTIVE_CLIENT_SETTINGS });
	return (await client.call(call, {})).answer;
}

/** Agents and admins, labelled "name <email> (admin)". */
export async function searchAgents(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const rows = await answerOf(this, 'listAgents');
	const items = (Array.isArray(rows) ? rows.filter(isDataObject) : [])
		.filter((row) => row.id !== undefined && row.id !== null)
		.map((row) => {
			const name = [row.first_name, row.last_name]
				.filter((part) => typeof part === 'string' && part !== '')
				.join(' ');
			const label = [
				name || `#${String(row.id)}`,
				typeof row.email === 'string' && row.email !== '' ? `<${row.email}>` : '',
				typeof row.user_type === 'string' ? `(${row.user_type})` : '',
			]
				.filter(Boolean)
				.join(' ');
			return { name: label, value: String(row.id) };
		});
	return filtered(items, filter);
}

/**
 * Departments, by name. The product keeps them in its settings and get-departments answers them by
 * id (`{"2": {name, color, image}}`, or a list when the ids are 0, 1, 2…); with none set it answers [].
 */
export async function searchDepartments(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const answer = await answerOf(this, 'listDepartments');
	const entries = Array.isArray(answer)
		? answer.map((value, index) => [String(index), value] as const)
		: isDataObject(answer)
			? Object.entries(answer)
			: [];
	const items = entries
		.filter((entry): entry is readonly [string, IDataObject] => isDataObject(entry[1]))
		.map(([id, department]) => ({
			name:
				typeof department.name === 'string' && department.name !== '' ? department.name : `#${id}`,
			value: id,
		}));
	if (items.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Support Board has no departments', {
			description:
				'Add them in Support Board (Settings, Miscellaneous, Departments), or choose By ID and type the department ID.',
		});
	}
	return filtered(items, filter);
}

const joined = (value: unknown): string =>
	Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(', ') : '';

/**
 * One template of whatsapp-get-templates' list, as the admin area lists them (js/admin.js): Twilio's by
 * Content SID; the Cloud API's by name, approved ones only, with their languages and number's label.
 */
function templateItem(provider: unknown, row: IDataObject): INodeListSearchItems | undefined {
	if (provider === 'twilio') {
		if (typeof row.sid !== 'string' || row.sid === '') return undefined;
		const name = typeof row.friendly_name === 'string' ? row.friendly_name : row.sid;
		return { name, value: row.sid };
	}
	if (typeof row.name !== 'string' || row.name === '') return undefined;
	if (row.status !== undefined && row.status !== 'APPROVED') return undefined;
	const languages = joined(row.languages) || (typeof row.language === 'string' ? row.language : '');
	const label = typeof row.label === 'string' && row.label !== '' ? ` · ${row.label}` : '';
	return {
		name: `${row.name}${languages === '' ? '' : ` (${languages})`}${label}`,
		value: row.name,
	};
}

/**
 * WhatsApp templates (Support Board 3.8.9 or later): whatsapp-get-templates answers `[provider, list]`,
 * or Graph's error in place of the list. On 3.8.7 the wire says the function came in 3.8.9.
 */
export async function searchWhatsAppTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await connect(this, 0, { settings: INTERACTIVE_CLIENT_SETTINGS });
	const { answer } = await client.call('listWhatsAppTemplates', {});
	const [provider, list] = Array.isArray(answer) ? answer : [undefined, answer];
	if (!Array.isArray(list)) {
		const error = isDataObject(list) && isDataObject(list.error) ? list.error.message : list;
		// Graph may quote a token in its error: masked by shape before the cut.
		const said = client.mask.quote(
			typeof error === 'string' ? error : String(JSON.stringify(error)),
			300,
		);
		throw new NodeOperationError(
			this.getNode(),
			`Support Board could not list the WhatsApp templates: ${said}`,
			{ description: "Check Support Board's WhatsApp settings, or choose By Name." },
		);
	}
	const items = list
		.filter(isDataObject)
		.map((row) => templateItem(provider, row))
		.filter((item): item is INodeListSearchItems => item !== undefined);
	return filtered(items, filter);
}
