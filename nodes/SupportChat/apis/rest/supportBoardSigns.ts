import { isDataObject } from '../../shared/json';

/** Where REST mode meets Support Board: the hint that names the credentials' other API. */
export const SUPPORT_BOARD_HINT =
	"This looks like Support Board's Web API: choose Support Board Web API under API in the Support Chat API credentials, with your Support Board's address as Base URL.";

/** Support Board's error codes: lower-case words joined by hyphens (missing-function-name, invalid-token). */
const ERROR_CODE = /^[a-z]+(?:-[a-z]+)+$/;

/**
 * Whether a typed Base URL or an error body is Support Board's: an address ending in api.php, or its
 * error envelope `{"status":"error","response":"<code>"}`.
 */
export function looksLikeSupportBoard(value: unknown): boolean {
	if (typeof value === 'string') {
		let path = value.trim().split(/[?#]/, 1)[0].toLowerCase();
		while (path.endsWith('/')) path = path.slice(0, -1);
		return path.endsWith('/api.php');
	}
	if (!isDataObject(value) || value.status !== 'error') return false;
	const code = value.response;
	return typeof code === 'string' && code.length <= 64 && ERROR_CODE.test(code);
}
