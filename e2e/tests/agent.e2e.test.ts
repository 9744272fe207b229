import { describeAgentScenarios } from '../support/agentScenario';

// Support Chat Tool under AI Agent 3.1 and 2.2 in n8n 2.41.1: e2e/support/agentScenario.ts.
describeAgentScenarios();
