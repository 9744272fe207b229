import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { CallName, CallResult, Calls, ListCall } from '../transport/calls';
import type { FileHome } from '../transport/request';

/**
 * What an operation may ask of the client: a call by name, or a list. It never says how either
 * travels, builds headers or parses errors: the wire of the credentials' API does.
 */
export interface OperationClient {
	call<K extends CallName>(name: K, args: Calls[K]): Promise<CallResult>;
	/**
	 * A whole list through the pagination loop: up to `limit` records (every record when it is
	 * undefined), honouring the pagination options. The list operation reads its own Return All / Limit.
	 */
	list(call: ListCall): Promise<unknown[]>;
	/** The service's own files, for Download Attachments: the only place the credentials go with one. */
	fileHome(): FileHome;
}

export interface Operation {
	description: INodeProperties[];
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		client: OperationClient,
	): Promise<IDataObject | IDataObject[]>;
}

/**
 * A resource selector or operation selector whose option values and default can only be keys of the
 * table it selects from: an option without an implementation fails to compile.
 */
type Selector<Value extends string> = INodeProperties & {
	type: 'options';
	options: Array<INodePropertyOptions & { value: Value }>;
	default: Value;
};

type Offered<S> = S extends { options: ReadonlyArray<{ value: infer V }> } ? V : never;

/** Resolves to `unknown` when every key is offered; otherwise to a type that names the ones left out. */
type OffersEvery<Key extends string, S> = [Exclude<Key, Offered<S>>] extends [never]
	? unknown
	: { 'every key of the table needs an option': Exclude<Key, Offered<S>> };

/**
 * The selector of a table (resources, or a resource's operations), checked at compile time: its
 * options must be exactly the table's keys, so an option without an implementation, or an
 * implementation without an option, does not compile. Values are public API: saved workflows store them.
 */
export function selectorOf<Key extends string, S extends Selector<Key>>(
	_table: Record<Key, unknown>,
	selector: S & OffersEvery<Key, S>,
): S {
	return selector;
}

/** The properties of one resource: its Operation selector, then each operation's own, in the table's order. */
export function describeOperations<O extends string, S extends Selector<O>>(
	operations: Record<O, Operation>,
	selector: S & OffersEvery<O, S>,
): INodeProperties[] {
	return [
		selectorOf(operations, selector),
		...Object.values<Operation>(operations).flatMap((operation) => operation.description),
	];
}
