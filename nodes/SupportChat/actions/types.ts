import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { RequestSpec } from '../transport/request';

/** What an operation may ask of the transport; it never builds headers or parses errors itself. */
export interface OperationApi {
	/** One request; resolves to the response body. */
	request(spec: RequestSpec): Promise<unknown>;
	/** A whole list through the pagination loop, honouring Return All / Limit and the pagination options. */
	list(path: string, qs?: IDataObject, resourceLabel?: string): Promise<unknown[]>;
}

export interface Operation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number, api: OperationApi): Promise<IDataObject | IDataObject[]>;
}

/** The resources and their operations. Parameter values are public API: saved workflows store them. */
export interface SupportChatOperations {
	user: 'getAll' | 'get' | 'create' | 'update' | 'delete';
	conversation: 'getAll' | 'get' | 'create' | 'assign' | 'close';
	message: 'send';
	tag: 'add' | 'getAll';
}

export type Resource = keyof SupportChatOperations;

/** Every resource must supply every one of its operations, or this fails to compile. */
export type OperationTable = { [R in Resource]: { [O in SupportChatOperations[R]]: Operation } };
