import { describeLeadEscalation } from '../support/leadEscalation';

/*
 * Regular mode: one n8n process receives the sandbox's deliveries at the trigger's production URL and
 * runs the workflow. The scenario and its assertions: e2e/support/leadEscalation.ts.
 */

const context = describeLeadEscalation('regular');

test('one process served the deliveries and ran every execution', () => {
	expect(context.n8n.processes.map((p) => p.name)).toEqual(['main']);
	expect(context.runs).toHaveLength(3);
	for (const run of context.runs) expect(run.mode).toBe('webhook');
});
