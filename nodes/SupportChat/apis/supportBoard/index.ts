import type { Api } from '../types';
import { supportBoardFinder } from './finder';
import { supportBoardWire } from './wire';

/** Support Board's Web API: one endpoint, a function and the admin token in each POST. */
export const supportBoard: Api = {
	title: 'Support Board Web API',
	wire: supportBoardWire,
	finder: supportBoardFinder,
};
