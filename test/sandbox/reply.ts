/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; CONTRIBUTING.md › Lint */
/** A sandbox answer as the sandbox tests check it: status, headers, the text, and the text as JSON when it is JSON. */
export interface Reply {
	status: number;
	headers: Headers;
	text: string;
	// Bodies are checked field by field; a loose type keeps the assertions readable.
	body: any;
}

export async function readReply(res: Response): Promise<Reply> {
	const text = await res.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON: kept as text
	}
	return { status: res.status, headers: res.headers, text, body: parsed };
}
