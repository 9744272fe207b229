import { testSupportChatApi } from '../transport/credentialTest';
import * as lists from './listSearch';
import * as tags from './tags';

export const listSearch = { ...lists, ...tags };

/** Named by `testedBy` in both nodes' credentials entries. */
export const credentialTest = { supportChatApiTest: testSupportChatApi };
