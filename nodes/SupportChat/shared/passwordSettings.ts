/**
 * The settings Support Board types as passwords, by id: its admin area shows them as password fields,
 * and `get-settings` answers them in plain text (without their types). Masked by id at any depth, as
 * secret fields are (./secrets, `maskSecretFields`).
 *
 * Written by hand from every `"type": "password"` of the product's own settings
 * (Support Board 3.8.7, `resources/json/settings.json`, with `apps/wordpress/settings.json`, which has
 * none) and of its apps' (`script/apps/<app>/settings.json` of XtechGlobal-Dev/saassupport at 011c9c2).
 * A new password setting of the product is one line here. Three of its apps' secrets it types as text,
 * and they are here too: a secret is one by what it grants, not by how a form shows it.
 */
export const PASSWORD_SETTINGS: readonly string[] = [
	// resources/json/settings.json
	'push-notifications-key',
	'push-notifications-onesignal-api-key',
	'email-server-password',
	'email-piping-password',
	'sms-token',
	'envato-validation-token',
	'webhooks-key',
	'envato-purchase-code',
	'pusher-secret',
	'newsletter-key',
	'amazon-s3-access-key',
	'amazon-s3-secret-access-key',
	// apps/dialogflow
	'open-ai-key',
	'google-client-secret',
	'dialogflow-google-search-key',
	'tidycal-access-token',
	// Typed text: the OAuth refresh token of the Google account the app acts for.
	'google-refresh-token',
	// apps/line
	'line-token',
	'line-secret',
	// apps/messenger
	'messenger-key',
	'messenger-page-token',
	// apps/slack
	'slack-token',
	'slack-token-user',
	// apps/telegram
	'telegram-numbers-token',
	// apps/tickets
	'tickets-recaptcha-secret',
	// apps/twitter
	'twitter-consumer-secret',
	'twitter-secret-token',
	// Typed text: the access token of the X account.
	'twitter-access-token',
	// apps/viber
	'viber-token',
	// apps/wechat
	'wechat-app-secret',
	// Typed text: the token WeChat signs its messages to the product with.
	'wechat-token',
	// apps/whatsapp
	'whatsapp-cloud-key',
	'whatsapp-cloud-numbers-token',
	'whatsapp-twilio-token',
	'whatsapp-360-key',
	// apps/zalo
	'zalo-app-secret-key',
	'zalo-oa-secret-key',
	'zalo-token',
	// apps/zendesk
	'zendesk-key',
];

/**
 * The settings the product keeps in rows of their own (sb_save_external_setting, read by
 * `get-external-setting`) that hold a secret: the Dialogflow app's Google access token
 * (`[token, expiry]`), the Zalo app's tokens (`refresh|access|expiry`), the apps' licence keys.
 */
export const SECRET_EXTERNAL_SETTINGS: readonly string[] = [
	'google-token',
	'zalo-token',
	'app-keys',
];
