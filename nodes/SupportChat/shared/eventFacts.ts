import type { EventRow } from './events';
import { KIND_ROWS } from './events';
import type { SupportBoardEvent } from './supportBoardEvents';
import { SUPPORT_BOARD_ROWS } from './supportBoardEvents';
import type { ReferencedResource } from './vocabulary/records';

/**
 * THE event table, and every list the code reads of it, derived once when the module loads: the
 * editor's Events options, what an event is about and keyed by, what tells its changes apart, the
 * product's webhook names, the names read whole and the polled events. Nothing else lists events.
 */

export const EVENT_ROWS = [...KIND_ROWS, ...SUPPORT_BOARD_ROWS] as const;

type Row = (typeof EVENT_ROWS)[number];
type KindOf<R extends EventRow> = Extract<R, { source: 'kind' }>['value'];
export type PolledEvent = Extract<Row, { polled: true }>['value'];

/** An option of the editor's Events list. */
interface EventOption {
	name: string;
	value: string;
	description: string;
}

/** What a whole event name says when its words alone cannot tell (trigger/detect.ts reads it first). */
export interface NamedDelivery<Kind extends string = KindOf<Row>> {
	/** The event it reports, when it is one of the six kinds. */
	event?: Kind;
	/** What the delivery is about, so that its record's own `id` is that resource's. */
	about?: ReferencedResource;
	/** Its data's own `id` names the form the visitor filled in, not a record: it is never read as an id. */
	formId?: true;
}

const option = ({ name, value, description }: EventRow): EventOption => ({
	name,
	value,
	description,
});
const byName = (a: EventOption, b: EventOption) => a.name.localeCompare(b.name);
const bySource = (rows: readonly EventRow[], source: EventRow['source']) =>
	rows
		.filter((row) => row.source === source)
		.map(option)
		.sort(byName);

const isKind = <R extends EventRow>(row: R): row is Extract<R, { source: 'kind' }> =>
	row.source === 'kind';

function namedDeliveries<R extends EventRow>(
	rows: readonly R[],
): Map<string, NamedDelivery<KindOf<R>>> {
	const named = new Map<string, NamedDelivery<KindOf<R>>>();
	// A name two rows share (`new-email-address`) keeps the kind's event beside the other's facts.
	for (const row of rows.filter(({ namedWhole }) => namedWhole))
		for (const name of row.webhooks)
			named.set(name, {
				...named.get(name),
				...(isKind(row) ? { event: row.value } : {}),
				...(row.about === null ? {} : { about: row.about }),
				...(row.formId ? { formId: true } : {}),
			});
	return named;
}

/**
 * Every list the code reads of the table, for the rows given: the module's own from EVENT_ROWS, below.
 * Lookups go through Maps: the names and values asked come from senders and saved workflows.
 */
export function deriveEventFacts<R extends EventRow>(rows: readonly R[]) {
	const byValue = new Map(rows.map((row) => [row.value, row]));
	const products = rows.filter(({ source }) => source === 'supportBoard');
	const byFunction = new Map(products.flatMap((row) => row.webhooks.map((name) => [name, row])));
	const polled = new Set(rows.filter((row) => row.polled).map(({ value }) => value));
	return {
		/** The webhook trigger's options after `*`: the six kinds, then Support Board's own, each by name. */
		triggerOptions: [...bySource(rows, 'kind'), ...bySource(rows, 'supportBoard')],
		/** The poll trigger's options: the polled events, by name. */
		pollOptions: rows
			.filter((row) => row.polled)
			.map(option)
			.sort(byName),
		kinds: rows.filter(({ source }) => source === 'kind').map(({ value }) => value),
		namedDeliveries: namedDeliveries(rows),
		row: (value: string): R | undefined => byValue.get(value),
		/** Support Board's own event by the `function` a delivery names it by, compared lower-cased. */
		productRow: (name: string): R | undefined => byFunction.get(name.toLowerCase()),
		about: (event: string) => byValue.get(event)?.about ?? undefined,
		keyedBy: (event: string) => byValue.get(event)?.keyedBy ?? 'conversation',
		change: (event: string) => byValue.get(event)?.change ?? null,
		webhooks: (event: string) => byValue.get(event)?.webhooks,
		isPolled: (value: string) => polled.has(value),
	};
}

const FACTS = deriveEventFacts(EVENT_ROWS);

export const TRIGGER_EVENT_OPTIONS: readonly EventOption[] = FACTS.triggerOptions;
export const POLL_EVENT_OPTIONS: readonly EventOption[] = FACTS.pollOptions;
/** The six kinds' values, in the table's order: what `*` selects. */
export const KIND_VALUES: readonly string[] = FACTS.kinds;
export const NAMED_DELIVERIES: ReadonlyMap<string, NamedDelivery> = FACTS.namedDeliveries;

/** The row of an event value (`login`); undefined for any other value, `*` and `unknown` included. */
export const eventRow = (value: string): EventRow | undefined => FACTS.row(value);

/** Support Board's own event a `function` name names, compared lower-cased; undefined for any other. */
export function productEventOf(name: string): SupportBoardEvent | undefined {
	const row = FACTS.productRow(name);
	return row?.source === 'supportBoard' ? row.value : undefined;
}

/** The resource an event is about, so that a bare `id` in its data can be read as that resource's id. */
export const resourceOfEvent = (event: string): ReferencedResource | undefined =>
	FACTS.about(event);

/** The record an event's key is made of; an event the table does not know is about its conversation. */
export const subjectOf = (event: string): ReferencedResource => FACTS.keyedBy(event);

/** What tells one change of the record from another (`EventRow.change`); null for an unknown event. */
export const changeOf = (event: string): EventRow['change'] => FACTS.change(event);

/** Support Board's webhook names for an event; undefined for a value the table does not know. */
export const webhooksOf = (event: string): readonly string[] | undefined => FACTS.webhooks(event);

export const isPolledEvent = (value: unknown): value is PolledEvent =>
	typeof value === 'string' && FACTS.isPolled(value);
