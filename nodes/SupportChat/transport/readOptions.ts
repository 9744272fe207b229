import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PaginationSettings, PaginationStyle } from './pagination/styles';
import { DEFAULT_PAGINATION, PAGINATION_STYLES } from './pagination/styles';
import type { ClientSettings } from './limits';
import { DEFAULT_CLIENT_SETTINGS, MAX_TIMER_MS, MEGABYTE } from './limits';
import { itemCollection } from '../shared/parameters';

/**
 * The Options collection's request and pagination settings (descriptions/options.ts), read for the
 * client: by the action node per item, and by the triggers that send requests.
 */

function clamp(value: number, min: number, max: number): number {
	return Math.min(max, Math.max(min, value));
}

function numberOr(value: unknown, fallback: number): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function textOr(value: unknown, fallback: string): string {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

export function readOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return itemCollection(ctx, 'options', itemIndex);
}

export function clientSettings(options: IDataObject): ClientSettings {
	return {
		maxAttempts: Math.max(
			1,
			Math.floor(numberOr(options.maxAttempts, DEFAULT_CLIENT_SETTINGS.maxAttempts)),
		),
		baseDelayMs: DEFAULT_CLIENT_SETTINGS.baseDelayMs,
		maxDelayMs: clamp(
			numberOr(options.maxRetryWait, DEFAULT_CLIENT_SETTINGS.maxDelayMs / 1000) * 1000,
			0,
			MAX_TIMER_MS,
		),
		requestsPerSecond: Math.max(0, numberOr(options.requestsPerSecond, 0)),
		timeoutMs: clamp(
			numberOr(options.timeout, DEFAULT_CLIENT_SETTINGS.timeoutMs / 1000) * 1000,
			1000,
			MAX_TIMER_MS,
		),
		maxResponseBytes:
			Math.max(
				1,
				numberOr(options.maxResponseSize, DEFAULT_CLIENT_SETTINGS.maxResponseBytes / MEGABYTE),
			) * MEGABYTE,
	};
}

export function paginationSettings(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	options: IDataObject,
	itemIndex: number,
): PaginationSettings {
	const style = textOr(options.paginationStyle, DEFAULT_PAGINATION.style) as PaginationStyle;
	if (!PAGINATION_STYLES.includes(style)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Unknown pagination style "${style}"; use one of ${PAGINATION_STYLES.join(', ')}`,
			{ itemIndex },
		);
	}
	return {
		style,
		itemsPath: textOr(options.itemsPath, ''),
		nextPath: textOr(options.nextPath, ''),
		cursorParam: textOr(options.cursorParam, ''),
		pageParam: textOr(options.pageParam, DEFAULT_PAGINATION.pageParam),
		offsetParam: textOr(options.offsetParam, DEFAULT_PAGINATION.offsetParam),
		limitParam: textOr(options.limitParam, DEFAULT_PAGINATION.limitParam),
		pageSize: Math.max(0, Math.floor(numberOr(options.pageSize, 0))),
		firstPage: Math.floor(numberOr(options.firstPage, DEFAULT_PAGINATION.firstPage)),
		maxPages: Math.max(1, Math.floor(numberOr(options.maxPages, DEFAULT_PAGINATION.maxPages))),
		concurrency: Math.min(8, Math.max(1, Math.floor(numberOr(options.concurrency, 1)))),
	};
}
