import type { IExecuteFunctions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { withHint } from '../transport/errors';

/**
 * Whether n8n runs this node as a tool (of an AI Agent, or of n8n's MCP server): it then runs the
 * node's tool type, named `<name>Tool`, by the same rule as n8n's `@tool` display condition.
 */
export function runsAsTool(node: Pick<INode, 'type'>): boolean {
	return node.type.endsWith('Tool');
}

/**
 * As a tool, a failure goes back to the model as the tool's answer, unless the tool's On Failed Call
 * says Stop the Run. Thrown, it would lose what the model needs most: n8n 2.41 hands AI Agent 3.x only
 * the error's message (the hint, in its description, is dropped), and AI Agent 2.x's executor swallows
 * a tool's error altogether, so the model gets an empty tool message. n8n's own tool nodes (HTTP
 * Request Tool, Code Tool) answer the model with the error text in the same way. A parameter of its
 * own, not On Error: the editor shows Stop Workflow for a node whose On Error was never set, so that
 * setting cannot tell "never chosen" from "chosen".
 */
export function answersModelWithErrors(
	ctx: Pick<IExecuteFunctions, 'getNode' | 'getNodeParameter'>,
): boolean {
	return (
		runsAsTool(ctx.getNode()) &&
		ctx.getNodeParameter('onFailedCall', 0, 'answerModel') !== 'stopRun'
	);
}

/** The tool type's own parameter: what a failed call does (see answersModelWithErrors). */
export const onFailedCallProperty: INodeProperties = {
	displayName: 'On Failed Call',
	name: 'onFailedCall',
	type: 'options',
	noDataExpression: true,
	default: 'answerModel',
	description: 'What happens when a call of this tool fails (an unknown ID, a refused token)',
	options: [
		{
			name: 'Answer the Model',
			value: 'answerModel',
			description:
				"The model gets the error and what to check as the tool's answer, and the run goes on",
		},
		{
			name: 'Stop the Run',
			value: 'stopRun',
			description: 'The error stops the run, as it does in a workflow',
		},
	],
	displayOptions: { show: { '@tool': [true] } },
};

/** The message and the hint as one text, the way the model reads them. */
function toolErrorText(error: Error): string {
	return withHint(error.message, 'description' in error ? error.description : undefined);
}

/** The item the model gets for a failed call: `{ error }`, the shape n8n gives a tool's error. */
export function toolErrorItem(error: Error, itemIndex: number): INodeExecutionData {
	return { json: { error: toolErrorText(error) }, pairedItem: { item: itemIndex } };
}
