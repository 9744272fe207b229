import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
} from 'n8n-workflow';

/**
 * The request as the client takes it (from an operation's wire, a page of a list, a poll finder), what
 * it hands back, and the part of n8n's context it is sent through.
 */

export interface RequestSpec {
	method: IHttpRequestMethods;
	/** Path under the base URL, e.g. `/users/42`. */
	path?: string;
	/** Absolute or relative URL given by the service itself (a next-page link). */
	url?: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** A body sent as these bytes with this Content-Type (a multipart upload) instead of `body` as JSON. */
	upload?: { bytes: Buffer; contentType: string };
	/** Names the record in a 404 hint ("The user was not found"); a list has none. */
	resourceLabel?: string;
	/** Whether the answer must hold a record or a list; by default, whether the method reads. */
	read?: boolean;
	/** Whether repeating the request has no second effect; by default, by the method (./retry). */
	repeatable?: boolean;
	/** How messages name the request; by default its method and path. */
	label?: string;
	/** The hint for a refusal, where the API has a better one than the status gives. */
	hint?: (status: number | undefined, body: unknown) => string | undefined;
	/**
	 * A 404 in JSON is an answer, handed back with no body, not a failure: a page the node guessed at
	 * that the service says does not exist.
	 */
	absentIsAnswer?: boolean;
	/**
	 * The answer is read by the node alone and reaches no item nor message (the settings row the
	 * self-set-up trigger writes back whole): it is handed on as received, secrets and all, since a
	 * masked copy written back would replace them. A failure it reports is masked as ever.
	 */
	forNodeOnly?: boolean;
}

/** Methods that read: their answer must hold a record or a list, and they follow a same-origin redirect. */
export const METHODS_THAT_READ: ReadonlySet<IHttpRequestMethods> = new Set(['GET', 'HEAD']);

export interface ApiResponse {
	status: number;
	headers: Record<string, string>;
	body: unknown;
	url: string;
}

/** The credentials' type: what the client asks n8n's context for, and sends every request with. */
export const CREDENTIALS_TYPE = 'supportChatApi';

/**
 * The part of n8n's context the client uses. An execution or a list lookup is one; the credential test,
 * whose context has only the legacy `request` helper, builds one in ./credentialTest.
 */
export interface ClientContext {
	getNode(): INode;
	getCredentials(type: string, itemIndex?: number): Promise<ICredentialDataDecryptedObject>;
	helpers: {
		httpRequestWithAuthentication(
			credentialsType: string,
			requestOptions: IHttpRequestOptions,
			additionalCredentialOptions?: IAdditionalCredentialOptions,
		): Promise<unknown>;
	};
}
