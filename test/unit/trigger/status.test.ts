import { hasClosedStatus } from '../../../nodes/SupportChat/trigger/status';

describe('conversation status updates', () => {
	test('hasClosedStatus', () => {
		expect(hasClosedStatus({ data: { state: 'ARCHIVED' } })).toBe(true);
		expect(hasClosedStatus({ data: { state: 'pending' } })).toBe(false);
		expect(hasClosedStatus({})).toBe(false);
	});
});
