/**
 * Page-shape detection, as the rest of the node imports it. The spec says the list endpoints "may
 * return their results in pages" and shows nothing else; ./pagination reads the shapes real chat and
 * CRM APIs use (one reader per style) and drives the loop.
 */
export type { PageRequest, PaginationSettings, PaginationStyle } from './pagination/styles';
export { DEFAULT_PAGINATION, PAGINATION_STYLES } from './pagination/styles';
export type { Detected, PagePlan, PageReading } from './pagination/reading';
export { PageShapeError } from './pagination/reading';
