import type { Api } from '../types';
import { restFinder } from './finder';
import { restWire } from './wire';

/** The REST paths of the service description (§4): bearer token, one path per record. */
export const rest: Api = {
	title: 'REST paths',
	wire: restWire,
	finder: restFinder,
};
