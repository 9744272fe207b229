/**
 * Types of the sandbox: the local stand-in of the chat service (spec 000) used by tests, the benchmark
 * and the demo. The implementation is plain CommonJS (`// @ts-check`) so that `node` runs it without a
 * build; its JSDoc refers to these declarations, so they are checked against it.
 */
import type { EventEmitter } from 'node:events';

export type PaginationStyle =
	| 'none'
	| 'array'
	| 'link'
	| 'next-url'
	| 'links-next'
	| 'hal'
	| 'cursor'
	| 'cursor-meta'
	| 'has-more'
	| 'page'
	| 'page-nototal'
	| 'offset'
	| 'offset-nototal';
export type Envelope = 'none' | 'data' | 'success-response';
export type ErrorStyle = 'message' | 'error' | 'errors' | 'detail' | 'text' | 'html';
export type TagShape = 'objects' | 'strings';
export type FaultKind =
	| '429'
	| '500'
	| '503'
	| 'status'
	| 'slow'
	| 'malformed'
	| 'html'
	| 'success-false'
	| 'repeat-cursor'
	| 'reset'
	| 'drop-after-write';
export type Resource = 'users' | 'conversations' | 'tags';
export type ConversationStatus = 'active' | 'pending' | 'closed';

/** What can be changed at run time (`configure`, `POST /_sandbox/configure`). */
export interface SandboxConfig {
	/** Bearer token every API call must carry. */
	token: string;
	pagination: PaginationStyle;
	envelope: Envelope;
	errorStyle: ErrorStyle;
	/** Page size when the request names none. */
	pageSize: number;
	/** Cap on `per_page` / `limit` / `page_size`. */
	maxPageSize: number;
	/** Answer to DELETE: 200 with `{ success: true }`, or 204 without a body. */
	deleteStatus: 200 | 204;
	/** GET /tags items: `{ id, name }` objects or bare names. */
	tagShape: TagShape;
	/** Origin used in absolute next-page URLs; null = the request's Host header. */
	publicOrigin: string | null;
	/** Whether API requests are recorded in `requests` (turn off for long benchmark runs). */
	log: boolean;
}

export interface SeedOptions {
	users?: number;
	conversations?: number;
	/** The tag list; seeded users carry some of these. */
	tags?: string[];
	/** Messages in each seeded conversation (default 1). */
	messagesPerConversation?: number;
}

export interface SandboxOptions extends Partial<SandboxConfig> {
	/** 0 (default) = an ephemeral port. The server listens on 127.0.0.1 only. */
	port?: number;
	/** Initial data; default none. */
	seed?: SeedOptions;
	/** Clock for timestamps of records made at run time (seeded records have fixed timestamps). */
	now?: () => Date;
}

export interface User {
	id: string;
	name: string | null;
	email: string | null;
	phone: string | null;
	tags: string[];
	created_at: string;
	updated_at: string;
	[field: string]: unknown;
}

export interface Conversation {
	id: string;
	user_id: string | null;
	status: ConversationStatus;
	assignee_id: string | null;
	subject?: string;
	created_at: string;
	updated_at: string;
	closed_at: string | null;
	[field: string]: unknown;
}

export interface Message {
	id: string;
	conversation_id: string;
	message: string;
	type: string;
	created_at: string;
}

export interface Tag {
	id: string;
	name: string;
}

/** Live arrays: they keep their identity across `seed`, `reset` and every change. */
export interface SandboxState {
	users: User[];
	conversations: Conversation[];
	messages: Message[];
	tags: Tag[];
}

export interface LoggedRequest {
	method: string;
	/** Path without the `/script/include/api` prefix (the full path when the prefix is missing). */
	path: string;
	/** Query parameters; a repeated name gives an array. */
	query: Record<string, string | string[]>;
	/** Parsed JSON, the raw text when it is not JSON, undefined when empty. */
	body: unknown;
	/** 0 while unanswered, and for a `reset` fault. */
	status: number;
	/** Lower-case names; `authorization` is redacted and the token appears nowhere. */
	headers: Record<string, string>;
	/** The fault applied to this request, if any. */
	fault?: FaultKind;
	/** Arrival time, ms since the epoch. */
	time: number;
}

