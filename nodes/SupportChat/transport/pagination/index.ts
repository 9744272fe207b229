export type { ListResult, SupportChatContext } from './loop';
export { fetchPage, paginate } from './loop';
