import type { INodeProperties } from 'n8n-workflow';

import { ANY_EVENT } from '../events';

/**
 * The editor renders a notice's text as HTML with only `a`, `ul` and `li` kept (n8n 2.41's Notice):
 * the steps go in a list, numbered in their text (a version that drops the list still reads them in
 * order). The button is named as n8n 2.x shows it, with n8n 1.x's name after it; "Listening for test
 * event" is what both show while they wait.
 */
const SETUP_STEPS = [
	'Copy a URL from Webhook URLs above. The Test URL works only while the editor shows "Listening for test event": ' +
		'click "Execute step" (n8n 1.x: "Listen for test event"), then send one event. ' +
		'The Production URL works once the workflow is published (active). They are different URLs.',
	'In the service\'s dashboard open Settings → Miscellaneous → Webhooks.',
	'Paste the URL into the webhook URL field. The field takes several URLs separated by commas, so you can list the test URL and the production URL together.',
	'Tick the kinds of events this workflow needs, save the settings and reload the service.',
];

const SETUP_NOTICE =
	'The service has no API for webhooks: paste this node\'s URL into its dashboard yourself.' +
	`<ul>${SETUP_STEPS.map((step, index) => `<li>${index + 1}. ${step}</li>`).join('')}</ul>` +
	'When you are done testing, remove the test URL from the list: while nobody listens on it, n8n answers it 404 and the service counts failed deliveries.';

const OWN_MESSAGES_NOTICE =
	'New Message deliveries sent as agent, admin or bot are ignored by default: a workflow that answers a message by sending one would otherwise trigger itself again and again. Change it under Options > Ignore Own Messages.';

const MESSAGE_EVENTS = ['messageCreated', ANY_EVENT];

/** How to paste the node's URL into the service, shown first: the service has no API to do it. */
export const setupNotice: INodeProperties = {
	displayName: SETUP_NOTICE,
	name: 'setupNotice',
	type: 'notice',
	default: '',
};

/** Shown while New Message (or any event) is selected, because of the default that prevents loops. */
export const ownMessagesNotice: INodeProperties = {
	displayName: OWN_MESSAGES_NOTICE,
	name: 'ownMessagesNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { events: MESSAGE_EVENTS } },
};
