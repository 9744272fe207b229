import type { INodeProperties } from 'n8n-workflow';

/** The four fields the spec documents for a user (§2), shared by create and update. */
export const userProperties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'Display name of the user',
	},
	{
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		default: '',
		placeholder: '+4915112345678',
		description: 'Telephone number in international format, with a leading + and the country code',
	},
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		default: '',
		placeholder: 'vip, newsletter',
		description: 'Tag names, separated by commas',
	},
];

export const USER_KEYS = ['user', 'contact', 'visitor'];
