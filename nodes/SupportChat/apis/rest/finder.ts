import type { IDataObject } from 'n8n-workflow';

import type { EventFinder, FinderClient, Found, KeptMarks, Marks, PollSettings } from '../types';
import { isDataObject } from '../../shared/json';
import type { ListName } from '../../transport/calls';
import type { Mark, Stream } from './streams';
import { collectStream, markIn, STREAMS } from './streams';

/**
 * The REST API of the description documents no `since` filter, no order and no message list (§4): a
 * poll reads the users and conversations lists whole (within Pagination Max Pages) and keeps, per stream,
 * the highest value of a field that grows with each new record, and the keys of the records at that
 * value: a record above the mark is new, one at the mark is new unless its key is kept, one below is
 * old. However many records share the mark's value, none comes out twice, and what is kept is only that
 * tie. New records go by their creation time (or Watermark Field); closings always go by their closing
 * time, whatever marks creation.
 */

function collect(
	client: FinderClient,
	streams: readonly Stream[],
	lists: Map<ListName, IDataObject[]>,
	marks: Marks,
	settings: PollSettings,
) {
	const events: Found[] = [];
	// Only the selected streams' marks: one taken out of Events starts afresh when it is selected again.
	const next: Marks = {};
	for (const stream of streams)
		if (marks[stream.event] !== undefined) next[stream.event] = marks[stream.event];
	for (const stream of streams) {
		const records = (lists.get(stream.list) ?? []).filter(stream.keep);
		if (records.length === 0) continue;
		const result = collectStream(client, stream, records, markIn(marks, stream.event), settings);
		events.push(...result.events);
		if (result.mark) next[stream.event] = { ...result.mark };
	}
	return { found: events, marks: next };
}

function streamsFor(client: FinderClient, settings: PollSettings): Stream[] {
	if (settings.events.includes('messageCreated')) {
		throw client.refuse(
			'New Message cannot be found by polling the REST API: it has no list of messages',
			'Take New Message out of Events here and use the Support Chat Trigger (webhooks) for it, or choose Support Board Web API in the credentials if your service is Support Board.',
		);
	}
	return STREAMS.filter((stream) => settings.events.includes(stream.event));
}

/**
 * Since Parameter's value for a list: the lowest creation mark of the streams reading it. None when one
 * of them has no mark yet, or orders by closing time: a closing can come to a conversation of any age.
 */
function sinceValue(list: ListName, streams: readonly Stream[], marks: Marks): string | undefined {
	let lowest: Mark | undefined;
	for (const stream of streams.filter((s) => s.list === list)) {
		const mark = markIn(marks, stream.event);
		if (mark === undefined || !stream.byCreation) return undefined;
		if (lowest === undefined || mark.value < lowest.value) lowest = mark;
	}
	return lowest?.raw;
}

/** Each list a stream needs, read once a poll (by the poll's pagination options), with Since Parameter where `sinceValue` allows it. */
async function readLists(
	client: FinderClient,
	settings: PollSettings,
	streams: readonly Stream[],
	marks: Marks,
) {
	const lists = new Map<ListName, IDataObject[]>();
	for (const list of new Set(streams.map((stream) => stream.list))) {
		const since = settings.sinceParam === '' ? undefined : sinceValue(list, streams, marks);
		const query = since === undefined ? {} : { [settings.sinceParam]: since };
		lists.set(list, (await client.list({ list, query })).filter(isDataObject));
	}
	return lists;
}

export function restFinder(): EventFinder {
	const read = async (client: FinderClient, settings: PollSettings, marks: Marks) => {
		const streams = streamsFor(client, settings);
		const lists = await readLists(client, settings, streams, marks);
		return collect(client, streams, lists, marks, settings);
	};
	return {
		async baseline(client, settings, kept?: KeptMarks) {
			// Every record read stands at or before the marks: the first poll emits none of them.
			return { found: [], marks: { ...kept?.marks, ...(await read(client, settings, {})).marks } };
		},

		async since(client, settings, marks) {
			return await read(client, settings, marks);
		},

		async newest(client, settings) {
			const { found: all, marks } = await read(client, settings, {});
			// The records at each stream's newest value.
			return all.filter((event) => markIn(marks, event.event)?.value === event.at);
		},
	};
}
