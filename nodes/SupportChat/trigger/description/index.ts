import type { INodeProperties } from 'n8n-workflow';

import { eventsProperty } from './eventsProperty';
import { ownMessagesNotice, setupNotice } from './notices';
import { optionsProperty } from './optionsProperty';
import { selfSetupProperties } from './selfSetupProperties';
import { verificationProperties } from './verification';

export { eventsSubtitle } from './eventsProperty';

/** The trigger's parameters, in the order the editor shows them. */
export const triggerProperties: INodeProperties[] = [
	setupNotice,
	eventsProperty,
	ownMessagesNotice,
	...verificationProperties,
	...selfSetupProperties,
	optionsProperty,
];
