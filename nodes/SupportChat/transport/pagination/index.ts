export type { ListRequest, ListResult } from './loop';
export { fetchPage, paginate } from './loop';
