/**
 * Decodes sync search cursors (the position's schema and scope are in @jobs/contracts,
 * `SearchCursorPositionSchema`, `searchCursorScope`: billing mints them with the same codec).
 */
export const SEARCH_CURSOR_CODEC = Symbol('SEARCH_CURSOR_CODEC');
