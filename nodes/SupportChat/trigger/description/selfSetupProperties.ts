import type { INodeProperties } from 'n8n-workflow';

/**
 * Set Up Webhook in Support Board (../selfSetup.ts). Shown whatever the credentials' API: the editor
 * cannot show a parameter by a credential's field, so REST credentials are refused at publishing.
 */
export const selfSetupProperties: INodeProperties[] = [
	{
		displayName: 'Set Up Webhook in Support Board',
		name: 'setUpWebhook',
		type: 'boolean',
		default: false,
		description:
			"Whether to write this node's Production URL, the Webhook Secret of the credentials (as the Secret key) and the selected events into Support Board's webhook settings when the workflow is published, and to put back what was there when it is unpublished. Support Board Web API credentials and Verification Secret Field in Body only. Support Board holds one webhook URL, so one Support Board feeds one workflow this way; the Poll Trigger has no such limit. The Test URL is never written.",
	},
	{
		displayName: 'Replace Another URL',
		name: 'replaceOtherUrl',
		type: 'boolean',
		default: false,
		description:
			"Whether to replace a webhook URL that Support Board already sends to, such as another workflow's. Off, publishing is refused and the error names the other URL's host. The replaced settings are put back when this workflow is unpublished, unless neither the Admin Token nor the Webhook Secret opens them any more: then Support Board's webhooks are turned off.",
		displayOptions: { show: { setUpWebhook: [true] } },
	},
];
