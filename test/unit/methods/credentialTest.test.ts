import { SupportChatApi } from '../../../credentials/SupportChatApi.credentials';
import { SupportChat } from '../../../nodes/SupportChat/SupportChat.node';
import { SupportChatTrigger } from '../../../nodes/SupportChat/SupportChatTrigger.node';

describe('the credential test', () => {
	// n8n 2.41 (CredentialsTester.getCredentialTestFunction) runs a credential type's own `test` first and
	// never reaches a node's: with one, the function that shows the service's message would be dead code.
	it("is the nodes' function, not a declarative request of the credential type", () => {
		expect(new SupportChatApi()).not.toHaveProperty('test');
		for (const node of [new SupportChat(), new SupportChatTrigger()]) {
			const entry = node.description.credentials?.find(
				(credential) => credential.name === 'supportChatApi',
			);
			expect(entry?.testedBy).toBe('supportChatApiTest');
			expect(typeof node.methods?.credentialTest?.supportChatApiTest).toBe('function');
		}
	});
});
