import type { INodeProperties } from 'n8n-workflow';

import { eventsProperty } from './events';
import { ownMessagesNotice, setupNotice } from './notices';
import { optionsProperty } from './options';
import { selfSetupProperties } from './selfSetup';
import { verificationProperties } from './verification';

export { eventsSubtitle } from './events';

/** The trigger's parameters, in the order the editor shows them. */
export const triggerProperties: INodeProperties[] = [
	setupNotice,
	eventsProperty,
	ownMessagesNotice,
	...verificationProperties,
	...selfSetupProperties,
	optionsProperty,
];
