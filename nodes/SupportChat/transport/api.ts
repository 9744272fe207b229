import type { IDataObject } from 'n8n-workflow';

import type { EventFinder } from '../poll/types';
import type { Wire } from './wire';

/**
 * Everything one API of the credentials' API choice brings: how its calls travel, and how the poll
 * trigger finds its events. One row of ./apis each; a third API is one folder in ./apis and one row.
 */
export interface Api {
	/** The API's name as the credentials show it: in messages, and in the poll's saved state. */
	readonly title: string;
	readonly wire: Wire;
	/** The poll trigger's finder, given the trigger's Options. */
	finder(options: IDataObject): EventFinder;
}
