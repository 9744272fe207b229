import type { TriggerSettings } from './readSettings';
import type { VerificationScheme } from './schemes';
import type { HmacAlgorithm, HmacEncoding } from './verify';
import { DEFAULT_TOLERANCE_SECONDS } from './verify';

/**
 * The trigger's parameter defaults, in one place. The description repeats them as literals because
 * n8n's editor and linter read defaults statically; test/unit/trigger/defaults.test.ts checks that the
 * two agree. `readSettings` (readSettings.ts) falls back to these when a parameter is missing or unusable.
 */
export const TRIGGER_DEFAULTS = {
	verification: 'none' as VerificationScheme,
	timestampTolerance: DEFAULT_TOLERANCE_SECONDS,
	tokenLocation: 'query' as 'query' | 'header',
	queryParameterName: 'token',
	headerName: 'X-Webhook-Token',
	hmacHeader: 'X-Signature',
	hmacAlgorithm: 'sha256' satisfies HmacAlgorithm,
	hmacEncoding: 'hex' as HmacEncoding,
	hmacPrefix: '',
	keyField: 'key',
	options: {
		dedupeWindowMinutes: 1440,
		ignoreOwnMessages: true,
		ignoredSenderIds: '',
		includeHeaders: false,
		unknownEvents: 'ignore' as TriggerSettings['unknownEvents'],
	},
} as const;
