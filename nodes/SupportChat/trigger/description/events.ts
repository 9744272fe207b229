import type { INodeProperties } from 'n8n-workflow';

import { ANY_EVENT, EVENTS } from '../events';

const eventOptions = [
	{ name: '*', value: ANY_EVENT, description: 'Any event, including ones added later' },
	...EVENTS.map(({ name, value, description }) => ({ name, value, description })),
].sort((a, b) => (a.name === '*' ? -1 : b.name === '*' ? 1 : a.name.localeCompare(b.name)));

export const eventsProperty: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	options: eventOptions,
	default: [],
	description: 'The events that start the workflow. Deliveries of other events are answered 200 and start nothing.',
};
