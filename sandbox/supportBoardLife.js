// @ts-check
'use strict';

const { productId } = require('./supportBoardRecords');
const { empty, isNumeric, post, sqlTime } = require('./supportBoardPhp');
const { fatal, ok } = require('./supportBoardResult');
const { writeMessage } = require('./supportBoardConversations');

/**
 * A conversation's notes, department and tags, and the departments and agents, as Support Board 3.8.7
 * answers them through api.php (messages.php, settings.php, users.php; answers recorded from the test
 * bed), and update-tags and whatsapp-get-templates as 3.8.9 adds them to the Web API (the sandbox option
 * `version`).
 * @typedef {import('./supportBoardResult').CallContext} CallContext
 * @typedef {import('./supportBoardResult').Outcome} Outcome
 *
 * @typedef {object} SupportBoardDepartment A department as the product's settings hold it.
 * @property {number} id
 * @property {string} name
 * @property {string} [color]
 */

/** The notes of a conversation: an external setting `notes-{id}`, kept whatever the id names. @param {CallContext} ctx */
const notesOf = (ctx) => {
	const key = String(ctx.params.conversation_id);
	return { key, notes: ctx.data.notes.get(key) ?? [] };
};

/** @param {CallContext} ctx @returns {Outcome} */
const getNotes = (ctx) => ok(notesOf(ctx).notes);

/** `rand(0, 99999)`, the date in the product's GMT, the text as given. @param {CallContext} ctx @returns {Outcome} */
function addNote(ctx) {
	const { key, notes } = notesOf(ctx);
	const id = Math.floor(Math.random() * 100000);
	const { user_id, name, message } = ctx.params;
	ctx.data.notes.set(key, [
		...notes,
		{ id, user_id, name, message: String(message), date: sqlTime(ctx.store.timestamp()) },
	]);
	return ok(id);
}

/**
 * `$note['id'] == $note_id`: true, or null for the last note (the setting is deleted, and
 * sb_delete_external_setting returns nothing); false for a note it does not have.
 * @param {CallContext} ctx @returns {Outcome}
 */
function deleteNote(ctx) {
	const { key, notes } = notesOf(ctx);
	const at = notes.findIndex((note) => String(note.id) === String(ctx.params.note_id));
	if (at === -1) return ok(false);
	const rest = notes.filter((_note, i) => i !== at);
	if (rest.length > 0) {
		ctx.data.notes.set(key, rest);
		return ok(true);
	}
	ctx.data.notes.delete(key);
	return ok(null);
}

/**
 * Empty or -1 takes the conversation out of any department; the product writes an event message
 * (which a missing conversation's foreign key refuses: an empty 500).
 * @param {CallContext} ctx @returns {Outcome}
 */
function updateConversationDepartment(ctx) {
	const { data, params } = ctx;
	if (!isNumeric(params.conversation_id)) return fatal('conversation_id is not numeric');
	const c = data.conversation(params.conversation_id);
	if (!c) return fatal('no such conversation: the foreign key refuses the event message');
	const department = params.department;
	c.department = empty(department) || Number(department) === -1 ? null : String(department);
	const admin = `${data.names(data.admin).first} ${data.names(data.admin).last}`.trim();
	writeMessage(
		ctx,
		c,
		data.admin,
		'',
		JSON.stringify({
			event: `conversation-department-update-${String(department ?? '')}`,
			agent_name: admin,
		}),
	);
	return ok(true);
}

/**
 * `sb_tags_update`: commas taken out of each tag, with `add` the tags it had kept after the new ones,
 * joined by commas and cut at 255 characters; true whether or not the conversation exists.
 * @param {CallContext} ctx @returns {Outcome}
 */
function updateTags(ctx) {
	const given = post(ctx.params, 'tags', []);
	const tags = (Array.isArray(given) ? given : []).map((tag) =>
		String(tag).replaceAll(',', '').trim(),
	);
	const c = isNumeric(ctx.params.conversation_id)
		? ctx.data.conversation(ctx.params.conversation_id)
		: undefined;
	if (!c) return ok(true);
	if (post(ctx.params, 'add', false) && typeof c.sb_tags === 'string' && c.sb_tags !== '') {
		for (const old of c.sb_tags.split(',')) if (!tags.includes(old)) tags.push(old);
	}
	c.sb_tags = tags.join(',').slice(0, 255);
	return ok(true);
}

/**
 * The Web API functions of this module, for the version the sandbox plays.
 * @param {{ version?: string, departments?: SupportBoardDepartment[] }} options
 */
function lifeFunctions(options) {
	/** get-departments: by id, so a list when the ids are 0, 1, 2…, `[]` with none (PHP's json_encode). */
	const departments = () => {
		const list = options.departments ?? [];
		if (list.every((d, i) => d.id === i))
			return list.map((d) => ({ name: d.name, color: d.color ?? '', image: '' }));
		return Object.fromEntries(
			list.map((d) => [String(d.id), { name: d.name, color: d.color ?? '', image: '' }]),
		);
	};
	/** @type {Record<string, (ctx: CallContext) => Outcome>} */
	const functions = {
		'get-notes': getNotes,
		'add-note': addNote,
		'delete-note': deleteNote,
		'update-conversation-department': updateConversationDepartment,
		'get-departments': () => ok(departments()),
		'get-agents-ids': (ctx) =>
			ok(
				ctx.store.state.users
					.filter((u) => ['agent', 'admin'].includes(ctx.data.userType(u)))
					.map((u) => Number(productId(u.id))),
			),
	};
	/** Functions a later version adds, with the arguments it requires. @type {Map<string, string[]>} */
	const added = new Map();
	if (options.version === '3.8.9') {
		functions['update-tags'] = updateTags;
		added.set('update-tags', ['conversation_id', 'tags']);
		// The WhatsApp app's function (./supportBoardChannels), listed in 3.8.9's api.php with no argument.
		added.set('whatsapp-get-templates', []);
	}
	return { functions, added };
}

module.exports = { lifeFunctions };
