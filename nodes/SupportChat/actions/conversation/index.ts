import { describeOperations } from '../types';
import * as assign from './assign.operation';
import * as close from './close.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as addNote from './addNote.operation';
import * as deleteNote from './deleteNote.operation';
import * as getNotes from './getNotes.operation';
import * as updateDepartment from './updateDepartment.operation';
import * as updateStatus from './updateStatus.operation';
import * as updateTags from './updateTags.operation';
import * as search from './search.operation';

/** The conversation operations by parameter value: to add one, add it here and give it an option below. */
export const operations = {
	getAll,
	get,
	create,
	assign,
	close,
	addNote,
	getNotes,
	deleteNote,
	updateDepartment,
	updateStatus,
	updateTags,
	search,
};

export const description = describeOperations(operations, {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['conversation'] } },
	options: [
		{
			name: 'Add Note',
			value: 'addNote',
			description: 'Add a note for agents to a conversation (Support Board)',
			action: 'Add a note to a conversation',
		},
		{
			name: 'Assign',
			value: 'assign',
			description: 'Assign a conversation to an agent',
			action: 'Assign a conversation to an agent',
		},
		{
			name: 'Close',
			value: 'close',
			description: 'Close (archive) a conversation',
			action: 'Close a conversation',
		},
		{
			name: 'Create',
			value: 'create',
			description: 'Create a conversation',
			action: 'Create a conversation',
		},
		{
			name: 'Delete Note',
			value: 'deleteNote',
			description: 'Delete a note of a conversation (Support Board)',
			action: 'Delete a note of a conversation',
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Get a conversation',
			action: 'Get a conversation by ID',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'Get many conversations: active, pending and closed',
			action: 'Get many conversations',
		},
		{
			name: 'Get Notes',
			value: 'getNotes',
			description: 'Get the notes of a conversation (Support Board)',
			action: 'Get the notes of a conversation',
		},
		{
			name: 'Search',
			value: 'search',
			description:
				'Search conversations by message text, name, e-mail, subject or ID (Support Board)',
			action: 'Search conversations',
		},
		{
			name: 'Update Department',
			value: 'updateDepartment',
			description: 'Move a conversation to a department (Support Board)',
			action: 'Update the department of a conversation',
		},
		{
			name: 'Update Status',
			value: 'updateStatus',
			description: 'Set a conversation active, pending or waiting for the user (Support Board)',
			action: 'Update the status of a conversation',
		},
		{
			name: 'Update Tags',
			value: 'updateTags',
			description: 'Add tags to a conversation or replace them (Support Board 3.8.9 or later)',
			action: 'Update the tags of a conversation',
		},
	],
	default: 'getAll',
});
