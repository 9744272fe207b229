import { testSupportChatApi } from './credentialTest';
import * as lists from './listSearch';
import * as staff from './listSearch';
import * as tags from './listSearch';

export const listSearch = { ...lists, ...tags, ...staff };

/** Named by `testedBy` in both nodes' credentials entries. */
export const credentialTest = { supportChatApiTest: testSupportChatApi };
