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
/**
 * A service that lies about its pages (issue 8): huge declared counts, numeric cursors, a total never
 * reached, id-less pages with equal first and last records, an empty body after a page promising more.
 */
export type HostilePaginationStyle =
	| 'huge-total'
	| 'offset-huge-total'
	| 'numeric-cursor'
	| 'lying-total'
	| 'no-id-edges'
	| 'empty-after-more';
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
	| 'drop-after-write'
	| 'redirect'
	| 'raw'
	| 'trickle'
	| 'gzip-bomb'
	| 'echo-token';
export type Resource = 'users' | 'conversations' | 'tags';
export type ConversationStatus = 'active' | 'pending' | 'closed';

/** What can be changed at run time (`configure`, `POST /_sandbox/configure`). */
export interface SandboxConfig {
	/** Bearer token every API call must carry. */
	token: string;
	pagination: PaginationStyle | HostilePaginationStyle;
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
	/** Initial webhook configuration (also what `reset` returns to); default: no receivers. */
	webhooks?: WebhookConfigInput;
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
	/** 429: seconds, or a Date sent as an HTTP-date, or a string sent as it is. No header when omitted. */
	retryAfter?: number | Date | string;
	/** redirect: where to (absolute, or relative to the request); the status defaults to 302. */
	location?: string;
	/** raw: the body sent as it is (default empty), with `contentType` (default none) and `status` (default 200). */
	body?: string;
	contentType?: string;
	/** trickle: a JSON page sent one byte every `intervalMs` (default 300) after the headers; `bytes` long (default 200). */
	intervalMs?: number;
	bytes?: number;
	/** gzip-bomb: a gzip body that inflates to this many bytes of JSON-looking padding (default 600 MB). */
	inflatedBytes?: number;
	/** slow: delay before the normal answer (default 1000). */
	delayMs?: number;
	/** status: the status to answer; html: overrides 502; drop-after-write: overrides 500; redirect: 301/302/307/308; raw: overrides 200. */
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
	/** `lead` holds what the visitor left; `message` is the chat message it was found in (via `message`). */
	leadCaptured: { user: User; conversation: Conversation | null; lead: Lead; message: Message | null };
}

