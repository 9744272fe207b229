import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { paginate } from '../transport/pagination';
import { RateLimiter, SupportChatClient } from '../transport/request';
import * as conversation from './conversation';
import * as message from './message';
import { clientSettings, paginationSettings, readOptions } from './settings';
import * as tag from './tag';
import type { Operation, OperationApi, OperationTable, Resource } from './types';
import * as user from './user';

const operations: OperationTable = {
	user: { getAll: user.getAll, get: user.get, create: user.create, update: user.update, delete: user.delete },
	conversation: {
		getAll: conversation.getAll,
		get: conversation.get,
		create: conversation.create,
		assign: conversation.assign,
		close: conversation.close,
	},
	message: { send: message.send },
	tag: { add: tag.add, getAll: tag.getAll },
};

function findOperation(ctx: IExecuteFunctions, resource: string, operation: string): Operation {
	const table = operations[resource as Resource] as Record<string, Operation> | undefined;
	const found = table?.[operation];
	if (!found) {
		throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" of "${resource}" is not known`);
	}
	return found;
}

function errorItem(error: Error, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error instanceof NodeApiError) {
		if (error.httpCode) json.httpCode = error.httpCode;
		if (error.description) json.description = error.description;
	}
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * The item loop, in one place: one request chain per input item, every output item paired with the
 * item it came from, and continue-on-fail turning a failure into an error item for that item only.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = findOperation(this, resource, operationName);
	// One limiter for the whole execution, so the ceiling holds across items.
	const limiter = new RateLimiter(clientSettings(readOptions(this, 0)).requestsPerSecond);
	const returnData: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const options = readOptions(this, itemIndex);
			const client = await SupportChatClient.connect(this, itemIndex, clientSettings(options), limiter);
			const api: OperationApi = {
				request: async (spec) => (await client.request(spec)).body,
				list: async (path, qs, resourceLabel) => {
					const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
					const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex, 50) as number);
					const settings = paginationSettings(this, options, itemIndex);
					return (await paginate(this, client, { path, qs, limit, resourceLabel }, settings, itemIndex)).items;
				},
			};
			const result = await operation.execute.call(this, itemIndex, api);
			returnData.push(
				...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(result), {
					itemData: { item: itemIndex },
				}),
			);
		} catch (error) {
			if (this.continueOnFail()) {
				returnData.push(errorItem(error as Error, itemIndex));
				continue;
			}
			if (error instanceof NodeApiError) {
				error.context.itemIndex ??= itemIndex;
				throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
			}
			// Hands back the same error when it already is a NodeOperationError.
			const failure = new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			failure.context.itemIndex ??= itemIndex;
			throw failure;
		}
	}
	return [returnData];
}
