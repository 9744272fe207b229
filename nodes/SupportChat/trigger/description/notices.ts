import type { INodeProperties } from 'n8n-workflow';

import { ANY_EVENT } from '../../shared/events';

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
	"In the service's dashboard open Settings → Miscellaneous → Webhooks.",
	'Paste one URL into the webhook URL field: the Test URL while you build the workflow, the Production URL in its place once it is published. ' +
		'The field takes one URL, whatever the service\'s description says: a comma list such as "url1, url2" is refused by its HTTP client, so nothing reaches either URL, and "url1,url2" is sent to one wrong address.',
	'Tick the kinds of events this workflow needs, save the settings and reload the service.',
];

/**
 * What the real product (Support Board 3.8.7) does: each delivery is posted once, with no retry and no
 * delivery ID. So the trigger cannot catch up on what it missed, and must not drop identical bodies as
 * duplicates (two archives of one conversation are byte-identical).
 */
const DELIVERY_FACTS =
	'The service sends each delivery once, with no retry and no delivery ID: a delivery sent while n8n is down, or to the test URL while nobody listens, is lost. ' +
	'Identical deliveries are separate events, and each starts a run.';

const SETUP_NOTICE =
	"Paste this node's URL into the service's dashboard yourself, or, with Support Board Web API credentials, turn on Set Up Webhook in Support Board below and publish the workflow." +
	`<ul>${SETUP_STEPS.map((step, index) => `<li>${index + 1}. ${step}</li>`).join('')}</ul>` +
	`${DELIVERY_FACTS} When you are done testing, put the production URL in place of the test URL.`;

const OWN_MESSAGES_NOTICE =
	'New Message deliveries sent as agent, admin or bot are ignored by default: a workflow that answers a message by sending one would otherwise trigger itself again and again. Change it under Options → Ignore Own Messages.';

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
