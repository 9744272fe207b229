import type { INode, INodeExecutionData } from 'n8n-workflow';

/**
 * Whether n8n runs this node as a tool (of an AI Agent, or of n8n's MCP server): it then runs the
 * node's tool type, named `<name>Tool`, by the same rule as n8n's `@tool` display condition.
 */
export function runsAsTool(node: Pick<INode, 'type'>): boolean {
	return node.type.endsWith('Tool');
}

/**
 * As a tool, a failure goes back to the model as the tool's answer, unless the user chose On Error ›
 * Stop Workflow. Thrown, it would lose what the model needs most: n8n 2.41 hands AI Agent 3.x only
 * the error's message (the hint, in its description, is dropped), and AI Agent 2.x's executor swallows
 * a tool's error altogether, so the model gets an empty tool message. n8n's own tool nodes (HTTP
 * Request Tool, Code Tool) answer the model with the error text in the same way.
 */
export function answersModelWithErrors(node: Pick<INode, 'type' | 'onError'>): boolean {
	return runsAsTool(node) && node.onError !== 'stopWorkflow';
}

/** The message and the hint as one text, the way the model reads them. */
export function toolErrorText(error: Error): string {
	const message = error.message.trim();
	const hint = (error as { description?: unknown }).description;
	if (typeof hint !== 'string' || hint.trim() === '' || message.includes(hint.trim())) return message;
	return `${message}${/[.!?…]$/.test(message) ? '' : '.'} ${hint.trim()}`;
}

/** The item the model gets for a failed call: `{ error }`, the shape n8n gives a tool's error. */
export function toolErrorItem(error: Error, itemIndex: number): INodeExecutionData {
	return { json: { error: toolErrorText(error) }, pairedItem: { item: itemIndex } };
}
