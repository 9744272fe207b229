export type { ListResult } from './loop';
export { fetchPage, paginate } from './loop';
