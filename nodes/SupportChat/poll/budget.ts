import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestGate } from '../transport/request';
import type { PollSettings } from '../apis/types';

/**
 * What one poll may spend: Max Requests per Poll, and the time until its deadline (n8n's poll budget
 * where the host has one). The client asks before every request it sends, each page and each retry
 * included, so a slow service overruns the deadline by one request at most, not by a whole list. A poll
 * over either fails whole, so no mark moves past what it did not read, and n8n shows the error and polls
 * again at the next poll time.
 */
export function pollBudget(
	ctx: Pick<IPollFunctions, 'getNode'>,
	settings: PollSettings,
): RequestGate {
	let spent = 0;
	return (where) => {
		if (spent >= settings.maxRequests) {
			throw new NodeOperationError(
				ctx.getNode(),
				`This poll needs more than ${settings.maxRequests} requests (${where}); nothing was emitted and the poll stands where it stood`,
				{
					description:
						'Raise Max Requests per Poll under Options, or poll more often so that less happens between two polls.',
				},
			);
		}
		if (Date.now() >= settings.deadline) {
			throw new NodeOperationError(
				ctx.getNode(),
				`This poll ran out of time after ${spent} requests (${where}); nothing was emitted and the poll stands where it stood`,
				{
					description:
						'n8n gives each poll a limited time, and the service answered too slowly to read everything in it. Poll more often so that less happens between two polls.',
				},
			);
		}
		spent++;
	};
}
