import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Api } from './types';
import { rest } from './rest';
import { supportBoard } from './supportBoard';

/**
 * The APIs by the value of the credentials' API option (`api`), each looked up once per client (by
 * `connect`): every difference between them lives in its row, never in an `if` elsewhere.
 */
const APIS: Readonly<Record<string, Api>> = { rest, supportBoard };

/** The credentials' API; credentials saved before the API could be chosen have none: they are REST. */
export function apiOf(credentials: ICredentialDataDecryptedObject): Api {
	const chosen = credentials.api;
	return typeof chosen === 'string' && Object.hasOwn(APIS, chosen) ? APIS[chosen] : rest;
}
