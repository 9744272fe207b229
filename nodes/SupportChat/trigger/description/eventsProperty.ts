import type { INodeProperties } from 'n8n-workflow';

import { TRIGGER_EVENT_OPTIONS } from '../../shared/eventFacts';
import { ANY_EVENT } from '../../shared/events';

/**
 * `*`, the service's six kinds, then Support Board's own events, each group sorted by name: the six
 * first, because they are what every service sends; `*` selects the six and never Support Board's own.
 * The list is built from the event table (shared/eventFacts.ts), so n8n's lint (which reads literal option lists) does not sort it across groups.
 */
const eventOptions = [
	{
		name: '*',
		value: ANY_EVENT,
		description:
			"Any of the service's six kinds, including kinds added later; Support Board's own events are selected by name",
	},
	...TRIGGER_EVENT_OPTIONS,
];

/** What the subtitle calls `*`: the option's own name is `*`, as n8n's node panel expects of it. */
const ANY_EVENT_LABEL = 'Any Event';

/**
 * The node's subtitle on the canvas: the selected events by the names the Events list shows, never
 * their values (`leadCaptured`). Built from the option list, so a new event needs no edit here. Looked
 * up in a list of pairs, not an object, so that no value can reach an object's built-ins; a value the
 * list does not know (an expression's result) is shown as it is.
 */
const subtitleNames = eventOptions.map(({ name, value }) => [
	value,
	value === ANY_EVENT ? ANY_EVENT_LABEL : name,
]);
export const eventsSubtitle = `={{ (Array.isArray($parameter["events"]) ? $parameter["events"] : []).map((event) => (${JSON.stringify(subtitleNames)}.find((pair) => pair[0] === event) || [event, event])[1]).join(", ") }}`;

export const eventsProperty: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	options: eventOptions,
	default: [],
	description:
		'The events that start the workflow. Deliveries of other events are answered 200 and start nothing.',
};
