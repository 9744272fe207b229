import { testSupportChatApi } from './credentialTest';
import * as pickers from './listSearch';

export const listSearch = { ...pickers };

/** Named by `testedBy` in both nodes' credentials entries. */
export const credentialTest = { supportChatApiTest: testSupportChatApi };
