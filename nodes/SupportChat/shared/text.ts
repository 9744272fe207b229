/** How much of the service's text a message quotes: enough to recognise it, never a megabyte of it. */
export const QUOTE_LENGTH = 300;

/**
 * Text as sent, or its first `max` characters marked `…` when there was more: the one way the nodes cut
 * text that people read (service text quoted in a message, an event name as reported, a response body
 * kept on an error). Cut only text that is already masked: a cut through a secret would leave a part
 * that no mask recognises.
 */
export function cut(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}
