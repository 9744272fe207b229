/* eslint-disable -- test and tooling code, never shipped: n8n's node rules (no process, timers or Node imports) do not apply; README › Development › Lint */
import { describeAgentScenarios } from '../support/agentScenario';

// Support Chat Tool under AI Agent 3.1 and 2.2 in n8n 2.41.1: e2e/support/agentScenario.ts.
describeAgentScenarios();
