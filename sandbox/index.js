// @ts-check
'use strict';

/**
 * The local stand-in of the chat service (spec 000), used by the tests, the benchmark and the demo.
 * See README.md in this folder. Each type is declared once, in JSDoc in the module that owns it
 * (checked by `tsc -p sandbox`); these names re-export the public ones, so that a test can
 * `import type { Sandbox } from '../../sandbox'`.
 *
 * @typedef {import('./sandbox').Sandbox} Sandbox
 * @typedef {import('./sandbox').SandboxOptions} SandboxOptions
 * @typedef {import('./sandbox').SandboxConfig} SandboxConfig
 * @typedef {import('./sandbox').TagShape} TagShape
 * @typedef {import('./sandbox').LoggedRequest} LoggedRequest
 * @typedef {import('./sandbox').Visitor} Visitor
 * @typedef {import('./pagination').PaginationStyle} PaginationStyle
 * @typedef {import('./pagination').HostilePaginationStyle} HostilePaginationStyle
 * @typedef {import('./pagination').Resource} Resource
 * @typedef {import('./envelope').Envelope} Envelope
 * @typedef {import('./errors').ErrorStyle} ErrorStyle
 * @typedef {import('./faults').FaultKind} FaultKind
 * @typedef {import('./faults').FaultSpec} FaultSpec
 * @typedef {import('./faults').QueuedFault} QueuedFault
 * @typedef {import('./store').ConversationStatus} ConversationStatus
 * @typedef {import('./store').SeedOptions} SeedOptions
 * @typedef {import('./store').User} User
 * @typedef {import('./store').Conversation} Conversation
 * @typedef {import('./store').Message} Message
 * @typedef {import('./store').Tag} Tag
 * @typedef {import('./store').SandboxState} SandboxState
 * @typedef {import('./store').EventSource} EventSource
 * @typedef {import('./store').ChangeData} ChangeData
 * @typedef {import('./store').ChangeKind} ChangeKind
 * @typedef {import('./store').ChangeEvent} ChangeEvent
 * @typedef {import('./store').Lead} Lead
 * @typedef {import('./store').VisitorStart} VisitorStart
 * @typedef {import('./store').VisitorStarted} VisitorStarted
 * @typedef {import('./store').LeadInput} LeadInput
 * @typedef {import('./webhooks').WebhookKind} WebhookKind
 * @typedef {import('./webhooks').WebhookStyle} WebhookStyle
 * @typedef {import('./webhooks').WebhookTamper} WebhookTamper
 * @typedef {import('./webhooks').WebhookConfig} WebhookConfig
 * @typedef {import('./webhooks').WebhookConfigInput} WebhookConfigInput
 * @typedef {import('./webhooks').WebhookSignatureOptions} WebhookSignatureOptions
 * @typedef {import('./webhooks').WebhookDelivery} WebhookDelivery
 * @typedef {import('./webhooks').WebhookData} WebhookData
 */
module.exports = { ...require('./sandbox') };
