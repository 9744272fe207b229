import { parseForm } from '../../../nodes/SupportChat/trigger/form';

describe('parseForm', () => {
	test("parseForm keeps n8n's flat reading for plain keys", () => {
		expect(parseForm('a=1&b=&c')).toEqual({ a: '1', b: '', c: '' });
	});
});

describe('class 3: untrusted text is cut before anything that is not linear (issue 8)', () => {
	test('a thousand `a[]=` fields: one list of a thousand, in order', () => {
		const form = parseForm(Array.from({ length: 1000 }, (_, index) => `a[]=${index}`).join('&'));
		expect(Object.keys(form.a as object)).toHaveLength(1000);
		expect((form.a as Record<string, string>)['999']).toBe('999');
	});
});
