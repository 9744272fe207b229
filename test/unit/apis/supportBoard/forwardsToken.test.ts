import { tokenForward } from '../../../../nodes/SupportChat/apis/supportBoard/forwardsToken';

describe('the functions whose product code hands the token argument to another service', () => {
	it.each([
		['wechat-send-message', 'api.weixin.qq.com'],
		['telegram-synchronization', 'api.telegram.org'],
		['viber-synchronization', 'chatapi.viber.com'],
		['tickets-recaptcha', 'www.google.com'],
	])(
		'%s, read in ajax.php and the apps, is refused naming where the token goes (%s)',
		(name, host) => {
			expect(tokenForward(name)).toContain(`(${host})`);
			expect(tokenForward(name)).toContain(name);
		},
	);

	it('each refusal names the function, the service and the admin token', () => {
		expect(tokenForward('telegram-synchronization')).toBe(
			"Support Board's telegram-synchronization would take the admin token the Web API is called with for a Telegram bot's token and send it to Telegram (api.telegram.org)",
		);
	});

	it.each([
		'get-user',
		'send-message',
		'login',
		'whatsapp-send-message',
		'constructor',
		'__proto__',
	])('%s keeps the token in the product', (name) => {
		expect(tokenForward(name)).toBeUndefined();
	});
});
