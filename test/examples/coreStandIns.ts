/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/**
 * Stand-ins for the n8n core nodes the examples use, so that OUR part of those examples can run in
 * the engine harness against the sandbox.
 *
 * n8n-nodes-base is not a dependency of this package (every n8n ships it; installing it here would
 * pull in all of n8n), so the core nodes themselves cannot run in these tests. The end-to-end suite
 * (e2e/) imports the examples whole into a real n8n 2.41.1, where they do run. What a stand-in does
 * here is deliberately small, and each says exactly what it covers:
 *
 * - Filter: the conditions saved in the example are evaluated by n8n-core's own filter evaluation
 *   (`getNodeParameter(..., { extractValue: true })` → n8n-workflow `executeFilter`), the same call
 *   Filter v2 makes; kept items go to output 0, the others to output 1, as Filter v2 sends them.
 * - Schedule Trigger: passes on the item the test starts it with.
 * - Data table: writes nothing; it outputs the row and the match condition its saved parameters
 *   resolve to, so a test can check the column mapping against the items it receives.
 */
import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

/** n8n 2.41.1's current versions of the core nodes the examples use (read from its n8n-nodes-base). */
export const CORE_VERSIONS = {
	'n8n-nodes-base.filter': 2.3,
	'n8n-nodes-base.scheduleTrigger': 1.4,
	'n8n-nodes-base.dataTable': 1.1,
	'n8n-nodes-base.removeDuplicates': 2,
	'n8n-nodes-base.noOp': 1,
} as const;

export type CoreNodeType = keyof typeof CORE_VERSIONS;

class FilterStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Filter (stand-in)',
		name: 'filter',
		group: ['transform'],
		version: CORE_VERSIONS['n8n-nodes-base.filter'],
		description: 'Evaluates saved Filter conditions with n8n-core',
		defaults: { name: 'Filter' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Kept', 'Discarded'],
		// The parameters Filter v2 declares; n8n drops undeclared ones when it builds the workflow.
		properties: [
			{ displayName: 'Conditions', name: 'conditions', type: 'filter', default: {} },
			{
				displayName: 'Convert Types Where Required',
				name: 'looseTypeValidation',
				type: 'boolean',
				default: false,
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				options: [
					{ displayName: 'Ignore Case', name: 'ignoreCase', type: 'boolean', default: true },
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const kept: INodeExecutionData[] = [];
		const discarded: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			const pass = this.getNodeParameter('conditions', itemIndex, false, {
				extractValue: true,
			}) as boolean;
			if (item.pairedItem === undefined) item.pairedItem = { item: itemIndex };
			(pass ? kept : discarded).push(item);
		});
		return [kept, discarded];
	}
}

class ScheduleTriggerStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Schedule Trigger (stand-in)',
		name: 'scheduleTrigger',
		group: ['trigger', 'schedule'],
		version: CORE_VERSIONS['n8n-nodes-base.scheduleTrigger'],
		description: 'Passes on the item the test starts it with',
		defaults: { name: 'Schedule Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'Trigger Rules',
				name: 'rule',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: { interval: [{ field: 'days' }] },
				options: [
					{
						name: 'interval',
						displayName: 'Trigger Interval',
						values: [
							{ displayName: 'Trigger Interval', name: 'field', type: 'string', default: 'days' },
							{
								displayName: 'Hours Between Triggers',
								name: 'hoursInterval',
								type: 'number',
								default: 1,
							},
						],
					},
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

class DataTableStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Data table (stand-in)',
		name: 'dataTable',
		group: ['input', 'transform'],
		version: CORE_VERSIONS['n8n-nodes-base.dataTable'],
		description: 'Outputs the row its saved parameters resolve to',
		defaults: { name: 'Data table' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Resource', name: 'resource', type: 'string', default: 'row' },
			{ displayName: 'Operation', name: 'operation', type: 'string', default: 'insert' },
			{
				displayName: 'Data Table',
				name: 'dataTableId',
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				modes: [
					{
						displayName: 'From List',
						name: 'list',
						type: 'list',
						typeOptions: { searchListMethod: 'tableSearch' },
					},
					{ displayName: 'By Name', name: 'name', type: 'string' },
					{ displayName: 'ID', name: 'id', type: 'string' },
				],
			},
			{ displayName: 'Must Match', name: 'matchType', type: 'string', default: 'anyCondition' },
			{
				displayName: 'Conditions',
				name: 'filters',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				options: [
					{
						displayName: 'Conditions',
						name: 'conditions',
						values: [
							{ displayName: 'Column', name: 'keyName', type: 'string', default: 'id' },
							{ displayName: 'Condition', name: 'condition', type: 'string', default: 'eq' },
							{ displayName: 'Value', name: 'keyValue', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Columns',
				name: 'columns',
				type: 'resourceMapper',
				default: { mappingMode: 'defineBelow', value: null },
				typeOptions: {
					resourceMapper: {
						resourceMapperMethod: 'getDataTables',
						mode: 'add',
						fieldWords: { singular: 'column', plural: 'columns' },
					},
				},
			},
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_, itemIndex) => ({
				json: {
					operation: this.getNodeParameter('operation', itemIndex) as string,
					row: this.getNodeParameter('columns.value', itemIndex, {}) as IDataObject,
					match: this.getNodeParameter('filters.conditions', itemIndex, []) as IDataObject[],
				},
				pairedItem: { item: itemIndex },
			})),
		];
	}
}

/**
 * The core nodes with a stand-in. Remove Duplicates keeps its memory in n8n's database and has none:
 * the example that uses it is only checked here, and runs in the end-to-end suite.
 */
export const coreStandIns: Partial<Record<CoreNodeType, INodeType>> = {
	'n8n-nodes-base.filter': new FilterStandIn(),
	'n8n-nodes-base.scheduleTrigger': new ScheduleTriggerStandIn(),
	'n8n-nodes-base.dataTable': new DataTableStandIn(),
};
