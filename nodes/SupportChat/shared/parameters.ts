import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isDataObject } from './json';

/**
 * n8n's parameters are an edge where untyped values enter: n8n types each only as "some parameter
 * value". A collection (Options, Additional Fields, Update Fields, Filters) is checked here, once,
 * for the object its description makes it, so that no caller casts one.
 */

interface ItemParameters {
	getNode(): INode;
	getNodeParameter(name: string, itemIndex: number, fallback: IDataObject): unknown;
}

interface NodeParameters {
	getNode(): INode;
	getNodeParameter(name: string, fallback: IDataObject): unknown;
}

function collection(
	ctx: { getNode(): INode },
	name: string,
	value: unknown,
	itemIndex?: number,
): IDataObject {
	if (isDataObject(value)) return value;
	throw new NodeOperationError(ctx.getNode(), `The parameter "${name}" must be a collection`, {
		itemIndex,
	});
}

/** A collection parameter of one item of an action; empty when unset. */
export function itemCollection(ctx: ItemParameters, name: string, itemIndex: number): IDataObject {
	return collection(ctx, name, ctx.getNodeParameter(name, itemIndex, {}), itemIndex);
}

/** A collection parameter of a trigger, which has no items; empty when unset. */
export function nodeCollection(ctx: NodeParameters, name: string): IDataObject {
	return collection(ctx, name, ctx.getNodeParameter(name, {}));
}
