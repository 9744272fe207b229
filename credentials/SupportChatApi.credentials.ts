import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * The Authorization header these credentials put on a request: `authenticate` below says it to n8n as an
 * expression, and code that sends requests without n8n's authentication (the credential test) calls
 * this. test/unit/credentials/SupportChatApi.credentials.test.ts runs the expression and holds the two equal.
 */
export function authorizationHeader(data: ICredentialDataDecryptedObject): string {
	return data.api === 'supportBoard' ? '' : `Bearer ${String(data.apiToken ?? '')}`;
}

export class SupportChatApi implements ICredentialType {
	name = 'supportChatApi';

	displayName = 'Support Chat API';

	icon: Icon = {
		light: 'file:../nodes/SupportChat/supportChat.svg',
		dark: 'file:../nodes/SupportChat/supportChat.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-support-chat/n8n-nodes-support-chat#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API',
			name: 'api',
			type: 'options',
			// Credentials saved before this choice existed have no value here and keep working as REST.
			default: 'rest',
			options: [
				{
					name: 'REST Paths (/script/include/api/users …)',
					value: 'rest',
					description:
						'The REST API of the service description: GET /users, POST /messages…, with a bearer token',
				},
				{
					name: 'Support Board Web API (include/api.php)',
					value: 'supportBoard',
					description:
						"Support Board's own Web API: one endpoint, include/api.php, with the admin token",
				},
			],
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://chat.example.com/script/include/api',
			description:
				'Address of your chat service. The API path /script/include/api is added when it is missing.',
			displayOptions: { show: { api: ['rest'] } },
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://example.com/supportboard',
			description:
				"Address of your Support Board: the install folder (https://example.com/supportboard, or the WordPress plugin's …/wp-content/plugins/supportboard/supportboard), the cloud or SaaS https://host/script, or the full …/include/api.php",
			displayOptions: { show: { api: ['supportBoard'] } },
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Bearer token from the service. Keep it out of shared workflows and rotate it quarterly.',
			displayOptions: { show: { api: ['rest'] } },
		},
		{
			displayName: 'Admin Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"Token of a Support Board admin: in Support Board, Users, then your admin user's profile box. The node sends it in the body of each call, never in a URL.",
			displayOptions: { show: { api: ['supportBoard'] } },
		},
		{
			displayName: 'Allow Plain HTTP',
			name: 'allowHttp',
			type: 'boolean',
			default: false,
			description:
				'Whether to allow an http:// base URL on a host other than this machine. The token and all data then cross the network unencrypted, readable by anyone on the path. Only for a service inside a trusted private network.',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Secret used by the Support Chat Trigger to verify deliveries (signing secret or shared token, as chosen in the trigger; for Support Board, the Secret key of its Webhooks settings). Leave empty if deliveries are not verified.',
		},
	];

	/**
	 * The REST service only knows bearer tokens (spec §5); Support Board reads its token from the body,
	 * where transport/supportBoard.ts puts it, so it gets no header to carry a second copy of it. Declarative on purpose: n8n evaluates this block
	 * per request, which costs CPU on a long Return All (a function form was measured 1.3x faster), but
	 * the editor offers a credential to the HTTP Request node ("predefined credential type") only when
	 * its `authenticate` is data it can see, and calling undocumented endpoints that way matters more.
	 */
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization:
					'={{$credentials.api === "supportBoard" ? "" : "Bearer " + $credentials.apiToken}}',
			},
		},
	};

	// No declarative `test`: n8n 2.41 runs a credential type's `test` before looking for a node's, and that
	// test never reads the answer's body, so the service's own reason for refusing could not be shown.
	// Both nodes name `testedBy: 'supportChatApiTest'` (nodes/SupportChat/methods/credentialTest.ts), which
	// tests with the nodes' own client: GET /tags, no redirect off the service's origin, a bounded body,
	// the token masked.
}
