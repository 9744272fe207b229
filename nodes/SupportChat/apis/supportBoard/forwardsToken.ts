/**
 * The functions whose product code hands a request's `token` argument to a service outside Support
 * Board. The Web API reads the admin token from that same POST field (api.php, sb_process_api), so
 * calling one of them would give the admin token to that service. The node calls none of them, by any
 * operation: Message → Send (./delivery) and Call a Function, in a workflow or as a tool
 * (actions/webApi/checks), ask tokenForward before any request.
 *
 * Read from the product's source: include/ajax.php passes `$_POST['token']` (or `sb_post('token')`) on
 * to each function below, and the apps' code (at 3.8.5) puts it in a request to the service named. Of
 * them, 3.8.7's Web API lists only wechat-send-message; it answers the others function-not-found, but
 * ajax.php has them, and a release whose Web API listed one would forward the token the same way.
 * Read and left out: login (the token stays in the product), whatsapp-360-synchronization (its key
 * argument is unused: the 360dialog key comes from the settings), woocommerce-waiting-list (its token
 * argument is unused).
 */
export interface TokenForward {
	/** The service, as people name it. */
	service: string;
	/** Where the token goes. */
	host: string;
	/** What the service takes the token for. */
	as: string;
}

const FORWARDS_TOKEN: ReadonlyMap<string, TokenForward> = new Map<string, TokenForward>([
	// apps/wechat: sb_wechat_send_message($open_id, …, $access_token), in the URL of every call.
	[
		'wechat-send-message',
		{ service: 'WeChat', host: 'api.weixin.qq.com', as: "WeChat's access token" },
	],
	// apps/telegram: sb_telegram_synchronization($token): setWebhook at api.telegram.org/bot<token>/.
	[
		'telegram-synchronization',
		{ service: 'Telegram', host: 'api.telegram.org', as: "a Telegram bot's token" },
	],
	// apps/viber: sb_viber_synchronization($token): set_webhook with the X-Viber-Auth-Token header.
	[
		'viber-synchronization',
		{ service: 'Viber', host: 'chatapi.viber.com', as: "a Viber bot's token" },
	],
	// apps/tickets: sb_tickets_recaptcha($token): the response Google's siteverify checks.
	[
		'tickets-recaptcha',
		{ service: 'Google reCAPTCHA', host: 'www.google.com', as: 'a reCAPTCHA response' },
	],
]);

/**
 * Why the node does not call `name`, or undefined when its code keeps the token in the product. A
 * clause that follows "…, and " or a function name's refusal.
 */
export function tokenForward(name: string): string | undefined {
	const to = FORWARDS_TOKEN.get(name);
	return to === undefined
		? undefined
		: `Support Board's ${name} would take the admin token the Web API is called with for ${to.as} and send it to ${to.service} (${to.host})`;
}

/**
 * The functions whose product code puts the product's own secrets where others can read them: the
 * node calls none of them either, by any operation. settings.php, sb_export_settings: every setting,
 * passwords and app keys included, written to `uploads/settings_<number>.json`, a public file that
 * stays there, and its URL answered.
 */
const PUBLISHES_SECRETS: ReadonlyMap<string, string> = new Map([
	[
		'export-settings',
		'write every setting, its passwords and keys included, to a file in its uploads folder that anyone with the address can read, and answer that address',
	],
]);

/** Why the node never calls `name` (it hands on the admin token, or publishes secrets), or undefined. */
export function neverCalled(name: string): string | undefined {
	const publishes = PUBLISHES_SECRETS.get(name);
	return publishes === undefined
		? tokenForward(name)
		: `Support Board's ${name} would ${publishes}`;
}
