import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isJsonObject } from '../shared/json';
import { connect } from '../apis';
import { RateLimiter } from '../transport/limits';
import { clientSettings, paginationSettings, readOptions } from '../transport/readOptions';
import { answersModelWithErrors, toolErrorItem } from './toolMode';
import type { Operation } from './types';
import { resources } from './versionDescription';

/** The resource table by any parameter value: the saved workflow's text is looked up, never trusted. */
const RESOURCES: Readonly<Record<string, { operations: Readonly<Record<string, Operation>> }>> =
	resources;

/** Looks the saved parameter values up as own keys only: "constructor" or "__proto__" find nothing. */
function findOperation(ctx: IExecuteFunctions, resource: string, operation: string): Operation {
	const table = Object.hasOwn(RESOURCES, resource) ? RESOURCES[resource].operations : undefined;
	if (!table || !Object.hasOwn(table, operation)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" of "${resource}" is not known`,
		);
	}
	return table[operation];
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
 * The output items of one input item's result, appended to `out`: what n8n's returnJsonArray and
 * constructExecutionMetaData make of it, in one pass. Return All hands over tens of thousands of
 * records: a record becomes `{ json, pairedItem }` at once, not two objects and a spread later, and
 * no spread into push() (whose argument count the stack bounds). A record with a truthy `json` field
 * still goes through n8n's helpers, which read it as an item already.
 */
function pairItems(
	ctx: IExecuteFunctions,
	result: IDataObject | IDataObject[],
	itemIndex: number,
	out: INodeExecutionData[],
): void {
	const pairedItem = { item: itemIndex };
	for (const record of Array.isArray(result) ? result : [result]) {
		if (record?.json) {
			for (const item of ctx.helpers.constructExecutionMetaData(
				ctx.helpers.returnJsonArray(record),
				{ itemData: pairedItem },
			))
				out.push(item);
		} else {
			out.push({ json: record, pairedItem });
		}
	}
}

/**
 * The item loop, in one place: one request chain per input item, every output item paired with the
 * item it came from, and continue-on-fail turning a failure into an error item for that item only.
 * As an AI Agent's tool, a failure is the model's answer: see ./toolMode.
 *
 * @param continueOnFail the node's On Error setting, read by the node's `execute` (n8n's
 *   require-continue-on-fail rule looks for it there; it is one setting for all items)
 */
export async function router(
	this: IExecuteFunctions,
	continueOnFail: boolean,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0);
	const operationName = this.getNodeParameter('operation', 0);
	const operation = findOperation(this, resource, operationName);
	const returnData: INodeExecutionData[] = [];
	// Whether a failure is the model's answer, asked once the first item failed: ./toolMode runs only then.
	let toolAnswersErrors: boolean | undefined;
	// One limiter for the whole execution, by the first item's Requests per Second, so the ceiling holds
	// across items (null: that item set none); made in the loop, so that options that cannot be read
	// fail their item (and, in a tool, answer the model) like any failure.
	let limiter: RateLimiter | null | undefined;

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const options = readOptions(this, itemIndex);
			const settings = clientSettings(options);
			if (limiter === undefined)
				limiter =
					settings.requestsPerSecond > 0 ? new RateLimiter(settings.requestsPerSecond) : null;
			const pagination = () => paginationSettings(this, options, itemIndex);
			const client = await connect(this, itemIndex, { settings, limiter, pagination });
			const result = await operation.execute.call(this, itemIndex, client);
			pairItems(this, result, itemIndex, returnData);
		} catch (caught) {
			toolAnswersErrors ??= answersModelWithErrors(this);
			returnData.push(failedItem(this, caught, itemIndex, toolAnswersErrors, continueOnFail));
		}
	}
	return [returnData];
}

/**
 * What a failed item becomes: the model's answer in a tool, an error item paired with its input item
 * under continue-on-fail; otherwise the failure is thrown for that item.
 */
function failedItem(
	ctx: IExecuteFunctions,
	caught: unknown,
	itemIndex: number,
	answersModel: boolean,
	continueOnFail: boolean,
): INodeExecutionData {
	// Anything thrown that is not an Error is made one, as NodeOperationError would make it.
	const error = caught instanceof Error ? caught : new Error(String(caught));
	if (answersModel) return toolErrorItem(error, itemIndex);
	if (continueOnFail) return errorItem(error, itemIndex);
	if (error instanceof NodeApiError && isJsonObject(error)) {
		error.context.itemIndex ??= itemIndex;
		// n8n's lint wants a NodeApiError built here; built from one, it hands back that same error.
		throw new NodeApiError(ctx.getNode(), error);
	}
	// Hands back the same error when it already is a NodeOperationError.
	const failure = new NodeOperationError(ctx.getNode(), error, { itemIndex });
	failure.context.itemIndex ??= itemIndex;
	throw failure;
}
