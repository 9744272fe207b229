import * as lists from './listSearch';
import * as tags from './tags';

export const listSearch = { ...lists, ...tags };
