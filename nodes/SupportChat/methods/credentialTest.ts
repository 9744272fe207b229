import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IHttpRequestOptions,
	INode,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { authorizationHeader } from '../../../credentials/SupportChatApi.credentials';
import type { ClientContext } from '../transport/types';
import { withHint } from '../transport/errors';
import { INTERACTIVE_CLIENT_SETTINGS } from '../transport/limits';
import { connect } from '../apis';

/** Errors need a node; the test runs outside any workflow, so it stands for the Support Chat node. */
const TEST_NODE: INode = {
	id: 'support-chat-credential-test',
	name: 'Support Chat API credential test',
	type: 'supportChat',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/**
 * The client's context over what n8n gives a credential test: the legacy `request` helper only, and the
 * credentials as typed (n8n has already put back secrets the editor sent redacted). The header is put on
 * by hand (`authorizationHeader`, beside the credentials' `authenticate`); redirects and status codes are
 * left to the client, which reads the body as a stream under its own size and time bounds.
 */
function clientContext(
	test: ICredentialTestFunctions,
	data: ICredentialDataDecryptedObject,
): ClientContext {
	const authorization = { Authorization: authorizationHeader(data) };
	return {
		getNode: () => TEST_NODE,
		getCredentials: async () => data,
		helpers: {
			httpRequestWithAuthentication: async (
				_type: string,
				options: IHttpRequestOptions,
			): Promise<unknown> =>
				await test.helpers.request({
					method: options.method ?? 'GET',
					uri: options.url,
					qs: options.qs,
					body: options.body,
					json: options.json,
					headers: { ...options.headers, ...authorization },
					useStream: options.encoding === 'stream',
					resolveWithFullResponse: true,
					simple: false,
					followRedirect: false,
					followAllRedirects: false,
					timeout: options.timeout,
				}),
		},
	};
}

/** The message and its hint in one line, as the dialog shows them. */
function explain(error: NodeApiError | NodeOperationError): string {
	return withHint(error.message, error.description);
}

/**
 * Tests the credentials with the nodes' own client: GET /tags, the token masked everywhere, and the
 * service's own message with our hint when it refuses (n8n's declarative test shows only the status text).
 */
export async function testSupportChatApi(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	try {
		const client = await connect(clientContext(this, data), 0, {
			settings: INTERACTIVE_CLIENT_SETTINGS,
		});
		await client.wire.probe(client);
		return { status: 'OK', message: 'Connection successful' };
	} catch (error) {
		// The client turns every failure of the exchange into one of these, with the token masked; anything
		// else is a bug, left to n8n to report.
		if (error instanceof NodeApiError || error instanceof NodeOperationError) {
			return { status: 'Error', message: explain(error) };
		}
		throw new NodeOperationError(TEST_NODE, error instanceof Error ? error : String(error));
	}
}