/** Contact details a visitor left: through the lead form (`captureLead`), or written into a chat message. */
export interface Lead {
	email: string | null;
	phone: string | null;
	via: 'form' | 'message';
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

/** At least one of `email` and `phone`. */
export interface LeadInput {
	email?: string;
	name?: string;
	phone?: string;
	conversationId?: string;
}

/** The chat widget's side: what a visitor does, outside the bearer API. */
export interface Visitor {
	/** An e-mail address or +phone number in the first message is a lead, as with `say`. */
	startConversation(input: VisitorStart): VisitorStarted;
	/**
	 * The visitor writes (type `user`). A text holding an e-mail address or a +phone number that the
	 * user does not have yet is a lead: the user gets the missing fields, then `leadCaptured` (via `message`).
	 */
	say(conversationId: string, text: string): Message;
	/** The visitor leaves contact details (lead capture): creates or updates the user by e-mail, else phone. */
	captureLead(input: LeadInput): { user: User; created: boolean };
}

/** The six kinds of webhook event (spec §6), named as the change events they come from. */
export type WebhookKind = 'conversationCreated' | 'messageCreated' | 'conversationClosed' | 'userCreated' | 'tagApplied' | 'leadCaptured';
/**
 * Payload styles, each a different envelope and naming:
 * - `dotted`: JSON `{ id, object: 'event', type: 'conversation.created', created_at, source, data: { object } }`
 * - `flat-php`: form body `function=new-conversation-created&data=<JSON>&delivery_id=…[&secret_key=…]`
 * - `event-header`: JSON record; the event in `X-Webhook-Event: NewConversation`, the id in `X-Webhook-Id`
 * - `nested`: JSON `{ webhook: { event: 'new_conversation', event_id, timestamp, source }, payload: { conversation, user, message } }`
 * - `human`: camelCase JSON `{ event: 'New Conversation', eventId, occurredAt, via, conversationId, userId, messageId, conversation, contact, message }`
 */
export type WebhookStyle = 'dotted' | 'flat-php' | 'event-header' | 'nested' | 'human';
/**
 * One-shot spoiling of the next event's signature, for negative tests: `body` changes the body after
 * signing, `signature` signs with another secret, `stale` dates the timestamp 10 minutes back,
 * `unsigned` leaves the three `webhook-*` headers out.
 */
export type WebhookTamper = 'body' | 'signature' | 'stale' | 'unsigned';

export interface WebhookConfig {
	/** Receivers, parsed from the comma-separated text. */
	urls: readonly string[];
	/** The dashboard's switches; all on by default. */
	kinds: Readonly<Record<WebhookKind, boolean>>;
	/** Default `dotted`. */
	style: WebhookStyle;
	/** Standard Webhooks secret (`whsec_<base64>`, or any text used as UTF-8); null = unsigned. */
	secret: string | null;
	/** Attempts in all (the first included) and the pause between them; null = one attempt. */
	retry: Readonly<{ attempts: number; delayMs: number }> | null;
	/** Per attempt; a timeout counts as a network error (status 0). Default 5000. */
	timeoutMs: number;
}

/** A patch over the current configuration. */
export interface WebhookConfigInput {
	/** As typed in the dashboard: `'http://a/x, http://b/y'` (commas or spaces separate, empty entries ignored). A non-http(s) entry throws, naming it. */
	urls?: string | readonly string[];
	/** Switches merged over the current ones, or the list of kinds to enable (others off). */
	kinds?: Partial<Record<WebhookKind, boolean>> | readonly WebhookKind[] | string;
	style?: WebhookStyle;
	secret?: string | null;
	/** A number = attempts with a 200 ms pause; null, false or 0 = off. */
	retry?: { attempts: number; delayMs?: number } | number | null | false;
	timeoutMs?: number;
}

export interface WebhookSignatureOptions {
	/** Send two signatures, space-separated: a wrong one first, then the right one. Stays on until turned off. */
	extraInvalidSignature: boolean;
	/** Applies to the next event sent (every receiver and attempt of it), then goes back to null. */
	tamper: WebhookTamper | null;
}

/** One attempt of one event to one receiver, logged when it ended. */
export interface WebhookDelivery {
	/** The delivery id: the same for every receiver and every attempt of one event (`webhook-id`). */
	id: string;
	kind: WebhookKind;
	/** The style's name for the kind, e.g. `conversation.created`. */
	event: string;
	style: WebhookStyle;
	url: string;
	/** 1 for the first attempt. */
	attempt: number;
	/** The receiver's status; 0 = network error or timeout. */
	status: number;
	/** When the attempt started (ISO). */
	at: string;
	/** Headers sent, lower-case names. */
	headers: Record<string, string>;
	/** The raw body sent. */
	body: string;
	durationMs: number;
	error?: string;
	/** The receiver's answer (first 2,000 characters). */
	response?: string;
	tamper?: WebhookTamper;
}

/** What `emitWebhook` takes: parts laid over a sample made from the newest records. */
export type WebhookData = { [K in WebhookKind]: { [F in keyof ChangeData[K]]?: Partial<ChangeData[K][F]> | ChangeData[K][F] } };

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
	/** The current webhook configuration. */
	readonly webhooks: Readonly<WebhookConfig>;
	/** The delivery log (live array; emptied by `reset`). */
	readonly deliveries: WebhookDelivery[];
	/** Changes the webhook configuration (a patch); throws a TypeError on a bad value. */
	configureWebhooks(patch: WebhookConfigInput): Readonly<WebhookConfig>;
	/** Test levers for the signature; returns the options now in force. */
	webhookSignatureOptions(options?: Partial<WebhookSignatureOptions>): WebhookSignatureOptions;
	/**
	 * Sends an event now without changing data. Source defaults to `visitor` (chat) for
	 * conversationCreated and leadCaptured, else `api`. Returns the delivery id, or null when no
	 * receiver is configured or the kind is off.
	 */
	emitWebhook<K extends WebhookKind>(kind: K, data?: WebhookData[K], options?: { source?: EventSource }): string | null;
	/** Resolves when every queued delivery, retries included, has ended. */
	settled(): Promise<void>;
	/** Replaces all data with freshly generated data (ids restart); without options, the startup seed. */
	seed(options?: SeedOptions): void;
	/** Back to the start: initial config, webhook config and seed; no faults, empty logs, queued deliveries dropped. */
	reset(): void;
	close(): Promise<void>;
}

export const API_PREFIX: '/script/include/api';
export const CONTROL_PREFIX: '/_sandbox';
export const PAGINATION_STYLES: readonly PaginationStyle[];
export const ENVELOPES: readonly Envelope[];
export const ERROR_STYLES: readonly ErrorStyle[];
export const FAULT_KINDS: readonly FaultKind[];
export const WEBHOOK_KINDS: readonly WebhookKind[];
export const WEBHOOK_STYLES: readonly WebhookStyle[];
export const WEBHOOK_TAMPERS: readonly WebhookTamper[];
/** Each style's name for each kind. */
export const WEBHOOK_EVENT_NAMES: Readonly<Record<WebhookStyle, Readonly<Record<WebhookKind, string>>>>;
/** Parses the receiver list as the dashboard does; throws a TypeError naming a bad entry. */
export function parseWebhookUrls(text: string | readonly string[]): string[];
/** Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string;
export function startSandbox(options?: SandboxOptions): Promise<Sandbox>;
