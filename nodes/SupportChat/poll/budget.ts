import type { SupportChatClient } from '../transport/request';
import type { PollSettings } from './types';

/**
 * What one poll may spend: Max Requests per Poll, and the time until its deadline (n8n's poll budget
 * where the host has one). Asked before every request; a poll over either fails whole, so no mark moves
 * past what it did not read, and n8n shows the error and polls again at the next poll time.
 */
export class Budget {
	private spent = 0;

	constructor(
		private readonly client: SupportChatClient,
		private readonly settings: PollSettings,
	) {}

	spend(what: string): void {
		if (this.spent >= this.settings.maxRequests) {
			throw this.client.refuse(
				`This poll needs more than ${this.settings.maxRequests} requests (${what}); nothing was emitted and the poll stands where it stood`,
				'Raise Max Requests per Poll under Options, or poll more often so that less happens between two polls.',
			);
		}
		if (Date.now() >= this.settings.deadline) {
			throw this.client.refuse(
				`This poll ran out of time after ${this.spent} requests (${what}); nothing was emitted and the poll stands where it stood`,
				'n8n gives each poll a limited time. Poll more often so that less happens between two polls, or raise Timeout under Options if the service is slow.',
			);
		}
		this.spent++;
	}
}
