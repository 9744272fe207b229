import {
	allowlistProblem,
	functionList,
	functionNameProblem,
	parseArguments,
} from '../../../../nodes/SupportChat/actions/webApi/call.operation';

describe('functionNameProblem', () => {
	it.each([
		'get-user',
		'update-conversation-agent',
		'google-translate-detection-update-user',
		'a',
		'3',
		// MAX_FUNCTION_NAME_LENGTH in nodes/SupportChat/actions/webApi/call.operation.ts: 64 characters at most.
		'a'.repeat(64),
	])('takes %s', (name) => expect(functionNameProblem(name)).toBeUndefined());

	it.each([
		['', 'Function Name is empty'],
		['Get-User', 'is not a Support Board function name'],
		['get_user', 'is not a Support Board function name'],
		['get user', 'is not a Support Board function name'],
		['get-user\n', 'is not a Support Board function name'],
		['../api', 'is not a Support Board function name'],
		['a'.repeat(65), 'longer than 64 characters'],
	])('refuses %j', (name, problem) => expect(functionNameProblem(name)).toContain(problem));
});

describe('parseArguments', () => {
	it.each([
		['{"user_id": 12}', { user_id: 12 }],
		['  ', {}],
		['{}', {}],
		[undefined, {}],
		[null, {}],
		[
			{ user_id: '12', extra: { phone: ['+1', 'Phone'] } },
			{ user_id: '12', extra: { phone: ['+1', 'Phone'] } },
		],
	])('%j → %j', (value, args) => expect(parseArguments(value)).toEqual({ args }));

	it.each([
		['{user_id: 12}', 'not valid JSON'],
		['[1, 2]', 'not a list'],
		['null', 'not null'],
		['12', 'not a number'],
		['"get-user"', 'not a string'],
		[['a'], 'not a list'],
		[true, 'not a boolean'],
		['{"token": "x"}', 'may not hold token'],
		['{"function": "delete-users", "token": "x"}', 'may not hold function or token'],
	])('refuses %j', (value, problem) =>
		expect(parseArguments(value)).toEqual({ problem: expect.stringContaining(problem) }),
	);

	it('keeps a __proto__ key as data, never as a prototype', () => {
		const parsed = parseArguments('{"__proto__": {"polluted": true}, "user_id": 1}');
		expect('args' in parsed && Object.hasOwn(parsed.args, '__proto__')).toBe(true);
		expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
	});
});

describe('functionList', () => {
	it.each([
		[' get-user ,search-users,, ', ['get-user', 'search-users']],
		[
			['get-user', ' count-users '],
			['get-user', 'count-users'],
		],
		['', []],
		[undefined, []],
	])('%j → %j', (value, list) => expect(functionList(value)).toEqual(list));
});

describe('allowlistProblem', () => {
	it('an empty list: a workflow calls anything, a tool nothing', () => {
		expect(allowlistProblem('delete-users', [], false)).toBeUndefined();
		expect(allowlistProblem('get-user', [], true)).toContain('may call no Support Board function');
	});

	it.each([false, true])('a set list lets only its functions through (tool: %s)', (asTool) => {
		expect(allowlistProblem('get-user', ['get-user', 'search-users'], asTool)).toBeUndefined();
		expect(allowlistProblem('delete-users', ['get-user', 'search-users'], asTool)).toBe(
			'delete-users is not among the Allowed Functions (get-user, search-users), so it was not called: call one of these',
		);
		// Exact names: no prefix, no case folding.
		expect(allowlistProblem('get-user-by', ['get-user'], asTool)).toBeDefined();
	});
});