export interface FaultSpec {
	/** Default: any method. */
	method?: string;
	/** Exact path without the API prefix (e.g. `/users`), or a pattern tested against it. Default: any. */
	path?: string | RegExp;
	kind: FaultKind;
	/** Matching requests that get the fault: default 1, and Infinity for `repeat-cursor`. */
	times?: number;
	/** 429: seconds, or a Date (or date string) sent as an HTTP-date. No header when omitted. */
	retryAfter?: number | Date | string;
	/** slow: delay before the normal answer (default 1000). */
	delayMs?: number;
	/** status: the status to answer; html: overrides 502; drop-after-write: overrides 500. */
	status?: number;
	/** Text of the error body. */
	message?: string;
}

export interface QueuedFault extends Omit<FaultSpec, 'times' | 'path'> {
	id: number;
	path?: string | RegExp;
	/** Remaining matching requests that get the fault. */
	remaining: number;
}

export type EventSource = 'api' | 'visitor' | 'control';

export interface ChangeData {
	userCreated: { user: User };
	userUpdated: { user: User; fields: string[] };
	userDeleted: { user: User };
	conversationCreated: { conversation: Conversation; user: User | null; message: Message | null };
	conversationAssigned: { conversation: Conversation; assignee_id: string };
	conversationClosed: { conversation: Conversation };
	messageCreated: { message: Message; conversation: Conversation };
	tagApplied: { user: User; tag: string };
	leadCaptured: { user: User; conversation: Conversation | null };
}
export type ChangeKind = keyof ChangeData;

/** One state change. `data` holds copies taken when it happened. */
export type ChangeEvent = {
	[K in ChangeKind]: { id: string; kind: K; at: string; source: EventSource; data: ChangeData[K] };
}[ChangeKind];

export interface VisitorStart {
	name?: string;
	email?: string;
	phone?: string;
	message: string;
	subject?: string;
}

export interface VisitorStarted {
	user: User;
	conversation: Conversation;
	message: Message;
	/** False when a user with the same e-mail already existed. */
	userCreated: boolean;
}

export interface LeadInput {
	email: string;
	name?: string;
	phone?: string;
	conversationId?: string;
}

/** The chat widget's side: what a visitor does, outside the bearer API. */
export interface Visitor {
	startConversation(input: VisitorStart): VisitorStarted;
	say(conversationId: string, text: string): Message;
	/** The visitor leaves contact details (lead capture): creates or updates the user by e-mail. */
	captureLead(input: LeadInput): { user: User; created: boolean };
}

export interface Sandbox {
	/** `http://127.0.0.1:PORT/script/include/api` */
	readonly baseUrl: string;
	/** `http://127.0.0.1:PORT` */
	readonly origin: string;
	/** `http://127.0.0.1:PORT/_sandbox` */
	readonly controlUrl: string;
	readonly port: number;
	/** Request log (live array). */
	readonly requests: LoggedRequest[];
	readonly state: SandboxState;
	readonly config: Readonly<SandboxConfig>;
	/** Emits `change` with a ChangeEvent for every state change. */
	readonly events: EventEmitter<{ change: [ChangeEvent] }>;
	readonly visitor: Visitor;
	clearLog(): void;
	configure(patch: Partial<SandboxConfig>): SandboxConfig;
	fault(spec: FaultSpec): QueuedFault;
	/** Faults still queued. */
	faults(): QueuedFault[];
	clearFaults(): void;
	/** Replaces all data with freshly generated data (ids restart); without options, the startup seed. */
	seed(options?: SeedOptions): void;
	/** Back to the start: initial config and seed; no faults, empty log. */
	reset(): void;
	close(): Promise<void>;
}

export const API_PREFIX: '/script/include/api';
export const CONTROL_PREFIX: '/_sandbox';
export const PAGINATION_STYLES: readonly PaginationStyle[];
export const ENVELOPES: readonly Envelope[];
export const ERROR_STYLES: readonly ErrorStyle[];
export const FAULT_KINDS: readonly FaultKind[];
export function startSandbox(options?: SandboxOptions): Promise<Sandbox>;
